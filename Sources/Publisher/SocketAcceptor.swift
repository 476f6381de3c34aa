import Dispatch
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Accepts connections on a listening Unix stream socket, on a thread of its
/// own, and hands each to `accepted`.
///
/// touchd accepts connections itself instead of through NIO's server channel
/// because it needs each connection's descriptor: the publishing thread
/// writes to clients that keep up without going through the event loop
/// (``DirectLane``), and NIO does not expose a channel's descriptor.
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
        var ends: [CInt] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PublisherError("cannot create the acceptor's wake-up pipe", errno: errno) }
        for fd in ends { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let wake = ends[0]
        self.listener = listener
        self.wake = wake
        self.wakeWriter = ends[1]
        let started = DetachedThread.start(name: "touchd-accept") { [listener, wake, done] in
            Self.run(listener: listener, wake: wake, accepted: accepted)
            done.signal()
        }
        guard started == 0 else {
            for fd in ends { close(fd) }
            throw PublisherError("cannot start the acceptor's thread", errno: started)
        }
    }

    private static func run(listener: CInt, wake: CInt, accepted: @Sendable (CInt) -> Void) {
        var fds = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while true {
            fds[0].revents = 0
            fds[1].revents = 0
            let n = poll(&fds, 2, -1)
            if n < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            // Take every pending connection.
            while true {
                // Not accept4 (hidden by Glibc's module): the flags just after.
                // touchd starts no other program, so the moment without
                // close-on-exec does not leak it.
                let fd = accept(listener, nil, nil)
                if fd >= 0 {
                    _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
                    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                    accepted(fd)
                    continue
                }
                switch errno {
                case EINTR, ECONNABORTED, EPROTO:
                    continue
                case EMFILE, ENFILE, ENOBUFS, ENOMEM:
                    // Out of descriptors or memory: the connection stays in the
                    // backlog; try again shortly instead of spinning on it.
                    usleep(50_000)
                default:
                    break  // EAGAIN: drained.
                }
                break
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
        _ = write(wakeWriter, &one, 1)
        done.wait()
        close(wake)
        close(wakeWriter)
        close(listener)
    }

    /// A new listening socket bound to `path` (at most 107 bytes).
    static func listeningSocket(path: String, backlog: CInt) throws(PublisherError) -> CInt {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else {
            throw PublisherError("socket path \(path) is \(bytes.count) bytes long; at most \(capacity - 1) fit in a Unix socket address")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw PublisherError("cannot create a socket for \(path)", errno: errno) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let e = errno
            close(fd)
            throw PublisherError("cannot bind the socket to \(path)", errno: e)
        }
        guard listen(fd, backlog) == 0 else {
            let e = errno
            close(fd)
            throw PublisherError("cannot listen on \(path)", errno: e)
        }
        return fd
    }

    /// Checks that an inherited descriptor is a listening stream socket and
    /// makes it non-blocking.
    static func adopt(descriptor fd: CInt) throws(PublisherError) {
        var type: CInt = 0
        var length = socklen_t(MemoryLayout<CInt>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &length) == 0 else {
            throw PublisherError("descriptor \(fd) is not a socket", errno: errno)
        }
        guard type == Int32(SOCK_STREAM.rawValue) else { throw PublisherError("descriptor \(fd) is not a stream socket") }
        var listening: CInt = 0
        length = socklen_t(MemoryLayout<CInt>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &length) == 0, listening != 0 else {
            throw PublisherError("descriptor \(fd) is not a listening socket")
        }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            throw PublisherError("cannot make descriptor \(fd) non-blocking", errno: errno)
        }
    }
}
