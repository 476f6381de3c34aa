// SPDX-License-Identifier: MIT
import Dispatch
import Glibc
import Synchronization
import Testing
@testable import SystemCalls

/// errno as ``SystemCallError``, EAGAIN as ``Syscall/Outcome/wouldBlock``, short writes.
@Suite struct SyscallTests {
    // MARK: errno

    @Test func aReadOfAClosedDescriptorIsEBADFNamingRead() throws {
        let pipe = try Syscall.pipe()
        try Syscall.close(pipe.write)
        try Syscall.close(pipe.read)
        var byte: UInt8 = 0
        let error = #expect(throws: SystemCallError.self) {
            _ = try withUnsafeMutableBytes(of: &byte) { try Syscall.read(pipe.read, into: $0) }
        }
        #expect(error == SystemCallError(call: "read", errno: EBADF))
        #expect(error?.description == "read: Bad file descriptor (errno 9)")
    }

    @Test func closingTwiceIsEBADFNamingClose() throws {
        let pipe = try Syscall.pipe()
        try Syscall.close(pipe.write)
        try Syscall.close(pipe.read)
        #expect(throws: SystemCallError(call: "close", errno: EBADF)) { try Syscall.close(pipe.read) }
    }

    @Test func openingAMissingFileIsENOENTNamingOpen() {
        #expect(throws: SystemCallError(call: "open", errno: ENOENT)) {
            _ = try Syscall.open("/nonexistent/touchd", O_RDONLY)
        }
    }

    @Test func aUnixPathTooLongForTheAddressIsENAMETOOLONG() throws {
        let fd = try Syscall.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        defer { try? Syscall.close(fd) }
        let path = "/tmp/" + String(repeating: "x", count: Syscall.unixPathCapacity)
        #expect(throws: SystemCallError(call: "bind", errno: ENAMETOOLONG)) { try Syscall.bind(fd, unixPath: path) }
    }

    // MARK: would block

    @Test func anEmptyNonBlockingPipeWouldBlock() throws {
        let pipe = try Syscall.pipe(flags: O_CLOEXEC | O_NONBLOCK)
        defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
        var buffer = [UInt8](repeating: 0, count: 8)
        #expect(try buffer.withUnsafeMutableBytes { try Syscall.read(pipe.read, into: $0) } == .wouldBlock)
        try Syscall.writeAll(pipe.write, [1, 2, 3])
        #expect(try buffer.withUnsafeMutableBytes { try Syscall.read(pipe.read, into: $0) } == .done(3))
        #expect(buffer.prefix(3) == [1, 2, 3])
    }

    @Test func aListenerWithNothingPendingWouldBlock() throws {
        let path = "/tmp/touchd-syscalls-\(getpid()).sock"
        try? Syscall.unlink(path)
        let listener = try Syscall.socket(
            domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
        defer { try? Syscall.close(listener); try? Syscall.unlink(path) }
        try Syscall.bind(listener, unixPath: path)
        try Syscall.listen(listener, backlog: 4)
        #expect(try Syscall.socketOption(listener, level: SOL_SOCKET, SO_ACCEPTCONN) == 1)
        let flags = Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        #expect(try Syscall.accept(listener, flags: flags) == .wouldBlock)

        let client = try Syscall.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        defer { try? Syscall.close(client) }
        try Syscall.connect(client, unixPath: path)
        guard case let .done(accepted) = try Syscall.accept(listener, flags: flags) else {
            Issue.record("the pending connection was not accepted")
            return
        }
        defer { try? Syscall.close(accepted) }
        // accept4's flags arrived with the descriptor.
        #expect(fcntl(accepted, F_GETFL) & O_NONBLOCK != 0)
        #expect(fcntl(accepted, F_GETFD) & FD_CLOEXEC != 0)
    }

    // MARK: short writes

    /// A non-blocking socket pair with small buffers: a large send is short, then would block.
    @Test func aFullSocketTakesPartThenWouldBlock() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { try? Syscall.close(pair[0]); try? Syscall.close(pair[1]) }
        let bytes = [UInt8](repeating: 7, count: 4 << 20)
        let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        let first = try bytes.withUnsafeBytes { try Syscall.send(pair[0], $0, flags: flags) }
        guard case let .done(sent) = first else {
            Issue.record("an empty socket took nothing: \(first)")
            return
        }
        #expect(sent > 0 && sent < bytes.count)
        #expect(try bytes.withUnsafeBytes { try Syscall.send(pair[0], $0, flags: flags) } == .wouldBlock)
    }

    @Test func sendmsgSendsEveryBufferInOrder() throws {
        var pair: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0)
        defer { try? Syscall.close(pair[0]); try? Syscall.close(pair[1]) }
        var a: [UInt8] = [1, 2]
        var b: [UInt8] = [3, 4, 5]
        let outcome = try a.withUnsafeMutableBytes { a in
            try b.withUnsafeMutableBytes { b in
                var iov = [iovec(iov_base: a.baseAddress, iov_len: a.count), iovec(iov_base: b.baseAddress, iov_len: b.count)]
                return try iov.withUnsafeMutableBufferPointer { iov in
                    var message = msghdr()
                    message.msg_iov = iov.baseAddress
                    message.msg_iovlen = iov.count
                    return try Syscall.send(pair[0], message: &message, flags: Int32(MSG_NOSIGNAL))
                }
            }
        }
        #expect(outcome == .done(5))
        var received = [UInt8](repeating: 0, count: 8)
        #expect(try received.withUnsafeMutableBytes { try Syscall.read(pair[1], into: $0) } == .done(5))
        #expect(received.prefix(5) == [1, 2, 3, 4, 5])
    }

    /// A pipe holds 64 KiB: writing 1 MiB takes many short writes, which
    /// ``Syscall/writeAll(_:_:)-(_,UnsafeRawBufferPointer)`` continues while a reader drains it.
    @Test func writeAllContinuesAfterShortWrites() throws {
        let pipe = try Syscall.pipe()
        defer { try? Syscall.close(pipe.read) }
        let bytes = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let received = Shared<[UInt8]>([])
        let done = DispatchSemaphore(value: 0)
        try DetachedThread.start(name: "drain") {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while case let .done(n)? = buffer.withUnsafeMutableBytes({ try? Syscall.read(pipe.read, into: $0) }), n > 0 {
                received.mutex.withLock { $0 += buffer[..<n] }
            }
            done.signal()
        }
        try Syscall.writeAll(pipe.write, bytes)
        try Syscall.close(pipe.write)
        done.wait()
        #expect(received.value == bytes)
    }

    @Test func writeAllToAFullNonBlockingPipeIsEAGAINNamingWrite() throws {
        let pipe = try Syscall.pipe(flags: O_CLOEXEC | O_NONBLOCK)
        defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
        let bytes = [UInt8](repeating: 1, count: 1 << 20)
        #expect(throws: SystemCallError(call: "write", errno: EAGAIN)) { try Syscall.writeAll(pipe.write, bytes) }
        // The first write was short rather than refused.
        var held = 0
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while case let .done(n) = try buffer.withUnsafeMutableBytes({ try Syscall.read(pipe.read, into: $0) }), n > 0 { held += n }
        #expect(held > 0 && held < bytes.count)
    }

    // MARK: time

    @Test func sleepingUntilAPassedTimeReturnsAtOnce() throws {
        let start = Syscall.monotonicNanoseconds()
        try Syscall.sleep(until: timespec(tv_sec: 0, tv_nsec: 0))
        #expect(Syscall.monotonicNanoseconds() - start < 100_000_000)
    }

    @Test func anInvalidSleepIsEINVALNamingClockNanosleep() {
        #expect(throws: SystemCallError(call: "clock_nanosleep", errno: EINVAL)) {
            try Syscall.sleep(until: timespec(tv_sec: 0, tv_nsec: 2_000_000_000))
        }
    }

    @Test func pollWithoutWaitingReportsReadiness() throws {
        let pipe = try Syscall.pipe()
        defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
        var fd = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
        #expect(try Syscall.poll(&fd, timeoutMilliseconds: 0) == 0)
        try Syscall.writeAll(pipe.write, [1])
        #expect(try Syscall.poll(&fd, timeoutMilliseconds: 0) == 1)
        #expect(fd.revents & Int16(POLLIN) != 0)
    }
}
