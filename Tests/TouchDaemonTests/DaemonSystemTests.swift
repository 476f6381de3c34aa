// SPDX-License-Identifier: MIT
import Foundation
import Testing
import Session
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// touchd as a system service: signals, sd_notify, socket activation.
@Suite(.serialized) struct DaemonSystemTests {
    static func screenWidth(in hello: [String: Any]) -> Int? {
        ((hello["screens"] as? [[String: Any]])?.first?["width"] as? Int)
    }

    @Test func sighupReloadsAGoodFileAndKeepsTheOldConfigurationOnABadOne() throws {
        let dir = TemporaryDirectory()
        let config = dir.path + "/touchd.yaml"
        try "screens:\n  - {name: main, width: 1920, height: 1080}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop"])
        #expect(Self.screenWidth(in: try WireSocket(path: daemon.socketPath).message()) == 1920)

        try "screens:\n  - {name: main, width: 800, height: 480}\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("configuration reloaded")
        #expect(Self.screenWidth(in: try WireSocket(path: daemon.socketPath).message()) == 800)

        try "screens:\n  - {name: main, width: 800, height: 480}\ndevices:\n  - {match: {name: x}, rotation: 45}\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("configuration reload rejected")
        let line = daemon.log.split(separator: "\n").first { $0.contains("configuration reload rejected") }.map(String.init) ?? ""
        #expect(line.hasPrefix("error: "))
        #expect(line.contains(config))
        #expect(line.contains("devices[0].rotation"))
        #expect(Self.screenWidth(in: try WireSocket(path: daemon.socketPath).message()) == 800)
        #expect(daemon.process.isRunning)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    // Issue 9, faults: SIGHUP in a loop while touches are down, alternating two
    // valid files (different screens and device rules: touches are cancelled
    // and devices remapped, semantics §11.5) and an invalid one.
    @Test func reloadStormWhileTouchesAreActiveKeepsStreamsConsistent() throws {
        let dir = TemporaryDirectory()
        let config = dir.path + "/touchd.yaml"
        let files = [
            "screens:\n  - {name: main, width: 1920, height: 1080}\n",
            "screens:\n  - {name: main, width: 800, height: 480}\ndevices:\n  - {match: {name: no such device}, grab: false}\n",
            "screens:\n  - {name: main, width: 800, height: 480}\ndevices:\n  - {match: {name: x}, rotation: 45}\n",
        ]
        try files[0].write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop", "--speed", "4"])
        let client = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try client.readLine() ?? "") == "hello")
        var lines = try client.request(#"{"op":"subscribe","id":1,"events":["touch","gesture"]}"#, id: 1)
        lines += try client.lines { $0.contains(#""phase":"began""#) }
        let descriptorsBefore = daemon.descriptorCount()

        for i in 0..<150 {
            try files[i % 3].write(toFile: config, atomically: true, encoding: .utf8)
            daemon.signal(SIGHUP)
        }
        try files[0].write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try poll("the last reload") { Self.screenWidth(in: try WireSocket(path: daemon.socketPath).message()) == 1920 }
        #expect(daemon.process.isRunning)
        let log = daemon.log
        #expect(log.contains("configuration reloaded") && log.contains("configuration reload rejected"))
        // The connections the poll above opened close on the daemon's side a moment later:
        // wait for that (a leak never settles; 5 s is ample).
        try? poll("descriptors back after the storm", seconds: 5) { daemon.descriptorCount() <= descriptorsBefore + 2 }
        #expect(daemon.descriptorCount() <= descriptorsBefore + 2, "descriptors: \(descriptorsBefore) before the storm, \(daemon.descriptorCount()) after")

        // Gestures still come after the storm; then a clean shutdown.
        lines += try client.lines { $0.contains(#""state":"ended""#) }
        daemon.signal(SIGTERM)
        lines += try client.lines { messageType($0) == "goodbye" }
        #expect(try daemon.waitForExit() == 0)
        #expect(lines.last == #"{"type":"goodbye","reason":"shutdown"}"#)

        // Every touch: began, moved..., then ended or cancelled, exactly once.
        var touchPhases: [Int: [String]] = [:]
        var gestureStates: [String: [String]] = [:]
        for line in lines {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
            switch messageType(line) {
            case "touch":
                if let id = object["id"] as? Int, let phase = object["phase"] as? String { touchPhases[id, default: []].append(phase) }
            case "gesture":
                if let name = object["recognizer"] as? String, let state = object["state"] as? String {
                    gestureStates[name, default: []].append(state)
                }
            default:
                break
            }
        }
        #expect(touchPhases.count > 4)
        // The first touches may have begun before the subscription.
        for (id, phases) in touchPhases where phases.first == "began" {
            let ends = phases.filter { $0 == "ended" || $0 == "cancelled" }
            #expect(ends.count == 1 && (phases.last == "ended" || phases.last == "cancelled"), "touch \(id): \(phases)")
            #expect(phases.dropFirst().dropLast().allSatisfy { $0 == "moved" }, "touch \(id): \(phases)")
        }
        // Every continuous gesture: began, changed..., ended or cancelled; nothing left open.
        for (name, states) in gestureStates {
            var open = false
            for state in states {
                switch state {
                case "began": #expect(!open, "\(name): \(states)"); open = true
                case "changed": #expect(open, "\(name): \(states)")
                case "ended", "cancelled": #expect(open, "\(name): \(states)"); open = false
                default: #expect(!open, "\(name): \(states)")
                }
            }
            #expect(!open, "\(name) left open: \(states.suffix(5))")
        }
    }

    @Test func sigtermSaysGoodbyeRemovesTheSocketAndExitsZero() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop"])
        let a = try WireSocket(path: daemon.socketPath)
        let b = try WireSocket(path: daemon.socketPath)
        _ = try a.readLine()
        _ = try b.readLine()
        try a.request(#"{"op":"subscribe","id":1,"events":["gesture"]}"#, id: 1)
        try b.request(#"{"op":"register","id":1,"surface":{"id":"main","rect":{"x":0,"y":0,"width":100,"height":100}}}"#, id: 1)
        daemon.signal(SIGTERM)
        #expect(try a.lines { messageType($0) == "goodbye" }.last == #"{"type":"goodbye","reason":"shutdown"}"#)
        #expect(try b.lines { messageType($0) == "goodbye" }.last == #"{"type":"goodbye","reason":"shutdown"}"#)
        #expect(try daemon.waitForExit() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.socketPath))
    }

    /// A datagram socket standing in for systemd's notification socket.
    final class NotifySocket {
        let fd: Int32
        let path: String
        init(path: String) throws {
            self.path = path
            fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            var timeout = timeval(tv_sec: 30, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            let bytes = Array(path.utf8)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                raw.copyBytes(from: bytes)
                raw[bytes.count] = 0
            }
            let r = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard r == 0 else { throw DaemonTestFailure("bind \(path): errno \(errno)") }
        }
        deinit { close(fd) }

        func next() throws -> String {
            var buffer = [UInt8](repeating: 0, count: 4096)
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard n > 0 else { throw DaemonTestFailure("no notification: errno \(errno)") }
            return String(decoding: buffer[..<n], as: UTF8.self)
        }

        func next(containing text: String) throws -> String {
            while true {
                let m = try next()
                if m.contains(text) { return m }
            }
        }
    }

    @Test func notifiesReadinessStatusWatchdogAndStopping() throws {
        let dir = TemporaryDirectory()
        let notify = try NotifySocket(path: dir.path + "/notify")
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop"],
                                       environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "200000"])
        let ready = try notify.next(containing: "READY=1")
        #expect(ready == "READY=1\nSTATUS=1 device, 0 clients")
        #expect(try notify.next(containing: "WATCHDOG=1") == "WATCHDOG=1")
        let client = try WireSocket(path: daemon.socketPath)
        _ = try client.readLine()
        #expect(try notify.next(containing: "STATUS=") == "STATUS=1 device, 1 client")
        daemon.signal(SIGTERM)
        // As SIGTERM arrives: stopping is not the watchdog's business any more.
        #expect(try notify.next(containing: "STOPPING") == "STOPPING=1\nSTATUS=stopping (SIGTERM)")
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func servesTheSocketPassedBySocketActivation() throws {
        let dir = TemporaryDirectory()
        let path = dir.path + "/activated.sock"
        let listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        #expect(listen(listener, 16) == 0)

        // sh sets LISTEN_PID to its own pid, which exec keeps for touchd; the socket becomes fd 3.
        let unused = dir.path + "/unused.sock"
        let command = "LISTEN_PID=$$ LISTEN_FDS=1 exec '\(PackagePaths.touchd)' --replay '\(PackagePaths.drag4)' --loop --socket '\(unused)' 2>'\(dir.path)/log'"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, listener, 3)
        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = [strdup("/bin/sh"), strdup("-c"), strdup(command), nil]
        defer { for a in argv { free(a) } }
        let env = ProcessInfo.processInfo.environment.filter { !["NOTIFY_SOCKET", "LISTEN_FDS", "LISTEN_PID"].contains($0.key) }
            .map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for e in env { free(e) } }
        #expect(posix_spawn(&pid, "/bin/sh", &actions, nil, argv, env) == 0)

        let client = try WireSocket(path: path)
        let hello = try client.message()
        #expect(hello["type"] as? String == "hello")
        #expect(!FileManager.default.fileExists(atPath: unused))
        kill(pid, SIGTERM)
        #expect(try client.lines { messageType($0) == "goodbye" }.last == #"{"type":"goodbye","reason":"shutdown"}"#)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        #expect(status == 0)
        // The socket file belongs to the service manager: it stays.
        #expect(FileManager.default.fileExists(atPath: path))
    }
}
