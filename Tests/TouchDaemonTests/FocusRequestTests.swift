// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// The `focus` request through a real touchd's socket: a shortcut limited to an app reaches
/// clients while that app is reported, and stops when the reporter disconnects (the focus is
/// forgotten, not kept); a client outside the seat's active session is refused.
@Suite("the focus request with a real touchd", .serialized)
struct FocusRequestTests {
    static let config = """
    shortcuts:
      - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right], apps: ["org.example.a*"]}
    """

    @Test("reported app A: the shortcut reaches clients; the reporter gone: the focus is unknown and it reaches none")
    func forgottenWhenTheReporterGoes() throws {
        let dir = TemporaryDirectory()
        let touchdConfig = dir.path + "/touchd.yaml"
        try Self.config.write(toFile: touchdConfig, atomically: true, encoding: .utf8)
        // Not following logind: a client in no session (this test) may report.
        let touchd = try DaemonProcess(["--config", touchdConfig, "--replay", LockedSessionTests.swipe, "--loop",
                                        "--wait-for-subscribers", "1", "--login-state", "ignore"])
        var reporter: WireSocket? = try WireSocket(path: touchd.socketPath)
        _ = try reporter?.readLine()
        let answer = try reporter?.request(#"{"op":"focus","id":1,"appId":"org.example.alpha","title":"A"}"#, id: 1) ?? []
        #expect(answer.last?.contains("\"type\":\"ack\"") == true, "\(answer)")
        try touchd.waitForLog("focus org.example.alpha")

        let monitorOut = dir.path + "/monitor.jsonl"
        let monitor = try LockedSessionTests.Child(PackagePaths.touchctl, ["monitor", "--json", "--events", "system", "--socket", touchd.socketPath],
                                                   log: dir.path + "/monitor.log", stdout: monitorOut)
        func passes() -> Int { touchd.log.components(separatedBy: "replay pass finished").count - 1 }
        func switcherEvents() -> Int {
            LockedSessionTests.lines(monitorOut).filter { $0.contains("\"recognizer\":\"app-switcher\"") }.count
        }
        func poll(_ what: String, _ condition: () throws -> Bool) throws {
            do {
                try TouchDaemonTests.poll(what, seconds: 30, condition)
            } catch {
                Issue.record("touchd:\n\(touchd.log)\nmonitor:\n\(monitor.log)")
                throw error
            }
        }
        try poll("the shortcut over app A") { switcherEvents() >= 1 }

        reporter = nil  // closes the connection
        try poll("touchd to forget the focus") { touchd.log.contains("focus unknown") }
        let settle = passes()
        try poll("a pass after the focus was forgotten") { passes() >= settle + 1 }
        let (events, from) = (switcherEvents(), passes())
        try poll("three passes with the focus unknown") { passes() >= from + 3 }
        #expect(switcherEvents() == events, "the shortcut limited to app A acted with the focus unknown")
    }

    @Test("a client outside the seat's active session may not report the focus")
    func refusedOutsideTheActiveSession() throws {
        let dir = TemporaryDirectory()
        let logind = try StandInLogind(directory: dir.path)
        try logind.addActiveSession("c1")
        let touchdConfig = dir.path + "/touchd.yaml"
        try Self.config.write(toFile: touchdConfig, atomically: true, encoding: .utf8)
        let touchd = try DaemonProcess(["--config", touchdConfig, "--replay", LockedSessionTests.swipe, "--loop", "--login-state", "follow"],
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address])
        try touchd.waitForLog("session unlocked")
        let client = try WireSocket(path: touchd.socketPath)
        _ = try client.readLine()
        let answer = try client.request(#"{"op":"focus","id":2,"appId":"org.example.alpha"}"#, id: 2)
        let last = try #require(answer.last)
        #expect(last.contains("\"code\":\"not-permitted\"") && last.contains("c1"), "\(answer)")
        #expect(!touchd.log.contains("focus org.example.alpha"))
    }
}
