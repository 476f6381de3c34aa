import Gestures
import TouchCore

/// Which keys the daemon's own configuration binds to system gestures (semantics §10:
/// only the daemon's configuration can make touchd type): the shortcuts' `keys` and the
/// edge swipes' `keys`, looked up by the system gesture's name and state. Pure: the
/// daemon types what ``keys(for:)`` returns on its uinput keyboard.
public struct ShortcutKeyBindings: Hashable, Sendable {
    /// A bound key combination and when it is typed.
    public struct Binding: Hashable, Sendable {
        /// Pressed in order, released in reverse order.
        public var keys: [KeyboardKey]
        /// When it is typed.
        public var moment: ShortcutKeyMoment
    }

    /// By system recognizer name (`app-switcher`, `edge-bottom`, `edge-left-1`...).
    public private(set) var byRecognizer: [String: Binding] = [:]

    /// The bindings of a gesture configuration.
    public init(_ configuration: GestureConfiguration) {
        for s in configuration.shortcuts where !s.keys.isEmpty {
            byRecognizer[s.name] = Binding(keys: s.keys, moment: s.keysOn)
        }
        for entry in configuration.systemGestures {
            for (edge, keys) in entry.keys where entry.edges.contains(edge) && !keys.isEmpty {
                let name = entry.screen == 0 ? "edge-\(edge.rawValue)" : "edge-\(edge.rawValue)-\(entry.screen)"
                byRecognizer[name] = Binding(keys: keys, moment: .start)
            }
        }
    }

    /// No key is bound: the daemon needs no keyboard.
    public var isEmpty: Bool { byRecognizer.isEmpty }

    /// The keys to type for a gesture event, or nil. Only system gestures type keys; a
    /// discrete gesture's `recognized` is both its start and its end.
    public func keys(for event: GestureEvent) -> [KeyboardKey]? {
        guard event.isSystem, !byRecognizer.isEmpty, let b = byRecognizer[event.recognizer] else { return nil }
        switch (b.moment, event.state) {
        case (_, .recognized), (.start, .began), (.end, .ended): return b.keys
        default: return nil
        }
    }
}
