// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Hover recognizer")
struct HoverRecognizerTests {
    let hover = RecognizerConfiguration(name: "hover", kind: .hover(HoverParameters()))

    @Test("a stylus in proximity: began, changed while it moves, ended when it leaves proximity; never a raw touch")
    func proximity() {
        var e = engine([hover, tap])
        var script = GestureScript()
        script.hover(7, at: 0, x: 100, y: 100)
        script.hover(7, at: 10, x: 101, y: 100)
        script.hover(7, at: 20, x: 102, y: 100)
        script.leave(7, at: 30)
        let out = e.run(script)
        #expect(out.gestureSummary == ["hover:began", "hover:changed", "hover:changed", "hover:ended"])
        #expect(out.gestures.allSatisfy { $0.touchType == .stylus && $0.kind == .hover })
        #expect(out.rawTouches.isEmpty)
        #expect(!out.debugRecords.contains { $0.recognizer == "s/tap" })
        #expect(e.isIdle)
    }

    @Test("hover ends when the stylus touches down; the contact then goes to contact recognizers")
    func touchDown() {
        var e = engine([hover, tap])
        var script = GestureScript()
        script.hover(7, at: 0, x: 100, y: 100)
        script.hover(7, at: 10, x: 100, y: 100)
        script.touchDown(7, at: 20)
        script.up(7, at: 60)
        let out = e.run(script)
        #expect(out.gestureSummary == ["hover:began", "hover:changed", "hover:ended", "tap:recognized"])
        #expect(out.gestures.last?.touchType == .stylus)
    }

    @Test("§1 a hover cancelled upstream cancels the hover gesture")
    func cancelled() {
        var e = engine([hover])
        var script = GestureScript()
        script.hover(7, at: 0, x: 100, y: 100)
        script.cancel(7, at: 10)
        #expect(e.run(script).gestureSummary == ["hover:began", "hover:cancelled"])
    }
}
