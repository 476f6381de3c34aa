// SPDX-License-Identifier: MIT
import Foundation
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

    /// A finger (or two together) along an arc of `radius` mm from (100, 100) mm, clockwise from
    /// heading right, at `speed` mm/s for `degrees` of turn, reported at the script's rate.
    func arcScript(fingers: Int, radius: Double, degrees: Double, speed: Double) -> GestureScript {
        var script = GestureScript()
        let length = radius * degrees * .pi / 180
        let duration = length / speed * 1000
        for f in 1...fingers { script.down(f, at: 0, x: 100, y: 100 + Double(f - 1) * 15) }
        var t = 1000 / script.rate
        while t <= duration {
            let a = (t / duration) * degrees * .pi / 180
            for f in 1...fingers {
                script.move(f, at: t, x: 100 + radius * sin(a), y: 100 + Double(f - 1) * 15 + radius * (1 - cos(a)))
            }
            t += 1000 / script.rate
        }
        for f in 1...fingers { script.up(f, at: duration + 10) }
        return script
    }

    @Test("a curved stroke is not a swipe, with one finger or two; a straight one at the same speed is")
    func curvesFail() {
        for fingers in [1, 2] {
            let config = RecognizerConfiguration(name: "swipe", kind: .swipe(SwipeParameters(maxTouches: 2)))
            for radius in [8.0, 15.0, 20.0, 40.0] {
                var e = engine([config])
                #expect(e.run(arcScript(fingers: fingers, radius: radius, degrees: 360, speed: 200)).gestures.isEmpty,
                        "\(fingers) fingers, radius \(radius)")
            }
            // A gentle bend (radius 200 mm over 60 mm) is straight enough.
            var e = engine([config])
            #expect(e.run(arcScript(fingers: fingers, radius: 200, degrees: 17, speed: 200)).gestures.first?.direction == .right,
                    "\(fingers) fingers")
        }
    }

    @Test("a stroke that turns back fails even while its chord still points the first way")
    func reversalFails() {
        var e = engine([swipe])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, to: (100, 85), start: 0, duration: 300)      // up 15 mm at 50 mm/s: too slow for a swipe
        script.move(1, to: (100, 95), start: 300, duration: 50)     // back down fast; the chord still points up
        script.up(1, at: 360)
        #expect(e.run(script).gestures.isEmpty)
    }

    @Test("a circle of 40 mm radius is no swipe at its start, traced with one finger or two, slowly or fast; a 70 mm arc (a thumb's) still is")
    func largeCircle() {
        for fingers in [1, 2] {
            let config = RecognizerConfiguration(name: "swipe", kind: .swipe(SwipeParameters(maxTouches: 2)))
            for speed in [120.0, 200.0, 400.0] {
                var e = engine([config])
                #expect(e.run(arcScript(fingers: fingers, radius: 40, degrees: 360, speed: speed)).gestures.isEmpty,
                        "\(fingers) fingers at \(speed) mm/s")
            }
            var thumb = engine([config])
            #expect(thumb.run(arcScript(fingers: fingers, radius: 70, degrees: 30, speed: 200)).gestures.first?.direction == .right,
                    "\(fingers) fingers")
        }
    }

    @Test("two fingers turning on a circle of 40 mm radius, starting slowly: the built-in recognizers call it a rotation, never a swipe")
    func largeRotation() throws {
        var e = defaultEngine()
        var script = GestureScript()
        let centre = (x: 150.0, y: 120.0), radius = 40.0
        script.down(1, at: 0, x: centre.x + radius, y: centre.y)
        script.down(2, at: 0, x: centre.x - radius, y: centre.y)
        // A quarter turn in 600 ms, the first 100 ms at a fifth of the speed of the rest.
        let speed = (Double.pi / 2) / (0.2 * 0.1 + 0.5)   // rad/s after the slow start
        var t = 1000 / script.rate
        while t <= 600 {
            let a = t < 100 ? speed * 0.2 * t / 1000 : speed * (0.02 + (t - 100) / 1000)
            script.move(1, at: t, x: centre.x + radius * cos(a), y: centre.y + radius * sin(a))
            script.move(2, at: t, x: centre.x - radius * cos(a), y: centre.y - radius * sin(a))
            t += 1000 / script.rate
        }
        script.up(1, at: 610); script.up(2, at: 610)
        let out = e.run(script)
        #expect(!out.gestures.contains { $0.recognizer == "swipe" })
        let rotate = out.gestures.filter { $0.recognizer == "rotate" }
        #expect(rotate.first?.state == .began && rotate.last?.state == .ended)
        #expect(abs(try #require(rotate.dropLast().last?.rotation) - .pi / 2) < 0.01)
    }
}
