// SPDX-License-Identifier: MIT
import Actions
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The on-screen keyboard recipe (docs/actions.md, "An on-screen keyboard"): the example files'
/// bindings run as the agent runs them, against stand-ins for wvkbd (a process named
/// wvkbd-mobintl recording the signals it gets) and squeekboard (python-dbusmock serving
/// sm.puri.OSK0 on a private session bus, logging the calls).
// The limit guards against a hang; a loaded machine takes seconds to start python-dbusmock.
@Suite("On-screen keyboard recipe", .serialized, .timeLimit(.minutes(3)))
struct OnScreenKeyboardRecipeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    final class Scratch {
        let path = NSTemporaryDirectory() + "touchd-osk-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        var children: [Process] = []
        init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
        func start(_ argv: [String], environment: [String: String] = [:]) throws {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: argv[0])
            p.arguments = Array(argv.dropFirst())
            p.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            try p.run()
            children.append(p)
        }
        func read(_ name: String) -> String { (try? String(contentsOfFile: path + "/" + name, encoding: .utf8)) ?? "" }
        deinit {
            // SIGKILL: children of the test runner may inherit SIGTERM ignored.
            for p in children where p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
            try? FileManager.default.removeItem(atPath: path)
        }
    }

    /// Polls `condition` for up to 60 s (a loaded machine is slow to start the stand-ins).
    func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw RecipeFailure(description: "timed out waiting for \(what)") }
            try await Task.sleep(for: .milliseconds(10))
        }
    }

    struct RecipeFailure: Error, CustomStringConvertible { var description: String }

    /// Runs the bindings `on` with `direction` as the agent would (its runner), one after the other.
    func run(_ configuration: ActionsConfiguration, _ picks: [(on: String, direction: String)], environment: [String: String] = [:]) async throws {
        let record = RunnerRecord()
        let runner = CommandRunner(configuration: configuration, log: { record.log($0) }, finished: { record.finished($0) })
        for pick in picks {
            let i = try #require(configuration.bindings.firstIndex { $0.on == pick.on && $0.directions == [pick.direction] })
            await runner.submit(ActionFiring(binding: i, command: configuration.bindings[i].command, environment: environment), label: pick.on)
            await record.wait(for: 1)
        }
        #expect(record.logLines.filter { $0.contains("exited 0") }.count == picks.count, "\(record.logLines)")
    }

    @Test("kiosk-actions.yaml: three fingers up sends wvkbd SIGUSR2 (show), down SIGUSR1 (hide)")
    func wvkbd() async throws {
        let scratch = try Scratch()
        let standIn = scratch.path + "/wvkbd-mobintl"
        // A script's process is named after the script: pkill -x wvkbd-mobintl finds it.
        try """
        #!/usr/bin/python3
        import signal, sys
        names = {signal.SIGUSR1: "USR1", signal.SIGUSR2: "USR2", signal.SIGRTMIN: "RTMIN"}
        signal.pthread_sigmask(signal.SIG_BLOCK, names.keys())
        def note(text):
            with open(sys.argv[1], "a") as f:
                f.write(text + "\\n")
        note("ready")
        while True:
            note(names[signal.sigwait(names.keys())])
        """.write(toFile: standIn, atomically: true, encoding: .utf8)
        chmod(standIn, 0o755)
        try scratch.start([standIn, scratch.path + "/signals"])
        try await waitUntil("the stand-in wvkbd") { scratch.read("signals") == "ready\n" }

        let c = try ActionAgent.load(Self.root + "/docs/examples/kiosk-actions.yaml")
        try await run(c, [("keyboard", "up"), ("keyboard", "down")])
        try await waitUntil("two signals") { scratch.read("signals").split(separator: "\n").count == 3 }
        #expect(scratch.read("signals") == "ready\nUSR2\nUSR1\n")
    }

    @Test("osk-squeekboard-actions.yaml: up calls sm.puri.OSK0.SetVisible(true), down SetVisible(false), on the session bus")
    func squeekboard() async throws {
        let scratch = try Scratch()
        let address = "unix:path=\(scratch.path)/bus"
        try scratch.start(["/usr/bin/dbus-daemon", "--session", "--nofork", "--nopidfile", "--address=\(address)"])
        let env = ["DBUS_SESSION_BUS_ADDRESS": address]
        func send(_ args: [String], to destination: String? = "sm.puri.OSK0") -> Int32 {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
            p.arguments = ["--session", "--print-reply"] + (destination.map { ["--dest=\($0)", "/sm/puri/OSK0"] } ?? []) + args
            p.environment = env
            p.standardOutput = FileHandle.nullDevice
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { return -1 }
            p.waitUntilExit()
            return p.terminationStatus
        }
        // The bus answers (its socket file appears at bind(), before it listens:
        // a client connecting then is refused, and dbusmock would give up).
        try await waitUntil("the private bus") {
            send(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetId"], to: nil) == 0
        }
        try scratch.start(["/usr/bin/python3", "-m", "dbusmock", "--session", "-l", scratch.path + "/calls",
                           "sm.puri.OSK0", "/sm/puri/OSK0", "sm.puri.OSK0"], environment: env)
        // SetVisible(b), as squeekboard serves it (its sm.puri.OSK0 interface description).
        try await waitUntil("the stand-in squeekboard") {
            send(["org.freedesktop.DBus.Mock.AddMethod", "string:sm.puri.OSK0", "string:SetVisible", "string:b", "string:", "string:"]) == 0
        }
        let c = try ActionAgent.load(Self.root + "/docs/examples/osk-squeekboard-actions.yaml")
        #expect(c.bindings.map(\.on) == ["keyboard", "keyboard", "keyboard-toggle"])
        try await run(c, [("keyboard", "up"), ("keyboard", "down")], environment: env)
        let calls = scratch.read("calls").split(separator: "\n").filter { $0.contains("SetVisible") }.map { String($0.split(separator: " ", maxSplits: 1).last ?? "") }
        #expect(calls == ["SetVisible True", "SetVisible False"], "\(scratch.read("calls"))")
    }
}
