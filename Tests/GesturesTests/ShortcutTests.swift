// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

/// Semantics §10: system shortcuts, arbitrated against an app's recognizers.
@Suite("System shortcuts (semantics §10)")
struct ShortcutTests {
    static let appSwitcher = ShortcutConfiguration(recognizer: RecognizerConfiguration(
        name: "app-switcher", kind: .swipe(SwipeParameters(directions: [.left, .right], minTouches: 3, maxTouches: 3))))

    /// An app surface `s` with a pan and a swipe (simultaneous), no system edges, and `shortcuts`.
    func appWithShortcuts(_ shortcuts: [ShortcutConfiguration], screens: [ScreenGeometry] = [testScreen]) -> Engine {
        var c = oneSurface([
            RecognizerConfiguration(name: "pan", kind: .pan(PanParameters(minTouches: 1, maxTouches: 5)), simultaneousWith: .names(["swipe"])),
            RecognizerConfiguration(name: "swipe", kind: .swipe(SwipeParameters(minTouches: 1, maxTouches: 5))),
        ])
        c.screens = screens
        c.shortcuts = shortcuts
        var e = Engine(configuration: c)
        e.mirroredDevices = [DeviceID(0)]
        return e
    }

    /// `count` fingers 15 mm apart, down together at (100, 100) mm, moving `dx` mm in 150 ms.
    func fingers(_ count: Int, dx: Double, screen: Int = 0) -> GestureScript {
        var script = GestureScript()
        script.screen = screen
        for f in 1...count { script.down(f, at: 0, x: 100, y: 100 + Double(f) * 15) }
        for f in 1...count { script.move(f, to: (100 + dx, 100 + Double(f) * 15), start: 0, duration: 150) }
        for f in 1...count { script.up(f, at: 170) }
        return script
    }

    @Test("§10 a three-finger swipe while the app pans: the shortcut is recognized, the app's pan and raw stream are cancelled, the mirror's touches too")
    func threeFingerSwipeWins() throws {
        var e = appWithShortcuts([Self.appSwitcher])
        let out = e.run(fingers(3, dx: 40))
        let outline = out.gestureOutline
        #expect(outline.contains("app-switcher:recognized"))
        // The app followed the touches while the shortcut was undecided (no delay) ...
        let panBegan = try #require(outline.firstIndex(of: "pan:began"))
        let shortcut = try #require(outline.firstIndex(of: "app-switcher:recognized"))
        #expect(panBegan < shortcut)
        // ... and lost them when it was recognized.
        #expect(outline.last == "pan:cancelled")
        #expect(!outline.contains("swipe:recognized"))
        let event = try #require(out.gestures.first { $0.recognizer == "app-switcher" })
        #expect(event.isSystem && event.owner == "system" && event.surface == nil && event.kind == .swipe)
        #expect(event.direction == .right && event.touches == 3)
        // Raw streams and the mirror: began, moved, then cancelled, for each of the three touches.
        for id in 1...3 {
            #expect(out.rawOutline.filter { $0.hasPrefix("s:\(id):") }.last == "s:\(id):cancelled")
            #expect(out.mirrorOutline.filter { $0.hasPrefix("\(id):") }.last == "\(id):cancelled")
        }
        #expect(e.isIdle)
    }

    @Test("§9.5 a shortcut takes its touches from the mirror in one frame: the mirror's cancel then ends every touch the app has, and no other (MirrorEventWriter cancels only then)")
    func shortcutTakesAllInOneFrame() throws {
        var e = appWithShortcuts([Self.appSwitcher])
        let out = e.run(fingers(3, dx: 40))
        let cancelled = out.mirrorEvents.filter { $0.phase == .cancelled }
        #expect(Set(cancelled.map(\.touch.id.rawValue)) == [1, 2, 3])
        #expect(Set(cancelled.map(\.time)).count == 1, "\(cancelled.map(\.time))")
        // Nothing of another touch between them: they come as one run of the frame's mirror events.
        let outline = out.mirrorOutline
        let first = try #require(outline.firstIndex { $0.hasSuffix(":cancelled") })
        #expect(outline[first..<(first + 3)].allSatisfy { $0.hasSuffix(":cancelled") }, "\(outline)")
    }

    @Test("§10 a two-finger swipe stays the app's: the three-finger shortcut fails, and the app gets what it gets without it")
    func twoFingerSwipeIsTheApps() {
        var e = appWithShortcuts([Self.appSwitcher])
        let out = e.run(fingers(2, dx: 40))
        #expect(!out.gestures.contains { $0.isSystem })
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "swipe:recognized", "pan:changed", "pan:ended"])
        #expect(out.mirrorOutline.filter { $0.hasSuffix(":cancelled") }.isEmpty)
        // Exactly what the app gets with no shortcut configured (its own pan cancels its raw stream).
        var without = appWithShortcuts([])
        let reference = without.run(fingers(2, dx: 40))
        #expect(out.gestureSummary == reference.gestureSummary)
        #expect(out.rawSummary == reference.rawSummary)
        #expect(out.mirrorOutline == reference.mirrorOutline)
        #expect(e.isIdle)
    }

    @Test("§10 a shortcut in the wrong direction fails and leaves the touches to the app")
    func wrongDirection() {
        var e = appWithShortcuts([Self.appSwitcher])
        var script = GestureScript()
        for f in 1...3 { script.down(f, at: 0, x: 100 + Double(f) * 15, y: 200) }
        for f in 1...3 { script.move(f, to: (100 + Double(f) * 15, 160), start: 0, duration: 150) }
        for f in 1...3 { script.up(f, at: 170) }
        let out = e.run(script)
        #expect(!out.gestures.contains { $0.isSystem })
        #expect(out.gestureOutline.last == "pan:ended")
    }

    @Test("§10 a shortcut takes only the touches of its screen")
    func otherScreen() {
        let second = ScreenGeometry(width: 2000, height: 1500, pixelsPerMillimetre: 5)
        var onSecond = Self.appSwitcher
        onSecond.screen = 1
        var e = appWithShortcuts([onSecond], screens: [testScreen, second])
        let first = e.run(fingers(3, dx: 40))
        #expect(!first.gestures.contains { $0.isSystem })
        var e2 = Engine(configuration: GestureConfiguration(screens: [testScreen, second], shortcuts: [onSecond]))
        let out = e2.run(fingers(3, dx: 40, screen: 1))
        #expect(out.gestureSummary == ["app-switcher:recognized"])
    }

    @Test("§10 a continuous shortcut (four-finger pinch) begins, changes and ends, and cancels the app's pan when it begins")
    func continuousShortcut() throws {
        let overview = ShortcutConfiguration(recognizer: RecognizerConfiguration(
            name: "overview", kind: .pinch(PinchParameters(minTouches: 4, maxTouches: 4))))
        var e = appWithShortcuts([overview])
        var script = GestureScript()
        let centre = (x: 200.0, y: 150.0)
        let offsets = [(-30.0, 0.0), (30.0, 0.0), (0.0, -30.0), (0.0, 30.0)]
        for (f, o) in offsets.enumerated() { script.down(f + 1, at: 0, x: centre.x + o.0, y: centre.y + o.1) }
        for (f, o) in offsets.enumerated() { script.move(f + 1, to: (centre.x + o.0 / 3, centre.y + o.1 / 3), start: 0, duration: 300) }
        for f in 1...4 { script.up(f, at: 320) }
        let out = e.run(script)
        let system = out.gestures.filter { $0.isSystem }.map { "\($0.recognizer):\($0.state.rawValue)" }
        #expect(system.first == "overview:began" && system.last == "overview:ended")
        let scale = try #require(out.gestures.last { $0.recognizer == "overview" }?.scale)
        #expect(scale < 0.5)
        #expect(!out.gestures.contains { !$0.isSystem && $0.state == .ended })
    }
}
