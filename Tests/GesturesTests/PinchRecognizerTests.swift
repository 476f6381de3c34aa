// SPDX-License-Identifier: MIT
@testable import Gestures
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

    /// Two fingers 29 mm apart, one above the other, closing to 22 mm in 300 ms while both move
    /// `travel` mm to the right. With 40 mm of travel: a scroll whose spacing drifts (a finger
    /// pressed against a pad's edge is reported moving less), past the 3 mm threshold (6 mm between
    /// two fingers), yet both go the same way. With none: a pinch of the same size.
    func closing(type: TouchType, travel: Double) -> GestureScript {
        var script = GestureScript()
        script.down(1, at: 0, x: 50, y: 40, type: type)
        script.down(2, at: 0, x: 50, y: 69, type: type)
        script.move(1, to: (50 + travel, 43.5), start: 0, duration: 300)
        script.move(2, to: (50 + travel, 65.5), start: 0, duration: 300)
        script.up(1, at: 310); script.up(2, at: 310)
        return script
    }

    @Test("a scroll whose spacing drifts 29 -> 22 mm is no pinch; a pinch of the same size is (touchscreen and touchpad)",
          arguments: [TouchType.direct, .indirect])
    func driftIsNotPinch(type: TouchType) throws {
        var scroll = defaultEngine()
        let out = scroll.run(closing(type: type, travel: 40))
        #expect(!out.gestures.contains { $0.recognizer == "pinch" })
        #expect(out.gestures.filter { $0.recognizer == "pan" }.last?.state == .ended)
        var pinch = defaultEngine()
        let pinchOut = pinch.run(closing(type: type, travel: 0)).gestures.filter { $0.recognizer == "pinch" }
        #expect(pinchOut.first?.state == .began && pinchOut.last?.state == .ended)
        #expect(abs(try #require(pinchOut.dropLast().last?.scale) - 22.0 / 29) < 1e-9)
    }

    @Test("on a touchpad a finger resting while the other moves is a scroll (libinput's resting thumb); on a touchscreen a pinch")
    func restingFinger() {
        for type in [TouchType.direct, .indirect] {
            var e = engine([RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()))])
            var script = GestureScript()
            script.down(1, at: 0, x: 50, y: 40, type: type)
            script.down(2, at: 0, x: 50, y: 60, type: type)
            script.move(2, to: (50, 75), start: 0, duration: 200)    // 15 mm away from the still finger
            script.up(1, at: 210); script.up(2, at: 210)
            let began = e.run(script).gestureOutline.first
            #expect(began == (type == .direct ? "pinch:began" : nil), "\(type)")
        }
    }

    @Test("compass points: a direction near a point has that point only, between two both; same way means shared or neighbouring points")
    func directions() {
        let east = FingerDirections.points(Point(x: 1, y: 0))
        let southEast = FingerDirections.points(Point(x: 1, y: 1))
        let between = FingerDirections.points(Point(x: 1, y: 0.41))   // 22.3 degrees: east and south-east
        #expect(east == 1 && southEast == 2 && between == 3)
        #expect(FingerDirections.points(Point(x: 0, y: -1)) == 1 << 6)                    // up on screen: north
        #expect(FingerDirections.sameWay(east, southEast))
        #expect(FingerDirections.sameWay(east, FingerDirections.points(Point(x: 1, y: -1))))  // north-east
        #expect(!FingerDirections.sameWay(east, FingerDirections.points(Point(x: 0, y: 1))))  // south: 90 degrees
        #expect(!FingerDirections.sameWay(east, FingerDirections.points(Point(x: -1, y: 0))))
        #expect(FingerDirections.sameWay(FingerDirections.points(Point(x: 1, y: -0.2)), FingerDirections.points(Point(x: 1, y: 0.2))))
    }
}
