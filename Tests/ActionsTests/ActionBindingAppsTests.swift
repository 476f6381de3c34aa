// SPDX-License-Identifier: MIT
import Actions
import Foundation
import JSON
import Testing
import TouchCore
import Wire

/// Action bindings limited to apps (`apps`, `notApps`, `fullScreen`), decided by the focus the
/// agent follows (`touchctl actions --follow-focus`).
@Suite("Action bindings per app", .timeLimit(.minutes(1)))
struct ActionBindingAppsTests {
    func message(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test("the same shortcut runs the binding over app A, not over app B nor with the focus unknown")
    func perApp() async throws {
        let dir = NSTemporaryDirectory() + "touchd-apps-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let path = dir + "/actions.yaml"
        try """
        bindings:
          - {on: app-switcher, apps: ["org.example.a*"], run: [/bin/sh, -c, "echo a >> \(dir)/ran"]}
          - {on: app-switcher, notApps: ["org.example.a*"], fullScreen: false, run: [/bin/sh, -c, "echo other >> \(dir)/ran"]}
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let record = RunnerRecord()
        let agent = try ActionAgent(path: path, socketPath: dir + "/none.sock", log: { record.log($0) }, ownSession: nil,
                                    finished: { record.finished($0) })
        let swipe = try message(#"{"type":"gesture","time":1,"device":0,"surface":null,"owner":"system","recognizer":"app-switcher","kind":"swipe","state":"recognized","touches":3,"touchType":"direct","location":{"x":1,"y":1},"direction":"right","translation":{"x":90,"y":0},"velocity":{"x":900,"y":0},"system":true}"#)
        await agent.setFocus(FocusReport(appID: "org.example.alpha"))
        await agent.handle(swipe)
        await record.wait(for: 1)
        await agent.setFocus(FocusReport(appID: "org.example.beta", fullScreen: true))
        await agent.handle(swipe)
        #expect(record.logLines.contains { $0.contains("not run over org.example.beta") }, "\(record.logLines)")
        await agent.setFocus(FocusReport.unknown)
        await agent.handle(swipe)
        // One more command ends (the waits count the ends each sees).
        await record.wait(for: 1)
        let lines = try String(contentsOfFile: dir + "/ran", encoding: .utf8).split(separator: "\n")
        #expect(lines == ["a", "other"], "over beta (full-screen) nothing; unknown: only the notApps binding")
    }

    @Test("apps, notApps and fullScreen in an actions file; a malformed glob names the line and key")
    func parsing() throws {
        let c = try ActionsConfiguration.parse(yaml: "bindings:\n  - {on: a, apps: [\"org.*\"], notApps: x, fullScreen: true, run: [x]}\n", file: "actions.yaml")
        #expect(c.bindings[0].condition == AppCondition(apps: ["org.*"], notApps: ["x"], fullScreen: true))
        for (yaml, prefix) in [
            ("bindings:\n  - {on: a,\n     apps: [\"org.[a\"], run: [x]}\n", "actions.yaml:3: bindings[0].apps: 'org.[a' is not a glob"),
            ("bindings:\n  - {on: a, fullScreen: sometimes, run: [x]}\n", "actions.yaml:2: bindings[0].fullScreen: expected true or false"),
            ("bindings:\n  - {on: a, app: [x], run: [x]}\n", "actions.yaml:2: bindings[0].app: unknown key"),
        ] {
            do {
                _ = try ActionsConfiguration.parse(yaml: yaml, file: "actions.yaml")
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.description.hasPrefix(prefix), "\(error.description)")
            }
        }
    }
}
