// SPDX-License-Identifier: MIT
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `touchctl actions` against a real touchd replaying a three-finger swipe (issue: the minimal
/// shortcut and binding pair, docs/actions.md).
@Suite("touchctl actions with a real touchd", .serialized)
struct ActionsCommandTests {
    static let swipe = PackagePaths.root + "/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.3-finger-swipe-right.events"

    /// A running `touchctl actions`, stderr in a file.
    final class Agent {
        let process = Process()
        let logPath: String
        init(config: String, socket: String, logPath: String) throws {
            self.logPath = logPath
            _ = FileManager.default.createFile(atPath: logPath, contents: nil)
            process.executableURL = URL(fileURLWithPath: PackagePaths.touchctl)
            process.arguments = ["actions", "--config", config, "--socket", socket]
            process.standardError = FileHandle(forWritingAtPath: logPath)
            process.standardOutput = FileHandle.nullDevice
            try process.run()
        }
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        }
    }

    /// touchd replaying the swipe once on `socket`, as soon as one client subscribes.
    func touchd(config: String, socket: String, log: String) throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: PackagePaths.touchd)
        p.arguments = ["--config", config, "--replay", Self.swipe, "--socket", socket, "--wait-for-subscribers", "1", "--exit-after-replay"]
        _ = FileManager.default.createFile(atPath: log, contents: nil)
        p.standardError = FileHandle(forWritingAtPath: log)
        p.standardOutput = FileHandle.nullDevice
        var env = ProcessInfo.processInfo.environment
        env.removeValue(forKey: "NOTIFY_SOCKET")
        env.removeValue(forKey: "LISTEN_FDS")
        p.environment = env
        try p.run()
        return p
    }

    @Test("the minimal pair: a replayed three-finger swipe runs the bound command, with the event in its environment; a second touchd is reconnected to")
    func minimalPair() throws {
        let dir = TemporaryDirectory()
        let socket = dir.path + "/touchd.sock"
        let touchdConfig = dir.path + "/touchd.yaml"
        let actions = dir.path + "/actions.yaml"
        try """
        shortcuts:
          - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right]}
        """.write(toFile: touchdConfig, atomically: true, encoding: .utf8)
        try """
        bindings:
          - {on: app-switcher, run: [/usr/bin/touch, \(dir.path)/switched]}
          - {on: app-switcher, shell: "env | grep '^TOUCHD_' | grep -v '^TOUCHD_JSON=' | sort > \(dir.path)/env.$$; echo x >> \(dir.path)/count"}
        """.write(toFile: actions, atomically: true, encoding: .utf8)

        // The agent first: touchd is not there yet, and it keeps trying.
        let agent = try Agent(config: actions, socket: socket, logPath: dir.path + "/agent.log")
        try poll("the agent to try the socket") { agent.log.contains("retrying until touchd is there") }

        let first = try touchd(config: touchdConfig, socket: socket, log: dir.path + "/touchd1.log")
        try poll("the bound command's file") { FileManager.default.fileExists(atPath: dir.path + "/switched") }
        try poll("the environment file") { ((try? String(contentsOfFile: dir.path + "/count", encoding: .utf8)) ?? "") == "x\n" }
        let envFile = try #require(try FileManager.default.contentsOfDirectory(atPath: dir.path).first { $0.hasPrefix("env.") })
        let env = try String(contentsOfFile: dir.path + "/" + envFile, encoding: .utf8)
        let lines = Set(env.split(separator: "\n").map(String.init))
        for expected in ["TOUCHD_TYPE=gesture", "TOUCHD_RECOGNIZER=app-switcher", "TOUCHD_OWNER=system", "TOUCHD_KIND=swipe",
                         "TOUCHD_STATE=recognized", "TOUCHD_DIRECTION=right", "TOUCHD_TOUCHES=3", "TOUCHD_SYSTEM=true", "TOUCHD_ON=app-switcher"] {
            #expect(lines.contains(expected), "\(expected) not in \(env)")
        }
        #expect(lines.contains { $0.hasPrefix("TOUCHD_TRANSLATION_MM_X=") })
        try poll("the first touchd to finish", seconds: 30) { !first.isRunning }
        #expect(first.terminationStatus == 0)

        // touchd restarts: the agent reconnects, and the next swipe fires again.
        let second = try touchd(config: touchdConfig, socket: socket, log: dir.path + "/touchd2.log")
        try poll("the second firing", seconds: 60) { ((try? String(contentsOfFile: dir.path + "/count", encoding: .utf8)) ?? "") == "x\nx\n" }
        try poll("the second touchd to finish", seconds: 30) { !second.isRunning }
        #expect(agent.log.contains("app-switcher (actions.yaml:2): exited 0"), "\(agent.log)")

        kill(agent.process.processIdentifier, SIGTERM)
        try poll("the agent to stop", seconds: 20) { !agent.process.isRunning }
        #expect(agent.process.terminationStatus == 0, "\(agent.log)")
    }

    @Test("touchctl actions --check prints the bindings, or the error with file, line and key and status 78")
    func check() throws {
        let dir = TemporaryDirectory()
        let good = dir.path + "/good.yaml", bad = dir.path + "/bad.yaml"
        try "bindings:\n  - {on: home, run: [/usr/bin/true]}\n".write(toFile: good, atomically: true, encoding: .utf8)
        try "bindings:\n  - {on: home, run: /usr/bin/true}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        func run(_ file: String) throws -> (Int32, String) {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: PackagePaths.touchctl)
            p.arguments = ["actions", "--check", "--config", file]
            let pipe = Pipe()
            p.standardOutput = pipe
            p.standardError = pipe
            try p.run()
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            p.waitUntilExit()
            return (p.terminationStatus, String(decoding: data, as: UTF8.self))
        }
        let (okStatus, okText) = try run(good)
        #expect(okStatus == 0 && okText.contains("1 binding") && okText.contains("line 2: on home, start: /usr/bin/true"), "\(okText)")
        let (badStatus, badText) = try run(bad)
        #expect(badStatus == 78 && badText.contains("bad.yaml:2: bindings[0].run: expected a list of strings"), "\(badText)")
    }
}
