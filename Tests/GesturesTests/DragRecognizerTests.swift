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

    @Test("§7.2, §12.8 compact: a long press alongside a drag waits for the drag to fail, here the lift")
    func longPressWaitsForDrag() {
        var e = engine([drag, press])
        e.setCompact(true, surface: "s")
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.up(1, at: 800)
        let out = e.run(script)
        #expect(out.gestureSummary == ["press:began", "press:ended"])
        #expect(out.gestures[0].time == script.time(800))
        #expect(out.debugRecords.contains { $0.recognizer == "s/press" && $0.kind == .waiting(on: "s/drag") })
        #expect(out.debugRecords.contains { $0.recognizer == "s/press" && $0.kind == .released(by: "s/drag") })
    }

    @Test("§12.8 compact: a drag that begins after the hold drops the waiting long press, which never shows")
    func compactHoldThenMove() {
        var e = engine([drag, press])
        e.setCompact(true, surface: "s")
        var script = GestureScript()
        holdThenMove(&script)
        let out = e.run(script)
        #expect(out.gestureOutline == ["drag:began", "drag:changed", "drag:ended"])
        #expect(out.debugRecords.contains { $0.recognizer == "s/press" && $0.kind == .dropped(by: "s/drag") })
    }

    @Test("§12.8 regular (the default): a long press alongside a drag begins at its own time, before the lift")
    func regularLongPressAtOnce() {
        var e = engine([drag, press])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.up(1, at: 800)
        let out = e.run(script)
        #expect(out.gestureSummary == ["press:began", "press:ended"])
        #expect(out.gestures[0].time == script.time(500))
        #expect(out.gestures[1].time == script.time(800))
        #expect(!out.debugRecords.contains { $0.recognizer == "s/press" && $0.kind == .waiting(on: "s/drag") })
    }

    @Test("§12.8 regular: the long press shows, then the drag takes the touch when it moves (the press is cancelled)")
    func regularDragTakesTouchFromLongPress() {
        var e = engine([drag, press])
        var script = GestureScript()
        holdThenMove(&script)
        let out = e.run(script)
        #expect(out.gestureOutline == ["press:began", "press:changed", "drag:began", "press:cancelled", "drag:changed", "drag:ended"])
        #expect(out.gestures.first?.time == script.time(500))
        #expect(out.debugRecords.contains { $0.recognizer == "s/press" && $0.kind == .cancelled(reason: "touch taken by s/drag") })
    }

    @Test("§12.8 the choice follows the surface and can be changed back")
    func compactCanBeUndone() {
        var e = engine([drag, press])
        e.setCompact(true, surface: "s")
        #expect(e.compactSurfaces == ["s"])
        e.setCompact(false, surface: "s")
        #expect(e.compactSurfaces.isEmpty)
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.up(1, at: 800)
        #expect(e.run(script).gestures.first?.time == script.time(500))
    }

    @Test("§7 when a drag begins it cancels its touch for everyone else, recognizers and raw stream")
    func dragClaimsTouch() {
        let simultaneousPan = RecognizerConfiguration(name: "scroll", kind: .pan(PanParameters(slop: 5)), simultaneousWith: .all)
        var e = engine([drag, press, simultaneousPan])
        e.setCompact(true, surface: "s")
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
