// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
@testable import Publisher

/// A blocking Unix socket client for tests, reading and writing lines.
/// A receive timeout keeps a broken test from hanging forever; no assertion depends on time.
final class LineSocket {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String, receiveBufferBytes: Int32? = nil) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBufferBytes {
            setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let e = errno
            close(fd)
            throw TestFailure("connect \(path): errno \(e)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send: errno \(errno)") }
            sent += n
        }
    }

    func send(bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw TestFailure("send: errno \(errno)") }
            sent += n
        }
    }

    /// Shuts down the write side: the server reads end of stream.
    func shutdownWrite() {
        shutdown(fd, Int32(SHUT_WR))
    }

    /// The next line, or nil at end of stream.
    func readLine() throws -> String? {
        while true {
            if let nl = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[..<nl], as: UTF8.self)
                buffer.removeSubrange(...nl)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return nil }
            guard n > 0 else { throw TestFailure("recv: errno \(errno)") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    func expectLine() throws -> String {
        guard let line = try readLine() else { throw TestFailure("connection closed") }
        return line
    }

    /// Sends a request and returns the next line (its answer, when no events are flowing).
    func request(_ text: String) throws -> String {
        try send(text + "\n")
        return try expectLine()
    }
}

/// A fresh temporary directory (removed by the caller with `removeDirectory`).
func makeTemporaryDirectory() -> String {
    var template = Array("/tmp/touchd-test-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
}

func removeDirectory(_ path: String) {
    if let dir = opendir(path) {
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
            if name != "." && name != ".." { unlink(path + "/" + name) }
        }
        closedir(dir)
    }
    rmdir(path)
}

/// Open file descriptors of this process.
func openDescriptorCount() -> Int {
    guard let dir = opendir("/proc/self/fd") else { return -1 }
    defer { closedir(dir) }
    var n = 0
    while readdir(dir) != nil { n += 1 }
    return n
}

/// Runs `body` with a publisher listening on a socket in a temporary directory, then shuts it down.
func withSocketPublisher(
    configuration: PublisherConfiguration = PublisherConfiguration(), delegate: RecordingDelegate = RecordingDelegate(),
    _ body: (Publisher, String, RecordingDelegate) async throws -> Void
) async throws {
    let dir = makeTemporaryDirectory()
    defer { removeDirectory(dir) }
    let path = dir + "/touchd.sock"
    let publisher = try await Publisher.listen(socketPath: path, configuration: configuration, delegate: delegate, hello: { testHello })
    do {
        try await body(publisher, path, delegate)
    } catch {
        await publisher.shutdown()
        throw error
    }
    await publisher.shutdown()
}
