// SPDX-License-Identifier: MIT
import CSystemCalls
import Glibc

extension Syscall {
    /// `socket(2)`: a new socket, e.g. `socket(domain: AF_UNIX, type: SOCK_STREAM | SOCK_CLOEXEC)`.
    package static func socket(domain: Int32, type: Int32, protocol: Int32 = 0) throws(SystemCallError) -> Int32 {
        try valueOrErrno("socket") { Glibc.socket(domain, type, `protocol`) }
    }

    /// `bind(2)` to the Unix socket address `path`. A path longer than a
    /// `sockaddr_un` holds (107 bytes) is `ENAMETOOLONG`.
    package static func bind(_ fd: Int32, unixPath path: String) throws(SystemCallError) {
        try withUnixAddress(path, call: "bind") { address, length throws(SystemCallError) in
            try nothingOrErrno("bind") { Glibc.bind(fd, address, length) }
        }
    }

    /// `connect(2)` to the Unix socket address `path` (`ENAMETOOLONG` as for ``bind(_:unixPath:)``).
    package static func connect(_ fd: Int32, unixPath path: String) throws(SystemCallError) {
        try withUnixAddress(path, call: "connect") { address, length throws(SystemCallError) in
            try nothingOrErrno("connect") { Glibc.connect(fd, address, length) }
        }
    }

    /// The most bytes of a path a Unix socket address holds (its NUL aside).
    package static let unixPathCapacity = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    private static func withUnixAddress(
        _ path: String, call: String,
        _ body: (UnsafePointer<sockaddr>, socklen_t) throws(SystemCallError) -> Void
    ) throws(SystemCallError) {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count <= unixPathCapacity else { throw SystemCallError(call: call, errno: ENAMETOOLONG) }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        try withUnsafePointer(to: &address) { pointer throws(SystemCallError) in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address throws(SystemCallError) in
                try body(address, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
    }

    /// `listen(2)`.
    package static func listen(_ fd: Int32, backlog: Int32) throws(SystemCallError) {
        try nothingOrErrno("listen") { Glibc.listen(fd, backlog) }
    }

    /// `accept4(2)`: the next pending connection's descriptor, with `flags`
    /// (`SOCK_CLOEXEC`, `SOCK_NONBLOCK`) set atomically, or
    /// ``Outcome/wouldBlock`` when a non-blocking listener has none pending.
    package static func accept(_ listener: Int32, flags: Int32) throws(SystemCallError) -> Outcome<Int32> {
        try outcomeOrErrno("accept4") { accept4(listener, nil, nil, flags) }
    }

    /// `getsockopt(2)` of an `int` option (`SO_TYPE`, `SO_ACCEPTCONN`).
    package static func socketOption(_ fd: Int32, level: Int32, _ name: Int32) throws(SystemCallError) -> Int32 {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try nothingOrErrno("getsockopt") { getsockopt(fd, level, name, &value, &length) }
        return value
    }

    /// The process id of a connected Unix socket's peer, as of when it
    /// connected (`SO_PEERCRED`).
    package static func peerProcessID(_ fd: Int32) throws(SystemCallError) -> Int32 {
        // struct ucred of <sys/socket.h>: pid, uid, gid (hidden by Glibc's module without _GNU_SOURCE).
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var length = socklen_t(MemoryLayout<(Int32, UInt32, UInt32)>.size)
        try nothingOrErrno("getsockopt") { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
        return credentials.pid
    }

    /// `send(2)` of `bytes`: the bytes sent (maybe fewer), or
    /// ``Outcome/wouldBlock`` when the socket takes none without waiting.
    @inlinable
    package static func send(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, flags: Int32) throws(SystemCallError) -> Outcome<Int> {
        try outcomeOrErrno("send") { Glibc.send(fd, bytes.baseAddress, bytes.count, flags) }
    }

    /// `sendmsg(2)` of `message`'s buffers: the bytes sent (maybe fewer), or
    /// ``Outcome/wouldBlock`` when the socket takes none without waiting.
    @inlinable
    package static func send(_ fd: Int32, message: UnsafePointer<msghdr>, flags: Int32) throws(SystemCallError) -> Outcome<Int> {
        try outcomeOrErrno("sendmsg") { sendmsg(fd, message, flags) }
    }
}

extension Syscall {
    /// Sends `bytes` as one message with `descriptors` attached (`SCM_RIGHTS`,
    /// at most 8), without blocking: the bytes sent, or -1 with `errno` set.
    package static func send(_ fd: Int32, _ bytes: [UInt8], descriptors: [Int32]) -> Int {
        bytes.withUnsafeBytes { b in
            descriptors.withUnsafeBufferPointer { d in
                touchd_send_with_fds(fd, b.baseAddress, UInt(b.count), d.baseAddress, Int32(d.count))
            }
        }
    }

    /// Receives one message into `buffer` without blocking, with up to
    /// `maxDescriptors` descriptors (close-on-exec): its length (0 at the
    /// end of the stream, -1 with `errno` set, `EAGAIN` when none waits) and the descriptors.
    package static func receive(_ fd: Int32, into buffer: inout [UInt8], maxDescriptors: Int) -> (length: Int, descriptors: [Int32]) {
        var fds = [Int32](repeating: -1, count: max(1, maxDescriptors))
        var count: Int32 = 0
        let n = buffer.withUnsafeMutableBytes { b in
            fds.withUnsafeMutableBufferPointer { f in
                touchd_recv_with_fds(fd, b.baseAddress, UInt(b.count), f.baseAddress, Int32(maxDescriptors), &count)
            }
        }
        return (n, Array(fds.prefix(Int(count))))
    }
}
