// SPDX-License-Identifier: MIT
import KeyboardKeys
import TouchCore

// The system edge gestures of semantics section 6: what the daemon's configuration
// says about them, per screen. Defaults and the reasons for them: docs/system-gestures.md.

/// Whether the system honours a surface's request to defer the system gesture of an edge.
package enum DeferralPolicy: String, Hashable, Sendable, CaseIterable, Codable {
    /// Any surface may defer the edge.
    case allow
    /// Requests are ignored: the system gesture always comes first.
    case refuse
    /// Only surfaces marked `fullScreen` may defer the edge.
    case onlyFullScreen
}

/// The system edge swipes of one screen (semantics section 6).
///
/// Decoded from a mapping such as
/// `{screen: 0, edges: [bottom, left], edgeZone: 5, purposes: {bottom: home}, deferral: {bottom: onlyFullScreen}}`;
/// every key is optional. `deferral` may also be one word for every edge (`deferral: refuse`).
package struct SystemGestureConfiguration: Hashable, Sendable, Codable {
    /// Index of the screen.
    package var screen: Int
    /// Edges with a system swipe (empty: none on this screen).
    package var edges: Set<SurfaceEdge>
    /// Width of the zone along each edge where a system swipe must start, in mm.
    package var edgeZone: Double
    /// How far the touch must travel inwards before the system gesture begins, in mm.
    package var minTravel: Double
    /// Largest angle between the movement and the inward direction, in degrees.
    package var maxAngle: Double
    /// How long after touch-down the system gesture may still begin, in ms; then it fails.
    package var timeLimit: Double
    /// What each edge's gesture is for (`home`, `notifications`...); carried in its events as `purpose`.
    package var purposes: [SurfaceEdge: String]
    /// Per edge: whether surfaces may defer the edge's system gesture.
    package var deferral: [SurfaceEdge: DeferralPolicy]
    /// After the hint of a deferred edge, how long a second swipe from it goes to the system, in ms.
    package var deferralWindow: Double
    /// Per edge: keys touchd types on its own uinput keyboard when the edge's swipe begins
    /// (pressed in order, released in reverse order; docs/shortcuts.md).
    package var keys: [SurfaceEdge: [KeyboardKey]] = [:]
    /// Edges whose swipe stays on while the session is locked or not the seat's (semantics
    /// section 13; `whenLocked: true` for every edge, or a list of edges). Empty: the locker
    /// gets every touch.
    package var whenLocked: Set<SurfaceEdge> = []
    /// Whether touchpads (indirect touches mapped to this screen) start edge swipes too. Off by
    /// default: a touchpad has no bezel to swipe in from, a finger joining a scroll lands at the
    /// pad's border all the time, and libinput, macOS and Windows 11 have no touchpad edge swipes
    /// (docs/system-gestures.md, "Touchpads").
    package var touchpads = false
    /// Which focused apps its edge swipes act over (`apps`, `notApps`, `fullScreen`): elsewhere
    /// they are off and the app gets every touch, as with the edge not listed.
    package var condition = AppCondition()

    /// Default purposes: bottom = home, top = notifications, left = back, right = side-panel.
    package static let defaultPurposes: [SurfaceEdge: String] = [
        .bottom: "home", .top: "notifications", .left: "back", .right: "side-panel",
    ]

    /// Creates the system gestures of a screen; every setting has the documented default.
    package init(screen: Int = 0, edges: Set<SurfaceEdge> = Set(SurfaceEdge.allCases), edgeZone: Double = 5,
                minTravel: Double = 6, maxAngle: Double = 30, timeLimit: Double = 300,
                purposes: [SurfaceEdge: String] = SystemGestureConfiguration.defaultPurposes,
                deferral: [SurfaceEdge: DeferralPolicy] = [:], deferralWindow: Double = 2000) {
        self.screen = screen
        self.edges = edges
        self.edgeZone = edgeZone
        self.minTravel = minTravel
        self.maxAngle = maxAngle
        self.timeLimit = timeLimit
        self.purposes = purposes
        self.deferral = deferral
        self.deferralWindow = deferralWindow
    }

    /// The purpose of an edge's gesture (the edge's name when none is configured).
    package func purpose(of edge: SurfaceEdge) -> String { purposes[edge] ?? edge.rawValue }

    /// The deferral policy of an edge (`allow` when none is configured).
    package func policy(of edge: SurfaceEdge) -> DeferralPolicy { deferral[edge] ?? .allow }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case screen, edges, edgeZone, minTravel, maxAngle, timeLimit, purposes, deferral, deferralWindow, keys, whenLocked, touchpads
        case apps, notApps, fullScreen
    }

    /// Decodes, with a default for every missing key; `purposes` and `deferral` are keyed by edge name.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try rejectUnknownKeys(decoder, known: Set(CodingKeys.allCases.map(\.stringValue)), what: "systemGestures")
        let d = SystemGestureConfiguration()
        screen = try c.decodeIfPresent(Int.self, forKey: .screen) ?? d.screen
        try require(screen >= 0, CodingKeys.screen, c, "must not be negative")
        edges = try c.decodeIfPresent(Set<SurfaceEdge>.self, forKey: .edges) ?? d.edges
        edgeZone = try c.decodeIfPresent(Double.self, forKey: .edgeZone) ?? d.edgeZone
        try require(edgeZone > 0, CodingKeys.edgeZone, c, "must be positive")
        minTravel = try c.decodeIfPresent(Double.self, forKey: .minTravel) ?? d.minTravel
        try require(minTravel > 0, CodingKeys.minTravel, c, "must be positive")
        maxAngle = try c.decodeIfPresent(Double.self, forKey: .maxAngle) ?? d.maxAngle
        try require(maxAngle > 0 && maxAngle < 90, CodingKeys.maxAngle, c, "must be between 0 and 90 degrees")
        timeLimit = try c.decodeIfPresent(Double.self, forKey: .timeLimit) ?? d.timeLimit
        try require(timeLimit > 0, CodingKeys.timeLimit, c, "must be positive")
        deferralWindow = try c.decodeIfPresent(Double.self, forKey: .deferralWindow) ?? d.deferralWindow
        try require(deferralWindow >= 0, CodingKeys.deferralWindow, c, "must not be negative")
        touchpads = try c.decodeIfPresent(Bool.self, forKey: .touchpads) ?? d.touchpads
        condition = try AppCondition.decode(c, apps: .apps, notApps: .notApps, fullScreen: .fullScreen)
        purposes = d.purposes
        if let named = try c.decodeIfPresent([String: String].self, forKey: .purposes) {
            for (key, value) in named {
                guard let edge = SurfaceEdge(rawValue: key) else {
                    throw DecodingError.dataCorruptedError(forKey: .purposes, in: c, debugDescription: "purposes: '\(key)' is not an edge (top, bottom, left, right)")
                }
                try require(!value.isEmpty, CodingKeys.purposes, c, "of \(key) must not be empty")
                purposes[edge] = value
            }
        }
        keys = [:]
        if let named = try c.decodeIfPresent([String: [KeyName]].self, forKey: .keys) {
            for (key, value) in named {
                guard let edge = SurfaceEdge(rawValue: key) else {
                    throw DecodingError.dataCorruptedError(forKey: .keys, in: c, debugDescription: "keys: '\(key)' is not an edge (top, bottom, left, right)")
                }
                let combination = value.map(\.key)
                try require(!combination.isEmpty && combination.count <= 8, CodingKeys.keys, c, "of \(key) must name 1 to 8 keys")
                try require(Set(combination).count == combination.count, CodingKeys.keys, c, "of \(key) names a key twice")
                keys[edge] = combination
            }
        }
        whenLocked = []
        if let all = try? c.decodeIfPresent(Bool.self, forKey: .whenLocked) {
            whenLocked = all ? Set(SurfaceEdge.allCases) : []
        } else if let named = try c.decodeIfPresent([String].self, forKey: .whenLocked) {
            for key in named {
                guard let edge = SurfaceEdge(rawValue: key) else {
                    throw DecodingError.dataCorruptedError(forKey: .whenLocked, in: c, debugDescription: "whenLocked: '\(key)' is not an edge (top, bottom, left, right; or true/false for every edge)")
                }
                whenLocked.insert(edge)
            }
        }
        deferral = [:]
        if let word = try? c.decodeIfPresent(String.self, forKey: .deferral) {
            guard let policy = DeferralPolicy(rawValue: word) else {
                throw DecodingError.dataCorruptedError(forKey: .deferral, in: c, debugDescription: "deferral: '\(word)' is not one of allow, refuse, onlyFullScreen")
            }
            for edge in SurfaceEdge.allCases { deferral[edge] = policy }
        } else if let named = try c.decodeIfPresent([String: String].self, forKey: .deferral) {
            for (key, value) in named {
                guard let edge = SurfaceEdge(rawValue: key) else {
                    throw DecodingError.dataCorruptedError(forKey: .deferral, in: c, debugDescription: "deferral: '\(key)' is not an edge (top, bottom, left, right)")
                }
                guard let policy = DeferralPolicy(rawValue: value) else {
                    throw DecodingError.dataCorruptedError(forKey: .deferral, in: c, debugDescription: "deferral of \(key): '\(value)' is not one of allow, refuse, onlyFullScreen")
                }
                deferral[edge] = policy
            }
        }
    }

    /// Encodes every key, edges in a stable order.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(screen, forKey: .screen)
        try c.encode(SurfaceEdge.allCases.filter { edges.contains($0) }, forKey: .edges)
        try c.encode(edgeZone, forKey: .edgeZone)
        try c.encode(minTravel, forKey: .minTravel)
        try c.encode(maxAngle, forKey: .maxAngle)
        try c.encode(timeLimit, forKey: .timeLimit)
        var names: [String: String] = [:]
        for (edge, purpose) in purposes { names[edge.rawValue] = purpose }
        try c.encode(names, forKey: .purposes)
        var policies: [String: String] = [:]
        for (edge, policy) in deferral { policies[edge.rawValue] = policy.rawValue }
        try c.encode(policies, forKey: .deferral)
        try c.encode(deferralWindow, forKey: .deferralWindow)
        if touchpads { try c.encode(touchpads, forKey: .touchpads) }
        try condition.encode(into: &c, apps: .apps, notApps: .notApps, fullScreen: .fullScreen)
        if !keys.isEmpty {
            var names: [String: [String]] = [:]
            for (edge, combination) in keys { names[edge.rawValue] = combination.map(\.name) }
            try c.encode(names, forKey: .keys)
        }
        if !whenLocked.isEmpty {
            try c.encode(SurfaceEdge.allCases.filter { whenLocked.contains($0) }.map(\.rawValue), forKey: .whenLocked)
        }
    }
}

/// Parameters of an `edge-swipe` recognizer: one edge's system swipe (generated from
/// ``SystemGestureConfiguration``; surfaces may not declare it).
package struct EdgeSwipeParameters: Hashable, Sendable, Codable {
    /// The screen edge it watches.
    package var edge: SurfaceEdge
    /// What the gesture is for, carried in its events.
    package var purpose: String
    /// Width of the zone along the edge where the touch must start, in mm.
    package var edgeZone: Double
    /// Inward travel needed to begin, in mm.
    package var minTravel: Double
    /// Largest angle from the inward direction, in degrees.
    package var maxAngle: Double
    /// Time after touch-down after which it can no longer begin, in ms.
    package var timeLimit: Double

    /// Movement below this (mm) says nothing about direction (finger roll); the angle is judged beyond it.
    /// The pan's slop: an app's pan is never held back longer than it would take to begin anyway.
    package static let directionDistance = 2.0

    /// Creates edge-swipe parameters (defaults as ``SystemGestureConfiguration``).
    package init(edge: SurfaceEdge, purpose: String? = nil, edgeZone: Double = 5, minTravel: Double = 6,
                maxAngle: Double = 30, timeLimit: Double = 300) {
        self.edge = edge
        self.purpose = purpose ?? SystemGestureConfiguration.defaultPurposes[edge] ?? edge.rawValue
        self.edgeZone = edgeZone
        self.minTravel = minTravel
        self.maxAngle = maxAngle
        self.timeLimit = timeLimit
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case edge, purpose, edgeZone, minTravel, maxAngle, timeLimit }

    /// Decodes; `edge` is required.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let edge = try c.decode(SurfaceEdge.self, forKey: .edge)
        let d = EdgeSwipeParameters(edge: edge)
        self.edge = edge
        purpose = try c.decodeIfPresent(String.self, forKey: .purpose) ?? d.purpose
        edgeZone = try c.decodeIfPresent(Double.self, forKey: .edgeZone) ?? d.edgeZone
        minTravel = try c.decodeIfPresent(Double.self, forKey: .minTravel) ?? d.minTravel
        maxAngle = try c.decodeIfPresent(Double.self, forKey: .maxAngle) ?? d.maxAngle
        timeLimit = try c.decodeIfPresent(Double.self, forKey: .timeLimit) ?? d.timeLimit
        try require(edgeZone > 0, CodingKeys.edgeZone, c, "must be positive")
        try require(minTravel > 0, CodingKeys.minTravel, c, "must be positive")
        try require(maxAngle > 0 && maxAngle < 90, CodingKeys.maxAngle, c, "must be between 0 and 90 degrees")
        try require(timeLimit > 0, CodingKeys.timeLimit, c, "must be positive")
    }
}
