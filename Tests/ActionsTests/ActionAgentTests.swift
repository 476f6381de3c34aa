// SPDX-License-Identifier: MIT
import Actions
import Foundation
import JSON
import Testing

@Suite("The action agent's file")
struct ActionAgentTests {
    @Test("a changed file is reloaded; a bad one is reported with its line and the old bindings stay; a missing one is waited for")
    func reload() async throws {
        let dir = NSTemporaryDirectory() + "touchd-agent-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/actions.yaml"
        let record = RunnerRecord()
        let agent = try ActionAgent(path: path, socketPath: dir + "/none.sock", log: { record.log($0) })
        #expect(await agent.configuration.bindings.isEmpty)
        #expect(record.logLines.contains { $0.contains("not there yet") })

        try "bindings:\n  - {on: a, run: [x]}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await agent.reloadIfChanged())
        #expect(await agent.configuration.bindings.map(\.on) == ["a"])
        #expect(!(await agent.reloadIfChanged()))

        try "bindings:\n  - {on: b, run: [x]}\n  - {on: c, run: nope}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(!(await agent.reloadIfChanged()))
        #expect(await agent.configuration.bindings.map(\.on) == ["a"])
        #expect(record.logLines.contains { $0 == "\(path):3: bindings[1].run: expected a list of strings (the program and its arguments; `shell:` takes a command line), found \"nope\"; keeping the previous bindings" })

        try "bindings:\n  - {on: b, run: [x]}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(await agent.reloadIfChanged())
        #expect(await agent.configuration.bindings.map(\.on) == ["b"])
    }

    @Test("a bad file at start is an error naming file, line and key")
    func badAtStart() throws {
        let dir = NSTemporaryDirectory() + "touchd-agent-bad-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/actions.yaml"
        try "bindings:\n  - {on: a, when: never, run: [x]}\n".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: ActionsConfigurationError.self) { try ActionAgent(path: path, socketPath: "/nonexistent", log: { _ in }) }
        do {
            _ = try ActionAgent(path: path, socketPath: "/nonexistent", log: { _ in })
        } catch {
            #expect(error.line == 2 && error.path == "bindings[0].when")
        }
    }
}
