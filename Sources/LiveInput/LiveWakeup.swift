// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

import SystemCalls

/// A self-pipe that interrupts ``LiveDeviceSource/waitAndRead(timeoutMilliseconds:)``
/// from another thread or from a signal handler (``wake()`` only calls `write(2)`,
/// which is async-signal-safe).
///
/// The pipe lives as long as this object; keep it alive while anyone may call ``wake()``.
package final class LiveWakeup: Sendable {
    /// The read end, polled by the source (non-blocking).
    package let readDescriptor: Int32
    /// The write end: writing a byte wakes the poll (non-blocking; a full pipe is already awake).
    package let writeDescriptor: Int32

    /// Creates the pipe.
    ///
    /// - Throws: ``LiveInputError`` when the system cannot create a pipe.
    package init() throws(LiveInputError) {
        let ends: (read: Int32, write: Int32)
        do {
            ends = try Syscall.pipe(flags: O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw LiveInputError(subject: "wakeup pipe", message: "cannot create a pipe", errno: error.errno)
        }
        readDescriptor = ends.read
        writeDescriptor = ends.write
    }

    deinit {
        try? Syscall.close(readDescriptor)
        try? Syscall.close(writeDescriptor)
    }

    /// Makes the current or next poll return with ``LiveInputEvent/woken``. Thread- and signal-safe.
    package func wake() {
        var byte: UInt8 = 1
        _ = withUnsafeBytes(of: &byte) { try? Syscall.write(writeDescriptor, $0) }
    }

    /// Empties the pipe; true when it held at least one byte.
    package func drain() -> Bool {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var woke = false
        while case let .done(n)? = withUnsafeMutableBytes(of: &buffer, { try? Syscall.read(readDescriptor, into: $0) }), n > 0 {
            woke = true
        }
        return woke
    }
}

/// A failure of the live input machinery itself (not of one device), naming what failed.
package struct LiveInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed (`poll`, `wakeup pipe`, `netlink:udev`).
    package var subject: String
    /// What was being done.
    package var message: String
    /// The errno, 0 when none.
    package var errno: Int32

    /// Creates an error.
    package init(subject: String, message: String, errno: Int32 = 0) {
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
