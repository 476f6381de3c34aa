// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Pan recognizer")
struct PanRecognizerTests {
    @Test("§3 begin late: the pan begins only past its slop, then reports translation in px and velocity in px/s")
    func beginsPastSlop() {
        var e = engine([pan])
        var script = GestureScript(rate: 100)
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, to: (110, 100), start: 0, duration: 100)  // 100 mm/s = 500 px/s
        script.up(1, at: 110)
        let out = e.run(script)
        let g = out.gestures
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        // 1 mm per 10 ms frame: the 2 mm slop is reached at 20 ms.
        #expect(g[0].time == script.time(20))
        #expect(abs(g[0].translation!.x - 10) < 1e-9)
        let last = g[g.count - 2]
        #expect(abs(last.translation!.x - 50) < 1e-9)
        #expect(abs(last.translation!.y) < 1e-9)
        #expect(abs(last.velocity!.x - 500) < 1)
        #expect(g.last!.state == .ended)
        #expect(g.allSatisfy { $0.kind == .pan && $0.touches == 1 })
    }

    @Test("§3 fail fast: a pan that never moved fails when its touches lift")
    func failsWithoutMoving() {
        var e = engine([pan])
        var script = GestureScript()
        tapScript(&script)
        let out = e.run(script)
        #expect(out.gestures.isEmpty)
        #expect(out.debugRecords.contains { $0.recognizer == "s/pan" && $0.kind == .transition(from: .possible, to: .failed) })
    }

    @Test("fingers added and lifted mid-pan do not make the translation jump")
    func noJumps() {
        var e = engine([pan])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, to: (110, 100), start: 0, duration: 100)
        script.down(2, at: 110, x: 160, y: 140)  // far away: the centroid jumps, the translation must not
        script.move(1, to: (120, 100), start: 110, duration: 100)
        script.move(2, to: (170, 140), start: 110, duration: 100)
        script.up(1, at: 220)
        script.move(2, to: (180, 140), start: 220, duration: 100)
        script.up(2, at: 330)
        let out = e.run(script)
        let g = out.gestures
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        var maxStep = 0.0
        for (a, b) in zip(g, g.dropFirst()) { maxStep = max(maxStep, abs(b.translation!.x - a.translation!.x)) }
        #expect(maxStep < 2 * 5)           // never more than the 1 mm per frame the fingers move
        #expect(abs(g.last!.translation!.x - 30 * 5) < 1e-6)
        #expect(g.contains { $0.touches == 2 })
    }

    @Test("touch counts: minTouches 2 waits for the second finger; more than maxTouches before beginning fails")
    func touchCounts() {
        let twoFinger = RecognizerConfiguration(name: "scroll", kind: .pan(PanParameters(minTouches: 2, maxTouches: 2)))
        var e = engine([twoFinger])
        var one = GestureScript()
        strokeScript(&one, dx: 20, dy: 0, duration: 100)
        #expect(e.run(one).gestures.isEmpty)

        var two = GestureScript()
        two.down(1, at: 1000, x: 100, y: 100)
        two.down(2, at: 1000, x: 120, y: 100)
        two.move(1, to: (100, 130), start: 1000, duration: 100)
        two.move(2, to: (120, 130), start: 1000, duration: 100)
        two.up(1, at: 1110); two.up(2, at: 1110)
        let out = e.run(two)
        #expect(out.gestureOutline == ["scroll:began", "scroll:changed", "scroll:ended"])
        #expect(out.gestures.first?.touches == 2)
        #expect(abs(out.gestures.first!.location.x - 550) < 1e-9)

        var three = GestureScript()
        for f in 1...3 { three.down(f, at: 2000, x: Double(100 + 10 * f), y: 100) }
        for f in 1...3 { three.move(f, to: (Double(100 + 10 * f), 130), start: 2000, duration: 100) }
        for f in 1...3 { three.up(f, at: 2110) }
        #expect(e.run(three).gestures.isEmpty)
    }

    @Test("report rate: the same stroke at 60 Hz and 240 Hz begins at the same distance and ends with the same translation")
    func reportRate() {
        func run(_ hz: Double) -> [GestureEvent] {
            var e = engine([pan])
            var script = GestureScript(rate: hz)
            strokeScript(&script, dx: 40, dy: -20, duration: 200)
            return e.run(script).gestures
        }
        let slow = run(60), fast = run(240)
        #expect(slow.first?.state == .began && fast.first?.state == .began)
        #expect(abs(slow.last!.translation!.x - fast.last!.translation!.x) < 1e-6)
        let vSlow = slow[slow.count - 2].velocity!, vFast = fast[fast.count - 2].velocity!
        #expect(abs(vSlow.x - vFast.x) < 0.05 * abs(vFast.x))
    }

    @Test("a finger lifting in the frame the other moves does not halve that step: only touches present in both frames count")
    func liftingFingerKeepsTheStep() throws {
        var e = engine([pan])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.down(2, at: 0, x: 120, y: 100)
        script.move(1, to: (120, 100), start: 0, duration: 100)
        script.move(2, to: (140, 100), start: 0, duration: 100)
        script.move(1, at: 110, x: 130, y: 104)   // the last step: 10 mm right, 4 mm down...
        script.up(2, at: 110)                     // ...in the frame finger 2 lifts where it was
        script.up(1, at: 120)
        let out = e.run(script)
        let ended = try #require(out.gestures.last)
        #expect(ended.state == .ended)
        // 20 mm together, then finger 1's whole 10 mm and 4 mm (not half of them), at 5 px/mm.
        #expect(abs(ended.translation!.x - 30 * 5) < 1e-9 && abs(ended.translation!.y - 4 * 5) < 1e-9)
    }
}
