#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A self-pipe that interrupts ``LiveDeviceSource/pumpOnce(timeoutMilliseconds:)``
/// from another thread or from a signal handler (``wake()`` only calls `write(2)`,
/// which is async-signal-safe).
///
/// The pipe lives as long as this object; keep it alive while anyone may call ``wake()``.
public final class LiveWakeup: Sendable {
    /// The read end, polled by the source (non-blocking).
    public let readDescriptor: Int32
    /// The write end: writing a byte wakes the poll (non-blocking; a full pipe is already awake).
    public let writeDescriptor: Int32

    /// Creates the pipe.
    ///
    /// - Throws: ``LiveInputError`` when the system cannot create a pipe.
    public init() throws(LiveInputError) {
        var fds: [Int32] = [-1, -1]
        guard pipe(&fds) == 0 else {
            throw LiveInputError(subject: "wakeup pipe", message: "cannot create a pipe", errno: errno)
        }
        for fd in fds {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = fds[0]
        writeDescriptor = fds[1]
    }

    deinit {
        _ = close(readDescriptor)
        _ = close(writeDescriptor)
    }

    /// Makes the current or next poll return with ``LiveInputEvent/woken``. Thread- and signal-safe.
    public func wake() {
        var byte: UInt8 = 1
        _ = write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe; true when it held at least one byte.
    public func drain() -> Bool {
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        var woke = false
        while withUnsafeMutableBytes(of: &buffer, { read(readDescriptor, $0.baseAddress, $0.count) }) > 0 { woke = true }
        return woke
    }
}

/// A failure of the live input machinery itself (not of one device), naming what failed.
public struct LiveInputError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed (`poll`, `wakeup pipe`, `netlink:udev`).
    public var subject: String
    /// What was being done.
    public var message: String
    /// The errno, 0 when none.
    public var errno: Int32

    /// Creates an error.
    public init(subject: String, message: String, errno: Int32 = 0) {
        self.subject = subject
        self.message = message
        self.errno = errno
    }

    /// `subject: message: strerror (errno N)`.
    public var description: String {
        guard errno != 0 else { return "\(subject): \(message)" }
        let text = strerror(errno).map { String(cString: $0) } ?? "error"
        return "\(subject): \(message): \(text) (errno \(errno))"
    }
}
