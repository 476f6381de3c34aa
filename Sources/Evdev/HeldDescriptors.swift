// SPDX-License-Identifier: MIT
import CLibevdev
import SystemCalls
import TouchCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// What a descriptor of an evdev device kept by someone else (systemd's file
/// descriptor store, the pass-through guard) is now.
public enum HeldEvdevDescriptor: Equatable, Sendable {
    /// Still the device at the node, and this open file holds its grab.
    case grabbed
    /// Still the device at the node, not grabbed by this open file (the grab
    /// was released; probing took and gave it back at once).
    case notGrabbed
    /// Another device is at the node, or none (unplugged and replaced).
    case otherDevice
    /// The open file no longer reads a device: unplugged, or revoked
    /// (`EVIOCREVOKE`, what the pass-through guard does when touchd is gone).
    case dead
}

extension EvdevDevice {
    /// Says what `fd`, an evdev descriptor opened earlier on `node`, is now
    /// (docs/pass-through.md, "Across a restart"). The grab is probed with
    /// `EVIOCGRAB` 1: EBUSY means a grab is held, which is this open file's as
    /// long as the file was grabbed when it was stored (no other reader can
    /// take a grab that is held); success means it was not, and it is given
    /// back at once.
    public static func heldState(of fd: Int32, node: String) -> HeldEvdevDescriptor {
        var version: CInt = 0
        // EVIOCGVERSION: ENODEV once revoked or unplugged.
        guard withUnsafeMutableBytes(of: &version, { ioctl(fd, Libevdev.eviocgversion, $0.baseAddress!) }) == 0 else { return .dead }
        var held = stat()
        var atNode = stat()
        guard fstat(fd, &held) == 0, stat(node, &atNode) == 0, (atNode.st_mode & S_IFMT) == S_IFCHR,
              held.st_rdev == atNode.st_rdev else { return .otherDevice }
        if ioctl(fd, Libevdev.eviocgrab, 1) == 0 {
            _ = ioctl(fd, Libevdev.eviocgrab, 0)
            return .notGrabbed
        }
        return errno == EBUSY ? .grabbed : .dead
    }

    /// Revokes the open file of `fd` for every holder of a duplicate
    /// (`EVIOCREVOKE`): its grab is released and it reads nothing more
    /// (`ENODEV`, `POLLERR`, on which systemd drops a stored descriptor).
    /// False when the kernel refused (the device is gone already).
    @discardableResult
    public static func revoke(ofDescriptor fd: Int32) -> Bool {
        ioctl(fd, Libevdev.eviocrevoke, 0) == 0
    }
}

extension UinputDevice {
    /// Destroys the uinput device created on `fd` (`UI_DEV_DESTROY`) for every
    /// holder of a duplicate of the descriptor: readers see it go away. False
    /// when there was none.
    @discardableResult
    public static func destroy(onDescriptor fd: Int32) -> Bool {
        Libevdev.destroyUinput(descriptor: fd)
    }

    /// Whether `fd` holds a created uinput device (`UI_GET_SYSNAME` answers).
    public static func holdsDevice(_ fd: Int32) -> Bool { Libevdev.uinputSysname(fd) != nil }
}

extension Libevdev {
    // The ioctl numbers of <linux/input.h> and <linux/uinput.h> (macros Swift does not import).
    /// `EVIOCGVERSION`: `_IOR('E', 0x01, int)`.
    static let eviocgversion: UInt = 0x8004_4501
    /// `EVIOCGRAB`: `_IOW('E', 0x90, int)`.
    static let eviocgrab: UInt = 0x4004_4590
    /// `EVIOCREVOKE`: `_IOW('E', 0x91, int)`.
    static let eviocrevoke: UInt = 0x4004_4591
    /// `UI_DEV_DESTROY`: `_IO('U', 2)`.
    static let uiDevDestroy: UInt = 0x5502

    /// Reads and drops whatever the kernel queued on a non-blocking evdev descriptor.
    static func drain(_ fd: Int32) {
        var buffer = [input_event](repeating: input_event(), count: 64)
        while true {
            let n = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if n > 0 { continue }
            if n < 0 && errno == EINTR { continue }
            return
        }
    }

    /// `UI_DEV_DESTROY` on a uinput descriptor.
    @discardableResult
    static func destroyUinput(descriptor fd: Int32) -> Bool {
        ioctl(fd, uiDevDestroy) == 0
    }

    /// The created device's sysfs name (`inputN`) from `UI_GET_SYSNAME`, nil when the descriptor holds none.
    static func uinputSysname(_ fd: Int32) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        // UI_GET_SYSNAME(len): _IOC(_IOC_READ, 'U', 44, len).
        let request = UInt(2 << 30) | UInt(name.count << 16) | UInt(0x55 << 8) | 44
        let rc = name.withUnsafeMutableBytes { ioctl(fd, request, $0.baseAddress!) }
        guard rc >= 0 else { return nil }
        let s = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return s.isEmpty ? nil : s
    }

    /// The `/dev/input/eventN` node of the input device at `syspath`, nil when none is found.
    static func eventNode(syspath: String) -> String? {
        guard let dir = opendir(syspath) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("event") { return "/dev/input/" + name }
        }
        return nil
    }
}
