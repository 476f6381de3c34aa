// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Long-press recognizer")
struct LongPressRecognizerTests {
    let press = RecognizerConfiguration(name: "press", kind: .longPress(LongPressParameters()))

    @Test("§3 continuous: began at the deadline with no input, changed on movement, ended on lift")
    func beganChangedEnded() {
        var e = engine([press])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, at: 700, x: 110, y: 100)
        script.up(1, at: 800)
        let frames = script.frames
        _ = e.handle(frames[0])
        #expect(e.nextDeadline == script.time(500))
        let fired = e.advance(to: script.time(600))
        #expect(fired.gestureSummary == ["press:began"])
        #expect(fired.gestures[0].time == script.time(500))
        #expect(e.nextDeadline == nil)
        #expect(e.handle(frames[1]).gestureSummary == ["press:changed"])
        #expect(e.handle(frames[2]).gestureSummary == ["press:ended"])
        #expect(e.isIdle)
    }

    @Test("§3 fail fast: lifting early or moving past allowableMovement fails it")
    func failures() {
        var e = engine([press])
        var early = GestureScript()
        early.down(1, at: 0, x: 100, y: 100)
        early.up(1, at: 300)
        #expect(e.run(early).gestures.isEmpty)
        var moved = GestureScript()
        strokeScript(&moved, at: 1000, dx: 5, dy: 0, duration: 100, lift: false)
        moved.up(1, at: 1800)
        #expect(e.run(moved).gestures.isEmpty)
        #expect(e.isIdle)
    }

    @Test("touch counts: two fingers held satisfy minTouches 2; one does not")
    func touchCounts() {
        var e = engine([RecognizerConfiguration(name: "two", kind: .longPress(LongPressParameters(minTouches: 2, maxTouches: 2)))])
        var one = GestureScript()
        one.down(1, at: 0, x: 100, y: 100)
        one.up(1, at: 700)
        #expect(e.run(one).gestures.isEmpty)
        var two = GestureScript()
        two.down(1, at: 1000, x: 100, y: 100)
        two.down(2, at: 1050, x: 120, y: 100)
        two.up(1, at: 1700); two.up(2, at: 1720)
        let out = e.run(two)
        #expect(out.gestureSummary == ["two:began", "two:ended"])
        #expect(out.gestures[0].touches == 2)
        #expect(out.gestures[1].time == two.time(1700))
    }
}
