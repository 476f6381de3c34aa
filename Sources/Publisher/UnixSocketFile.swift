// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

import SystemCalls

/// Why the publisher could not start listening.
package struct PublisherError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed, naming the path or descriptor at fault.
    package var message: String
    /// The `errno` value, when a system call failed.
    package var errno: Int32?

    /// Creates an error.
    package init(_ message: String, errno: Int32? = nil) {
        self.message = message
        self.errno = errno
    }

    package var description: String {
        guard let errno else { return message }
        return "\(message): \(String(cString: strerror(errno)))"
    }
}

/// The socket file's preparation and permissions.
enum UnixSocketFile {
    /// Checks the parent directory exists and removes a stale socket file
    /// (one nobody listens on). A live socket or a non-socket file is an error.
    static func prepare(path: String) throws(PublisherError) {
        let parent = parentDirectory(of: path)
        let directory: stat
        do {
            directory = try Syscall.status(of: parent)
        } catch {
            throw PublisherError("socket directory \(parent) is not usable", errno: error.errno)
        }
        guard directory.st_mode & S_IFMT == S_IFDIR else { throw PublisherError("\(parent) is not a directory") }
        let file: stat
        do {
            file = try Syscall.status(of: path, followingLinks: false)
        } catch {
            if error.errno == ENOENT { return }
            throw PublisherError("cannot inspect \(path)", errno: error.errno)
        }
        guard file.st_mode & S_IFMT == S_IFSOCK else { throw PublisherError("\(path) exists and is not a socket; not replacing it") }
        if isListening(path) { throw PublisherError("another server is listening on \(path)") }
        do {
            try Syscall.unlink(path)
        } catch {
            throw PublisherError("cannot remove the stale socket \(path)", errno: error.errno)
        }
    }

    /// Sets the socket file's mode and, when given, its group.
    static func applyPermissions(path: String, mode: UInt32, group: UInt32?) throws(PublisherError) {
        do {
            try Syscall.chmod(path, mode: mode_t(mode))
        } catch {
            throw PublisherError("cannot chmod \(path)", errno: error.errno)
        }
        if let group {
            do {
                try Syscall.chown(path, group: gid_t(group))
            } catch {
                throw PublisherError("cannot give \(path) to group \(group)", errno: error.errno)
            }
        }
    }

    /// Removes the socket file (on shutdown).
    static func remove(path: String) {
        try? Syscall.unlink(path)
    }

    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// Whether a connect to the socket succeeds (someone is listening).
    static func isListening(_ path: String) -> Bool {
        guard let fd = try? Syscall.socket(domain: AF_UNIX, type: Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)) else {
            return false
        }
        defer { try? Syscall.close(fd) }
        return (try? Syscall.connect(fd, unixPath: path)) != nil
    }
}
