// SPDX-License-Identifier: MIT
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A private D-Bus daemon standing in for the system bus, with python-dbusmock's logind on it
/// (Debian's dbus-daemon and python3-dbusmock): touchd reaches it through
/// `DBUS_SYSTEM_BUS_ADDRESS`, which sd-bus honours.
final class StandInLogind {
    let address: String
    private let bus = Process()
    private let logind = Process()

    init(directory: String) throws {
        address = "unix:path=\(directory)/system_bus_socket"
        bus.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        bus.arguments = ["--session", "--nofork", "--nopidfile", "--address=\(address)"]
        bus.standardOutput = FileHandle.nullDevice
        bus.standardError = FileHandle.nullDevice
        try bus.run()
        // The bus answers: its socket file appears at bind(), before it listens,
        // and dbusmock connecting in between is refused and gives up.
        let busAddress = address
        try poll("the private bus", seconds: 60) {
            let ping = Process()
            ping.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
            ping.arguments = ["--system", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetId"]
            ping.environment = ["DBUS_SYSTEM_BUS_ADDRESS": busAddress]
            ping.standardOutput = FileHandle.nullDevice
            ping.standardError = FileHandle.nullDevice
            guard (try? ping.run()) != nil else { return false }
            ping.waitUntilExit()
            return ping.terminationStatus == 0
        }
        logind.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        logind.arguments = ["-m", "dbusmock", "--system", "--template", "logind"]
        logind.environment = ["DBUS_SYSTEM_BUS_ADDRESS": address, "PATH": "/usr/bin:/bin"]
        logind.standardOutput = FileHandle.nullDevice
        _ = FileManager.default.createFile(atPath: directory + "/logind.log", contents: nil)
        logind.standardError = FileHandle(forWritingAtPath: directory + "/logind.log")
        try logind.run()
        // python-dbusmock takes seconds to start on a loaded guest.
        try poll("the stand-in logind on the bus", seconds: 90) {
            (try? self.send("/org/freedesktop/login1", "org.freedesktop.login1.Manager.ListSessions")) != nil
        }
    }

    /// Calls a method with `dbus-send` (arguments in its `type:value` form); throws when it fails.
    @discardableResult
    func send(_ path: String, _ method: String, _ arguments: [String] = []) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
        p.arguments = ["--system", "--print-reply", "--dest=org.freedesktop.login1", path, method] + arguments
        p.environment = ["DBUS_SYSTEM_BUS_ADDRESS": address]
        let out = Pipe()
        p.standardOutput = out
        p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard p.terminationStatus == 0 else { throw DaemonTestFailure("dbus-send \(method): \(text)") }
        return text
    }

    /// Adds an active session on seat0 (the mock's AddSession makes it the seat's active one).
    func addActiveSession(_ id: String) throws {
        try send("/org/freedesktop/login1", "org.freedesktop.DBus.Mock.AddSession",
                 ["string:\(id)", "string:seat0", "uint32:1000", "string:kiosk", "boolean:true"])
    }

    /// Sets a session's LockedHint (what a screen locker does through logind); logind signals
    /// PropertiesChanged.
    func setLocked(_ id: String, _ locked: Bool) throws {
        try send("/org/freedesktop/login1/session/\(id)", "org.freedesktop.login1.Session.SetLockedHint", ["boolean:\(locked)"])
    }

    deinit {
        // SIGKILL: children of the test runner may inherit SIGTERM ignored.
        for p in [logind, bus] where p.isRunning {
            kill(p.processIdentifier, SIGKILL)
            p.waitUntilExit()
        }
    }
}

/// Semantics §13 against a real D-Bus daemon and a real touchd: a bound three-finger swipe
/// runs its command while the session is unlocked, runs nothing and reaches no client while it
/// is locked (so no key could be typed for it: keys are typed on that event), and runs again
/// once unlocked, all within one touchd replaying the recording in a loop.
@Suite("the locked session with a stand-in logind", .serialized)
struct LockedSessionTests {
    static let swipe = PackagePaths.root + "/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.3-finger-swipe-right.events"

    final class Child {
        let process = Process()
        let logPath: String
        init(_ path: String, _ arguments: [String], log: String, environment: [String: String] = [:], stdout: String? = nil) throws {
            logPath = log
            _ = FileManager.default.createFile(atPath: log, contents: nil)
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            process.standardError = FileHandle(forWritingAtPath: log)
            if let stdout {
                _ = FileManager.default.createFile(atPath: stdout, contents: nil)
                process.standardOutput = FileHandle(forWritingAtPath: stdout)
            } else {
                process.standardOutput = FileHandle.nullDevice
            }
            var env = ProcessInfo.processInfo.environment
            env.removeValue(forKey: "NOTIFY_SOCKET")
            env.removeValue(forKey: "LISTEN_FDS")
            env.removeValue(forKey: "DBUS_SYSTEM_BUS_ADDRESS")
            for (k, v) in environment { env[k] = v }
            process.environment = env
            try process.run()
        }
        var log: String { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        deinit {
            if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        }
    }

    static func lines(_ path: String) -> [String] {
        ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    @Test("LockedHint true: the bound three-finger swipe runs nothing and no client gets it; false: it runs again")
    func lockedSwipeRunsNothing() throws {
        let dir = TemporaryDirectory()
        let logind = try StandInLogind(directory: dir.path)
        try logind.addActiveSession("c1")

        let socket = dir.path + "/touchd.sock"
        let touchdConfig = dir.path + "/touchd.yaml"
        let actions = dir.path + "/actions.yaml"
        let count = dir.path + "/count"
        try """
        shortcuts:
          - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right]}
        """.write(toFile: touchdConfig, atomically: true, encoding: .utf8)
        try """
        bindings:
          - {on: app-switcher, shell: "echo x >> \(count)"}
        """.write(toFile: actions, atomically: true, encoding: .utf8)

        let touchd = try Child(PackagePaths.touchd, [
            "--config", touchdConfig, "--replay", Self.swipe, "--loop", "--socket", socket,
            "--wait-for-subscribers", "2", "--login-state", "follow",
        ], log: dir.path + "/touchd.log", environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address])
        let agent = try Child(PackagePaths.touchctl, ["actions", "--config", actions, "--socket", socket],
                              log: dir.path + "/agent.log", environment: ["XDG_SESSION_ID": "c1"])
        // The monitor does not retry: it connects once the socket is there.
        try TouchDaemonTests.poll("touchd's socket") { FileManager.default.fileExists(atPath: socket) }
        let monitorOut = dir.path + "/monitor.jsonl"
        let monitor = try Child(PackagePaths.touchctl, ["monitor", "--json", "--events", "system", "--socket", socket],
                                log: dir.path + "/monitor.log", stdout: monitorOut)
        func passes() -> Int { touchd.log.components(separatedBy: "replay pass finished").count - 1 }
        func runs() -> Int { Self.lines(count).count }
        func switcherEvents() -> Int { Self.lines(monitorOut).filter { $0.contains("\"recognizer\":\"app-switcher\"") }.count }
        // What each process said, when a wait fails.
        func poll(_ what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
            do {
                try TouchDaemonTests.poll(what, seconds: seconds, condition)
            } catch {
                Issue.record("touchd:\n\(touchd.log)\nagent:\n\(agent.log)\nmonitor:\n\(Self.lines(monitorOut).suffix(5).joined(separator: "\n"))\n\(monitor.log)")
                throw error
            }
        }

        // Unlocked: the swipe runs its command.
        try poll("touchd to follow the stand-in logind") { touchd.log.contains("session unlocked") }
        try poll("the bound command to run while unlocked", seconds: 30) { runs() >= 1 }
        #expect(agent.log.contains("session: unlocked (c1)"), "\(agent.log)")

        // Locked: nothing, for several passes of the recording.
        try logind.setLocked("c1", true)
        try poll("touchd to see the lock") { touchd.log.contains("session locked") }
        try poll("the agent to hear of the lock") { agent.log.contains("session: locked (c1)") }
        // A pass recognized just before the lock may still be running its command.
        let settle = passes()
        try poll("a pass after the lock", seconds: 30) { passes() >= settle + 1 }
        let (runsLocked, eventsLocked, from) = (runs(), switcherEvents(), passes())
        try poll("three passes while locked", seconds: 30) { passes() >= from + 3 }
        #expect(runs() == runsLocked, "the bound command ran while locked")
        #expect(switcherEvents() == eventsLocked, "a client got the shortcut while locked")
        // The monitor writes what it reads in its own time: wait for the line asserted.
        try poll("the monitor to print the session message") {
            Self.lines(monitorOut).contains { $0.contains("\"type\":\"session\"") && $0.contains("\"state\":\"locked\"") }
        }

        // Unlocked again: it runs again.
        try logind.setLocked("c1", false)
        try poll("touchd to see the unlock") { touchd.log.components(separatedBy: "session unlocked").count >= 3 }
        try poll("the bound command to run again", seconds: 30) { runs() > runsLocked }
        // The agent's command and the monitor's line come from the same event
        // through two processes: the monitor may print it later.
        try poll("the monitor to print the shortcut again") { switcherEvents() > eventsLocked }
    }
}
