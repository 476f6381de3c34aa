// SPDX-License-Identifier: MIT
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

struct DaemonTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Paths of the package: its root (from this file), built binaries, fixtures.
enum PackagePaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// Where touchd and touchctl are: `TOUCHD_BIN_DIR` when set, else beside the
    /// running test bundle when they are there (so a `--build-path .build-asan`
    /// run tests the sanitized daemon), else .build/debug.
    static let binDirectory: String = {
        if let dir = ProcessInfo.processInfo.environment["TOUCHD_BIN_DIR"], !dir.isEmpty { return dir }
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent().path
        if FileManager.default.isExecutableFile(atPath: beside + "/touchd") { return beside }
        return root + "/.build/debug"
    }()
    static var touchd: String { binDirectory + "/touchd" }
    static var touchctl: String { binDirectory + "/touchctl" }
    static func fixture(_ name: String) -> String { root + "/Tests/Fixtures/real/evemu-devices/touchscreens/" + name }
    static let drag1 = fixture("Atmel maXTouch Touchscreen.1-finger-drag-up-down.events")
    static let drag4 = fixture("Atmel maXTouch Touchscreen.4-finger-drag-down.events")
}

/// Waits for a condition by polling (readiness, never a fixed delay); fails after `seconds`.
func poll(_ what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
    let deadline = Date().addingTimeInterval(seconds)
    while try !condition() {
        guard Date() < deadline else { throw DaemonTestFailure("timed out waiting for \(what)") }
        usleep(5_000)
    }
}

/// A temporary directory removed with its content.
final class TemporaryDirectory {
    let path: String
    init() {
        var template = Array("/tmp/touchd-daemon-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// A touchd child process with its stderr in a file.
final class DaemonProcess {
    let process = Process()
    let directory = TemporaryDirectory()
    let socketPath: String
    let logPath: String

    /// Starts `touchd ARGUMENTS --socket <temp>` and waits for the socket file.
    /// A `launcher` (a command that execs the rest, such as `setpriv ...`)
    /// runs touchd under other credentials or limits; the pid stays touchd's.
    init(_ arguments: [String], environment: [String: String] = [:], waitForSocket: Bool = true, launcher: [String] = []) throws {
        socketPath = directory.path + "/touchd.sock"
        logPath = directory.path + "/touchd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: launcher.first ?? PackagePaths.touchd)
        process.arguments = (launcher.isEmpty ? [] : Array(launcher.dropFirst()) + [PackagePaths.touchd]) + arguments + ["--socket", socketPath]
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "LISTEN_FDS")
        env.removeValue(forKey: "JOURNAL_STREAM")
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        if waitForSocket {
            let path = socketPath, p = process
            // A ceiling: the debug touchd starts in seconds, but on a TCG guest sharing two cores with another guest it took over 30 s.
            try poll("the socket \(path)", seconds: 90) {
                guard p.isRunning else { throw DaemonTestFailure("touchd exited with \(p.terminationStatus)") }
                return FileManager.default.fileExists(atPath: path)
            }
        }
    }

    deinit {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    var pid: Int32 { process.processIdentifier }

    /// What touchd logged so far.
    var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }

    func waitForLog(_ text: String) throws {
        try poll("log line '\(text)'") { log.contains(text) }
    }

    func signal(_ s: Int32) { kill(pid, s) }

    /// Waits for the exit and returns the status.
    func waitForExit() throws -> Int32 {
        let p = process
        try poll("touchd to exit", seconds: 30) { !p.isRunning }
        return process.terminationStatus
    }

    /// A client subscribed to gestures that has received one: the daemon is
    /// serving (used as the healthy bystander of hostile-client tests).
    func gestureSubscriber() throws -> WireSocket {
        let healthy = try WireSocket(path: socketPath)
        _ = try healthy.readLine()
        try healthy.request(#"{"op":"subscribe","id":1,"events":["gesture"]}"#, id: 1)
        _ = try healthy.lines { messageType($0) == "gesture" }
        return healthy
    }

    /// Scheduling policy and real-time priority of each of the daemon's
    /// threads by name (/proc/PID/task/TID/stat fields 41 and 40).
    func threadScheduling() -> [String: (policy: Int, priority: Int)] {
        var out: [String: (policy: Int, priority: Int)] = [:]
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        for tid in tasks {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(tid)/stat", encoding: .utf8),
                  let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")") else { continue }
            let name = String(stat[stat.index(after: open)..<close])
            // Fields after the name start at field 3 (state).
            let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
            guard fields.count > 38, let priority = Int(fields[37]), let policy = Int(fields[38]) else { continue }
            out[name] = (policy, priority)
        }
        return out
    }

    /// Open descriptors of the daemon.
    func descriptorCount() -> Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/fd").count) ?? -1
    }
}

/// A blocking Unix socket client reading and writing JSON lines (a receive
/// timeout keeps a broken test from hanging; no assertion depends on time).
final class WireSocket {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw DaemonTestFailure("socket: errno \(errno)") }
        var timeout = timeval(tv_sec: 30, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        // No retry: Publisher.listen renames the socket file into place once it
        // listens, so a refused connection to a file that exists is a fault.
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let e = errno
            close(fd)
            throw DaemonTestFailure("connect \(path): errno \(e)")
        }
    }

    deinit { close(fd) }

    func send(_ text: String) throws {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw DaemonTestFailure("send: errno \(errno)") }
            sent += n
        }
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
            guard n > 0 else { throw DaemonTestFailure("recv: errno \(errno)") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }

    /// The next line as a JSON object.
    func message() throws -> [String: Any] {
        guard let line = try readLine() else { throw DaemonTestFailure("connection closed") }
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw DaemonTestFailure("not a JSON object: \(line)")
        }
        return object
    }

    /// Lines until (and including) the first for which `stop` is true; nil at end of stream stops too.
    func lines(until stop: (String) -> Bool) throws -> [String] {
        var out: [String] = []
        while let line = try readLine() {
            out.append(line)
            if stop(line) { break }
        }
        return out
    }

    /// Sends a request and reads up to its answer (events before it are returned too).
    @discardableResult
    func request(_ json: String, id: Int) throws -> [String] {
        try send(json + "\n")
        return try lines { $0.contains("\"id\":\(id)") && ($0.contains("\"type\":\"ack\"") || $0.contains("\"type\":\"error\"")) }
    }
}

/// The `type` of a JSON line (cheap, for filtering).
func messageType(_ line: String) -> String? {
    guard let r = line.range(of: "\"type\":\"") else { return nil }
    let rest = line[r.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
}
