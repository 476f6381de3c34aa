// SPDX-License-Identifier: MIT
import Glibc

// Every system call touchd makes outside libevdev and libudev goes through
// this target: `EINTR` is retried here, `EAGAIN` becomes
// ``Syscall/Outcome/wouldBlock`` where a caller works with non-blocking
// descriptors, and any other failure becomes a ``SystemCallError`` naming the
// call. Callers deal in Swift values and typed errors only.
//
// Our own wrappers rather than swift-system's `FileDescriptor`: swift-system
// 1.x covers files and pipes but not `poll`, sockets (`accept4`, `sendmsg`,
// `getsockopt`), clocks or scheduling, so half of the calls would still need
// a wrapper of their own and the project would have two idioms for one job;
// its `Errno` does not name the call that failed; and its operations are
// not all inlinable into the input thread's per-frame reads and sends.
// The shape is swift-system's all the same (`Internals/Syscalls.swift`,
// `valueOrErrno`): each wrapper is one `@inlinable` function around one C
// call, with the retry in a generic helper whose non-escaping closure
// inlines away, so a wrapped call costs what the bare call costs: no
// allocation, no closure context.

/// A system call that failed: which one, and its `errno`.
package struct SystemCallError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The C function that failed (`poll`, `send`, `open`).
    package var call: String
    /// Its `errno` (never `EINTR`: interrupted calls are retried).
    package var errno: Int32

    /// Creates an error.
    @inlinable
    package init(call: String, errno: Int32) {
        self.call = call
        self.errno = errno
    }

    /// `call: strerror (errno N)`, e.g. `read: Bad file descriptor (errno 9)`.
    package var description: String {
        let text = strerror(errno).map { String(cString: $0) } ?? "unknown error"
        return "\(call): \(text) (errno \(errno))"
    }
}

/// The system calls touchd makes, one thin function each (see the target's notes above).
package enum Syscall {
    /// What a call on a descriptor that may be non-blocking did.
    @frozen
    package enum Outcome<Value> {
        /// The call completed with this result.
        case done(Value)
        /// `EAGAIN` / `EWOULDBLOCK`: the descriptor is not ready; nothing was transferred.
        case wouldBlock
    }

    /// Runs `body` (a call returning -1 and setting `errno` on failure) until it
    /// is not interrupted, and throws any other failure as `call`'s error.
    @inlinable @inline(__always)
    static func valueOrErrno<Result: FixedWidthInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Result {
        while true {
            let result = body()
            if result != -1 { return result }
            let err = errno
            if err != EINTR { throw SystemCallError(call: call, errno: err) }
        }
    }

    /// ``valueOrErrno(_:_:)`` for a call that returns nothing of interest.
    @inlinable @inline(__always)
    static func nothingOrErrno<Result: FixedWidthInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) {
        _ = try valueOrErrno(call, body)
    }

    /// ``valueOrErrno(_:_:)`` with `EAGAIN` as ``Outcome/wouldBlock``.
    @inlinable @inline(__always)
    static func outcomeOrErrno<Result: FixedWidthInteger>(
        _ call: String, _ body: () -> Result
    ) throws(SystemCallError) -> Outcome<Result> {
        while true {
            let result = body()
            if result != -1 { return .done(result) }
            let err = errno
            if err == EINTR { continue }
            if err == EAGAIN || err == EWOULDBLOCK { return .wouldBlock }
            throw SystemCallError(call: call, errno: err)
        }
    }

    /// Retries `body` while it returns `-EINTR`, for libraries that report
    /// failures as negative errno values (libevdev); returns its last result.
    @inlinable @inline(__always)
    package static func retryingNegatedInterrupt(_ body: () -> Int32) -> Int32 {
        var result: Int32
        repeat { result = body() } while result == -EINTR
        return result
    }
}

extension Syscall.Outcome: Equatable where Value: Equatable {}
extension Syscall.Outcome: Sendable where Value: Sendable {}
