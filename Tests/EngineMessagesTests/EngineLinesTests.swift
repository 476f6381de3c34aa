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
}
