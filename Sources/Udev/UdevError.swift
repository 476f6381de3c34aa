// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A failure talking to udev, or a malformed udev property, naming the device
/// (node or syspath) or the udev object at fault.
///
/// ```
/// /dev/input/event5: TOUCHD_SIZE_MM="300by200": expected WIDTHxHEIGHT in millimetres, e.g. 293.5x165
/// ```
package struct UdevError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong, as a growable set of codes.
    package struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The code's name.
        package var rawValue: String
        /// Creates a code.
        package init(rawValue: String) { self.rawValue = rawValue }

        /// `udev_new` failed.
        package static let contextFailed = Code(rawValue: "contextFailed")
        /// Scanning `/sys` for input devices failed.
        package static let enumerationFailed = Code(rawValue: "enumerationFailed")
        /// The netlink monitor could not be created or started.
        package static let monitorFailed = Code(rawValue: "monitorFailed")
        /// Receiving from the monitor failed.
        package static let receiveFailed = Code(rawValue: "receiveFailed")
        /// A property's value cannot be parsed.
        package static let badProperty = Code(rawValue: "badProperty")

        package var description: String { rawValue }
    }

    /// What went wrong.
    package var code: Code
    /// The device node or syspath at fault, or the udev object (`netlink:udev`, `input`).
    package var subject: String
    /// What was being done, in words.
    package var message: String
    /// The `errno` reported, 0 when none.
    package var errno: Int32

    /// Creates an error.
    package init(_ code: Code, subject: String, message: String, errno: Int32 = 0) {
        self.code = code
        self.subject = subject
        self.message = message
        self.errno = errno
    }

    /// `subject: message: strerror (errno N)`.
    package var description: String {
        guard errno != 0 else { return "\(subject): \(message)" }
        let text = strerror(errno).map { String(cString: $0) } ?? "error"
        return "\(subject): \(message): \(text) (errno \(errno))"
    }
}
