// SPDX-License-Identifier: MIT
import Actions
import Foundation
import JSON
import Testing
import Wire

/// Semantics §13 on the agent's side: nothing runs for another user's session or none; while
/// locked, only bindings marked whenLocked.
@Suite("The agent's session gate", .timeLimit(.minutes(1)))
struct SessionGateTests {
    func message(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test("§13 unknown or unsaid: everything runs; own session unlocked: everything; locked: only whenLocked; another session or none: nothing; none outside any session: everything; a greeter: only whenLocked")
    func gate() throws {
        var g = SessionGate(ownSession: "c1")
        #expect(g.allows(whenLocked: false))
        #expect(g.learn(try message(#"{"type":"hello","protocol":1,"devices":[],"screens":[],"session":{"state":"unknown","quiet":false}}"#))?.state == .unknown)
        #expect(g.allows(whenLocked: false))
        _ = g.learn(try message(#"{"type":"session","time":1,"state":"unlocked","session":"c1","quiet":false}"#))
        #expect(g.allows(whenLocked: false) && g.holdReason == nil)
        _ = g.learn(try message(#"{"type":"session","time":2,"state":"locked","session":"c1","quiet":true}"#))
        #expect(!g.allows(whenLocked: false) && g.allows(whenLocked: true))
        _ = g.learn(try message(#"{"type":"session","time":3,"state":"unlocked","session":"c7","quiet":false}"#))
        #expect(!g.allows(whenLocked: false) && !g.allows(whenLocked: true))
        #expect(g.holdReason?.contains("c7") == true)
        _ = g.learn(try message(#"{"type":"session","time":4,"state":"none","quiet":false}"#))
        #expect(!g.allows(whenLocked: true))
        #expect(g.holdReason?.contains("no session") == true)
        _ = g.learn(try message(#"{"type":"session","time":5,"state":"greeter","session":"c1","quiet":true}"#))
        #expect(!g.allows(whenLocked: false) && g.allows(whenLocked: true))
        #expect(g.holdReason?.contains("greeter") == true)
        // Without a session of its own (not started by pam_systemd), only the lock state counts:
        // with no session on the seat (a panel's service) there is nobody to protect.
        var free = SessionGate(ownSession: nil)
        _ = free.learn(try message(#"{"type":"session","time":3,"state":"unlocked","session":"c7","quiet":false}"#))
        #expect(free.allows(whenLocked: false))
        _ = free.learn(try message(#"{"type":"session","time":4,"state":"none","quiet":false}"#))
        #expect(free.allows(whenLocked: false) && free.holdReason == nil)
        _ = free.learn(try message(#"{"type":"session","time":5,"state":"greeter","session":"g1","quiet":true}"#))
        #expect(!free.allows(whenLocked: false) && free.allows(whenLocked: true))
    }

    @Test("§13 a locked session's gesture runs only the whenLocked binding; unlocked, both run")
    func agentRunsOnlyWhenLocked() async throws {
        let dir = NSTemporaryDirectory() + "touchd-gate-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/actions.yaml"
        try """
        bindings:
          - {on: unlock, run: [/bin/sh, -c, "echo plain >> \(dir)/ran"]}
          - {on: unlock, whenLocked: true, run: [/bin/sh, -c, "echo locked >> \(dir)/ran"]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let record = RunnerRecord()
        let agent = try ActionAgent(path: path, socketPath: dir + "/none.sock", log: { record.log($0) }, ownSession: "c1",
                                    finished: { record.finished($0) })
        #expect(await agent.configuration.bindings.map(\.whenLocked) == [false, true])
        let gesture = try message(#"{"type":"gesture","time":1,"device":0,"surface":null,"owner":"system","recognizer":"unlock","kind":"swipe","state":"recognized","touches":4,"touchType":"direct","location":{"x":1,"y":1},"direction":"up","translation":{"x":0,"y":-90},"velocity":{"x":0,"y":-900},"system":true}"#)
        await agent.handle(try message(#"{"type":"session","time":0,"state":"locked","session":"c1","quiet":true}"#))
        await agent.handle(gesture)
        await record.wait(for: 1)
        #expect(try String(contentsOfFile: dir + "/ran", encoding: .utf8) == "locked\n")
        #expect(record.logLines.contains { $0.contains("not run: the session is locked") })
        await agent.handle(try message(#"{"type":"session","time":2,"state":"unlocked","session":"c1","quiet":false}"#))
        await agent.handle(gesture)
        await record.wait(for: 2)
        let lines = try String(contentsOfFile: dir + "/ran", encoding: .utf8).split(separator: "\n").sorted()
        #expect(lines == ["locked", "locked", "plain"])
    }

    @Test("whenLocked in an actions file takes true or false; anything else names the line and key")
    func parsing() throws {
        do {
            _ = try ActionsConfiguration.parse(yaml: "bindings:\n  - {on: a, whenLocked: maybe, run: [x]}\n", file: "actions.yaml")
            Issue.record("accepted whenLocked: maybe")
        } catch {
            #expect(error.description.hasPrefix("actions.yaml:2: bindings[0].whenLocked: expected true or false"), "\(error.description)")
        }
    }
}
