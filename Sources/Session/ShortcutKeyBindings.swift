// SPDX-License-Identifier: MIT
import Gestures
import KeyboardKeys
import TouchCore

/// Which keys the daemon's own configuration binds to system gestures (semantics §10:
/// only the daemon's configuration can make touchd type): the shortcuts' `keys` and the
/// edge swipes' `keys`, looked up by the system gesture's name and state. Pure: the
/// daemon types what ``keys(for:)`` returns on its uinput keyboard.
package struct ShortcutKeyBindings: Hashable, Sendable {
    /// A bound key combination and when it is typed.
    package struct Binding: Hashable, Sendable {
        /// Pressed in order, released in reverse order.
        package var keys: [KeyboardKey]
        /// When it is typed.
        package var moment: ShortcutKeyMoment
    }

    /// By system recognizer name (`app-switcher`, `edge-bottom`, `edge-left-1`...).
    package private(set) var byRecognizer: [String: Binding] = [:]

    /// A bound pointer click: the button, the screen of the shortcut, when it clicks.
    package struct Click: Hashable, Sendable {
        /// The button pressed and released.
        package var button: PointerButton
        /// The shortcut's screen: its pointer is that screen's.
        package var screen: Int
        /// When it clicks.
        package var moment: ShortcutKeyMoment

        /// Creates a click binding.
        package init(button: PointerButton, screen: Int, moment: ShortcutKeyMoment) {
            self.button = button; self.screen = screen; self.moment = moment
        }
    }

    /// The shortcuts' `click`s by name.
    package private(set) var clicksByRecognizer: [String: Click] = [:]

    /// The screens some shortcut clicks on (each gets a pointer).
    package var clickScreens: Set<Int> { Set(clicksByRecognizer.values.map(\.screen)) }

    /// The bindings of a gesture configuration.
    package init(_ configuration: GestureConfiguration) {
        for s in configuration.shortcuts where !s.keys.isEmpty {
            byRecognizer[s.name] = Binding(keys: s.keys, moment: s.keysOn)
        }
        for s in configuration.shortcuts {
            if let button = s.click { clicksByRecognizer[s.name] = Click(button: button, screen: s.screen, moment: s.keysOn) }
        }
        for entry in configuration.systemGestures {
            for (edge, keys) in entry.keys where entry.edges.contains(edge) && !keys.isEmpty {
                let name = entry.screen == 0 ? "edge-\(edge.rawValue)" : "edge-\(edge.rawValue)-\(entry.screen)"
                byRecognizer[name] = Binding(keys: keys, moment: .start)
            }
        }
    }

    /// The click for a gesture event, or nil (same moments as keys).
    package func click(for event: GestureEvent) -> Click? {
        guard event.isSystem, !clicksByRecognizer.isEmpty, let c = clicksByRecognizer[event.recognizer] else { return nil }
        switch (c.moment, event.state) {
        case (_, .recognized), (.start, .began), (.end, .ended): return c
        default: return nil
        }
    }

    /// Where a click goes on its screen's pointer: the gesture's location as a fraction of the
    /// screen as the user sees it (0...1 each way; the pointer's axes span the screen, so the
    /// compositor maps it whatever the screen's turn or size).
    package static func pointerPosition(of event: GestureEvent, screenWidth: Int, screenHeight: Int) -> (x: Double, y: Double)? {
        guard screenWidth > 0, screenHeight > 0 else { return nil }
        let x = min(max(event.location.x / Double(screenWidth), 0), 1)
        let y = min(max(event.location.y / Double(screenHeight), 0), 1)
        return (x, y)
    }

    /// No key is bound: the daemon needs no keyboard.
    package var isEmpty: Bool { byRecognizer.isEmpty }

    /// The keys to type for a gesture event, or nil. Only system gestures type keys; a
    /// discrete gesture's `recognized` is both its start and its end.
    package func keys(for event: GestureEvent) -> [KeyboardKey]? {
        guard event.isSystem, !byRecognizer.isEmpty, let b = byRecognizer[event.recognizer] else { return nil }
        switch (b.moment, event.state) {
        case (_, .recognized), (.start, .began), (.end, .ended): return b.keys
        default: return nil
        }
    }
}
