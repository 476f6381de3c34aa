// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Edge-pan recognizer")
struct EdgePanRecognizerTests {
    let edgePan = RecognizerConfiguration(name: "drawer", kind: .edgePan(EdgePanParameters(edges: [.left, .bottom])))

    @Test("a pan starting within the edge zone and moving inwards begins, reporting its edge")
    func fromLeft() {
        var e = engine([edgePan])
        var script = GestureScript()
        strokeScript(&script, x: 2, y: 100, dx: 40, dy: 3, duration: 150)
        let out = e.run(script)
        #expect(out.gestureOutline == ["drawer:began", "drawer:changed", "drawer:ended"])
        #expect(out.gestures.allSatisfy { $0.edge == .left && $0.kind == .edgePan })
        var bottom = GestureScript()
        strokeScript(&bottom, at: 1000, x: 200, y: 298, dx: 0, dy: -30, duration: 150)
        #expect(e.run(bottom).gestures.first?.edge == .bottom)
    }

    @Test("outside the zone, on an unlisted edge, or moving along the edge: no edge pan")
    func failures() {
        var e = engine([edgePan])
        var middle = GestureScript()
        strokeScript(&middle, x: 50, y: 100, dx: 40, dy: 0, duration: 150)
        #expect(e.run(middle).gestures.isEmpty)
        var right = GestureScript()
        strokeScript(&right, at: 1000, x: 398, y: 100, dx: -40, dy: 0, duration: 150)
        #expect(e.run(right).gestures.isEmpty)
        var along = GestureScript()
        strokeScript(&along, at: 2000, x: 2, y: 100, dx: 0, dy: 40, duration: 150)
        #expect(e.run(along).gestures.isEmpty)
    }
}
