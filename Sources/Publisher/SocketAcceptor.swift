// SPDX-License-Identifier: MIT
import Dispatch
import Synchronization
import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Accepts connections on a listening Unix stream socket, on a thread of its
/// own, and hands each to `accepted`.
///
/// touchd accepts connections itself instead of through NIO's server channel
/// because it needs each connection's descriptor: each client's one writer
/// (``ClientOutput``) writes to a duplicate of it, and NIO does not expose a
/// channel's descriptor.
final class SocketAcceptor: Sendable {
    /// The listening socket (owned: closed by ``stop()``).
    let listener: CInt
    // A pipe: writing its end wakes the thread's poll.
    private let wake: CInt
    private let wakeWriter: CInt
    private let finished = Mutex<Bool>(false)
    private let done = DispatchSemaphore(value: 0)

    /// Starts accepting on `listener`, which must be bound and listening.
    /// `accepted` gets each new connection's descriptor (non-blocking,
    /// close-on-exec) and owns it from then on.
    init(listener: CInt, accepted: @escaping @Sendable (CInt) -> Void) throws(PublisherError) {
        let ends: (read: CInt, write: CInt)
        do {
            ends = try Syscall.pipe(flags: O_CLOEXEC)
        } catch {
            throw PublisherError("cannot create the acceptor's wake-up pipe", errno: error.errno)
        }
        let wake = ends.read
        self.listener = listener
        self.wake = wake
        self.wakeWriter = ends.write
        do {
            try DetachedThread.start(name: "touchd-accept") { [listener, wake, done] in
                Self.run(listener: listener, wake: wake, accepted: accepted)
                done.signal()
            }
        } catch {
            try? Syscall.close(ends.read)
            try? Syscall.close(ends.write)
            throw PublisherError("cannot start the acceptor's thread", errno: error.errno)
        }
    }

    private static func run(listener: CInt, wake: CInt, accepted: @Sendable (CInt) -> Void) {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            guard (try? fds.withUnsafeMutableBufferPointer({ fds throws(SystemCallError) in
                try Syscall.poll(fds, timeoutMilliseconds: -1)
            })) != nil else { return }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            // Take every pending connection.
            while true {
                let outcome: Syscall.Outcome<CInt>
                do {
                    outcome = try Syscall.accept(listener, flags: Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
                } catch {
                    switch error.errno {
                    case ECONNABORTED, EPROTO:
                        continue
                    case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                        // Out of descriptors or memory: the connection stays in the
                        // backlog; try again shortly instead of spinning on it.
                        try? Syscall.sleep(milliseconds: 50)
                    default:
                        break
                    }
                    break
                }
                guard case let .done(fd) = outcome else { break }  // drained
                accepted(fd)
            }
        }
    }

    /// Stops accepting, waits for the thread to end and closes the listening socket.
    func stop() {
        let first = finished.withLock { f -> Bool in
            defer { f = true }
            return !f
        }
        guard first else { return }
        var one: UInt8 = 1
        _ = withUnsafeBytes(of: &one) { try? Syscall.write(wakeWriter, $0) }
        done.wait()
        try? Syscall.close(wake)
        try? Syscall.close(wakeWriter)
        try? Syscall.close(listener)
    }

    /// A new listening socket bound to `path` (at most 107 bytes).
    static func listeningSocket(path: String, backlog: CInt) throws(PublisherError) -> CInt {
        let capacity = Syscall.unixPathCapacity
        guard path.utf8.count <= capacity else {
            throw PublisherError("socket path \(path) is \(path.utf8.count) bytes long; at most \(capacity) fit in a Unix socket address")
        }
        let fd: CInt
        do {
            fd = try Syscall.socket(
                domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue))
        } catch {
            throw PublisherError("cannot create a socket for \(path)", errno: error.errno)
        }
        do {
            try Syscall.bind(fd, unixPath: path)
        } catch {
            try? Syscall.close(fd)
            throw PublisherError("cannot bind the socket to \(path)", errno: error.errno)
        }
        do {
            try Syscall.listen(fd, backlog: backlog)
        } catch {
            try? Syscall.close(fd)
            throw PublisherError("cannot listen on \(path)", errno: error.errno)
        }
        return fd
    }

    /// Checks that an inherited descriptor is a listening stream socket and
    /// makes it non-blocking.
    static func adopt(descriptor fd: CInt) throws(PublisherError) {
        let type: CInt
        do {
            type = try Syscall.socketOption(fd, level: SOL_SOCKET, SO_TYPE)
        } catch {
            throw PublisherError("descriptor \(fd) is not a socket", errno: error.errno)
        }
        guard type == Int32(SOCK_STREAM.rawValue) else { throw PublisherError("descriptor \(fd) is not a stream socket") }
        guard let listening = try? Syscall.socketOption(fd, level: SOL_SOCKET, SO_ACCEPTCONN), listening != 0 else {
            throw PublisherError("descriptor \(fd) is not a listening socket")
        }
        do {
            try Syscall.setNonBlocking(fd)
        } catch {
            throw PublisherError("cannot make descriptor \(fd) non-blocking", errno: error.errno)
        }
    }
}
