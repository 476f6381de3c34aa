import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Swipe recognizer")
struct SwipeRecognizerTests {
    let swipe = RecognizerConfiguration(name: "swipe", kind: .swipe(SwipeParameters()))

    @Test("discrete: a fast stroke is recognized once with its direction, in each of the four directions")
    func directions() {
        let cases: [(Double, Double, SwipeDirection)] = [(30, 0, .right), (-30, 0, .left), (0, -30, .up), (0, 30, .down)]
        for (dx, dy, direction) in cases {
            var e = engine([swipe])
            var script = GestureScript()
            strokeScript(&script, x: 200, y: 150, dx: dx, dy: dy, duration: 100)
            let out = e.run(script)
            #expect(out.gestureSummary == ["swipe:recognized"])
            #expect(out.gestures.first?.direction == direction)
            #expect(out.gestures.first?.kind == .swipe)
        }
    }

    @Test("a slow stroke, a diagonal stroke, or an unlisted direction fails")
    func failures() {
        var e = engine([swipe])
        var slow = GestureScript()
        strokeScript(&slow, dx: 30, dy: 0, duration: 1000)
        #expect(e.run(slow).gestures.isEmpty)
        var diagonal = GestureScript()
        strokeScript(&diagonal, at: 5000, dx: 30, dy: 30, duration: 100)
        #expect(e.run(diagonal).gestures.isEmpty)
        var onlyLeft = engine([RecognizerConfiguration(name: "back", kind: .swipe(SwipeParameters(directions: [.left])))])
        var right = GestureScript()
        strokeScript(&right, dx: 30, dy: 0, duration: 100)
        #expect(onlyLeft.run(right).gestures.isEmpty)
        var left = GestureScript()
        strokeScript(&left, at: 5000, x: 200, dx: -30, dy: 0, duration: 100)
        #expect(onlyLeft.run(left).gestures.first?.direction == .left)
    }

    @Test("touches: a three-finger swipe needs minTouches 3")
    func touches() {
        var e = engine([RecognizerConfiguration(name: "three", kind: .swipe(SwipeParameters(minTouches: 3, maxTouches: 3)))])
        var script = GestureScript()
        for f in 1...3 { script.down(f, at: 0, x: 100 + Double(f) * 15, y: 150) }
        for f in 1...3 { script.move(f, to: (100 + Double(f) * 15, 110), start: 0, duration: 100) }
        for f in 1...3 { script.up(f, at: 110) }
        let out = e.run(script)
        #expect(out.gestureSummary == ["three:recognized"])
        #expect(out.gestures.first?.touches == 3)
        #expect(out.gestures.first?.direction == .up)
    }
}
