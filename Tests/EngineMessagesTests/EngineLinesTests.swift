// SPDX-License-Identifier: MIT
import EngineMessages
import Gestures
import Testing
import TouchCore
import Wire

/// The engine's outputs as the lines clients get: each field where docs/protocol.md puts it.
@Suite struct EngineLinesTests {
    @Test func aTouchIsItsTouchLine() {
        let t = Touch(
            id: TouchID(7), device: DeviceID(0), phase: .moved, type: .stylus, tool: .eraser,
            time: Timestamp(seconds: 3, microseconds: 250), location: Point(x: 10.123, y: 20),
            force: 0.5, altitude: 1.2, buttons: [.stylus, .stylus2]
        )
        var w = JSONWriter()
        MessageEncoder.touch(t, into: &w)
        #expect(w.string == #"{"type":"touch","time":3.00025,"device":0,"id":7,"phase":"moved","touchType":"stylus","tool":"eraser","screen":0,"location":{"x":10.12,"y":20},"locationMM":{"x":0,"y":0},"force":0.5,"altitude":1.2,"buttons":["stylus","stylus2"]}"#)
    }

    /// A surface's raw touch carries the phase and time the surface sees, and the surface.
    @Test func aRawTouchHasTheSurfacesPhaseAndTime() {
        let t = Touch(id: TouchID(2), device: DeviceID(1), phase: .ended, type: .direct, tool: .finger,
                      time: Timestamp(microseconds: 1_000_000), location: Point(x: 1, y: 2))
        let raw = RawTouchEvent(time: Timestamp(microseconds: 1_500_000), surface: "c/list", owner: "c", phase: .cancelled, touch: t)
        var w = JSONWriter()
        MessageEncoder.rawTouch(raw, into: &w)
        #expect(w.string == #"{"type":"touch","time":1.5,"device":1,"id":2,"phase":"cancelled","touchType":"direct","tool":"finger","screen":0,"location":{"x":1,"y":2},"locationMM":{"x":0,"y":0},"surface":"c/list"}"#)
    }

    @Test func aGestureIsItsGestureLine() {
        let e = GestureEvent(
            time: Timestamp(microseconds: 2_000_000), device: DeviceID(3), surface: "app/map", owner: "app", recognizer: "swipe",
            kind: .edgeSwipe, state: .recognized, touches: 1, touchType: .direct, location: Point(x: 5, y: 6),
            direction: .up, translation: Point(x: 0, y: -80), velocity: Point(x: 0, y: -900), edge: .bottom, purpose: "home", isSystem: true)
        var w = JSONWriter()
        MessageEncoder.gesture(e, into: &w)
        #expect(w.string == #"{"type":"gesture","time":2,"device":3,"surface":"app/map","owner":"app","recognizer":"swipe","kind":"edge-swipe","state":"recognized","touches":1,"touchType":"direct","location":{"x":5,"y":6},"direction":"up","translation":{"x":0,"y":-80},"velocity":{"x":0,"y":-900},"edge":"bottom","purpose":"home","system":true}"#)
    }

    @Test func encodesEachDragEvent() throws {
        let item = DragItem([DragRepresentation(type: "text/plain", data: "Lyon")])
        let t = Timestamp(microseconds: 12_500_000)
        let p = Point(x: 250, y: 500)
        let cases: [(DragSessionEvent.Kind, Point?, String)] = [
            (.itemsRequested(request: 1), p, #"{"type":"drag","event":"items-requested","time":12.5,"session":3,"surface":"list","location":{"x":250,"y":500},"request":1}"#),
            (.entered(types: ["text/plain"], items: 1), p, #"{"type":"drag","event":"entered","time":12.5,"session":3,"surface":"list","location":{"x":250,"y":500},"types":["text/plain"],"itemCount":1}"#),
            (.perform(operation: .copy, items: [item]), p, #"{"type":"drag","event":"perform","time":12.5,"session":3,"surface":"list","location":{"x":250,"y":500},"operation":"copy","items":[{"representations":[{"type":"text/plain","data":"Lyon"}]}]}"#),
            (.ended(outcome: .cancelled, reason: .sourceGone), nil, #"{"type":"drag","event":"ended","time":12.5,"session":3,"surface":"list","outcome":"cancelled","reason":"source-gone"}"#),
        ]
        for (kind, location, expected) in cases {
            var w = JSONWriter()
            MessageEncoder.drag(DragSessionEvent(time: t, session: 3, owner: "client-1", surface: "client-1/list", location: location, kind: kind),
                                surface: "list", into: &w)
            #expect(w.string == expected)
        }
    }

    /// A deferral decision names the client's own surface; an edge hint its edge, screen and window.
    @Test func systemLines() {
        let deferral = SystemEvent(time: Timestamp(microseconds: 500_000), kind: .deferral(
            DeferralDecision(surface: "c/game", owner: "c", requested: [.left, .bottom], granted: [.bottom])))
        var w = JSONWriter()
        MessageEncoder.system(deferral, surface: "game", into: &w)
        #expect(w.string == #"{"type":"system","time":0.5,"event":"deferral","surface":"game","requested":["left","bottom"],"granted":["bottom"]}"#)
        let hint = SystemEvent(time: Timestamp(microseconds: 1_000_000),
                               kind: .edgeHint(edge: .top, screen: 1, windowEnd: Timestamp(microseconds: 2_250_000)))
        var v = JSONWriter()
        MessageEncoder.system(hint, into: &v)
        #expect(v.string == #"{"type":"system","time":1,"event":"edge-hint","edge":"top","screen":1,"windowEnd":2.25}"#)
    }

    /// Debug records carry their kind's details and the readable line.
    @Test func debugLines() {
        let transition = DebugRecord(time: Timestamp(microseconds: 1_000), interaction: 2, touch: TouchID(3), recognizer: "c/list/tap",
                                     kind: .transition(from: .possible, to: .recognized))
        var w = JSONWriter()
        MessageEncoder.debug(transition, into: &w)
        #expect(w.string.hasPrefix(#"{"type":"debug","time":0.001,"interaction":2,"touch":3,"recognizer":"c/list/tap","record":"transition","from":"possible","to":"recognized","text":"#))
        let deferral = DebugRecord(time: Timestamp(microseconds: 0), interaction: nil, touch: nil, recognizer: nil,
                                   kind: .edgeDeferral(edge: .bottom, surface: "c/game", outcome: .secondSwipe))
        var v = JSONWriter()
        MessageEncoder.debug(deferral, into: &v)
        #expect(v.string.hasPrefix(#"{"type":"debug","time":0,"record":"edge-deferral","edge":"bottom","surface":"c/game","outcome":"second-swipe","text":"#))
    }
}
