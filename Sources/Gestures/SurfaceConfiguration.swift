// SPDX-License-Identifier: MIT
import TouchCore

/// Identifies a surface (our word for a view); unique across owners.
@usableFromInline package struct SurfaceID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The identifier.
    @usableFromInline package var rawValue: String
    /// Creates a surface id.
    @usableFromInline package init(rawValue: String) { self.rawValue = rawValue }
    /// Creates a surface id.
    package init(_ value: String) { self.rawValue = value }
    /// Creates a surface id from a literal.
    @usableFromInline package init(stringLiteral value: String) { self.rawValue = value }
    /// Decodes a plain string.
    @usableFromInline package init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }
    /// Encodes a plain string.
    @usableFromInline package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(rawValue)
    }
    @usableFromInline package static func < (a: SurfaceID, b: SurfaceID) -> Bool { a.rawValue < b.rawValue }
    @usableFromInline package var description: String { rawValue }
}

/// A rectangle of a screen that receives touches, with its recognizers (semantics section 2).
package struct SurfaceConfiguration: Hashable, Sendable, Codable {
    /// Unique across owners.
    package var id: SurfaceID
    /// Who declared it: a client id, `config` for the configuration file, `default` for the built-in one.
    package var owner: String
    /// Where it is, in screen pixels.
    package var frame: ScreenRect
    /// Index of the screen.
    package var screen: Int
    /// Stacking order among siblings: larger is on top. Ties go to the smaller id.
    package var z: Int
    /// The surface it is nested in; its recognizers also see this surface's touches.
    package var parent: SurfaceID?
    /// Hidden surfaces and their children are skipped by hit testing.
    package var hidden: Bool
    /// Disabled surfaces and their children are skipped by hit testing.
    package var enabled: Bool
    /// When false, only the first touch reaches the raw stream (recognizers are not affected).
    package var multipleTouch: Bool
    /// While touched, touches on other surfaces of the screen are blocked (and vice versa).
    package var exclusiveTouch: Bool
    /// Its recognizers.
    package var recognizers: [RecognizerConfiguration]
    /// Screen edges whose system gesture it asks to defer (semantics section 6; default none):
    /// the first swipe from such an edge comes to it, a second one soon after goes to the system.
    package var deferEdges: Set<SurfaceEdge>
    /// A child surface whose `deferEdges` count instead of this surface's.
    package var delegateDeferralTo: SurfaceID?
    /// It covers the screen for an immersive app (for the `onlyFullScreen` deferral policy).
    package var fullScreen: Bool
    /// Its part in drag sessions, for a configuration file's surface (clients say theirs with `drag-surface`).
    package var drag: SurfaceDragConfiguration?

    /// Creates a surface.
    package init(
        id: SurfaceID, owner: String = "config", frame: ScreenRect, screen: Int = 0, z: Int = 0,
        parent: SurfaceID? = nil, hidden: Bool = false, enabled: Bool = true, multipleTouch: Bool = true,
        exclusiveTouch: Bool = false, recognizers: [RecognizerConfiguration] = [],
        deferEdges: Set<SurfaceEdge> = [], delegateDeferralTo: SurfaceID? = nil, fullScreen: Bool = false,
        drag: SurfaceDragConfiguration? = nil
    ) {
        self.id = id
        self.owner = owner
        self.frame = frame
        self.screen = screen
        self.z = z
        self.parent = parent
        self.hidden = hidden
        self.enabled = enabled
        self.multipleTouch = multipleTouch
        self.exclusiveTouch = exclusiveTouch
        self.recognizers = recognizers
        self.deferEdges = deferEdges
        self.delegateDeferralTo = delegateDeferralTo
        self.fullScreen = fullScreen
        self.drag = drag
    }

    /// True when it has something to say about deferral: edges to defer, or a child that decides.
    package var hasDeferralPreference: Bool { !deferEdges.isEmpty || delegateDeferralTo != nil }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case id, owner, frame, screen, z, parent, hidden, enabled, multipleTouch, exclusiveTouch, recognizers
        case deferEdges, delegateDeferralTo, fullScreen, drag
    }

    /// Decodes; `id` and `frame` are required, everything else has a default.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(SurfaceID.self, forKey: .id)
        try require(!id.rawValue.isEmpty, CodingKeys.id, c, "must not be empty")
        try rejectUnknownKeys(decoder, known: Set(CodingKeys.allCases.map(\.stringValue)), what: "surface \(id)")
        owner = try c.decodeIfPresent(String.self, forKey: .owner) ?? "config"
        frame = try c.decode(ScreenRect.self, forKey: .frame)
        screen = try c.decodeIfPresent(Int.self, forKey: .screen) ?? 0
        try require(screen >= 0, CodingKeys.screen, c, "must not be negative")
        z = try c.decodeIfPresent(Int.self, forKey: .z) ?? 0
        parent = try c.decodeIfPresent(SurfaceID.self, forKey: .parent)
        hidden = try c.decodeIfPresent(Bool.self, forKey: .hidden) ?? false
        enabled = try c.decodeIfPresent(Bool.self, forKey: .enabled) ?? true
        multipleTouch = try c.decodeIfPresent(Bool.self, forKey: .multipleTouch) ?? true
        exclusiveTouch = try c.decodeIfPresent(Bool.self, forKey: .exclusiveTouch) ?? false
        recognizers = try c.decodeIfPresent([RecognizerConfiguration].self, forKey: .recognizers) ?? []
        deferEdges = try c.decodeIfPresent(Set<SurfaceEdge>.self, forKey: .deferEdges) ?? []
        delegateDeferralTo = try c.decodeIfPresent(SurfaceID.self, forKey: .delegateDeferralTo)
        try require(delegateDeferralTo != id, CodingKeys.delegateDeferralTo, c, "must name another surface")
        fullScreen = try c.decodeIfPresent(Bool.self, forKey: .fullScreen) ?? false
        drag = try c.decodeIfPresent(SurfaceDragConfiguration.self, forKey: .drag)
        var seen = Set<String>()
        for r in recognizers {
            try require(seen.insert(r.name).inserted, CodingKeys.recognizers, c, "name '\(r.name)' twice on surface \(id)")
        }
    }

    /// Encodes every key (deferred edges in a stable order).
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(owner, forKey: .owner)
        try c.encode(frame, forKey: .frame)
        try c.encode(screen, forKey: .screen)
        try c.encode(z, forKey: .z)
        try c.encodeIfPresent(parent, forKey: .parent)
        try c.encode(hidden, forKey: .hidden)
        try c.encode(enabled, forKey: .enabled)
        try c.encode(multipleTouch, forKey: .multipleTouch)
        try c.encode(exclusiveTouch, forKey: .exclusiveTouch)
        try c.encode(recognizers, forKey: .recognizers)
        try c.encode(SurfaceEdge.allCases.filter { deferEdges.contains($0) }, forKey: .deferEdges)
        try c.encodeIfPresent(delegateDeferralTo, forKey: .delegateDeferralTo)
        try c.encode(fullScreen, forKey: .fullScreen)
        try c.encodeIfPresent(drag, forKey: .drag)
    }
}

/// The size of one screen, as the gesture engine needs it.
package struct ScreenGeometry: Hashable, Sendable {
    /// Width in pixels.
    package var width: Int
    /// Height in pixels.
    package var height: Int
    /// Pixels per millimetre, when the screen's physical size is known.
    package var pixelsPerMillimetre: Double?
    /// Areas along the edges the system keeps (a status bar, rounded
    /// corners), as the user sees the screen: the system edge zones start at
    /// their inner edge (semantics §11).
    package var insets: ScreenInsets

    /// Creates a screen size.
    package init(width: Int, height: Int, pixelsPerMillimetre: Double? = nil, insets: ScreenInsets = ScreenInsets()) {
        self.width = width; self.height = height; self.pixelsPerMillimetre = pixelsPerMillimetre
        self.insets = insets
    }

    /// The screen less its insets, in pixels: where the system edge swipes
    /// measure their edges from.
    package var safeArea: ScreenRect {
        let w = Double(width), h = Double(height)
        let left = Swift.min(insets.left, w), top = Swift.min(insets.top, h)
        return ScreenRect(x: left, y: top, width: Swift.max(0, w - left - insets.right),
                          height: Swift.max(0, h - top - insets.bottom))
    }

    /// Used when a screen's physical size is unknown: about a 15.6-inch 1080p panel (141 dpi).
    package static let fallbackPixelsPerMillimetre = 5.6
}

/// Pixels kept by the system along each edge of a screen, as the user sees it.
package struct ScreenInsets: Hashable, Sendable, Codable {
    /// Pixels along the top edge.
    package var top: Double
    /// Pixels along the right edge.
    package var right: Double
    /// Pixels along the bottom edge.
    package var bottom: Double
    /// Pixels along the left edge.
    package var left: Double

    /// Creates insets; every edge defaults to none.
    package init(top: Double = 0, right: Double = 0, bottom: Double = 0, left: Double = 0) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }

    /// Whether no edge is kept.
    package var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }

    enum CodingKeys: String, CodingKey, CaseIterable { case top, right, bottom, left }

    /// Decodes `top`, `right`, `bottom` and `left`, each optional, finite and not negative.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func edge(_ k: CodingKeys) throws -> Double {
            let v = try c.decodeIfPresent(Double.self, forKey: k) ?? 0
            guard v.isFinite, v >= 0, v <= 65_536 else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [k], debugDescription: "expected 0 to 65536 pixels, got \(v)"))
            }
            return v
        }
        top = try edge(.top); right = try edge(.right); bottom = try edge(.bottom); left = try edge(.left)
    }
}

/// A semantic problem in a gesture configuration, naming the surface and field at fault.
package struct GestureConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong, with the surfaces and owners it names kept as values,
    /// so that each reader names them its own way (a configuration file by
    /// their ids, a client by its own local ids: ``message(naming:owner:)``).
    package enum Fault: Hashable, Sendable {
        /// A fault that names no surface or owner.
        case text(String)
        /// The field names a surface that does not exist.
        case unknownSurface(SurfaceID)
        /// Following `parent` comes back through this surface.
        case parentCycle(through: SurfaceID)
        /// `delegateDeferralTo` names a surface not nested in the one at fault.
        case notNested(SurfaceID)
        /// `requiresFailureOf` names a recognizer its owner does not have.
        case unknownRecognizer(name: String, owner: String)
    }

    /// The surface at fault, when one is.
    package var surface: SurfaceID?
    /// The field at fault (`parent`, `recognizers[2].requiresFailureOf`...).
    package var field: String
    /// What is wrong.
    package var fault: Fault

    /// Creates an error.
    package init(surface: SurfaceID?, field: String, _ fault: Fault) {
        self.surface = surface; self.field = field; self.fault = fault
    }

    /// Creates an error whose fault names no surface.
    package init(surface: SurfaceID?, field: String, message: String) {
        self.init(surface: surface, field: field, .text(message))
    }

    /// The surface the field names when no such surface exists (an unknown
    /// `parent` or `delegateDeferralTo`); nil for any other fault.
    package var unknownSurface: SurfaceID? {
        if case .unknownSurface(let s) = fault { return s }
        return nil
    }

    /// What is wrong, surfaces named by their ids and owners shown.
    package var message: String { message(naming: \.rawValue, owner: { $0 }) }

    /// What is wrong, each surface it names written by `name`, and each owner
    /// by `owner` (nil: the owner is the reader itself and goes unsaid).
    package func message(naming name: (SurfaceID) -> String, owner: (String) -> String?) -> String {
        switch fault {
        case .text(let text): return text
        case .unknownSurface(let s): return "unknown surface '\(name(s))'"
        case .parentCycle(let s): return "parents form a cycle through '\(name(s))'"
        case .notNested(let s): return "'\(name(s))' is not a surface nested in it"
        case .unknownRecognizer(let recognizer, let o):
            return "no recognizer '\(recognizer)'" + (owner(o).map { " of owner '\($0)'" } ?? "")
        }
    }

    package var description: String {
        (surface.map { "surface \($0): " } ?? "") + "\(field): \(message)"
    }
}

/// Surfaces and recognizers: the gesture part of the configuration file, or of the clients' registrations.
package struct GestureConfiguration: Hashable, Sendable, Codable {
    /// The surfaces.
    package var surfaces: [SurfaceConfiguration]
    /// Recognizers owned by the system, in play for every touch that begins in their region
    /// (the hook for system edge gestures, semantics section 6). Decoded from `systemRecognizers`.
    package var systemRecognizers: [RecognizerConfiguration]
    /// Extra recognizers for every built-in `screen` surface, when extending the built-in configuration.
    package var recognizers: [RecognizerConfiguration]
    /// When true, a configuration file replaces the built-in surfaces instead of extending them.
    package var replaceDefaults: Bool
    /// Screen sizes (not decoded: the daemon fills them from the screen configuration).
    package var screens: [ScreenGeometry]
    /// The system edge swipes, one entry per screen that has them (semantics section 6). Empty here;
    /// the built-in configuration has one entry per screen with every edge enabled.
    package var systemGestures: [SystemGestureConfiguration]
    /// System shortcuts (semantics section 10): recognizers owned by `system` on a screen, claiming
    /// their touches when they begin. Decoded from `shortcuts`; none built in.
    package var shortcuts: [ShortcutConfiguration] = []
    /// What the configuration gives focused apps that know nothing of touchd (deferred edges).
    /// Decoded from `appRules`; none built in.
    package var appRules: [AppRule] = []

    /// Creates a configuration.
    package init(surfaces: [SurfaceConfiguration] = [], systemRecognizers: [RecognizerConfiguration] = [],
                recognizers: [RecognizerConfiguration] = [], replaceDefaults: Bool = false, screens: [ScreenGeometry] = [],
                systemGestures: [SystemGestureConfiguration] = [], shortcuts: [ShortcutConfiguration] = []) {
        self.surfaces = surfaces
        self.shortcuts = shortcuts
        self.systemGestures = systemGestures
        self.systemRecognizers = systemRecognizers
        self.recognizers = recognizers
        self.replaceDefaults = replaceDefaults
        self.screens = screens
    }

    enum CodingKeys: String, CodingKey { case surfaces, systemRecognizers, recognizers, replaceDefaults, systemGestures, shortcuts, appRules }

    /// Decodes `surfaces`, `recognizers`, `systemRecognizers`, `systemGestures`, `shortcuts` and `replaceDefaults`, all optional.
    /// Other keys of the file (screens, devices...) are left to their own decoders.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        surfaces = try c.decodeIfPresent([SurfaceConfiguration].self, forKey: .surfaces) ?? []
        systemRecognizers = try c.decodeIfPresent([RecognizerConfiguration].self, forKey: .systemRecognizers) ?? []
        recognizers = try c.decodeIfPresent([RecognizerConfiguration].self, forKey: .recognizers) ?? []
        replaceDefaults = try c.decodeIfPresent(Bool.self, forKey: .replaceDefaults) ?? false
        systemGestures = try c.decodeIfPresent([SystemGestureConfiguration].self, forKey: .systemGestures) ?? []
        shortcuts = try c.decodeIfPresent([ShortcutConfiguration].self, forKey: .shortcuts) ?? []
        appRules = try c.decodeIfPresent([AppRule].self, forKey: .appRules) ?? []
        screens = []
    }

    /// Encodes the decoded keys.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(surfaces, forKey: .surfaces)
        try c.encode(systemRecognizers, forKey: .systemRecognizers)
        try c.encode(recognizers, forKey: .recognizers)
        try c.encode(replaceDefaults, forKey: .replaceDefaults)
        try c.encode(systemGestures, forKey: .systemGestures)
        if !shortcuts.isEmpty { try c.encode(shortcuts, forKey: .shortcuts) }
        if !appRules.isEmpty { try c.encode(appRules, forKey: .appRules) }
    }

    /// The built-in configuration: one full-screen surface per screen (`screen`, then `screen-1`, `screen-2`...),
    /// owned by `default`, with `tap` (requires `double-tap` to fail), `double-tap`, `long-press`, `pan`,
    /// `swipe`, `pinch` and `rotate`; pan, swipe, pinch and rotate are simultaneous with each other.
    /// Every screen has the four system edge swipes with their defaults (``SystemGestureConfiguration``).
    package static func `default`(screens: [ScreenGeometry]) -> GestureConfiguration {
        let continuous: [String] = ["pan", "swipe", "pinch", "rotate"]
        func others(_ name: String) -> RecognizerSet { .names(continuous.filter { $0 != name }) }
        let recognizers: [RecognizerConfiguration] = [
            RecognizerConfiguration(name: "tap", kind: .tap(TapParameters(taps: 1, minTouches: 1, maxTouches: 5)),
                                    requiresFailureOf: ["double-tap"]),
            RecognizerConfiguration(name: "double-tap", kind: .tap(TapParameters(taps: 2, minTouches: 1, maxTouches: 5))),
            RecognizerConfiguration(name: "long-press", kind: .longPress(LongPressParameters(minTouches: 1, maxTouches: 5))),
            RecognizerConfiguration(name: "pan", kind: .pan(PanParameters(minTouches: 1, maxTouches: 10)),
                                    simultaneousWith: others("pan")),
            RecognizerConfiguration(name: "swipe", kind: .swipe(SwipeParameters(minTouches: 1, maxTouches: 5)),
                                    simultaneousWith: others("swipe")),
            RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()), simultaneousWith: others("pinch")),
            RecognizerConfiguration(name: "rotate", kind: .rotate(RotateParameters()), simultaneousWith: others("rotate")),
        ]
        var surfaces: [SurfaceConfiguration] = []
        for (index, screen) in screens.enumerated() {
            surfaces.append(SurfaceConfiguration(
                id: SurfaceID(index == 0 ? "screen" : "screen-\(index)"), owner: "default",
                frame: ScreenRect(x: 0, y: 0, width: Double(screen.width), height: Double(screen.height)),
                screen: index, z: Int.min, recognizers: recognizers))
        }
        return GestureConfiguration(surfaces: surfaces, screens: screens,
                                    systemGestures: screens.indices.map { SystemGestureConfiguration(screen: $0) })
    }

    /// This configuration (read from a file) applied to `base` (usually the built-in one): with
    /// `replaceDefaults` only this file's surfaces remain; otherwise they are added to `base`'s
    /// (replacing surfaces with the same id), and `recognizers` are added to every surface of `base`
    /// owned by `default` (replacing recognizers with the same name). `systemGestures` replace `base`'s
    /// entries for the same screens (with or without `replaceDefaults`).
    package func applied(to base: GestureConfiguration) -> GestureConfiguration {
        var result = base
        result.systemRecognizers = base.systemRecognizers + systemRecognizers
        result.shortcuts = base.shortcuts + shortcuts
        result.appRules = base.appRules + appRules
        for entry in systemGestures {
            result.systemGestures.removeAll { $0.screen == entry.screen }
            result.systemGestures.append(entry)
        }
        result.systemGestures.sort { $0.screen < $1.screen }
        result.recognizers = []
        result.replaceDefaults = false
        if replaceDefaults {
            result.surfaces = surfaces
            return result
        }
        for index in result.surfaces.indices where result.surfaces[index].owner == "default" {
            for extra in recognizers {
                result.surfaces[index].recognizers.removeAll { $0.name == extra.name }
                result.surfaces[index].recognizers.append(extra)
            }
        }
        for surface in surfaces {
            if let at = result.surfaces.firstIndex(where: { $0.id == surface.id }) {
                result.surfaces[at] = surface
            } else {
                result.surfaces.append(surface)
            }
        }
        return result
    }

    /// Checks what decoding cannot: unique surface ids, known parents without cycles, recognizer
    /// names unique per surface, failure requirements naming recognizers that exist for the owner,
    /// no recognizer of a surface requiring, through others, its own failure, no `edge-swipe` on a
    /// surface, deferral delegated only to a descendant, and one `systemGestures` entry per screen.
    package func validate() throws(GestureConfigurationError) {
        var screensSeen = Set<Int>()
        for (i, entry) in systemGestures.enumerated() where !screensSeen.insert(entry.screen).inserted {
            throw GestureConfigurationError(surface: nil, field: "systemGestures[\(i)].screen", message: "screen \(entry.screen) configured twice")
        }
        var byID: [SurfaceID: SurfaceConfiguration] = [:]
        var namesByOwner: [String: Set<String>] = [:]
        for surface in surfaces {
            if byID[surface.id] != nil {
                throw GestureConfigurationError(surface: surface.id, field: "id", message: "declared twice")
            }
            byID[surface.id] = surface
            for r in surface.recognizers { namesByOwner[surface.owner, default: []].insert(r.name) }
        }
        for r in systemRecognizers { namesByOwner["system", default: []].insert(r.name) }
        try validateShortcuts(systemNames: &namesByOwner["system", default: []])
        for surface in surfaces {
            var seen: Set<SurfaceID> = [surface.id]
            var cursor = surface.parent
            while let p = cursor {
                guard let parent = byID[p] else {
                    throw GestureConfigurationError(surface: surface.id, field: "parent", .unknownSurface(p))
                }
                if !seen.insert(p).inserted {
                    throw GestureConfigurationError(surface: surface.id, field: "parent", .parentCycle(through: p))
                }
                cursor = parent.parent
            }
            if let child = surface.delegateDeferralTo {
                guard let delegate = byID[child] else {
                    throw GestureConfigurationError(surface: surface.id, field: "delegateDeferralTo", .unknownSurface(child))
                }
                var cursor = delegate.parent, hops = 0
                while let p = cursor, p != surface.id, hops < surfaces.count { cursor = byID[p]?.parent; hops += 1 }
                if cursor != surface.id {
                    throw GestureConfigurationError(surface: surface.id, field: "delegateDeferralTo", .notNested(child))
                }
            }
            var names = Set<String>()
            for (i, r) in surface.recognizers.enumerated() {
                if r.kind.gestureKind == .edgeSwipe {
                    throw GestureConfigurationError(surface: surface.id, field: "recognizers[\(i)].kind",
                                                    message: "edge-swipe is a system gesture (configure it with systemGestures)")
                }
                if !names.insert(r.name).inserted {
                    throw GestureConfigurationError(surface: surface.id, field: "recognizers[\(i)].name", message: "'\(r.name)' declared twice")
                }
                let known = namesByOwner[surface.owner] ?? []
                for name in r.requiresFailureOf where !known.contains(name) {
                    throw GestureConfigurationError(surface: surface.id, field: "recognizers[\(i)].requiresFailureOf",
                                                    .unknownRecognizer(name: name, owner: surface.owner))
                }
            }
            var requires: [String: [String]] = [:]
            for r in surface.recognizers { requires[r.name] = r.requiresFailureOf }
            for (i, r) in surface.recognizers.enumerated() {
                var frontier = r.requiresFailureOf, visited = Set<String>()
                while let next = frontier.popLast() {
                    if next == r.name {
                        throw GestureConfigurationError(surface: surface.id, field: "recognizers[\(i)].requiresFailureOf",
                                                        message: "'\(r.name)' ends up requiring its own failure")
                    }
                    if visited.insert(next).inserted { frontier += requires[next] ?? [] }
                }
            }
        }
    }
}

extension GestureConfiguration {
    /// Shortcut names are unique among the system's recognizers (edge swipes included), their
    /// screens exist (when the screens are known), and their failure requirements name system recognizers.
    func validateShortcuts(systemNames: inout Set<String>) throws(GestureConfigurationError) {
        let screenCount = max(screens.count, 1)
        var edgeNames = Set<String>()
        for entry in systemGestures {
            for edge in SurfaceEdge.allCases {
                edgeNames.insert(entry.screen == 0 ? "edge-\(edge.rawValue)" : "edge-\(edge.rawValue)-\(entry.screen)")
            }
        }
        var names = Set<String>()
        for (i, s) in shortcuts.enumerated() {
            if !screens.isEmpty && s.screen >= screenCount {
                throw GestureConfigurationError(surface: nil, field: "shortcuts[\(i)].screen", message: "no screen \(s.screen) (there are \(screens.count))")
            }
            if edgeNames.contains(s.name) || systemNames.contains(s.name) || !names.insert(s.name).inserted {
                throw GestureConfigurationError(surface: nil, field: "shortcuts[\(i)].name", message: "'\(s.name)' is already a system recognizer's name")
            }
        }
        systemNames.formUnion(names)
        systemNames.formUnion(edgeNames)
        for (i, s) in shortcuts.enumerated() {
            for name in s.recognizer.requiresFailureOf where !systemNames.contains(name) {
                throw GestureConfigurationError(surface: nil, field: "shortcuts[\(i)].requiresFailureOf", message: "no system recognizer '\(name)'")
            }
        }
    }
}
