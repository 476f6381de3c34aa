// SPDX-License-Identifier: MIT
import Gestures
import KeyboardKeys
import Session
import Testing
import TouchCore

/// Only the daemon's configuration makes touchd type (semantics §10.3): the bindings answer for
/// the system's own gestures only, at the configured moment.
@Suite("Shortcut key bindings")
struct ShortcutKeyBindingsTests {
    static let keys = [KeyboardKey(name: "KEY_LEFTMETA")!, KeyboardKey(name: "KEY_TAB")!]

    func event(_ recognizer: String, _ state: GestureState, kind: GestureKind = .swipe, owner: String = "system", system: Bool = true) -> GestureEvent {
        GestureEvent(time: .zero, device: DeviceID(0), surface: nil, owner: owner, recognizer: recognizer, kind: kind, state: state,
                     touches: 3, touchType: .direct, location: .zero, isSystem: system)
    }

    func bindings(keysOn: ShortcutKeyMoment = .start) -> ShortcutKeyBindings {
        var edges = SystemGestureConfiguration(screen: 1, edges: [.bottom, .left])
        edges.keys = [.bottom: [KeyboardKey(name: "KEY_HOMEPAGE")!], .top: [KeyboardKey(name: "KEY_A")!]]
        return ShortcutKeyBindings(GestureConfiguration(
            systemGestures: [edges],
            shortcuts: [
                ShortcutConfiguration(recognizer: RecognizerConfiguration(name: "app-switcher", kind: .swipe(SwipeParameters())), keys: Self.keys, keysOn: keysOn),
                ShortcutConfiguration(recognizer: RecognizerConfiguration(name: "silent", kind: .pan(PanParameters()))),
            ]))
    }

    @Test("a system shortcut's start types its keys; a client's recognizer of the same name never does")
    func onlyTheSystem() {
        let b = bindings()
        #expect(b.keys(for: event("app-switcher", .recognized)) == Self.keys)
        #expect(b.keys(for: event("app-switcher", .recognized, owner: "client-1", system: false)) == nil)
        #expect(b.keys(for: event("silent", .began, kind: .pan)) == nil)
        #expect(Set(b.byRecognizer.keys) == ["app-switcher", "edge-bottom-1"])   // the top edge is not enabled
    }

    @Test("keysOn start types on began or recognized; end on ended or recognized; never on changed or cancelled")
    func moments() {
        let start = bindings(keysOn: .start), end = bindings(keysOn: .end)
        #expect(start.keys(for: event("app-switcher", .began, kind: .pan)) == Self.keys)
        #expect(start.keys(for: event("app-switcher", .ended, kind: .pan)) == nil)
        #expect(end.keys(for: event("app-switcher", .began, kind: .pan)) == nil)
        #expect(end.keys(for: event("app-switcher", .ended, kind: .pan)) == Self.keys)
        #expect(end.keys(for: event("app-switcher", .recognized)) == Self.keys)
        for state in [GestureState.changed, .cancelled] {
            #expect(start.keys(for: event("app-switcher", state, kind: .pan)) == nil)
            #expect(end.keys(for: event("app-switcher", state, kind: .pan)) == nil)
        }
        #expect(start.keys(for: event("edge-bottom-1", .began, kind: .edgeSwipe)) == [KeyboardKey(name: "KEY_HOMEPAGE")!])
    }
}
