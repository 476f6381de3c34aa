// SPDX-License-Identifier: MIT
import Actions
import JSON
import Testing

@Suite("Which bindings an event fires")
struct ActionMatcherTests {
    func json(_ text: String) throws -> JSONValue { try JSONParser.parse(text) }

    static let hello = #"{"type":"hello","protocol":1,"server":"touchd","devices":[{"id":0,"name":"T","touchType":"direct","touchTypes":["direct"],"slots":10,"size":{"width":240,"height":135,"source":"resolution"},"screen":0}],"screens":[{"id":0,"name":"default","width":1920,"height":1080}]}"#

    func gesture(_ recognizer: String, _ state: String, kind: String = "swipe", extra: String = "") -> String {
        #"{"type":"gesture","time":1.5,"device":0,"surface":null,"owner":"system","recognizer":"\#(recognizer)","kind":"\#(kind)","state":"\#(state)","touches":3,"touchType":"direct","location":{"x":10,"y":20}\#(extra),"system":true}"#
    }

    @Test("a system shortcut's recognized event fires its binding with the event's fields in the environment")
    func firesWithEnvironment() throws {
        let c = try ActionsConfiguration.parse(yaml: "bindings:\n  - {on: app-switcher, run: [/usr/bin/touch, /tmp/switched]}\n  - {on: other, run: [x]}\n", file: "a.yaml")
        var m = ActionMatcher(configuration: c)
        m.learn(try json(Self.hello))
        let f = m.firings(for: try json(gesture("app-switcher", "recognized", extra: #","direction":"right","translation":{"x":160,"y":-8}"#)))
        #expect(f.count == 1 && f[0].binding == 0 && f[0].command == .argv(["/usr/bin/touch", "/tmp/switched"]))
        let env = f[0].environment
        #expect(env["TOUCHD_RECOGNIZER"] == "app-switcher" && env["TOUCHD_STATE"] == "recognized" && env["TOUCHD_KIND"] == "swipe")
        #expect(env["TOUCHD_DIRECTION"] == "right" && env["TOUCHD_TOUCHES"] == "3" && env["TOUCHD_SYSTEM"] == "true")
        #expect(env["TOUCHD_TOUCH_TYPE"] == "direct" && env["TOUCHD_LOCATION_X"] == "10" && env["TOUCHD_TRANSLATION_Y"] == "-8")
        // 1920 px over 240 mm: 8 px/mm.
        #expect(env["TOUCHD_TRANSLATION_MM_X"] == "20" && env["TOUCHD_TRANSLATION_MM_Y"] == "-1")
        #expect(env["TOUCHD_ON"] == "app-switcher" && env["TOUCHD_JSON"]?.contains(#""recognizer":"app-switcher""#) == true)
        #expect(m.firings(for: try json(gesture("nothing", "recognized"))).isEmpty)
    }

    @Test("TOUCHD_JSON is the line as touchd sent it, not the event encoded again")
    func jsonIsTheLineAsSent() throws {
        let c = try ActionsConfiguration.parse(yaml: "bindings:\n  - {on: app-switcher, run: [x]}\n", file: "a.yaml")
        var m = ActionMatcher(configuration: c)
        let line = gesture("app-switcher", "recognized", extra: #","direction":"right""#)
        let f = m.firings(for: try json(line), line: line)
        #expect(f.count == 1 && f[0].environment["TOUCHD_JSON"] == line)
        #expect(try json(line).jsonString != line, "the fixture's keys are not in sorted order, so the test can tell")
    }

    @Test("when: start fires on began or recognized, end on ended or recognized, the others on their state only")
    func moments() throws {
        let c = try ActionsConfiguration.parse(yaml: """
        bindings:
          - {on: g, run: [start]}
          - {on: g, when: end, run: [end]}
          - {on: g, when: began, run: [began]}
          - {on: g, when: changed, run: [changed]}
          - {on: g, when: cancelled, run: [cancelled]}
        """, file: "a.yaml")
        var m = ActionMatcher(configuration: c)
        func fired(_ state: String) throws -> [String] {
            m.firings(for: try json(gesture("g", state, kind: "pan"))).map { $0.command.arguments[0] }
        }
        #expect(try fired("began") == ["start", "began"])
        #expect(try fired("changed") == ["changed"])
        #expect(try fired("ended") == ["end"])
        #expect(try fired("recognized") == ["start", "end"])
        #expect(try fired("cancelled") == ["cancelled"])
    }

    @Test("conditions: touches, edge, direction (a swipe's, or where a pan went); an edge's purpose names it too")
    func conditions() throws {
        let c = try ActionsConfiguration.parse(yaml: """
        bindings:
          - {on: swipe, touches: 4, run: [four]}
          - {on: swipe, direction: [left, right], run: [sideways]}
          - {on: home, edge: bottom, run: [home]}
          - {on: edge-bottom, edge: top, run: [never]}
        """, file: "a.yaml")
        var m = ActionMatcher(configuration: c)
        #expect(m.firings(for: try json(gesture("swipe", "recognized", extra: #","direction":"left""#))).map { $0.command.arguments[0] } == ["sideways"])
        #expect(m.firings(for: try json(gesture("swipe", "recognized", extra: #","direction":"up""#))).isEmpty)
        let edge = gesture("edge-bottom", "began", kind: "edge-swipe", extra: #","edge":"bottom","purpose":"home""#)
        #expect(m.firings(for: try json(edge)).map { $0.command.arguments[0] } == ["home"])
    }

    @Test("every N mm: one firing per whole step of travel while the gesture changes, in the step's direction; a new gesture starts over")
    func everyStep() throws {
        let c = try ActionsConfiguration.parse(yaml: """
        bindings:
          - {on: slide, every: 5, direction: up, run: [louder]}
          - {on: slide, every: 5, direction: down, run: [softer]}
        """, file: "a.yaml")
        var m = ActionMatcher(configuration: c)
        m.learn(try json(Self.hello))   // 8 px/mm
        func at(_ state: String, y: Double) throws -> [String] {
            m.firings(for: try json(gesture("slide", state, kind: "edge-pan", extra: #","translation":{"x":0,"y":\#(y)}"#))).map { $0.command.arguments[0] }
        }
        #expect(try at("began", y: -16) == [])           // 2 mm: the anchor
        #expect(try at("changed", y: -40) == [])         // 3 mm further
        #expect(try at("changed", y: -56) == ["louder"]) // 5 mm
        #expect(try at("changed", y: -136) == ["louder", "louder"]) // 10 mm more
        #expect(try at("changed", y: -96) == ["softer"]) // 5 mm back
        #expect(try at("ended", y: -96) == [])
        #expect(try at("began", y: 0) == [])
        #expect(try at("changed", y: -40) == ["louder"])
        let env = m.firings(for: try json(gesture("slide", "changed", kind: "edge-pan", extra: #","translation":{"x":0,"y":-80}"#)))[0].environment
        #expect(env["TOUCHD_STEP_DIRECTION"] == "up" && env["TOUCHD_STEP_MM"] == "5")
    }

    @Test("without a touchscreen in hello, millimetres use the engine's fallback density (5.6 px/mm)")
    func fallbackDensity() {
        let m = ActionMatcher(configuration: ActionsConfiguration())
        #expect(m.pixelsPerMillimetre(device: 0) == 5.6)
    }
}
