// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Raw touch delivery (semantics §5, §2.5)")
struct RawTouchDeliveryTests {
    @Test("§5 example 1: one tap recognizer: down -> raw began; up -> tap recognized, then raw cancelled (not ended)")
    func tapAlone() {
        var e = engine([tap])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.up(1, at: 80)
        let frames = script.frames
        let down = e.handle(frames[0])
        #expect(down.rawSummary == ["s:1:began"])
        #expect(down.gestures.isEmpty)
        #expect(e.state(of: "tap", surface: "s") == .possible)
        let up = e.handle(frames[1])
        let kinds = up.compactMap { output -> String? in
            switch output {
            case .gesture(let g): return "gesture \(g.recognizer) \(g.state.rawValue)"
            case .touch(let t): return "raw \(t.phase.rawValue)"
            case .debug, .system, .mirror: return nil
            }
        }
        #expect(kinds == ["gesture tap recognized", "raw cancelled"])
    }

    @Test("§5 example 2: tap + pan exclusion: the pan beginning cancels the raw touch; on lift only the pan ends")
    func tapAndPan() {
        var e = engine([tap, pan])
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 150)
        let out = e.run(script)
        #expect(out.rawOutline == ["s:1:began", "s:1:moved", "s:1:cancelled"])
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        // The raw cancellation follows the pan's began in the same frame.
        let panBegan = out.firstIndex { if case .gesture(let g) = $0 { return g.state == .began } else { return false } }!
        let rawCancelled = out.firstIndex { if case .touch(let t) = $0 { return t.phase == .cancelled } else { return false } }!
        #expect(panBegan < rawCancelled)
        #expect(out.gestures[0].time == out.rawTouches.last!.time)
    }

    @Test("§5 delaysTouchesBegan: raw began waits until the recognizer fails, then comes with the latest position")
    func delaysBeganReleased() {
        var patientTap = tap
        patientTap.delaysTouchesBegan = true
        var e = engine([patientTap])
        var script = GestureScript()
        strokeScript(&script, dx: 10, dy: 0, duration: 100)
        let out = e.run(script)
        let tapFailed = out.debugRecords.first { $0.kind == .transition(from: .possible, to: .failed) }!
        #expect(out.rawOutline == ["s:1:began", "s:1:moved", "s:1:ended"])
        #expect(out.rawTouches[0].time == tapFailed.time)
        #expect(out.rawTouches[1].touch.location.x > out.rawTouches[0].touch.location.x)
        #expect(out.debugRecords.contains { $0.kind == .withheldDelivered(phase: .began) })
    }

    @Test("§5 delaysTouchesBegan: if the recognizer recognizes, the raw stream never sees the touch")
    func delaysBeganRecognized() {
        var patientTap = tap
        patientTap.delaysTouchesBegan = true
        var e = engine([patientTap])
        var script = GestureScript()
        tapScript(&script)
        let out = e.run(script)
        #expect(out.gestureSummary == ["tap:recognized"])
        #expect(out.rawTouches.isEmpty)
        #expect(e.isIdle)
    }

    @Test("§5 delaysTouchesEnded: the raw ended is held until the recognizer fails (then ended) or recognizes (then cancelled)")
    func delaysEnded() {
        let doubleTap = RecognizerConfiguration(name: "double-tap", kind: .tap(TapParameters(taps: 2)), cancelsTouchesInView: false)
        var e = engine([doubleTap])
        var script = GestureScript()
        tapScript(&script, at: 0)
        let out = e.run(script)
        // Held through the double-tap window, delivered as ended when it fails.
        #expect(out.rawOutline == ["s:1:began", "s:1:moved", "s:1:ended"])
        #expect(out.rawTouches.last!.time == script.time(80 + 300))

        var twice = GestureScript()
        tapScript(&twice, at: 5000)
        tapScript(&twice, 2, at: 5150)
        let out2 = e.run(twice)
        #expect(out2.gestureSummary == ["double-tap:recognized"])
        #expect(out2.rawOutline == ["s:1:began", "s:1:moved", "s:2:began", "s:2:moved", "s:1:cancelled", "s:2:cancelled"])
    }

    @Test("§5 delaysTouchesEnded false and cancelsTouchesInView false: the raw stream ends normally at the lift")
    func noDelays() {
        let relaxed = RecognizerConfiguration(name: "tap", kind: .tap(TapParameters()), cancelsTouchesInView: false, delaysTouchesEnded: false)
        var e = engine([relaxed])
        var script = GestureScript()
        tapScript(&script)
        let out = e.run(script)
        #expect(out.rawOutline == ["s:1:began", "s:1:moved", "s:1:ended"])
        #expect(out.gestureSummary == ["tap:recognized"])
    }

    @Test("§5 cancelsTouchesInView false: a pan leaves the raw stream alone")
    func panNotCancelling() {
        let scroll = RecognizerConfiguration(name: "scroll", kind: .pan(PanParameters()), cancelsTouchesInView: false)
        var e = engine([scroll])
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 100)
        let out = e.run(script)
        #expect(out.rawOutline == ["s:1:began", "s:1:moved", "s:1:ended"])
        #expect(out.gestureOutline == ["scroll:began", "scroll:changed", "scroll:ended"])
    }

    @Test("§1 a touch cancelled upstream reaches the raw stream as cancelled")
    func upstreamCancel() {
        var e = engine([])
        var script = GestureScript()
        script.down(1, at: 0, x: 10, y: 10)
        script.cancel(1, at: 50)
        #expect(e.run(script).rawSummary == ["s:1:began", "s:1:cancelled"])
        #expect(e.isIdle)
    }

    @Test("§2.5 multipleTouch false: only the first touch reaches the raw stream; recognizers still see both")
    func singleTouchSurface() {
        let twoFingerTap = RecognizerConfiguration(name: "two", kind: .tap(TapParameters(minTouches: 2, maxTouches: 2)),
                                                   cancelsTouchesInView: false, delaysTouchesEnded: false)
        var e = engine([twoFingerTap], multipleTouch: false)
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.down(2, at: 10, x: 120, y: 100)
        script.up(1, at: 60); script.up(2, at: 70)
        script.down(3, at: 500, x: 100, y: 100)
        script.up(3, at: 550)
        let out = e.run(script)
        #expect(out.rawSummary == ["s:1:began", "s:1:ended", "s:3:began", "s:3:ended"])
        #expect(out.gestureSummary == ["two:recognized"])
    }

    @Test("§2.5 exclusiveTouch: while an exclusive surface is touched, touches on other surfaces are blocked, and vice versa")
    func exclusiveTouch() {
        let config = GestureConfiguration(surfaces: [
            SurfaceConfiguration(id: "left", owner: "a", frame: ScreenRect(x: 0, y: 0, width: 1000, height: 1500), exclusiveTouch: true,
                                 recognizers: [tap]),
            SurfaceConfiguration(id: "right", owner: "b", frame: ScreenRect(x: 1000, y: 0, width: 1000, height: 1500), recognizers: [tap]),
        ], screens: [testScreen])
        var e = Engine(configuration: config)
        var script = GestureScript()
        script.down(1, at: 0, x: 50, y: 50)       // left (exclusive)
        script.down(2, at: 20, x: 300, y: 50)     // right: blocked
        script.up(2, at: 60)
        script.up(1, at: 80)
        script.down(3, at: 1000, x: 300, y: 50)   // right
        script.down(4, at: 1010, x: 50, y: 50)    // left (exclusive): blocked
        script.up(4, at: 1050)
        script.up(3, at: 1080)
        let out = e.run(script)
        #expect(out.rawSummary == ["left:1:began", "left:1:cancelled", "right:3:began", "right:3:cancelled"])
        #expect(out.gestures.map { "\($0.surface!):\($0.recognizer)" } == ["left:tap", "right:tap"])
        #expect(out.debugRecords.filter { if case .unhandled = $0.kind { return true } else { return false } }.count == 2)
    }

    @Test("default configuration, single tap: raw ended is held through the double-tap window, then cancelled when the tap is delivered")
    func defaultSingleTap() {
        var e = defaultEngine()
        var script = GestureScript()
        tapScript(&script)
        let out = e.run(script)
        #expect(out.gestureSummary == ["tap:recognized"])
        #expect(out.rawOutline == ["screen:1:began", "screen:1:moved", "screen:1:cancelled"])
        #expect(out.rawTouches.last!.time == script.time(380))
        #expect(out.gestures[0].time == script.time(380))
    }
}
