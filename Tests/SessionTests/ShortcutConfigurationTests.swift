// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Session
import Testing
import TouchCore

/// `shortcuts:` in touchd.yaml (semantics §10, docs/shortcuts.md): decoded, checked, and errors naming the key.
@Suite("Shortcut configuration")
struct ShortcutConfigurationTests {
    func parse(_ yaml: String) throws(ConfigurationError) -> TouchdConfiguration {
        try TouchdConfiguration.parse(yaml: yaml, file: "touchd.yaml")
    }

    func error(_ yaml: String) -> ConfigurationError? {
        do { _ = try parse(yaml); return nil } catch { return error }
    }

    @Test("the issue's minimal shortcut decodes as a system-owned three-finger swipe that claims its touches")
    func minimal() throws {
        let c = try parse("shortcuts:\n  - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right]}\n")
        let s = try #require(c.gestures.shortcuts.first)
        #expect(s.name == "app-switcher" && s.screen == 0 && s.keys.isEmpty && s.keysOn == .start)
        #expect(s.recognizer.claimsTouches)
        guard case .swipe(let p) = s.recognizer.kind else { Issue.record("not a swipe: \(s.recognizer.kind)"); return }
        #expect(p.minTouches == 3 && p.maxTouches == 3 && p.directions == [.left, .right])
        // The built-in surfaces and edge swipes stay.
        #expect(c.gestures.surfaces.count == 1 && c.gestures.systemGestures.count == 1)
    }

    @Test("keys by the kernel's names (or short names), keysOn, screen, and edge swipes' keys")
    func keys() throws {
        let c = try parse("""
        screens:
          - {name: a, width: 800, height: 480}
          - {name: b, width: 800, height: 480}
        shortcuts:
          - {name: switcher, kind: swipe, minTouches: 3, maxTouches: 3, keys: [KEY_LEFTMETA, tab], keysOn: end, screen: 1}
        systemGestures:
          - {screen: 0, keys: {bottom: [KEY_HOMEPAGE]}}
        """)
        let s = try #require(c.gestures.shortcuts.first)
        #expect(s.keys.map(\.name) == ["KEY_LEFTMETA", "KEY_TAB"] && s.keys.map(\.code) == [125, 15])
        #expect(s.keysOn == .end && s.screen == 1)
        #expect(c.gestures.systemGestures.first { $0.screen == 0 }?.keys[.bottom]?.map(\.code) == [172])
    }

    @Test("bad shortcuts are refused with the key at fault")
    func errors() throws {
        let hover = try #require(error("shortcuts:\n  - {name: h, kind: hover}\n"))
        #expect(hover.description.contains("shortcuts[0]") && hover.message.contains("cannot be a shortcut"), "\(hover)")
        let key = try #require(error("shortcuts:\n  - {name: s, kind: tap, keys: [KEY_NOPE]}\n"))
        #expect(key.description.contains("shortcuts[0].keys") && key.message.contains("KEY_NOPE"), "\(key)")
        let unknown = try #require(error("shortcuts:\n  - {name: s, kind: tap, key: [KEY_A]}\n"))
        #expect(unknown.message.contains("unknown key 'key'") && unknown.path.hasPrefix("shortcuts[0]") && unknown.message.contains("did you mean 'keys'"), "\(unknown)")
        let edgeName = try #require(error("shortcuts:\n  - {name: edge-bottom, kind: tap}\n"))
        #expect(edgeName.path == "shortcuts[0].name" && edgeName.line == 2 && edgeName.message.contains("edge-bottom"), "\(edgeName)")
        let twice = try #require(error("shortcuts:\n  - {name: s, kind: tap}\n  - {name: s, kind: swipe}\n"))
        #expect(twice.path == "shortcuts[1].name" && twice.line == 3, "\(twice)")
        let screen = try #require(error("shortcuts:\n  - {name: s, kind: tap, screen: 2}\n"))
        #expect(screen.path == "shortcuts[0].screen" && screen.line == 2 && screen.message.contains("no screen 2"), "\(screen)")
        let requirement = try #require(error("shortcuts:\n  - {name: s, kind: tap, requiresFailureOf: [nothing]}\n"))
        #expect(requirement.path == "shortcuts[0].requiresFailureOf" && requirement.line == 2, "\(requirement)")
        let edgeKeys = try #require(error("systemGestures:\n  - {keys: {middle: [KEY_A]}}\n"))
        #expect(edgeKeys.message.contains("middle"), "\(edgeKeys)")
        let repeated = try #require(error("shortcuts:\n  - {name: s, kind: tap, keys: [KEY_A, KEY_A]}\n"))
        #expect(repeated.message.contains("twice"), "\(repeated)")
    }

    @Test("a shortcut may require another system recognizer's failure (a three-finger tap that waits for a double tap)")
    func relations() throws {
        let c = try parse("""
        shortcuts:
          - {name: one, kind: tap, minTouches: 3, maxTouches: 3, requiresFailureOf: [two]}
          - {name: two, kind: tap, taps: 2, minTouches: 3, maxTouches: 3}
        """)
        #expect(c.gestures.shortcuts.map(\.name) == ["one", "two"])
    }

    @Test("docs/examples/kiosk-touchd.yaml parses: pass-through, two edges with keys, three shortcuts (the on-screen keyboard's)")
    func kioskExample() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let c = try TouchdConfiguration.load(path: root + "/docs/examples/kiosk-touchd.yaml")
        #expect(c.devices.first?.passThrough == true)
        let edges = try #require(c.gestures.systemGestures.first)
        #expect(edges.edges == [.bottom, .left] && edges.keys[.left]?.map(\.name) == ["KEY_LEFTALT", "KEY_LEFT"])
        #expect(c.gestures.shortcuts.map(\.name) == ["app-switcher", "brightness", "keyboard"])
        let bindings = ShortcutKeyBindings(c.gestures)
        #expect(Set(bindings.byRecognizer.keys) == ["edge-bottom", "edge-left", "app-switcher"])
    }
}
