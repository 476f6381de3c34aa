// SPDX-License-Identifier: MIT
@testable import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Engine")
struct EngineTests {
    @Test("default configuration: a double tap is double-tap only; the single tap that requires it to fail never fires")
    func defaultDoubleTap() {
        var e = defaultEngine()
        var script = GestureScript()
        tapScript(&script, at: 0)
        tapScript(&script, at: 180)
        let out = e.run(script)
        #expect(out.gestureSummary == ["double-tap:recognized"])
        #expect(out.gestures[0].taps == 2)
        #expect(e.isIdle)
    }

    @Test("default configuration: a press held still is a long press; a two-finger tap is a tap with touches = 2")
    func defaultPressAndTwoFingerTap() {
        var e = defaultEngine()
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.up(1, at: 900)
        script.down(1, at: 2000, x: 100, y: 100)
        script.down(2, at: 2010, x: 130, y: 100)
        script.up(1, at: 2090); script.up(2, at: 2100)
        let out = e.run(script)
        #expect(out.gestureSummary == ["long-press:began", "long-press:ended", "tap:recognized"])
        #expect(out.gestures[0].time == script.time(500))
        #expect(out.gestures[2].touches == 2)
    }

    @Test("default configuration: a slow drag is a pan only; a flick is a pan and a swipe (simultaneous)")
    func defaultPanAndSwipe() {
        var e = defaultEngine()
        var slow = GestureScript()
        strokeScript(&slow, dx: 0, dy: 40, duration: 1000)
        let out = e.run(slow)
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        var flick = GestureScript()
        strokeScript(&flick, at: 3000, x: 200, dx: -40, dy: 0, duration: 120)
        let out2 = e.run(flick)
        #expect(out2.gestures.contains { $0.recognizer == "swipe" && $0.direction == .left })
        #expect(out2.gestureOutline.first == "pan:began")
        #expect(out2.gestureOutline.last == "pan:ended")
    }

    @Test("default configuration: spreading two fingers is a pinch, turning them a rotation")
    func defaultPinchRotate() {
        var e = defaultEngine()
        var script = GestureScript()
        script.down(1, at: 0, x: 90, y: 100)
        script.down(2, at: 0, x: 110, y: 100)
        script.move(1, to: (60, 100), start: 0, duration: 300)
        script.move(2, to: (140, 100), start: 0, duration: 300)
        script.up(1, at: 310); script.up(2, at: 310)
        let out = e.run(script)
        #expect(out.gestureOutline == ["pinch:began", "pinch:changed", "pinch:ended"])

        var turn = GestureScript()
        turn.down(1, at: 1000, x: 90, y: 100)
        turn.down(2, at: 1000, x: 110, y: 100)
        turn.move(1, to: (92, 90), start: 1000, duration: 200)   // about 0.55 rad clockwise... on screen
        turn.move(2, to: (108, 110), start: 1000, duration: 200)
        turn.up(1, at: 1210); turn.up(2, at: 1210)
        let out2 = e.run(turn)
        #expect(out2.gestures.contains { $0.recognizer == "rotate" && $0.state == .began })
        #expect(out2.gestures.last { $0.recognizer == "rotate" && $0.state == .changed }.map { $0.rotation! > 0.4 } == true)
    }

    @Test("handle fires deadlines that passed before the frame, at their own time, before the frame's own outputs")
    func deadlinesBeforeFrames() {
        var e = defaultEngine()
        var script = GestureScript()
        tapScript(&script, at: 0)
        script.down(2, at: 1000, x: 300, y: 200)
        script.up(2, at: 1050)
        let frames = script.frames
        var out: [EngineOutput] = []
        for f in frames.prefix(3) { e.handle(f, into: &out) }
        #expect(out.gestures.isEmpty)
        #expect(e.nextDeadline == script.time(380))
        e.handle(frames[3], into: &out)  // at 1000 ms: the double-tap window ran out at 380 ms
        #expect(out.gestureSummary == ["tap:recognized"])
        #expect(out.gestures[0].time == script.time(380))
        let rawBegan = out.rawTouches.last!
        #expect(rawBegan.touch.id == TouchID(2) && rawBegan.phase == .began)
    }

    @Test("handle(_:into:) appends to the caller's buffer and keeps what was there")
    func appends() {
        var e = defaultEngine()
        var script = GestureScript()
        script.down(1, at: 0, x: 10, y: 10)
        var out: [EngineOutput] = [.debug(DebugRecord(time: .zero, interaction: nil, touch: nil, recognizer: nil, kind: .gated))]
        e.handle(script.frames[0], into: &out)
        #expect(out.count > 1)
        #expect(out[0] == .debug(DebugRecord(time: .zero, interaction: nil, touch: nil, recognizer: nil, kind: .gated)))
    }

    @Test("recordsDebug false: the same gestures and raw touches, no debug records")
    func withoutDebug() {
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 5, duration: 200)
        tapScript(&script, at: 1000)
        var a = defaultEngine()
        var b = defaultEngine()
        b.recordsDebug = false
        let outA = a.run(script), outB = b.run(script)
        #expect(outB.debugRecords.isEmpty)
        #expect(outA.gestures == outB.gestures)
        #expect(outA.rawTouches == outB.rawTouches)
    }

    @Test("runtime surfaces: a surface added on top takes new touches; removing a touched surface cancels its active recognizers")
    func runtimeSurfaces() {
        var e = defaultEngine()
        let sheet = SurfaceConfiguration(id: "sheet", owner: "app", frame: ScreenRect(x: 0, y: 0, width: 1000, height: 1000), z: 1,
                                         recognizers: [RecognizerConfiguration(name: "scroll", kind: .pan(PanParameters()))])
        #expect(e.upsertSurface(sheet).isEmpty)
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 100)
        let out = e.run(script, within: 0...100)
        #expect(out.gestureOutline == ["scroll:began", "scroll:changed"])
        let removed = e.removeSurface("sheet")
        #expect(removed.gestureSummary == ["scroll:cancelled"])
        _ = e.run(script, within: 101...200)
        #expect(e.isIdle)
        #expect(e.removeSurface("sheet").isEmpty)
        #expect(e.configuration.surfaces.map(\.id) == ["screen"])
    }

    @Test("§8 debug records read well on one line")
    func debugLines() {
        var e = defaultEngine()
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 100)
        let lines = e.run(script).debugRecords.map(\.description)
        #expect(lines.first == "1.000000 i1 t1: hit screen; in play: screen/double-tap, screen/long-press, screen/pan, screen/pinch, screen/rotate, screen/swipe, screen/tap")
        #expect(lines.contains("1.016667 i1 screen/pan: possible -> began"))
        #expect(lines.contains("1.016667 i1 screen/tap: excluded by screen/pan"))
        #expect(lines.contains("1.016667 i1 screen/swipe: simultaneous with screen/pan"))
        #expect(lines.allSatisfy { !$0.contains("\n") })
    }

    @Test("setScreens: a new density moves the edge zones (5 mm) of idle system recognizers; unchanged screens cause nothing")
    func newScreenDensityMovesEdgeZones() {
        var e = defaultEngine()
        #expect(e.setScreens([testScreen]).isEmpty)
        var script = GestureScript()
        bottomSwipe(&script, at: 0)   // starts 10 px from the bottom edge: inside 5 mm at 5 px/mm
        #expect(e.run(script).gestureOutline.first == "edge-bottom:began")
        // At 1 px/mm the zone is 5 px: the same stroke is the app's pan.
        e.setScreens([ScreenGeometry(width: 2000, height: 1500, pixelsPerMillimetre: 1)])
        var later = GestureScript()
        bottomSwipe(&later, at: 1000)
        let out = e.run(later)
        #expect(!out.gestures.contains { $0.isSystem })
        #expect(out.gestureOutline.first == "pan:began")
        #expect(e.isIdle)
    }

    @Test("nextDeadline is kept: after every frame, advance and configuration change it is the earliest deadline in play",
          arguments: 0..<12)
    func nextDeadlineKept(seed: Int) {
        var e = Engine(configuration: PropertyTests.richConfiguration())
        let script = PropertyTests.randomScript(seed: UInt64(500 + seed))
        let sheet = SurfaceConfiguration(
            id: "sheet", owner: "app", frame: ScreenRect(x: 0, y: 0, width: 300, height: 300), z: 2,
            recognizers: [RecognizerConfiguration(name: "hold", kind: .longPress(LongPressParameters()))])
        var out: [EngineOutput] = []
        var pending = 0
        var problems: [String] = []
        func check(_ what: String) {
            if e.nextDeadline != e.earliestDeadline() {
                problems.append("\(what): kept \(String(describing: e.nextDeadline)), earliest \(String(describing: e.earliestDeadline()))")
            }
            if e.nextDeadline != nil { pending += 1 }
        }
        for (k, frame) in script.frames.enumerated() {
            if let d = e.nextDeadline, d < frame.time, k % 3 == 0 {
                e.advance(to: d, into: &out)
                check("advance before frame \(k)")
            }
            e.handle(frame, into: &out)
            check("frame \(k)")
            switch k % 40 {
            case 10: _ = e.upsertSurface(sheet); check("sheet added at frame \(k)")
            case 20: _ = e.setRecognizerEnabled(false, name: "press", surface: "panel"); check("press disabled at frame \(k)")
            case 25: _ = e.setRecognizerEnabled(true, name: "press", surface: "panel"); check("press enabled at frame \(k)")
            case 30: _ = e.removeSurface("sheet"); check("sheet removed at frame \(k)")
            default: break
            }
        }
        e.advance(to: script.end.adding(milliseconds: 5000), into: &out)
        check("settled")
        #expect(problems == [])
        // Deadlines were pending at many of the checks (long presses, tap windows), so the comparison means something.
        #expect(pending >= 10)
        #expect(e.nextDeadline == nil)
    }
}
