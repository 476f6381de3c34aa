#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why the publisher could not start listening.
public struct PublisherError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, naming the path or descriptor at fault.
    public var message: String
    /// The `errno` value, when a system call failed.
    public var errno: Int32?

    /// Creates an error.
    public init(_ message: String, errno: Int32? = nil) {
        self.message = message
        self.errno = errno
    }

    public var description: String {
        guard let errno else { return message }
        return "\(message): \(String(cString: strerror(errno)))"
    }
}

/// The socket file's preparation and permissions. All system calls of this
/// target go through here.
enum UnixSocketFile {
    /// Checks the parent directory exists and removes a stale socket file
    /// (one nobody listens on). A live socket or a non-socket file is an error.
    static func prepare(path: String) throws(PublisherError) {
        let parent = parentDirectory(of: path)
        var st = stat()
        guard stat(parent, &st) == 0 else { throw PublisherError("socket directory \(parent) is not usable", errno: errno) }
        guard st.st_mode & S_IFMT == S_IFDIR else { throw PublisherError("\(parent) is not a directory") }
        guard lstat(path, &st) == 0 else {
            if errno == ENOENT { return }
            throw PublisherError("cannot inspect \(path)", errno: errno)
        }
        guard st.st_mode & S_IFMT == S_IFSOCK else { throw PublisherError("\(path) exists and is not a socket; not replacing it") }
        if isListening(path) { throw PublisherError("another server is listening on \(path)") }
        guard unlink(path) == 0 else { throw PublisherError("cannot remove the stale socket \(path)", errno: errno) }
    }

    /// Sets the socket file's mode and, when given, its group.
    static func applyPermissions(path: String, mode: UInt32, group: UInt32?) throws(PublisherError) {
        guard chmod(path, mode_t(mode)) == 0 else { throw PublisherError("cannot chmod \(path)", errno: errno) }
        if let group {
            guard chown(path, uid_t.max, gid_t(group)) == 0 else { throw PublisherError("cannot give \(path) to group \(group)", errno: errno) }
        }
    }

    /// Removes the socket file (on shutdown).
    static func remove(path: String) {
        _ = unlink(path)
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Whether a connect to the socket succeeds (someone is listening).
    static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}
