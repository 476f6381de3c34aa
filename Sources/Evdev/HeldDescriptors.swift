// SPDX-License-Identifier: MIT
import CLibevdev
import SystemCalls
import TouchCore

#if canImport(Glibc)
import Glibc  // stat's field constants (S_IFMT, S_IFCHR) only
#elseif canImport(Musl)
import Musl
#endif

/// What a descriptor of an evdev device kept by someone else (systemd's file
/// descriptor store, the pass-through guard) is now.
package enum HeldEvdevDescriptor: Equatable, Sendable {
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
    package static func heldState(of fd: Int32, node: String) -> HeldEvdevDescriptor {
        // EVIOCGVERSION: ENODEV once revoked or unplugged.
        guard Libevdev.readsDevice(fd) else { return .dead }
        guard let held = try? Syscall.status(ofDescriptor: fd), let atNode = try? Syscall.status(of: node),
              (atNode.st_mode & S_IFMT) == S_IFCHR, held.st_rdev == atNode.st_rdev else { return .otherDevice }
        switch Libevdev.probeGrab(fd) {
        case .free: return .notGrabbed
        case .held: return .grabbed
        case .failed: return .dead
        }
    }

    /// Revokes the open file of `fd` for every holder of a duplicate
    /// (`EVIOCREVOKE`): its grab is released and it reads nothing more
    /// (`ENODEV`, `POLLERR`, on which systemd drops a stored descriptor).
    /// False when the kernel refused (the device is gone already).
    @discardableResult
    package static func revoke(ofDescriptor fd: Int32) -> Bool {
        Libevdev.revoke(fd)
    }
}

extension UinputDevice {
    /// Destroys the uinput device created on `fd` (`UI_DEV_DESTROY`) for every
    /// holder of a duplicate of the descriptor: readers see it go away. False
    /// when there was none.
    @discardableResult
    package static func destroy(onDescriptor fd: Int32) -> Bool {
        Libevdev.destroyUinput(descriptor: fd)
    }

    /// Whether `fd` holds a created uinput device (`UI_GET_SYSNAME` answers).
    package static func holdsDevice(_ fd: Int32) -> Bool { Libevdev.uinputSysname(fd) != nil }
}
