// SPDX-License-Identifier: MIT
import CLibudev
import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Every call into libudev (and the poll(2) around its monitor socket) lives in
// this file: EINTR is retried here and NULL/negative errno results become
// UdevError here, so the rest of the target deals in Swift types only.

enum Libudev {
    // MARK: Context

    /// `udev_new`.
    static func newContext() throws(UdevError) -> OpaquePointer {
        errno = 0
        guard let udev = udev_new() else {
            throw UdevError(.contextFailed, subject: "udev", message: "udev_new failed", errno: errno)
        }
        return udev
    }

    /// `udev_unref`.
    static func release(context: OpaquePointer) {
        _ = udev_unref(context)
    }

    // MARK: Devices

    /// The syspaths of the `input` subsystem devices whose sysname matches `sysnamePattern` (a glob).
    static func enumerateInput(_ udev: OpaquePointer, sysnamePattern: String) throws(UdevError) -> [String] {
        guard let enumerate = udev_enumerate_new(udev) else {
            throw UdevError(.enumerationFailed, subject: "input", message: "udev_enumerate_new failed", errno: errno)
        }
        defer { _ = udev_enumerate_unref(enumerate) }
        var rc = udev_enumerate_add_match_subsystem(enumerate, "input")
        if rc >= 0 { rc = udev_enumerate_add_match_sysname(enumerate, sysnamePattern) }
        if rc >= 0 { rc = udev_enumerate_scan_devices(enumerate) }
        guard rc >= 0 else {
            throw UdevError(.enumerationFailed, subject: "input", message: "cannot scan input devices", errno: -rc)
        }
        var syspaths: [String] = []
        var entry = udev_enumerate_get_list_entry(enumerate)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) { syspaths.append(String(cString: name)) }
            entry = udev_list_entry_get_next(current)
        }
        return syspaths
    }

    /// `udev_device_new_from_syspath`, read into a ``UdevDeviceInfo``; nil when the device vanished meanwhile.
    static func deviceInfo(_ udev: OpaquePointer, syspath: String) -> UdevDeviceInfo? {
        guard let device = udev_device_new_from_syspath(udev, syspath) else { return nil }
        defer { _ = udev_device_unref(device) }
        return info(device)
    }

    /// Reads a `udev_device` (not taking ownership).
    static func info(_ device: OpaquePointer) -> UdevDeviceInfo {
        var properties: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current) {
                properties[String(cString: name)] = udev_list_entry_get_value(current).map { String(cString: $0) } ?? ""
            }
            entry = udev_list_entry_get_next(current)
        }
        return UdevDeviceInfo(
            syspath: string(udev_device_get_syspath(device)) ?? "",
            devnode: string(udev_device_get_devnode(device)),
            sysname: string(udev_device_get_sysname(device)) ?? "",
            isInitialized: udev_device_get_is_initialized(device) > 0,
            properties: properties
        )
    }

    // MARK: Monitor

    /// `udev_monitor_new_from_netlink(udev, "udev")` filtered to the `input`
    /// subsystem, receiving enabled.
    static func newInputMonitor(_ udev: OpaquePointer) throws(UdevError) -> OpaquePointer {
        errno = 0
        guard let monitor = udev_monitor_new_from_netlink(udev, "udev") else {
            throw UdevError(.monitorFailed, subject: "netlink:udev", message: "cannot open the udev monitor", errno: errno)
        }
        var rc = udev_monitor_filter_add_match_subsystem_devtype(monitor, "input", nil)
        if rc >= 0 { rc = udev_monitor_enable_receiving(monitor) }
        guard rc >= 0 else {
            _ = udev_monitor_unref(monitor)
            throw UdevError(.monitorFailed, subject: "netlink:udev", message: "cannot start the input monitor", errno: -rc)
        }
        return monitor
    }

    /// `udev_monitor_unref`.
    static func release(monitor: OpaquePointer) {
        _ = udev_monitor_unref(monitor)
    }

    /// `udev_monitor_get_fd`.
    static func fileDescriptor(_ monitor: OpaquePointer) -> Int32 {
        udev_monitor_get_fd(monitor)
    }

    /// `udev_monitor_receive_device`: the next pending device event, nil when none is pending.
    static func receive(_ monitor: OpaquePointer) throws(UdevError) -> (action: String, info: UdevDeviceInfo)? {
        while true {
            errno = 0
            guard let device = udev_monitor_receive_device(monitor) else {
                let err = errno
                if err == EINTR { continue }
                // NULL with EAGAIN (or no errno, for a message libudev filtered out) means nothing to report.
                if err == 0 || err == EAGAIN || err == EWOULDBLOCK { return nil }
                throw UdevError(.receiveFailed, subject: "netlink:udev", message: "cannot receive a device event", errno: err)
            }
            defer { _ = udev_device_unref(device) }
            return (string(udev_device_get_action(device)) ?? "", info(device))
        }
    }

    /// `poll(2)` for readability of `fd`; false when `timeoutMilliseconds` passed first.
    static func waitReadable(_ fd: Int32, timeoutMilliseconds: Int32) throws(UdevError) -> Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        do {
            return try Syscall.poll(&pfd, timeoutMilliseconds: timeoutMilliseconds) > 0
        } catch {
            throw UdevError(.receiveFailed, subject: "netlink:udev", message: "cannot wait for device events", errno: error.errno)
        }
    }

    private static func string(_ text: UnsafePointer<CChar>?) -> String? {
        text.map { String(cString: $0) }
    }
}
