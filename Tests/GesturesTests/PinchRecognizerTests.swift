// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Pinch recognizer")
struct PinchRecognizerTests {
    @Test("begins past its span threshold and reports scale relative to the start span")
    func spread() {
        var e = engine([RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()))])
        var script = GestureScript()
        script.down(1, at: 0, x: 90, y: 100)
        script.down(2, at: 0, x: 110, y: 100)
        script.move(1, to: (70, 100), start: 0, duration: 200)
        script.move(2, to: (130, 100), start: 0, duration: 200)
        script.up(1, at: 210); script.up(2, at: 210)
        let out = e.run(script)
        #expect(out.gestureOutline == ["pinch:began", "pinch:changed", "pinch:ended"])
        let g = out.gestures
        // Span 10 mm -> 30 mm; the 3 mm threshold is passed at a scale of 1.3.
        #expect(g[0].scale! >= 1.3 && g[0].scale! < 1.4)
        #expect(abs(g[g.count - 2].scale! - 3) < 1e-9)
        #expect(g[g.count - 2].scaleVelocity! > 0)
        #expect(g.allSatisfy { $0.touches == 2 || $0.state == .ended })
    }

    @Test("a two-finger scroll (parallel fingers) is not a pinch")
    func parallelIsNotPinch() {
        var e = engine([RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()))])
        var script = GestureScript()
        script.down(1, at: 0, x: 90, y: 100)
        script.down(2, at: 0, x: 110, y: 100)
        script.move(1, to: (90, 150), start: 0, duration: 200)
        script.move(2, to: (110, 150), start: 0, duration: 200)
        script.up(1, at: 210); script.up(2, at: 210)
        #expect(e.run(script).gestures.isEmpty)
    }
}
