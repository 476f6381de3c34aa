// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

/// Semantics §13: while the session is locked (or not the seat's), the system's shortcuts and edge
/// swipes are off unless marked `whenLocked`, and the app beneath (the locker) gets the touches.
@Suite("The locked session (semantics §13)")
struct LockedSessionEngineTests {
    let shortcuts = ShortcutTests()

    /// Three fingers swiping right 40 mm, from `second` on (an engine's later touch sequences start later).
    func threeFingers(at second: Int64) -> GestureScript {
        var script = GestureScript(origin: Timestamp(seconds: second, microseconds: 0))
        for f in 1...3 { script.down(f, at: 0, x: 100, y: 100 + Double(f) * 15) }
        for f in 1...3 { script.move(f, to: (140, 100 + Double(f) * 15), start: 0, duration: 150) }
        for f in 1...3 { script.up(f, at: 170) }
        return script
    }

    @Test("§13 quiet: a three-finger swipe is not the shortcut's; the app gets exactly what it gets without shortcuts")
    func quietShortcutLeavesTouchesToTheApp() {
        var e = shortcuts.appWithShortcuts([ShortcutTests.appSwitcher])
        #expect(e.setSessionQuiet(true).isEmpty)
        #expect(e.sessionQuiet)
        let out = e.run(shortcuts.fingers(3, dx: 40))
        #expect(!out.gestures.contains { $0.isSystem })
        var without = shortcuts.appWithShortcuts([])
        let reference = without.run(shortcuts.fingers(3, dx: 40))
        #expect(out.gestureSummary == reference.gestureSummary)
        #expect(out.rawSummary == reference.rawSummary)
        #expect(out.mirrorOutline == reference.mirrorOutline)
        #expect(e.isIdle)
    }

    @Test("§13 a shortcut marked whenLocked stays on while quiet; the others come back when the session is unlocked")
    func whenLockedAndBack() {
        var unlock = ShortcutTests.appSwitcher
        unlock.whenLocked = true
        var e = shortcuts.appWithShortcuts([unlock])
        e.setSessionQuiet(true)
        #expect(e.run(shortcuts.fingers(3, dx: 40)).gestureOutline.contains("app-switcher:recognized"))

        var f = shortcuts.appWithShortcuts([ShortcutTests.appSwitcher])
        f.setSessionQuiet(true)
        #expect(!f.run(threeFingers(at: 1)).gestureOutline.contains("app-switcher:recognized"))
        f.setSessionQuiet(false)
        #expect(f.run(threeFingers(at: 10)).gestureOutline.contains("app-switcher:recognized"))
    }

    @Test("§13 locking while a shortcut is engaged cancels it")
    func lockingCancelsAnEngagedShortcut() {
        let volume = ShortcutConfiguration(recognizer: RecognizerConfiguration(
            name: "volume", kind: .pan(PanParameters(minTouches: 3, maxTouches: 3))))
        var e = shortcuts.appWithShortcuts([volume])
        var script = GestureScript()
        for f in 1...3 { script.down(f, at: 0, x: 100, y: 100 + Double(f) * 15) }
        for f in 1...3 { script.move(f, to: (140, 100 + Double(f) * 15), start: 0, duration: 150) }
        let first = e.run(script)
        #expect(first.gestureOutline.contains("volume:began"))
        let out = e.setSessionQuiet(true)
        #expect(out.gestureOutline.contains("volume:cancelled"))
    }

    @Test("§13 quiet: no edge swipe but those marked whenLocked; a swipe up from the bottom is the app's")
    func edgeSwipes() {
        var quiet = defaultEngine()
        quiet.setSessionQuiet(true)
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        let out = quiet.run(script)
        #expect(!out.gestures.contains { $0.isSystem })
        #expect(out.gestureOutline.first == "pan:began")
        #expect(!out.rawTouches.isEmpty)

        var c = GestureConfiguration.default(screens: [testScreen])
        c.systemGestures[0].whenLocked = [.bottom]
        var marked = Engine(configuration: c)
        marked.setSessionQuiet(true)
        #expect(marked.run(script).gestureOutline == ["edge-bottom:began", "edge-bottom:changed", "edge-bottom:ended"])
        var left = GestureScript(origin: Timestamp(seconds: 10, microseconds: 0))
        strokeScript(&left, 1, at: 0, x: 1, y: 150, dx: 60, dy: 0, duration: 200)
        #expect(!marked.run(left).gestures.contains { $0.isSystem })
    }
}
