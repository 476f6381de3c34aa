// SPDX-License-Identifier: MIT
import KeyboardKeys
import TouchCore

// System shortcuts (semantics section 10): recognizers the administrator gives the system on a
// screen, arbitrated like the edge swipes' siblings. Reference: docs/shortcuts.md.

/// When a shortcut's keys are typed.
package enum ShortcutKeyMoment: String, Hashable, Sendable, CaseIterable, Codable {
    /// When the gesture begins (continuous kinds) or is recognized (tap, swipe): the default.
    case start
    /// When the gesture ends (continuous kinds) or is recognized (tap, swipe): lisgd's "on release".
    case end

    /// Decodes `start` or `end`, naming both when the text is neither.
    package init(from decoder: any Decoder) throws {
        self = try Self.decodeNamingCases(from: decoder)
    }
}

extension CaseIterable where Self: RawRepresentable, RawValue == String {
    /// Decodes one of the cases by its name; any other text is refused naming
    /// every allowed one (`expected left, right or middle, got 'double'`),
    /// where Swift's synthesized decoding would only say the raw value is invalid.
    static func decodeNamingCases(from decoder: any Decoder) throws -> Self {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        guard let value = Self(rawValue: text) else {
            let names = allCases.map(\.rawValue)
            let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names.joined()
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected \(list), got '\(text)'")
        }
        return value
    }
}

/// A pointer button a shortcut clicks on touchd's own uinput pointer (`click`): the secondary
/// click for apps without touch support (a long press or a two-finger tap as a right click).
package enum PointerButton: String, Hashable, Sendable, CaseIterable, Codable {
    case left, right, middle

    /// Decodes `left`, `right` or `middle`, naming all three when the text is none.
    package init(from decoder: any Decoder) throws {
        self = try Self.decodeNamingCases(from: decoder)
    }

    /// The evdev code (`BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE`).
    package var code: UInt16 {
        switch self {
        case .left: return EventCode.btnLeft
        case .right: return EventCode.btnRight
        case .middle: return EventCode.btnMiddle
        }
    }
}

/// One system shortcut: a recognizer owned by `system` on one screen, in play for every touch there.
///
/// Decoded from a recognizer mapping (`name`, `kind`, the kind's parameters and the common keys)
/// with more keys: `apps`, `notApps` and `fullScreen` (which focused apps it acts over, ``AppCondition``), `whenLocked` (stays on while the session is locked), `screen` (index, default 0), `keys` (a key combination such as
/// `[KEY_LEFTMETA, KEY_TAB]` that touchd types on its own uinput keyboard) and `keysOn`
/// (`start` or `end`). A shortcut always claims its touches when it begins (``RecognizerConfiguration/claimsTouches``).
package struct ShortcutConfiguration: Hashable, Sendable, Codable {
    /// The recognizer; its name is the shortcut's name, carried by its events as `recognizer`.
    package var recognizer: RecognizerConfiguration
    /// The screen whose touches it takes.
    package var screen: Int
    /// Keys pressed in order and released in reverse order when it fires (empty: none).
    package var keys: [KeyboardKey]
    /// When the keys are typed.
    package var keysOn: ShortcutKeyMoment
    /// Whether it stays on while the session is locked or not the seat's (semantics section 13):
    /// an unlock or emergency gesture. Off by default: on a locked screen the locker gets the touches.
    package var whenLocked: Bool
    /// A button clicked at the gesture's location on touchd's pointer when it fires (at
    /// `keysOn`'s moment), for the app beneath: `right` turns a long press into a context menu.
    package var click: PointerButton?
    /// Which focused apps it acts over (`apps`, `notApps`, `fullScreen`); off elsewhere: not
    /// recognized, takes no touch, types no key and clicks nothing.
    package var condition = AppCondition()

    /// Kinds a shortcut may have: what takes touches on a screen (not hover; `edge-swipe` is
    /// `systemGestures`'; a drag's pick-up is an app's business).
    package static let kinds: [RecognizerKind] = [.tap, .longPress, .pan, .swipe, .pinch, .rotate, .edgePan]

    /// Creates a shortcut; the recognizer is made to claim its touches.
    package init(recognizer: RecognizerConfiguration, screen: Int = 0, keys: [KeyboardKey] = [], keysOn: ShortcutKeyMoment = .start,
                whenLocked: Bool = false) {
        var r = recognizer
        r.claimsTouches = true
        self.recognizer = r
        self.screen = screen
        self.keys = keys
        self.keysOn = keysOn
        self.whenLocked = whenLocked
    }

    /// The shortcut's name.
    package var name: String { recognizer.name }

    enum CodingKeys: String, CodingKey, CaseIterable { case screen, keys, keysOn, whenLocked, click, apps, notApps, fullScreen }

    /// Decodes a recognizer mapping with `screen`, `keys` and `keysOn`.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var r = try RecognizerConfiguration(from: decoder, alsoKnown: CodingKeys.allCases.map(\.stringValue), what: "shortcut")
        let kind = r.kind.gestureKind
        if !Self.kinds.contains(kind) {
            let tag = try decoder.container(keyedBy: RecognizerConfiguration.Kind.TagKey.self)
            throw DecodingError.dataCorruptedError(
                forKey: .kind, in: tag,
                debugDescription: "kind '\(kind.rawValue)' cannot be a shortcut (one of \(Self.kinds.map(\.rawValue).joined(separator: ", ")))")
        }
        r.claimsTouches = true
        recognizer = r
        screen = try c.decodeIfPresent(Int.self, forKey: .screen) ?? 0
        try require(screen >= 0, CodingKeys.screen, c, "must not be negative")
        keys = try c.decodeIfPresent([KeyName].self, forKey: .keys)?.map(\.key) ?? []
        try require(Set(keys).count == keys.count, CodingKeys.keys, c, "names a key twice")
        try require(keys.count <= 8, CodingKeys.keys, c, "has more than 8 keys")
        keysOn = try c.decodeIfPresent(ShortcutKeyMoment.self, forKey: .keysOn) ?? .start
        whenLocked = try c.decodeIfPresent(Bool.self, forKey: .whenLocked) ?? false
        click = try c.decodeIfPresent(PointerButton.self, forKey: .click)
        condition = try AppCondition.decode(c, apps: .apps, notApps: .notApps, fullScreen: .fullScreen)
    }

    /// Encodes the recognizer's keys and the shortcut's.
    package func encode(to encoder: any Encoder) throws {
        try recognizer.encode(to: encoder)
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(screen, forKey: .screen)
        if !keys.isEmpty { try c.encode(keys.map(\.name), forKey: .keys) }
        try c.encode(keysOn, forKey: .keysOn)
        if whenLocked { try c.encode(true, forKey: .whenLocked) }
        if let click { try c.encode(click, forKey: .click) }
        try condition.encode(into: &c, apps: .apps, notApps: .notApps, fullScreen: .fullScreen)
    }
}

/// A key name in a configuration (`KEY_TAB`), checked against the kernel's names.
struct KeyName: Decodable {
    var key: KeyboardKey

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let name = try c.decode(String.self)
        guard let key = KeyboardKey(name: name) ?? KeyboardKey(name: "KEY_" + name.uppercased()) else {
            throw DecodingError.dataCorruptedError(
                in: c, debugDescription: "'\(name)' is not a keyboard key (names as in linux/input-event-codes.h: KEY_LEFTMETA, KEY_TAB...)")
        }
        self.key = key
    }
}
