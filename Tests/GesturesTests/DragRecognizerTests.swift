// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Drag recognizer (semantics §7)")
struct DragRecognizerTests {
    let drag = RecognizerConfiguration(name: "drag", kind: .drag(DragParameters()))
    let press = RecognizerConfiguration(name: "press", kind: .longPress(LongPressParameters()))

    func holdThenMove(_ script: inout GestureScript) {
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, at: 300, x: 100.5, y: 100)
        script.move(1, to: (130, 100), start: 600, duration: 150)
        script.up(1, at: 800)
    }

    @Test("§7 a drag begins on long press and then movement")
    func holdThenMoveBegins() {
        var e = engine([drag])
        var script = GestureScript()
        holdThenMove(&script)
        let out = e.run(script)
        #expect(out.gestureOutline == ["drag:began", "drag:changed", "drag:ended"])
        #expect(out.gestures[0].time > script.time(600))
        #expect(out.gestures.last!.translation!.x > 100)
    }

    @Test("§7 moving before the hold, or lifting after it without moving, is no drag")
    func failures() {
        var e = engine([drag])
        var early = GestureScript()
        strokeScript(&early, dx: 30, dy: 0, duration: 150)
        #expect(e.run(early).gestures.isEmpty)
        var still = GestureScript()
        still.down(1, at: 1000, x: 100, y: 100)
        still.up(1, at: 1700)
        #expect(e.run(still).gestures.isEmpty)
        #expect(e.isIdle)
    }

    @Test("§7 a long press alongside a drag requires the drag to fail: withheld, then delivered when the drag fails")
    func longPressWaitsForDrag() {
        var e = engine([drag, press])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.up(1, at: 800)
        let out = e.run(script)
        #expect(out.gestureSummary == ["press:began", "press:ended"])
        #expect(out.gestures[0].time == script.time(800))
        #expect(out.debugRecords.contains { $0.recognizer == "s/press" && $0.kind == .waiting(on: "s/drag") })
        #expect(out.debugRecords.contains { $0.recognizer == "s/press" && $0.kind == .released(by: "s/drag") })
    }

    @Test("§7 when a drag begins it cancels its touch for everyone else, recognizers and raw stream")
    func dragClaimsTouch() {
        let simultaneousPan = RecognizerConfiguration(name: "scroll", kind: .pan(PanParameters(slop: 5)), simultaneousWith: .all)
        var e = engine([drag, press, simultaneousPan])
        var script = GestureScript()
        holdThenMove(&script)
        let out = e.run(script)
        #expect(out.gestureOutline == ["drag:began", "drag:changed", "drag:ended"])
        #expect(out.rawOutline == ["s:1:began", "s:1:moved", "s:1:cancelled"])
        #expect(out.debugRecords.contains { $0.recognizer == "s/scroll" && $0.kind == .cancelled(reason: "touch taken by s/drag") })
        #expect(!out.gestures.contains { $0.recognizer == "press" })
    }

    @Test("§7 during a drag the rest of the screen stays interactive: a tap with another finger is recognized")
    func interactiveDuringDrag() {
        var e = engine([drag, tap])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, to: (130, 100), start: 600, duration: 150)
        tapScript(&script, 2, at: 800, x: 200, y: 200)
        script.move(1, at: 900, x: 140, y: 100)
        script.up(1, at: 1000)
        let out = e.run(script)
        #expect(out.gestureOutline == ["drag:began", "drag:changed", "tap:recognized", "drag:changed", "drag:ended"])
    }
}
