// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure talking to an evdev or uinput device, naming the device node at fault.
///
/// ```
/// /dev/input/event999: cannot open device node: No such file or directory (errno 2)
/// ```
package struct EvdevError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a growable set of codes.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        package var rawValue: String
        /// Creates a code.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// `open(2)` of the device node failed.
        package static let openFailed = Code(rawValue: "openFailed")
        /// The node is not an evdev device, or libevdev could not read its capabilities.
        package static let notEvdev = Code(rawValue: "notEvdev")
        /// `EVIOCSCLOCKID` was refused.
        package static let clockFailed = Code(rawValue: "clockFailed")
        /// `EVIOCGRAB` was refused (usually: another process holds the grab).
        package static let grabFailed = Code(rawValue: "grabFailed")
        /// Reading events failed for a reason other than "no data" or "device gone".
        package static let readFailed = Code(rawValue: "readFailed")
        /// Creating a uinput device failed (no `/dev/uinput`, no permission, bad description).
        package static let uinputFailed = Code(rawValue: "uinputFailed")
        /// Writing an event into a uinput device failed.
        package static let writeFailed = Code(rawValue: "writeFailed")
        /// The handle was already closed.
        package static let closed = Code(rawValue: "closed")

        package var description: String { rawValue }
    }

    /// What went wrong.
    package var code: Code
    /// The device node (`/dev/input/eventN`), or the uinput device's name when it has no node yet.
    package var device: String
    /// What was being done, in words.
    package var message: String
    /// The `errno` reported by the system or libevdev (positive), 0 when none.
    package var errno: Int32

    /// Creates an error.
    package init(_ code: Code, device: String, message: String, errno: Int32 = 0) {
        self.code = code
        self.device = device
        self.message = message
        self.errno = errno
    }

    /// `device: message: strerror (errno N)`.
    package var description: String {
        guard errno != 0 else { return "\(device): \(message)" }
        return "\(device): \(message): \(Self.systemMessage(errno)) (errno \(errno))"
    }

    /// The C library's text for an errno value.
    static func systemMessage(_ errno: Int32) -> String {
        guard let text = strerror(errno) else { return "error \(errno)" }
        return String(cString: text)
    }
}
