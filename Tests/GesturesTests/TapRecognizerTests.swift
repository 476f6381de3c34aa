// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Tap recognizer")
struct TapRecognizerTests {
    @Test("§3 discrete: a quick tap is recognized once, with its location and tap count")
    func singleTap() {
        var e = engine([tap])
        var script = GestureScript()
        tapScript(&script, x: 100, y: 60)
        let out = e.run(script)
        #expect(out.gestureSummary == ["tap:recognized"])
        let g = out.gestures[0]
        #expect(g.taps == 1)
        #expect(g.touches == 1)
        #expect(g.kind == .tap)
        #expect(g.surface == "s")
        #expect(g.owner == "app")
        #expect(abs(g.location.x - 501.5) < 0.01 && abs(g.location.y - 300) < 0.01)
        #expect(g.time == script.time(80))
        #expect(e.state(of: "tap", surface: "s") == .possible)
        #expect(e.isIdle)
    }

    @Test("§3 fail fast: moving past maxMovement fails the tap")
    func movedTooFar() {
        var e = engine([tap])
        var script = GestureScript()
        strokeScript(&script, dx: 4, dy: 0, duration: 60)
        let out = e.run(script)
        #expect(out.gestures.isEmpty)
        #expect(out.debugRecords.contains { $0.recognizer == "s/tap" && $0.kind == .transition(from: .possible, to: .failed) })
    }

    @Test("§3 deadline: holding longer than maxDuration fails the tap at the deadline, before the lift")
    func heldTooLong() {
        var e = engine([tap])
        var script = GestureScript()
        script.down(1, at: 0, x: 10, y: 10)
        script.up(1, at: 400)
        let frames = script.frames
        _ = e.handle(frames[0])
        #expect(e.nextDeadline == script.time(300))
        let fired = e.advance(to: script.time(350))
        #expect(fired.debugRecords.contains { $0.kind == .transition(from: .possible, to: .failed) && $0.time == script.time(300) })
        #expect(e.state(of: "tap", surface: "s") == .failed)
        let rest = e.handle(frames[1])
        #expect(rest.gestures.isEmpty)
        #expect(e.state(of: "tap", surface: "s") == .possible)
    }

    @Test("double tap: two taps within interval and distance are recognized with taps = 2")
    func doubleTap() {
        var e = engine([RecognizerConfiguration(name: "double-tap", kind: .tap(TapParameters(taps: 2)))])
        var script = GestureScript()
        tapScript(&script, at: 0)
        tapScript(&script, at: 200, x: 102)
        let out = e.run(script)
        #expect(out.gestureSummary == ["double-tap:recognized"])
        #expect(out.gestures[0].taps == 2)
        #expect(out.gestures[0].time == script.time(280))
    }

    @Test("double tap: a second tap after maxInterval fails it at the interval deadline")
    func doubleTapTooSlow() {
        var e = engine([RecognizerConfiguration(name: "double-tap", kind: .tap(TapParameters(taps: 2)))])
        var script = GestureScript()
        tapScript(&script, at: 0)
        tapScript(&script, at: 500)
        let out = e.run(script)
        #expect(out.gestures.isEmpty)
        let failed = out.debugRecords.first { $0.kind == .transition(from: .possible, to: .failed) }
        #expect(failed?.time == script.time(380))
    }

    @Test("double tap: a second tap too far from the first fails it")
    func doubleTapTooFar() {
        var e = engine([RecognizerConfiguration(name: "double-tap", kind: .tap(TapParameters(taps: 2)))])
        var script = GestureScript()
        tapScript(&script, at: 0, x: 100)
        tapScript(&script, at: 150, x: 130)
        #expect(e.run(script).gestures.isEmpty)
    }

    @Test("touch counts: a two-finger tap needs minTouches 2; three fingers exceed maxTouches 2")
    func touchCounts() {
        let two = RecognizerConfiguration(name: "two", kind: .tap(TapParameters(minTouches: 2, maxTouches: 2)))
        var e = engine([two])
        var script = GestureScript()
        tapScript(&script, 1, at: 0, x: 100)
        let one = e.run(script)
        #expect(one.gestures.isEmpty)

        var twoFingers = GestureScript()
        twoFingers.down(1, at: 1000, x: 100, y: 100)
        twoFingers.down(2, at: 1010, x: 120, y: 100)
        twoFingers.up(1, at: 1080)
        twoFingers.up(2, at: 1090)
        let out = e.run(twoFingers)
        #expect(out.gestureSummary == ["two:recognized"])
        #expect(out.gestures.first?.touches == 2)
        #expect(out.gestures.first.map { abs($0.location.x - 550) < 0.01 } == true)

        var three = GestureScript()
        three.down(1, at: 3000, x: 100, y: 100)
        three.down(2, at: 3000, x: 120, y: 100)
        three.down(3, at: 3010, x: 140, y: 100)
        three.up(1, at: 3050); three.up(2, at: 3050); three.up(3, at: 3050)
        #expect(e.run(three).gestures.isEmpty)
    }
}
