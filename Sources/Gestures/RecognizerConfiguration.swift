// SPDX-License-Identifier: MIT
import TouchCore

/// A rectangle in screen pixels.
package struct ScreenRect: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Left edge.
    package var x: Double
    /// Top edge.
    package var y: Double
    /// Width (not negative).
    package var width: Double
    /// Height (not negative).
    package var height: Double

    /// Creates a rectangle.
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// True when `p` is inside (left/top edges included, right/bottom excluded).
    @inlinable package func contains(_ p: Point) -> Bool {
        p.x >= x && p.y >= y && p.x < x + width && p.y < y + height
    }

    /// The overlap of two rectangles (empty when they do not overlap).
    package func intersection(_ o: ScreenRect) -> ScreenRect {
        let left = Swift.max(x, o.x), top = Swift.max(y, o.y)
        let right = Swift.min(x + width, o.x + o.width), bottom = Swift.min(y + height, o.y + o.height)
        return ScreenRect(x: left, y: top, width: Swift.max(0, right - left), height: Swift.max(0, bottom - top))
    }

    enum CodingKeys: String, CodingKey { case x, y, width, height }

    /// Decodes `{x, y, width, height}`; x and y default to 0.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        x = try c.decodeIfPresent(Double.self, forKey: .x) ?? 0
        y = try c.decodeIfPresent(Double.self, forKey: .y) ?? 0
        width = try c.decode(Double.self, forKey: .width)
        height = try c.decode(Double.self, forKey: .height)
        try require(width >= 0, CodingKeys.width, c, "must not be negative")
        try require(height >= 0, CodingKeys.height, c, "must not be negative")
    }

    package var description: String { "\(x),\(y) \(width)x\(height)" }
}

/// A set of recognizers named in a relation: all of them, or some by name.
///
/// Decodes from `all`, `none`, a single name, or a list of names.
package enum RecognizerSet: Hashable, Sendable, Codable {
    /// Every recognizer.
    case all
    /// The recognizers with these names (resolved within the same owner, preferring the same surface).
    case names([String])

    /// No recognizer.
    package static let none = RecognizerSet.names([])

    /// True when `name` is in the set.
    @inlinable package func contains(_ name: String) -> Bool {
        switch self {
        case .all: return true
        case .names(let names): return names.contains(name)
        }
    }

    /// Decodes `all`, `none`, a name, or a list of names.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let word = try? c.decode(String.self) {
            switch word {
            case "all": self = .all
            case "none": self = .names([])
            default: self = .names([word])
            }
        } else {
            self = .names(try c.decode([String].self))
        }
    }

    /// Encodes `all` or the list of names.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .all: try c.encode("all")
        case .names(let names): try c.encode(names)
        }
    }
}

/// A recognizer, declared by its owner (semantics sections 2 to 5).
///
/// Decoded from a mapping whose `kind` key selects the recognizer and whose
/// other keys are the kind's parameters next to the common ones, for example
/// `{name: double-tap, kind: tap, taps: 2, maxTouches: 5}`.
package struct RecognizerConfiguration: Hashable, Sendable, Codable {
    /// A recognizer kind with its parameters.
    package enum Kind: Hashable, Sendable, Codable {
        /// See ``TapRecognizer``.
        case tap(TapParameters)
        /// See ``LongPressRecognizer``.
        case longPress(LongPressParameters)
        /// See ``PanRecognizer``.
        case pan(PanParameters)
        /// See ``SwipeRecognizer``.
        case swipe(SwipeParameters)
        /// See ``PinchRecognizer``.
        case pinch(PinchParameters)
        /// See ``RotateRecognizer``.
        case rotate(RotateParameters)
        /// See ``EdgePanRecognizer``.
        case edgePan(EdgePanParameters)
        /// See ``HoverRecognizer``.
        case hover(HoverParameters)
        /// See ``DragRecognizer``.
        case drag(DragParameters)
        /// See ``EdgeSwipeRecognizer``: a system edge swipe (system recognizers only).
        case edgeSwipe(EdgeSwipeParameters)

        /// The gesture kind this recognizer reports.
        package var gestureKind: GestureKind {
            switch self {
            case .tap: return .tap
            case .longPress: return .longPress
            case .pan: return .pan
            case .swipe: return .swipe
            case .pinch: return .pinch
            case .rotate: return .rotate
            case .edgePan: return .edgePan
            case .hover: return .hover
            case .drag: return .drag
            case .edgeSwipe: return .edgeSwipe
            }
        }

        enum TagKey: String, CodingKey { case kind }

        /// The parameter keys of this kind.
        var parameterKeys: [String] {
            switch self {
            case .tap: return TapParameters.CodingKeys.allCases.map(\.stringValue)
            case .longPress: return LongPressParameters.CodingKeys.allCases.map(\.stringValue)
            case .pan: return PanParameters.CodingKeys.allCases.map(\.stringValue)
            case .swipe: return SwipeParameters.CodingKeys.allCases.map(\.stringValue)
            case .pinch: return PinchParameters.CodingKeys.allCases.map(\.stringValue)
            case .rotate: return RotateParameters.CodingKeys.allCases.map(\.stringValue)
            case .edgePan: return EdgePanParameters.CodingKeys.allCases.map(\.stringValue)
            case .hover: return []
            case .drag: return DragParameters.CodingKeys.allCases.map(\.stringValue)
            case .edgeSwipe: return EdgeSwipeParameters.CodingKeys.allCases.map(\.stringValue)
            }
        }

        /// Decodes the `kind` key and the kind's parameters from the same mapping.
        package init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: TagKey.self)
            let word = try c.decode(String.self, forKey: .kind)
            guard let kind = RecognizerKind(rawValue: word) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .kind, in: c,
                    debugDescription: "kind '\(word)' is not one of \(RecognizerKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            switch kind {
            case .tap: self = .tap(try TapParameters(from: decoder))
            case .longPress: self = .longPress(try LongPressParameters(from: decoder))
            case .pan: self = .pan(try PanParameters(from: decoder))
            case .swipe: self = .swipe(try SwipeParameters(from: decoder))
            case .pinch: self = .pinch(try PinchParameters(from: decoder))
            case .rotate: self = .rotate(try RotateParameters(from: decoder))
            case .edgePan: self = .edgePan(try EdgePanParameters(from: decoder))
            case .hover: self = .hover(try HoverParameters(from: decoder))
            case .drag: self = .drag(try DragParameters(from: decoder))
            case .edgeSwipe: self = .edgeSwipe(try EdgeSwipeParameters(from: decoder))
            }
        }

        /// Encodes `kind` and the parameters into the same mapping.
        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: TagKey.self)
            try c.encode(gestureKind.rawValue, forKey: .kind)
            switch self {
            case .tap(let p): try p.encode(to: encoder)
            case .longPress(let p): try p.encode(to: encoder)
            case .pan(let p): try p.encode(to: encoder)
            case .swipe(let p): try p.encode(to: encoder)
            case .pinch(let p): try p.encode(to: encoder)
            case .rotate(let p): try p.encode(to: encoder)
            case .edgePan(let p): try p.encode(to: encoder)
            case .hover(let p): try p.encode(to: encoder)
            case .drag(let p): try p.encode(to: encoder)
            case .edgeSwipe(let p): try p.encode(to: encoder)
            }
        }
    }

    /// Unique per owner; used in events, logs and relations.
    package var name: String
    /// What it recognizes, with its parameters.
    package var kind: Kind
    /// Touch types it accepts (section 2.3; default ``RecognizerKind/defaultTouchTypes``: all three, no touchpads for holds).
    package var allowedTouchTypes: Set<TouchType>
    /// Tracks one touch type at a time (section 2.4; default true).
    package var requiresExclusiveTouchType: Bool
    /// A disabled recognizer sees no touches (disabling an active one cancels it).
    package var enabled: Bool
    /// Declarative `gestureRecognizerShouldBegin`: false fails it at the moment it would begin (section 3).
    package var shouldBegin: Bool
    /// Section 5 (default true).
    package var cancelsTouchesInView: Bool
    /// Section 5 (default false).
    package var delaysTouchesBegan: Bool
    /// Section 5 (default true).
    package var delaysTouchesEnded: Bool
    /// Recognizers it may recognize together with (either side allowing is enough; default none).
    package var simultaneousWith: RecognizerSet
    /// Recognizers that must fail before its actions are delivered (section 4).
    package var requiresFailureOf: [String]
    /// Recognizers it may exclude (default all).
    package var canPrevent: RecognizerSet
    /// Recognizers that may exclude it (default all).
    package var canBePreventedBy: RecognizerSet
    /// Only touches beginning in this rectangle, relative to the surface's origin (screen pixels for system recognizers).
    package var region: ScreenRect?
    /// When it begins (or recognizes) it claims its touches: every other
    /// recognizer and every raw stream, a pass-through mirror's included, gets
    /// them cancelled (semantics §9.5, Android's "pilfer"). Drags and the
    /// system's edge swipes claim whatever this says. Default false; a client
    /// needs the daemon's `access.claimTouches` grant to ask for it.
    package var claimsTouches: Bool = false

    /// Creates a recognizer configuration; every setting but name and kind has the semantics' default
    /// (`allowedTouchTypes` nil: the kind's ``RecognizerKind/defaultTouchTypes``).
    package init(
        name: String, kind: Kind, allowedTouchTypes: Set<TouchType>? = nil,
        requiresExclusiveTouchType: Bool = true, enabled: Bool = true, shouldBegin: Bool = true,
        cancelsTouchesInView: Bool = true, delaysTouchesBegan: Bool = false, delaysTouchesEnded: Bool = true,
        simultaneousWith: RecognizerSet = .none, requiresFailureOf: [String] = [],
        canPrevent: RecognizerSet = .all, canBePreventedBy: RecognizerSet = .all, region: ScreenRect? = nil
    ) {
        self.name = name
        self.kind = kind
        self.allowedTouchTypes = allowedTouchTypes ?? kind.gestureKind.defaultTouchTypes
        self.requiresExclusiveTouchType = requiresExclusiveTouchType
        self.enabled = enabled
        self.shouldBegin = shouldBegin
        self.cancelsTouchesInView = cancelsTouchesInView
        self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
        self.simultaneousWith = simultaneousWith
        self.requiresFailureOf = requiresFailureOf
        self.canPrevent = canPrevent
        self.canBePreventedBy = canBePreventedBy
        self.region = region
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, allowedTouchTypes, requiresExclusiveTouchType, enabled, shouldBegin, cancelsTouchesInView
        case delaysTouchesBegan, delaysTouchesEnded, simultaneousWith, requiresFailureOf, canPrevent, canBePreventedBy, region
        case claimsTouches
    }

    /// Decodes, with the semantics' default for every missing key.
    package init(from decoder: any Decoder) throws {
        try self.init(from: decoder, alsoKnown: [], what: "recognizer")
    }

    /// Decodes a recognizer from a mapping that may also hold `alsoKnown` keys (a shortcut's
    /// `screen` and `keys`); `what` names it in the error about an unknown key.
    init(from decoder: any Decoder, alsoKnown: [String], what: String) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        try require(!name.isEmpty, CodingKeys.name, c, "must not be empty")
        kind = try Kind(from: decoder)
        try rejectUnknownKeys(decoder, known: Set(CodingKeys.allCases.map(\.stringValue) + kind.parameterKeys + ["kind"] + alsoKnown),
                              what: "a \(kind.gestureKind.rawValue) \(what)")
        allowedTouchTypes = try c.decodeIfPresent(Set<TouchType>.self, forKey: .allowedTouchTypes) ?? kind.gestureKind.defaultTouchTypes
        requiresExclusiveTouchType = try c.decodeIfPresent(Bool.self, forKey: .requiresExclusiveTouchType) ?? true
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        shouldBegin = try c.decodeIfPresent(Bool.self, forKey: .shouldBegin) ?? true
        cancelsTouchesInView = try c.decodeIfPresent(Bool.self, forKey: .cancelsTouchesInView) ?? true
        delaysTouchesBegan = try c.decodeIfPresent(Bool.self, forKey: .delaysTouchesBegan) ?? false
        delaysTouchesEnded = try c.decodeIfPresent(Bool.self, forKey: .delaysTouchesEnded) ?? true
        simultaneousWith = try c.decodeIfPresent(RecognizerSet.self, forKey: .simultaneousWith) ?? .none
        requiresFailureOf = try c.decodeIfPresent([String].self, forKey: .requiresFailureOf) ?? []
        canPrevent = try c.decodeIfPresent(RecognizerSet.self, forKey: .canPrevent) ?? .all
        canBePreventedBy = try c.decodeIfPresent(RecognizerSet.self, forKey: .canBePreventedBy) ?? .all
        region = try c.decodeIfPresent(ScreenRect.self, forKey: .region)
        claimsTouches = try c.decodeIfPresent(Bool.self, forKey: .claimsTouches) ?? false
        try require(!requiresFailureOf.contains(name), CodingKeys.requiresFailureOf, c, "must not name the recognizer itself")
    }

    /// Encodes every key (touch types in a stable order).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try kind.encode(to: encoder)
        try c.encode(TouchType.allCases.filter { allowedTouchTypes.contains($0) }, forKey: .allowedTouchTypes)
        try c.encode(requiresExclusiveTouchType, forKey: .requiresExclusiveTouchType)
        try c.encode(enabled, forKey: .enabled)
        try c.encode(shouldBegin, forKey: .shouldBegin)
        try c.encode(cancelsTouchesInView, forKey: .cancelsTouchesInView)
        try c.encode(delaysTouchesBegan, forKey: .delaysTouchesBegan)
        try c.encode(delaysTouchesEnded, forKey: .delaysTouchesEnded)
        try c.encode(simultaneousWith, forKey: .simultaneousWith)
        try c.encode(requiresFailureOf, forKey: .requiresFailureOf)
        try c.encode(canPrevent, forKey: .canPrevent)
        try c.encode(canBePreventedBy, forKey: .canBePreventedBy)
        try c.encodeIfPresent(region, forKey: .region)
        if claimsTouches { try c.encode(claimsTouches, forKey: .claimsTouches) }
    }
}
