// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Rotate recognizer")
struct RotateRecognizerTests {
    /// Two fingers 20 mm apart around (100, 100) mm turning by `turn` radians (positive: clockwise on screen).
    func turning(_ turn: Double) -> [EngineOutput] {
        var e = engine([RecognizerConfiguration(name: "rotate", kind: .rotate(RotateParameters()))])
        var script = GestureScript()
        script.down(1, at: 0, x: 90, y: 100)
        script.down(2, at: 0, x: 110, y: 100)
        let steps = 20
        for i in 1...steps {
            let a = turn * Double(i) / Double(steps)
            // Parametrised without trigonometry: points on the circle via the rational parametrisation.
            let t = tanHalf(a)
            let c = (1 - t * t) / (1 + t * t), s = 2 * t / (1 + t * t)
            script.move(1, at: Double(i) * 10, x: 100 - 10 * c, y: 100 - 10 * s)
            script.move(2, at: Double(i) * 10, x: 100 + 10 * c, y: 100 + 10 * s)
        }
        script.up(1, at: 220); script.up(2, at: 220)
        return e.run(script)
    }

    /// tan(a/2) by a short series, enough for |a| <= 1.
    func tanHalf(_ a: Double) -> Double {
        let x = a / 2
        return x + x * x * x / 3 + 2 * x * x * x * x * x / 15 + 17 * x * x * x * x * x * x * x / 315
    }

    @Test("clockwise on screen is positive; begins past the 0.2 rad threshold; reports the total turn")
    func clockwise() {
        let out = turning(0.8)
        #expect(out.gestureOutline == ["rotate:began", "rotate:changed", "rotate:ended"])
        let g = out.gestures
        #expect(g[0].rotation! >= 0.2 && g[0].rotation! < 0.3)
        #expect(abs(g[g.count - 2].rotation! - 0.8) < 1e-3)
        #expect(g[g.count - 2].rotationVelocity! > 0)
    }

    @Test("counter-clockwise is negative; a small turn below the threshold is nothing")
    func counterClockwiseAndSmall() {
        let out = turning(-0.6)
        #expect(out.gestures.first.map { $0.rotation! < 0 } == true)
        #expect(abs(out.gestures[out.gestures.count - 2].rotation! + 0.6) < 1e-3)
        #expect(turning(0.1).gestures.isEmpty)
    }
}
