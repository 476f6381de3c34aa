// SPDX-License-Identifier: MIT
import CSystemCalls

import Glibc

extension Syscall {
    // MARK: Descriptors

    /// `open(2)`: a new descriptor for `path` (`O_CREAT` uses `mode`).
    @inlinable
    package static func open(_ path: String, _ flags: Int32, mode: mode_t = 0) throws(SystemCallError) -> Int32 {
        try valueOrErrno("open") { Glibc.open(path, flags, mode) }
    }

    /// `close(2)`. Not retried on `EINTR`: Linux has released the descriptor by then,
    /// and a retry could close one another thread has just been given.
    @inlinable
    package static func close(_ fd: Int32) throws(SystemCallError) {
        guard Glibc.close(fd) == -1 else { return }
        let err = errno
        if err == EINTR { return }
        throw SystemCallError(call: "close", errno: err)
    }

    /// `pipe2(2)`: a pipe whose ends get `flags` (`O_CLOEXEC`, `O_NONBLOCK`) atomically.
    package static func pipe(flags: Int32 = O_CLOEXEC) throws(SystemCallError) -> (read: Int32, write: Int32) {
        var ends: (Int32, Int32) = (-1, -1)
        try withUnsafeMutableBytes(of: &ends) { raw throws(SystemCallError) in
            try nothingOrErrno("pipe2") { pipe2(raw.baseAddress!.assumingMemoryBound(to: Int32.self), flags) }
        }
        return (ends.0, ends.1)
    }

    /// `fcntl(F_DUPFD_CLOEXEC)`: a close-on-exec duplicate of `fd`.
    @inlinable
    package static func duplicate(_ fd: Int32) throws(SystemCallError) -> Int32 {
        try valueOrErrno("fcntl(F_DUPFD_CLOEXEC)") { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
    }

    /// `fcntl(F_GETFL)` then `fcntl(F_SETFL)` adding `O_NONBLOCK`.
    package static func setNonBlocking(_ fd: Int32) throws(SystemCallError) {
        let flags = try valueOrErrno("fcntl(F_GETFL)") { fcntl(fd, F_GETFL) }
        guard flags & O_NONBLOCK == 0 else { return }
        try nothingOrErrno("fcntl(F_SETFL)") { fcntl(fd, F_SETFL, flags | O_NONBLOCK) }
    }

    // MARK: Reading and writing

    /// `read(2)` into `buffer`: the bytes read (0 at end of file), or
    /// ``Outcome/wouldBlock`` when a non-blocking descriptor has nothing.
    @inlinable
    package static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(SystemCallError) -> Outcome<Int> {
        try outcomeOrErrno("read") { Glibc.read(fd, buffer.baseAddress, buffer.count) }
    }

    /// `write(2)` of `bytes`: the bytes written (maybe fewer than given), or
    /// ``Outcome/wouldBlock`` when a non-blocking descriptor takes none.
    @inlinable
    package static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) -> Outcome<Int> {
        try outcomeOrErrno("write") { Glibc.write(fd, bytes.baseAddress, bytes.count) }
    }

    /// `write(2)` until every byte of `bytes` is written (a short write
    /// continues where it stopped). For blocking descriptors: `EAGAIN` is an
    /// error here, with the bytes before it written.
    @inlinable
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(SystemCallError) {
        guard let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let n = try valueOrErrno("write") { Glibc.write(fd, base + offset, bytes.count - offset) }
            // No file touchd writes returns 0 for a non-empty write; if one
            // did, retrying would spin forever.
            guard n > 0 else { throw SystemCallError(call: "write", errno: EIO) }
            offset += n
        }
    }

    /// ``writeAll(_:_:)-(_,UnsafeRawBufferPointer)`` of an array's bytes.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(SystemCallError) {
        // Array's withUnsafeBytes rethrows untyped: the error is carried out by hand.
        var failure: SystemCallError?
        bytes.withUnsafeBytes { raw in
            do throws(SystemCallError) { try writeAll(fd, raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    // MARK: Files

    /// `stat(2)`, or `lstat(2)` when `followingLinks` is false (the link itself).
    package static func status(of path: String, followingLinks: Bool = true) throws(SystemCallError) -> stat {
        var st = stat()
        if followingLinks {
            try nothingOrErrno("stat") { stat(path, &st) }
        } else {
            try nothingOrErrno("lstat") { lstat(path, &st) }
        }
        return st
    }

    /// `fstat(2)`: the status of the file `fd` is open on.
    package static func status(ofDescriptor fd: Int32) throws(SystemCallError) -> stat {
        var st = stat()
        try nothingOrErrno("fstat") { fstat(fd, &st) }
        return st
    }

    /// `mkdir(2)`; a directory already there is not an error.
    package static func makeDirectory(_ path: String, mode: mode_t = 0o755) throws(SystemCallError) {
        do {
            try nothingOrErrno("mkdir") { mkdir(path, mode) }
        } catch where error.errno == EEXIST {
            return
        }
    }

    /// `getenv(3)`: the variable's value, nil when it is not set.
    package static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// `getpid(2)`.
    package static func processID() -> Int32 { getpid() }

    /// `access(2)`: throws unless the calling process may access `path` as `mode`
    /// says (`R_OK`, `W_OK`, `X_OK`, `F_OK`), checked with its real user and group.
    package static func access(_ path: String, _ mode: Int32) throws(SystemCallError) {
        try nothingOrErrno("access") { Glibc.access(path, mode) }
    }

    /// `unlink(2)`.
    package static func unlink(_ path: String) throws(SystemCallError) {
        try nothingOrErrno("unlink") { Glibc.unlink(path) }
    }

    /// `rename(2)`: `from` replaces `to` atomically.
    package static func rename(_ from: String, to: String) throws(SystemCallError) {
        try nothingOrErrno("rename") { Glibc.rename(from, to) }
    }

    /// `chmod(2)`.
    package static func chmod(_ path: String, mode: mode_t) throws(SystemCallError) {
        try nothingOrErrno("chmod") { Glibc.chmod(path, mode) }
    }

    /// `chown(2)` of the group only (the owner is left as it is).
    package static func chown(_ path: String, group: gid_t) throws(SystemCallError) {
        try nothingOrErrno("chown") { Glibc.chown(path, uid_t.max, group) }
    }
}

extension Syscall {
    /// The names in directory `path` (`opendir(3)`, `readdir(3)`), `.` and
    /// `..` left out; nil when it cannot be opened.
    package static func directoryEntries(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// `memfd_create(2)` with `MFD_CLOEXEC`: an anonymous file in memory.
    package static func memoryFile(name: String) throws(SystemCallError) -> Int32 {
        try valueOrErrno("memfd_create") { memfd_create(name, 1 /* MFD_CLOEXEC */) }
    }
}

extension Syscall {
    /// `lseek(2)` to the start of the file.
    package static func rewind(_ fd: Int32) throws(SystemCallError) {
        try nothingOrErrno("lseek") { lseek(fd, 0, SEEK_SET) }
    }
}
