// SPDX-License-Identifier: MIT
/// A libudev context: enumerates input devices and creates monitors.
///
/// Owns its `struct udev`; not thread-safe (use one per thread).
package final class UdevContext {
    let udev: OpaquePointer

    /// Creates a context. Works without a running udev daemon (then devices
    /// have no `ID_INPUT_*` properties and enumeration finds no touch devices).
    package init() throws(UdevError) {
        udev = try Libudev.newContext()
    }

    deinit { Libudev.release(context: udev) }

    /// Every evdev node of the `input` subsystem (`/dev/input/event*`), sorted by syspath.
    package func inputEventDevices() throws(UdevError) -> [UdevDeviceInfo] {
        try Libudev.enumerateInput(udev, sysnamePattern: "event*").sorted().compactMap {
            Libudev.deviceInfo(udev, syspath: $0)
        }
    }

    /// The evdev nodes that are touchscreens, tablets or touchpads, sorted by
    /// syspath; every other input device is left out. Devices marked
    /// `TOUCHD_IGNORE` are included, so callers can say why they skip them.
    package func touchDevices() throws(UdevError) -> [UdevDeviceInfo] {
        try inputEventDevices().filter { $0.touchKind != nil && $0.devnode != nil }
    }

    /// The device at `syspath`, or nil when there is none.
    package func device(syspath: String) -> UdevDeviceInfo? {
        Libudev.deviceInfo(udev, syspath: syspath)
    }
}

/// What happened to a device, as udev reports it.
package enum UdevAction: Hashable, Sendable {
    /// `add`: a device appeared (udev's rules have run).
    case add
    /// `remove`: a device disappeared.
    case remove
    /// `change`: a device's properties changed.
    case change
    /// Any other action (`bind`, `unbind`, `move`, `online`, `offline`), by name.
    case other(String)

    /// Maps udev's action string.
    package init(_ name: String) {
        switch name {
        case "add": self = .add
        case "remove": self = .remove
        case "change": self = .change
        default: self = .other(name)
        }
    }
}

/// One event from a ``UdevMonitor``.
package struct UdevEvent: Hashable, Sendable {
    /// What happened.
    package var action: UdevAction
    /// The device it happened to, with the properties udev sent along.
    package var device: UdevDeviceInfo

    /// Creates an event.
    package init(action: UdevAction, device: UdevDeviceInfo) {
        self.action = action
        self.device = device
    }
}

/// Watches udev's netlink socket for `input` devices coming and going.
///
/// Events arrive after udev has processed the device, so an `add` carries
/// the final `ID_INPUT_*` and `TOUCHD_*` properties. The socket is
/// non-blocking: wait on ``fileDescriptor`` (or ``waitForEvent(timeoutMilliseconds:)``)
/// and call ``receive()`` until it returns nil.
package final class UdevMonitor {
    private let context: UdevContext
    private let monitor: OpaquePointer

    /// Opens the monitor on `context`, filtered to the `input` subsystem.
    package init(context: UdevContext) throws(UdevError) {
        self.context = context
        monitor = try Libudev.newInputMonitor(context.udev)
    }

    deinit { Libudev.release(monitor: monitor) }

    /// The netlink socket, for `poll`/`epoll`.
    package var fileDescriptor: Int32 { Libudev.fileDescriptor(monitor) }

    /// The next pending event, or nil when none is pending.
    package func receive() throws(UdevError) -> UdevEvent? {
        guard let (action, info) = try Libudev.receive(monitor) else { return nil }
        return UdevEvent(action: UdevAction(action), device: info)
    }

    /// Waits until an event is pending or the timeout passes; true when one is pending.
    package func waitForEvent(timeoutMilliseconds: Int32) throws(UdevError) -> Bool {
        try Libudev.waitReadable(fileDescriptor, timeoutMilliseconds: timeoutMilliseconds)
    }
}
