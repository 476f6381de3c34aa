// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import Trace
@testable import Session

/// Drag sessions of configuration file surfaces, offline (semantics §12): the
/// session answers for them, so a replay shows every decision. The derived
/// hold-then-drag goes from the list (top left) to the map (right); a second
/// finger taps the shelf (bottom left) during the drag.
@Suite struct ReplayDragSessionTests {
    static func recording() throws -> Recording {
        try TouchSessionDragTests.recording()
    }

    /// The configuration text, with the shelf adding `shelfItems`.
    static func yaml(width w: Int, height h: Int, shelfItems: String, proposal: String = "copy", compact: Bool = false) -> String {
        """
        surfaces:
          - id: list
            frame: {x: 0, y: 0, width: \(w / 2), height: \(h / 2)}
            recognizers: [{name: drag, kind: drag}]
            drag:
              offersItems: true
              compact: \(compact)
              items: [{representations: [{type: text/plain, data: Lyon}]}]
          - id: shelf
            frame: {x: 0, y: \(h / 2), width: \(w / 2), height: \(h / 2)}
            recognizers: [{name: tap, kind: tap}]
            drag: {addsItems: true, items: \(shelfItems)}
          - id: map
            frame: {x: \(w / 2), y: 0, width: \(w / 2), height: \(h)}
            drag: {dropTypes: [text/*], proposal: \(proposal)}
        """
    }

    static func screen() throws -> (Int, Int) {
        let session = ReplaySession(recordings: [try recording()]).makeSession()
        let s = session.configuration.screens[0]
        return (s.width, s.height)
    }

    static func run(_ yaml: String) throws -> (records: [DragSessionRecord], gestures: [GestureEvent]) {
        let configuration = try TouchdConfiguration.parse(yaml: yaml, file: "test.yaml")
        var records: [DragSessionRecord] = [], gestures: [GestureEvent] = []
        ReplaySession(recordings: [try recording()], configuration: configuration).run(recordsDebug: false) { out in
            switch out {
            case .drag(let r): records.append(r)
            case .engine(.gesture(let g)): gestures.append(g)
            default: break
            }
        }
        return (records, gestures)
    }

    static func outline(_ records: [DragSessionRecord]) -> [String] {
        records.map { r in
            switch r.kind {
            case .opened: return "opened"
            case .itemsAnswered: return "items:\(r.items)"
            case .addAsked(_, let s, _): return "add-asked:\(s)"
            case .itemsAdded(_, let n): return "added:\(n)"
            case .tapReleased(_, let s, let why): return "tap-released:\(s):\(why)"
            case .entered(_, let s): return "entered:\(s)"
            case .exited(_, let s): return "exited:\(s)"
            case .proposal(_, _, let op): return "proposal:\(op.rawValue)"
            case .dropped(_, let s, let op): return "dropped:\(s):\(op.rawValue)"
            case .ended(let o, let why): return "ended:\(o.rawValue):\(why.rawValue)"
            }
        }
    }

    @Test("§12 configured surfaces: opened, answered, entered, proposal, the tap adds an item (and is no tap), dropped, ended")
    func everyDecision() throws {
        let (w, h) = try Self.screen()
        let run = try Self.run(Self.yaml(width: w, height: h, shelfItems: "[{representations: [{type: text/plain, data: Paris}]}]"))
        let outline = Self.outline(run.records)
        #expect(outline.prefix(2) == ["opened", "items:1"])
        #expect(outline.contains("entered:map") && outline.contains("proposal:copy"))
        #expect(outline.contains("add-asked:shelf") && outline.contains("added:1"))
        #expect(outline.suffix(2) == ["dropped:map:copy", "ended:copy:lifted"])
        #expect(run.records.last?.items == 2)
        #expect(!run.gestures.contains { $0.recognizer == "tap" }, "the tap added an item: no tap")
        #expect(run.records.allSatisfy { r in !"\(r)".contains("Lyon") && !"\(r)".contains("Paris") }, "never the data")
    }

    @Test("§12.5 a configured shelf that adds nothing: the held tap goes on as a tap")
    func tapReleased() throws {
        let (w, h) = try Self.screen()
        let run = try Self.run(Self.yaml(width: w, height: h, shelfItems: "[]"))
        let outline = Self.outline(run.records)
        #expect(outline.contains("tap-released:shelf:no item"))
        #expect(run.gestures.filter { $0.recognizer == "tap" }.count == 1)
        #expect(outline.last == "ended:copy:lifted")
    }

    @Test("§12 a forbidding target: the session ends cancelled, no drop")
    func forbidden() throws {
        let (w, h) = try Self.screen()
        let run = try Self.run(Self.yaml(width: w, height: h, shelfItems: "[]", proposal: "forbidden"))
        let outline = Self.outline(run.records)
        #expect(outline.contains("proposal:forbidden"))
        #expect(!outline.contains { $0.hasPrefix("dropped") })
        #expect(outline.last == "ended:cancelled:lifted")
        #expect(run.records.last.map { "\($0)" }?.hasSuffix("no target took it") == true)
    }

    @Test("§12 a configuration's drag key is checked: a bad proposal is refused, naming it")
    func badDragKey() {
        let bad = "surfaces:\n  - id: map\n    frame: {x: 0, y: 0, width: 10, height: 10}\n    drag: {dropTypes: [text/plain], proposal: steal}\n"
        #expect(throws: ConfigurationError.self) { try TouchdConfiguration.parse(yaml: bad, file: "bad.yaml") }
        do {
            _ = try TouchdConfiguration.parse(yaml: bad, file: "bad.yaml")
        } catch {
            #expect("\(error)".contains("steal"))
        }
    }
}
