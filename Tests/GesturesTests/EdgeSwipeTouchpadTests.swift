// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

/// Semantics §6 and issue 48: system edge swipes on touchpads (off unless a screen's
/// `systemGestures` entry says `touchpads: true`), and on every device the rule that an edge
/// swipe never begins while another touch of the same device is part of a multi-finger gesture.
@Suite("System edge swipes: touchpads and multi-finger gestures")
struct EdgeSwipeTouchpadTests {
    /// A 100 x 75 mm touchpad mapped onto `testScreen` (2000 x 1500 px, 5 px/mm): 20 px per pad mm,
    /// so the screen's 5 mm edge zone (25 px) is 1.25 mm of pad.
    func padScript() -> GestureScript { GestureScript(pixelsPerMillimetre: 20) }

    /// Two fingers 25 mm apart scrolling left to right from the pad's left border: the trailing
    /// finger lands 0.4 mm from the edge; `lead` ms after the leading one (0: together). Both then
    /// move `travel` mm in 400 ms.
    func edgeScroll(_ script: inout GestureScript, type: TouchType, lead: Double, travel: Double = 60) {
        script.down(1, at: 0, x: 25.4, y: 30, type: type)
        script.move(1, to: (25.4 + travel * lead / 400, 30), start: 0, duration: lead)
        script.down(2, at: lead, x: 0.4, y: 34, type: type)
        script.move(1, to: (25.4 + travel, 30), start: lead, duration: 400 - lead)
        script.move(2, to: (0.4 + travel * (400 - lead) / 400, 34), start: lead, duration: 400 - lead)
        script.up(1, at: 410); script.up(2, at: 410)
    }

    func touchpadEngine(touchpads: Bool) -> Engine {
        Engine(configuration: GestureConfiguration(
            surfaces: GestureConfiguration.default(screens: [testScreen]).surfaces, screens: [testScreen],
            systemGestures: [{ var g = SystemGestureConfiguration(); g.touchpads = touchpads; return g }()]))
    }

    /// One finger swiping in from the pad's left border, 0.4 mm from it, 30 mm in 200 ms.
    func borderSwipe() -> GestureScript {
        var script = padScript()
        script.down(1, at: 0, x: 0.4, y: 40, type: .indirect)
        script.move(1, to: (30, 40), start: 0, duration: 200)
        script.up(1, at: 210)
        return script
    }

    @Test("a touchpad starts no edge swipe by default, even a one-finger swipe in from its very border")
    func offByDefault() {
        var e = touchpadEngine(touchpads: false)
        let out = e.run(borderSwipe())
        #expect(!out.gestures.contains { $0.isSystem })
        #expect(out.gestureOutline.first == "pan:began")
        #expect(out.debugLines.contains { $0.hasSuffix("system:edge-left: refused touch (touch type indirect not allowed)") })
        // The built-in configuration has the same default.
        #expect(GestureConfiguration.default(screens: [testScreen]).systemGestures.allSatisfy { !$0.touchpads })
    }

    @Test("with touchpads: true a one-finger swipe in from the pad's border is the system's")
    func optIn() {
        var e = touchpadEngine(touchpads: true)
        let out = e.run(borderSwipe())
        #expect(out.gestureOutline == ["edge-left:began", "edge-left:changed", "edge-left:ended"])
    }

    @Test("a two-finger scroll whose trailing finger lands at the pad's border stays a scroll to its end",
          arguments: [0.0, 40.0, 100.0])
    func touchpadScrollFromTheBorder(lead: Double) throws {
        for touchpads in [false, true] {
            var e = touchpadEngine(touchpads: touchpads)
            var script = padScript()
            edgeScroll(&script, type: .indirect, lead: lead)
            let out = e.run(script)
            #expect(!out.gestures.contains { $0.isSystem }, "touchpads: \(touchpads), lead \(lead) ms")
            let pans = out.gestures.filter { $0.recognizer == "pan" }
            #expect(pans.first?.state == .began && pans.last?.state == .ended)
            #expect(!pans.contains { $0.state == .cancelled })
            // The whole travel: 60 mm of pad at 20 px/mm (the leading finger's first stretch alone, then both).
            let translation = try #require(pans.last?.translation)
            #expect(abs(translation.x - 60 * 20) < 0.001 && abs(translation.y) < 0.001, "touchpads: \(touchpads), lead \(lead) ms")
            #expect(!out.gestures.contains { $0.recognizer == "pinch" })
            if touchpads {
                // The first recognizer in play holding both fingers is named (the tap's or the pan's).
                #expect(out.debugLines.contains { $0.contains("system:edge-left: fails: another touch of the device is in a multi-finger gesture (screen/") })
            }
        }
    }

    @Test("on a touchscreen too: a two-finger pan whose second finger lands in an edge zone is not cut by the edge swipe")
    func touchscreenScrollFromTheEdge() throws {
        var e = defaultEngine()
        var script = GestureScript()
        script.down(1, at: 0, x: 30, y: 150)
        script.move(1, to: (34, 150), start: 0, duration: 30)
        script.down(2, at: 30, x: 1, y: 160)
        script.move(1, to: (94, 150), start: 30, duration: 300)
        script.move(2, to: (61, 160), start: 30, duration: 300)
        script.up(1, at: 340); script.up(2, at: 340)
        let out = e.run(script)
        #expect(!out.gestures.contains { $0.isSystem })
        let pans = out.gestures.filter { $0.recognizer == "pan" }
        #expect(pans.first?.state == .began && pans.last?.state == .ended)
        #expect(abs(try #require(pans.last?.translation).x - 64 * 5) < 0.001)
        #expect(out.debugLines.contains { $0.hasSuffix("system:edge-left: fails: another touch of the device is in a multi-finger gesture (screen/pan)") })
    }

    @Test("a finger of another device does not keep an edge swipe from beginning")
    func otherDevice() {
        var e = defaultEngine()
        var a = GestureScript(device: DeviceID(1))
        a.down(1, at: 0, x: 30, y: 150)
        a.move(1, to: (90, 150), start: 0, duration: 300)
        a.up(1, at: 310)
        var b = GestureScript(device: DeviceID(2))
        b.down(7, at: 0, x: 30, y: 170)
        b.move(7, to: (90, 170), start: 0, duration: 300)
        b.up(7, at: 310)
        b.down(8, at: 50, x: 1, y: 100)
        b.move(8, to: (40, 100), start: 50, duration: 150)
        b.up(8, at: 210)
        // Device 2's own second finger (7) is in the app's pan with 8: blocked. Device 1 alone: the
        // same stroke from the edge while device 2 pans elsewhere begins.
        let blocked = e.run(b)
        #expect(!blocked.gestures.contains { $0.isSystem })
        var e2 = defaultEngine()
        var c = GestureScript(device: DeviceID(2))
        c.down(8, at: 50, x: 1, y: 100)
        c.move(8, to: (40, 100), start: 50, duration: 150)
        c.up(8, at: 210)
        var frames = a.frames + c.frames
        frames.sort { $0.time < $1.time }
        var out: [EngineOutput] = []
        for f in frames { e2.handle(f, into: &out) }
        #expect(out.gestureOutline.contains("edge-left:began"))
    }
}
