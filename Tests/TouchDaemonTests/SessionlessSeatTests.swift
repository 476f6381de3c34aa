// SPDX-License-Identifier: MIT
import Foundation
import Testing

extension StandInLogind {
    /// Adds seat0 with no session on it (a panel whose app runs from a plain service).
    func addSeat(_ seat: String) throws {
        try send("/org/freedesktop/login1", "org.freedesktop.DBus.Mock.AddSeat", ["string:\(seat)"])
    }

    /// Sets a session's `Class` (`greeter`, `lock-screen`, `user`); logind signals PropertiesChanged.
    func setClass(_ id: String, _ sessionClass: String) throws {
        try send("/org/freedesktop/login1/session/\(id)", "org.freedesktop.DBus.Properties.Set",
                 ["string:org.freedesktop.login1.Session", "string:Class", "variant:string:\(sessionClass)"])
    }
}

/// Semantics §13 for a seat without a user: with no session on seat0 touchd acts (nobody to
/// protect: a panel's app from a plain service), and says so in the journal; a greeter on the
/// seat quiets it as a lock does.
@Suite("a seat without a session, and a greeter, with a stand-in logind", .serialized)
struct SessionlessSeatTests {
    @Test("no session on seat0: the three-finger swipe reaches clients; a greeter session: it reaches none")
    func sessionlessActsGreeterQuiet() throws {
        let dir = TemporaryDirectory()
        let logind = try StandInLogind(directory: dir.path)
        try logind.addSeat("seat0")

        let socket = dir.path + "/touchd.sock"
        let touchdConfig = dir.path + "/touchd.yaml"
        try """
        shortcuts:
          - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right]}
        """.write(toFile: touchdConfig, atomically: true, encoding: .utf8)
        let touchd = try LockedSessionTests.Child(PackagePaths.touchd, [
            "--config", touchdConfig, "--replay", LockedSessionTests.swipe, "--loop", "--socket", socket,
            "--wait-for-subscribers", "1", "--login-state", "follow",
        ], log: dir.path + "/touchd.log", environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address])
        try TouchDaemonTests.poll("touchd's socket") { FileManager.default.fileExists(atPath: socket) }
        let monitorOut = dir.path + "/monitor.jsonl"
        let monitor = try LockedSessionTests.Child(PackagePaths.touchctl, ["monitor", "--json", "--events", "system", "--socket", socket],
                                                   log: dir.path + "/monitor.log", stdout: monitorOut)
        func passes() -> Int { touchd.log.components(separatedBy: "replay pass finished").count - 1 }
        func switcherEvents() -> Int {
            LockedSessionTests.lines(monitorOut).filter { $0.contains("\"recognizer\":\"app-switcher\"") }.count
        }
        func poll(_ what: String, seconds: Double = 30, _ condition: () throws -> Bool) throws {
            do {
                try TouchDaemonTests.poll(what, seconds: seconds, condition)
            } catch {
                Issue.record("touchd:\n\(touchd.log)\nmonitor:\n\(LockedSessionTests.lines(monitorOut).suffix(5).joined(separator: "\n"))\n\(monitor.log)")
                throw error
            }
        }

        // No session: not quiet, and the journal says why.
        try poll("touchd to see the seat without a session") { touchd.log.contains("session none") }
        #expect(touchd.log.contains("no session is on the seat"), "\(touchd.log)")
        try poll("the shortcut to reach the monitor with no session on the seat") { switcherEvents() >= 1 }
        try poll("the monitor to print the session message") {
            LockedSessionTests.lines(monitorOut).contains { $0.contains("\"state\":\"none\"") && $0.contains("\"quiet\":false") }
        }

        // A greeter comes (logind's session class): quiet, as locked.
        try logind.addActiveSession("g1")
        try logind.setClass("g1", "greeter")
        try poll("touchd to see the greeter") { touchd.log.contains("session greeter") }
        #expect(touchd.log.contains("a greeter or lock screen"), "\(touchd.log)")
        // A pass recognized just before the greeter came may still be on its way.
        let settle = passes()
        try poll("a pass after the greeter came") { passes() >= settle + 1 }
        let (eventsQuiet, from) = (switcherEvents(), passes())
        try poll("three passes under the greeter") { passes() >= from + 3 }
        #expect(switcherEvents() == eventsQuiet, "a client got the shortcut under the greeter")
    }
}
