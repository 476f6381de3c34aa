// SPDX-License-Identifier: MIT
import Actions
import Foundation
import Testing

@Suite("Actions file")
struct ActionsConfigurationTests {
    func parse(_ yaml: String) throws(ActionsConfigurationError) -> ActionsConfiguration {
        try ActionsConfiguration.parse(yaml: yaml, file: "actions.yaml")
    }

    func error(_ yaml: String) -> ActionsConfigurationError? {
        do { _ = try parse(yaml); return nil } catch { return error }
    }

    @Test("the issue's minimal binding: argv without a shell, fired at the gesture's start")
    func minimal() throws {
        let c = try parse("bindings:\n  - {on: app-switcher, run: [/usr/bin/touch, /tmp/switched]}\n")
        #expect(c.bindings == [ActionBinding(on: "app-switcher", command: .argv(["/usr/bin/touch", "/tmp/switched"]), line: 2)])
        #expect(c.maxConcurrent == 4 && c.maxQueued == 64 && c.timeout == 30)
    }

    @Test("every key: when, every, direction (one or a list), touches, edge, shell, limits")
    func everyKey() throws {
        let c = try parse("""
        maxConcurrent: 2
        maxQueued: 8
        timeout: 5
        bindings:
          - on: volume
            every: 5
            direction: [up]
            shell: "pactl set-sink-volume @DEFAULT_SINK@ +5%"
          - {on: swipe, when: recognized, touches: 4, direction: down, run: [notify-send, four]}
          - {on: home, edge: bottom, when: end, run: [true]}
        """)
        #expect(c.maxConcurrent == 2 && c.maxQueued == 8 && c.timeout == 5)
        #expect(c.bindings[0].when == .changed && c.bindings[0].every == 5 && c.bindings[0].directions == ["up"])
        #expect(c.bindings[0].command == .shell("pactl set-sink-volume @DEFAULT_SINK@ +5%") && c.bindings[0].line == 5)
        #expect(c.bindings[0].command.arguments == ["/bin/sh", "-c", "pactl set-sink-volume @DEFAULT_SINK@ +5%"])
        #expect(c.bindings[1].touches == 4 && c.bindings[1].when == .recognized && c.bindings[1].directions == ["down"])
        #expect(c.bindings[2].edge == "bottom" && c.bindings[2].when == .end && c.bindings[2].line == 10)
        #expect(try parse("").bindings.isEmpty)
    }

    @Test("errors name the file, the line and the key")
    func errors() throws {
        let run = try #require(error("bindings:\n  - on: x\n    run: /usr/bin/touch\n"))
        #expect(run.description.hasPrefix("actions.yaml:3: bindings[0].run: expected a list of strings"), "\(run)")
        let missing = try #require(error("bindings:\n  - {on: x}\n"))
        #expect(missing.line == 2 && missing.path == "bindings[0].run", "\(missing)")
        let noOn = try #require(error("bindings:\n  - {run: [x]}\n"))
        #expect(noOn.path == "bindings[0].on", "\(noOn)")
        let unknown = try #require(error("bindings:\n  - {on: x, run: [y], typo: 1}\n"))
        #expect(unknown.path == "bindings[0].typo" && unknown.message.contains("unknown key"), "\(unknown)")
        let when = try #require(error("bindings:\n  - {on: x, run: [y], when: later}\n"))
        #expect(when.message.contains("'later'") && when.message.contains("start"), "\(when)")
        let both = try #require(error("bindings:\n  - {on: x, run: [y], shell: z}\n"))
        #expect(both.message.contains("either"), "\(both)")
        let every = try #require(error("bindings:\n  - {on: x, run: [y], every: -1}\n"))
        #expect(every.path == "bindings[0].every", "\(every)")
        let everyWhen = try #require(error("bindings:\n  - {on: x, run: [y], every: 5, when: ended}\n"))
        #expect(everyWhen.path == "bindings[0].every", "\(everyWhen)")
        let direction = try #require(error("bindings:\n  - {on: x, run: [y], direction: sideways}\n"))
        #expect(direction.message.contains("sideways"), "\(direction)")
        let top = try #require(error("bindigs: []\n"))
        #expect(top.line == 1 && top.path == "bindigs", "\(top)")
        let yaml = try #require(error("bindings: [\n"))
        #expect(yaml.line == 1 && yaml.message.contains("not valid YAML"), "\(yaml)")
        let concurrent = try #require(error("maxConcurrent: 0\n"))
        #expect(concurrent.path == "maxConcurrent", "\(concurrent)")
        let long = try #require(error("bindings:\n  - {on: \(String(repeating: "n", count: 257)), run: [y]}\n"))
        #expect(long.path == "bindings[0].on" && long.message.contains("256"), "\(long)")
        let emptyProgram = try #require(error("bindings:\n  - {on: x, run: []}\n"))
        #expect(emptyProgram.path == "bindings[0].run", "\(emptyProgram)")
    }

    @Test("the agent asks touchd's gesture stream only for the recognizers its bindings name")
    func gestureSubscription() throws {
        let c = try parse("bindings:\n  - {on: swipe, run: [a]}\n  - {on: home, run: [b]}\n  - {on: swipe, when: end, run: [c]}\n")
        #expect(ActionAgent.gestureRecognizers(for: c) == ["home", "swipe"])
        #expect(ActionAgent.gestureRecognizers(for: ActionsConfiguration()).isEmpty)
    }

    @Test("docs/examples/kiosk-actions.yaml parses")
    func kioskExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let c = try ActionAgent.load(root + "/docs/examples/kiosk-actions.yaml")
        #expect(c.bindings.map(\.on) == ["brightness", "brightness", "app-switcher", "home", "keyboard", "keyboard"])
        #expect(c.bindings[4].directions == ["up"] && c.bindings[5].directions == ["down"])
        #expect(c.bindings[0].every == 4 && c.bindings[2].command.arguments.first == "/bin/sh")
    }
}
