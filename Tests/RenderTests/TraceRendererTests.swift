// SPDX-License-Identifier: MIT
import Foundation
import DrawingStyle
import Gestures
import TouchCore
import Session
import Trace
import Testing

@testable import Render

private let touchscreens = fixtures.appendingPathComponent("real/evemu-devices/touchscreens")
private let tablets = fixtures.appendingPathComponent("real/evemu-devices/tablets")

/// Replays a fixture and renders it; also returns the replay's own output to compare the picture with.
private func render(_ file: URL, config: URL? = nil) throws -> (svg: SVGStructure, text: String, outputs: [ReplayOutput]) {
    let recording = try TraceReader.read(path: file.path)
    let configuration = try config.map { try TouchdConfiguration.load(path: $0.path) } ?? TouchdConfiguration()
    let session = ReplaySession(recordings: [recording], configuration: configuration)
    var outputs: [ReplayOutput] = []
    session.run(recordsDebug: true) { outputs.append($0) }
    let text = TraceRenderer().svg(TraceScene(session: session, title: file.lastPathComponent))
    return (try SVGStructure(text), text, outputs)
}

private func gestures(_ outputs: [ReplayOutput]) -> [GestureEvent] {
    outputs.compactMap { if case .engine(.gesture(let g)) = $0 { return g } else { return nil } }
}

/// Qualified names of the recognizers some touch was in play for, from the debug records.
private func recognizersInPlay(_ outputs: [ReplayOutput]) -> Set<String> {
    var names = Set<String>()
    for o in outputs {
        guard case .engine(.debug(let d)) = o else { continue }
        switch d.kind {
        case .inPlay(_, let list): names.formUnion(list)
        case .transition: if let r = d.recognizer { names.insert(r) }
        default: continue
        }
    }
    return names
}

@Suite struct TraceRendererTests {
    @Test func atmelFourFingerDragHasFourPathsAPanAndALanePerRecognizer() throws {
        let (svg, _, outputs) = try render(touchscreens.appendingPathComponent("Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
        let paths = try svg.elements(class: "touch-path")
        #expect(paths.count == 4)
        #expect(Set(paths.compactMap { $0["data-touch"] }).count == 4)
        #expect(paths.allSatisfy { $0["data-type"] == "direct" && $0["data-end"] == "ended" })
        for path in paths {
            #expect(try SVGStructure.descendants(of: path, class: "began").count == 1)
            #expect(try SVGStructure.descendants(of: path, class: "ended").count == 1)
            let segments = try SVGStructure.descendants(of: path, class: "contact")
            #expect(segments.count == 1)
            #expect(segments.first?["stroke-dasharray"] == nil)
        }
        #expect(try svg.elements(class: "gesture", where: ["data-recognizer": "pan", "data-state": "began"]).count == 1)
        #expect(try svg.elements(class: "gesture", where: ["data-recognizer": "pan", "data-state": "ended"]).count == 1)
        let labels = try svg.elements(class: "gesture-label").compactMap { $0.stringValue }
        #expect(labels.contains { $0.hasPrefix("pan ▶") })
        #expect(labels.contains { $0.hasPrefix("pan ■") })
        let lanes = try svg.elements(class: "lane").compactMap { $0["data-recognizer"] }
        #expect(Set(lanes) == recognizersInPlay(outputs))
        #expect(lanes.contains("screen/pan"))
        let pan = try #require(try svg.elements(class: "lane", where: ["data-recognizer": "screen/pan"]).first)
        let states = try SVGStructure.descendants(of: pan, class: "state").compactMap { $0["data-state"] }
        #expect(states.starts(with: ["possible", "began", "changed"]))
        #expect(states.last == "ended")
    }

    /// Semantics §12: a drag session between configuration surfaces (docs/examples/drag-surfaces.yaml)
    /// is drawn from its decisions: where the target was entered and the items dropped, and its label.
    @Test func aDragSessionIsDrawnWithItsTargetAndEndButNoData() throws {
        let example = fixtures.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("docs/examples/drag-surfaces.yaml")
        let (svg, text, outputs) = try render(fixtures.appendingPathComponent("derived/Atmel maXTouch Touchscreen.hold-then-drag.events"),
                                              config: example)
        let records = outputs.compactMap { if case .drag(let r) = $0 { return r } else { return nil } }
        #expect(records.count == 11)
        let sessions = try svg.elements(class: "drag-session")
        #expect(sessions.count == 1)
        #expect(sessions.first?["data-ended"] == "copy (lifted)")
        #expect(sessions.first?["data-items"] == "2")
        #expect(sessions.first?["data-types"] == "text/plain text/uri-list")
        #expect(try svg.elements(class: "drag-session-mark", where: ["data-event": "entered"]).count == 2)
        #expect(try svg.elements(class: "drag-session-mark", where: ["data-event": "dropped"]).count == 1)
        let label = try #require(try svg.elements(class: "drag-session-label").first?.stringValue)
        #expect(label.hasPrefix("session 1: 2 items (text/plain, text/uri-list) ended copy (lifted)"))
        #expect(!text.contains("Lyon") && !text.contains("Paris") && !text.contains("geo:"))
        #expect(ScreenLayout.sessionLabel(ArraySlice(records.prefix(4))) == "session 1: 1 item (text/plain, text/uri-list) → map: copy")
    }

    @Test func everyGestureEventButChangedIsAnnotated() throws {
        let (svg, _, outputs) = try render(touchscreens.appendingPathComponent("Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
        let expected = gestures(outputs).filter { $0.state != .changed }
        let drawn = try svg.elements(class: "gesture")
        #expect(drawn.count == expected.count)
        #expect(drawn.map { "\($0["data-recognizer"] ?? "") \($0["data-state"] ?? "")" } == expected.map { "\($0.recognizer) \($0.state.rawValue)" })
    }

    @Test func fastTapsHaveNinePathsAndTapAnnotations() throws {
        let (svg, _, outputs) = try render(touchscreens.appendingPathComponent("Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        #expect(try svg.elements(class: "touch-path").count == 9)
        #expect(try svg.elements(class: "touch-span").count == 9)
        let events = gestures(outputs)
        let doubleTaps = try svg.elements(class: "gesture", where: ["data-recognizer": "double-tap", "data-state": "recognized"])
        let taps = try svg.elements(class: "gesture", where: ["data-recognizer": "tap", "data-state": "recognized"])
        #expect(!doubleTaps.isEmpty && !taps.isEmpty)
        #expect(doubleTaps.count == events.filter { $0.recognizer == "double-tap" }.count)
        #expect(taps.count == events.filter { $0.recognizer == "tap" }.count)
        let labels = try svg.elements(class: "gesture-label").compactMap { $0.stringValue }
        #expect(labels.contains { $0.hasPrefix("double-tap ✓ ×2") })
        #expect(labels.contains { $0.hasPrefix("tap ✓") })
        // The tap waits for the double tap: its lane shows the waiting decisions and recognized stretches.
        let tapLane = try #require(try svg.elements(class: "lane", where: ["data-recognizer": "screen/tap"]).first)
        #expect(try !SVGStructure.descendants(of: tapLane, class: "decision").filter { $0["data-decision"] == "waiting" && $0["data-other"] == "screen/double-tap" }.isEmpty)
        #expect(try SVGStructure.descendants(of: tapLane, class: "state").contains { $0["data-state"] == "recognized" })
    }

    @Test func stylusDragHasPressureWidthsAndDashedHover() throws {
        let (svg, _, _) = try render(tablets.appendingPathComponent("Wacom Intuos4 6x9.stylus-drag.events"))
        let paths = try svg.elements(class: "touch-path", where: ["data-type": "stylus"])
        let contact = try #require(paths.first { $0["data-end"] == "ended" })
        let widths = Set(try SVGStructure.descendants(of: contact, class: "contact").compactMap { $0["stroke-width"].flatMap(Double.init) })
        #expect(widths.count >= 3)
        #expect(widths.allSatisfy { $0 >= 0.75 && $0 <= 8 })
        let hover = try paths.flatMap { try SVGStructure.descendants(of: $0, class: "hover") }
        #expect(!hover.isEmpty)
        #expect(hover.allSatisfy { $0["stroke-dasharray"] == RenderStyle.hoverDashes })
        #expect(try !svg.elements(class: "proximity-in").isEmpty)
        #expect(try !svg.elements(class: "proximity-out").isEmpty)
    }

    @Test func edgeSwipesShowTheEdgeZonesAndTheSystemSwipe() throws {
        let synthetic = fixtures.appendingPathComponent("synthetic")
        let (svg, _, _) = try render(synthetic.appendingPathComponent("edge-swipes.touchd"), config: synthetic.appendingPathComponent("edge-swipes.yaml"))
        let zones = try svg.elements(class: "edge-zone")
        #expect(Set(zones.compactMap { $0["data-edge"] }) == ["top", "bottom", "left", "right"])
        // 5 mm at 8 px/mm is 40 screen pixels; the 1920 px screen is drawn 960 px wide.
        let bottom = try #require(zones.first { $0["data-edge"] == "bottom" })
        #expect(bottom["height"] == "20")
        #expect(bottom["y"] == "520")
        #expect(bottom["data-purpose"] == "home")
        let swipe = try svg.elements(class: "gesture", where: ["data-kind": "edge-swipe", "data-state": "began"])
        #expect(swipe.count == 1)
        #expect(swipe.first?["data-recognizer"] == "edge-bottom")
        #expect(swipe.first?["data-system"] == "true")
        #expect(try svg.elements(class: "gesture", where: ["data-kind": "edge-swipe", "data-state": "ended"]).count == 1)
        #expect(try svg.elements(class: "lane", where: ["data-recognizer": "system:edge-bottom"]).count == 1)
        #expect(try svg.elements(class: "surface", where: ["data-surface": "screen"]).count == 1)
    }

    @Test func namesAreEscaped() throws {
        let scene = TraceScene(title: "a <b> & \"c\" \u{7}", devices: ["dev & <co>"],
                               screens: [.init(index: 0, name: "<main>", width: 100, height: 50)],
                               surfaces: [.init(id: "s\"1", owner: "o&o", screen: 0, frame: ScreenRect(x: 0, y: 0, width: 10, height: 10), recognizers: ["<r>"])],
                               start: .zero, end: Timestamp(microseconds: 1000))
        let text = TraceRenderer().svg(scene)
        let svg = try SVGStructure(text)
        #expect(try svg.elements(class: "title").first?.stringValue == "a <b> & \"c\" \u{FFFD}")
        #expect(try svg.elements(class: "surface").first?["data-surface"] == "s\"1")
    }

    @Test func screensKeepTheirAspectAtTheGivenWidth() throws {
        let scene = TraceScene(title: "t", screens: [.init(index: 0, name: "a", width: 1000, height: 800)], start: .zero, end: .zero)
        let svg = try SVGStructure(TraceRenderer(width: 500).svg(scene))
        let outline = try #require(try svg.elements(class: "screen-outline").first)
        #expect(outline["width"] == "500")
        #expect(outline["height"] == "400")
    }
}

@Suite struct RenderDeterminismTests {
    @Test func theSameTraceGivesTheSameBytes() throws {
        let file = touchscreens.appendingPathComponent("Atmel maXTouch Touchscreen.1-finger-fast-taps.events")
        let first = try render(file).text
        let second = try render(file).text
        #expect(first == second)
        #expect(first.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""))
    }
}
