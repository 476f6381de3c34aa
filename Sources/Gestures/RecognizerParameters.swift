// SPDX-License-Identifier: MIT
import TouchCore

// Parameters of each recognizer kind. Distances are millimetres, durations
// milliseconds, angles as named. Every key is optional when decoding; the
// defaults and the reasons for them are in docs/recognizers.md.

/// Throws a decoding error that names the field at fault.
@inline(__always)
func require<K: CodingKey>(
    _ condition: Bool, _ key: K, _ container: KeyedDecodingContainer<K>, _ message: String
) throws {
    if !condition {
        throw DecodingError.dataCorruptedError(forKey: key, in: container, debugDescription: "\(key.stringValue) \(message)")
    }
}

/// Any key, to find the ones a mapping should not have.
struct AnyCodingKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { return nil }
}

/// The configuration file's decoder (YAMLReader's `decodeStrictly`) sets this `userInfo` key.
let unknownKeysReportedByDecoder = CodingUserInfoKey(rawValue: "touchd.unknownKeysReportedByDecoder")!

/// Rejects keys outside `known`, naming the first unknown one (typos such as `maxTouch` would otherwise be ignored).
/// A decoder that reports unread keys itself (the configuration file's, with a
/// line and a suggestion) says so in its `userInfo`; the check is left to it.
func rejectUnknownKeys(_ decoder: any Decoder, known: Set<String>, what: String) throws {
    if decoder.userInfo[unknownKeysReportedByDecoder] as? Bool == true { return }
    let c = try decoder.container(keyedBy: AnyCodingKey.self)
    for key in c.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) where !known.contains(key.stringValue) {
        throw DecodingError.dataCorruptedError(
            forKey: key, in: c,
            debugDescription: "unknown key '\(key.stringValue)' for \(what) (known: \(known.sorted().joined(separator: ", ")))")
    }
}

/// Decodes a min/max touch count pair with defaults and checks it.
func decodeTouchRange<K: CodingKey>(
    _ c: KeyedDecodingContainer<K>, min minKey: K, max maxKey: K, defaults: (Int, Int)
) throws -> (Int, Int) {
    let lo = try c.decodeIfPresent(Int.self, forKey: minKey) ?? defaults.0
    let hi = try c.decodeIfPresent(Int.self, forKey: maxKey) ?? Swift.max(defaults.1, lo)
    try require(lo >= 1, minKey, c, "must be at least 1")
    try require(hi >= lo, maxKey, c, "must be at least \(minKey.stringValue) (\(lo))")
    return (lo, hi)
}

/// Parameters of a `tap` recognizer.
package struct TapParameters: Hashable, Sendable, Codable {
    /// Taps required (1 = single tap, 2 = double tap...).
    package var taps: Int
    /// Fewest touches down together in each tap.
    package var minTouches: Int
    /// Most touches down together in each tap.
    package var maxTouches: Int
    /// Most a touch may move during a tap, in mm.
    package var maxMovement: Double
    /// Longest a tap may be held, in ms.
    package var maxDuration: Double
    /// Longest from one tap's lift to the next tap's touch, in ms.
    package var maxInterval: Double
    /// Farthest the next tap may land from the first, in mm.
    package var maxDistance: Double

    /// Creates tap parameters.
    package init(taps: Int = 1, minTouches: Int = 1, maxTouches: Int = 1, maxMovement: Double = 3,
                maxDuration: Double = 300, maxInterval: Double = 300, maxDistance: Double = 15) {
        self.taps = taps; self.minTouches = minTouches; self.maxTouches = maxTouches
        self.maxMovement = maxMovement; self.maxDuration = maxDuration
        self.maxInterval = maxInterval; self.maxDistance = maxDistance
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case taps, minTouches, maxTouches, maxMovement, maxDuration, maxInterval, maxDistance }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = TapParameters()
        taps = try c.decodeIfPresent(Int.self, forKey: .taps) ?? d.taps
        try require(taps >= 1, CodingKeys.taps, c, "must be at least 1")
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
        maxMovement = try c.decodeIfPresent(Double.self, forKey: .maxMovement) ?? d.maxMovement
        maxDuration = try c.decodeIfPresent(Double.self, forKey: .maxDuration) ?? d.maxDuration
        maxInterval = try c.decodeIfPresent(Double.self, forKey: .maxInterval) ?? d.maxInterval
        maxDistance = try c.decodeIfPresent(Double.self, forKey: .maxDistance) ?? d.maxDistance
        try require(maxMovement >= 0, CodingKeys.maxMovement, c, "must not be negative")
        try require(maxDuration > 0, CodingKeys.maxDuration, c, "must be positive")
        try require(maxInterval > 0, CodingKeys.maxInterval, c, "must be positive")
        try require(maxDistance >= 0, CodingKeys.maxDistance, c, "must not be negative")
    }
}

/// Parameters of a `long-press` recognizer.
package struct LongPressParameters: Hashable, Sendable, Codable {
    /// How long the touches must be held, in ms.
    package var minDuration: Double
    /// Fewest touches.
    package var minTouches: Int
    /// Most touches.
    package var maxTouches: Int
    /// Most a touch may move before the press is recognized, in mm.
    package var allowableMovement: Double

    /// Creates long-press parameters.
    package init(minDuration: Double = 500, minTouches: Int = 1, maxTouches: Int = 1, allowableMovement: Double = 3) {
        self.minDuration = minDuration; self.minTouches = minTouches; self.maxTouches = maxTouches
        self.allowableMovement = allowableMovement
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case minDuration, minTouches, maxTouches, allowableMovement }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = LongPressParameters()
        minDuration = try c.decodeIfPresent(Double.self, forKey: .minDuration) ?? d.minDuration
        try require(minDuration > 0, CodingKeys.minDuration, c, "must be positive")
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
        allowableMovement = try c.decodeIfPresent(Double.self, forKey: .allowableMovement) ?? d.allowableMovement
        try require(allowableMovement >= 0, CodingKeys.allowableMovement, c, "must not be negative")
    }
}

/// Parameters of a `pan` recognizer.
package struct PanParameters: Hashable, Sendable, Codable {
    /// Fewest touches.
    package var minTouches: Int
    /// Most touches (more are ignored once the pan began; before, they fail it).
    package var maxTouches: Int
    /// How far the centroid must move before the pan begins, in mm.
    package var slop: Double

    /// Creates pan parameters.
    package init(minTouches: Int = 1, maxTouches: Int = 10, slop: Double = 2) {
        self.minTouches = minTouches; self.maxTouches = maxTouches; self.slop = slop
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case minTouches, maxTouches, slop }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = PanParameters()
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
        slop = try c.decodeIfPresent(Double.self, forKey: .slop) ?? d.slop
        try require(slop >= 0, CodingKeys.slop, c, "must not be negative")
    }
}

/// Parameters of a `swipe` recognizer.
package struct SwipeParameters: Hashable, Sendable, Codable {
    /// The directions that count.
    package var directions: Set<SwipeDirection>
    /// Fewest touches.
    package var minTouches: Int
    /// Most touches.
    package var maxTouches: Int
    /// Shortest stroke, in mm.
    package var minDistance: Double
    /// Slowest stroke, in mm/s.
    package var minVelocity: Double
    /// Most the stroke may deviate from the direction's axis, in degrees.
    package var directionTolerance: Double

    /// Creates swipe parameters.
    package init(directions: Set<SwipeDirection> = Set(SwipeDirection.allCases), minTouches: Int = 1, maxTouches: Int = 1,
                minDistance: Double = 10, minVelocity: Double = 100, directionTolerance: Double = 30) {
        self.directions = directions; self.minTouches = minTouches; self.maxTouches = maxTouches
        self.minDistance = minDistance; self.minVelocity = minVelocity; self.directionTolerance = directionTolerance
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case directions, minTouches, maxTouches, minDistance, minVelocity, directionTolerance }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = SwipeParameters()
        directions = try c.decodeIfPresent(Set<SwipeDirection>.self, forKey: .directions) ?? d.directions
        try require(!directions.isEmpty, CodingKeys.directions, c, "must name at least one direction")
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
        minDistance = try c.decodeIfPresent(Double.self, forKey: .minDistance) ?? d.minDistance
        minVelocity = try c.decodeIfPresent(Double.self, forKey: .minVelocity) ?? d.minVelocity
        directionTolerance = try c.decodeIfPresent(Double.self, forKey: .directionTolerance) ?? d.directionTolerance
        try require(minDistance > 0, CodingKeys.minDistance, c, "must be positive")
        try require(minVelocity >= 0, CodingKeys.minVelocity, c, "must not be negative")
        try require(directionTolerance > 0 && directionTolerance < 45, CodingKeys.directionTolerance, c, "must be between 0 and 45 degrees")
    }

    /// Encodes the directions in a stable order.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(SwipeDirection.allCases.filter { directions.contains($0) }, forKey: .directions)
        try c.encode(minTouches, forKey: .minTouches)
        try c.encode(maxTouches, forKey: .maxTouches)
        try c.encode(minDistance, forKey: .minDistance)
        try c.encode(minVelocity, forKey: .minVelocity)
        try c.encode(directionTolerance, forKey: .directionTolerance)
    }
}

/// Parameters of a `pinch` recognizer.
package struct PinchParameters: Hashable, Sendable, Codable {
    /// Fewest touches (at least 2).
    package var minTouches: Int
    /// Most touches.
    package var maxTouches: Int
    /// How much the mean distance of the touches from their centroid must change before the pinch begins, in mm.
    package var threshold: Double

    /// Creates pinch parameters.
    package init(minTouches: Int = 2, maxTouches: Int = 10, threshold: Double = 3) {
        self.minTouches = minTouches; self.maxTouches = maxTouches; self.threshold = threshold
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case minTouches, maxTouches, threshold }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = PinchParameters()
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
        try require(minTouches >= 2, CodingKeys.minTouches, c, "must be at least 2")
        threshold = try c.decodeIfPresent(Double.self, forKey: .threshold) ?? d.threshold
        try require(threshold >= 0, CodingKeys.threshold, c, "must not be negative")
    }
}

/// Parameters of a `rotate` recognizer.
package struct RotateParameters: Hashable, Sendable, Codable {
    /// Fewest touches (at least 2).
    package var minTouches: Int
    /// Most touches.
    package var maxTouches: Int
    /// How far the touches must turn before the rotation begins, in radians.
    package var threshold: Double

    /// Creates rotate parameters.
    package init(minTouches: Int = 2, maxTouches: Int = 10, threshold: Double = 0.2) {
        self.minTouches = minTouches; self.maxTouches = maxTouches; self.threshold = threshold
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case minTouches, maxTouches, threshold }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = RotateParameters()
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
        try require(minTouches >= 2, CodingKeys.minTouches, c, "must be at least 2")
        threshold = try c.decodeIfPresent(Double.self, forKey: .threshold) ?? d.threshold
        try require(threshold >= 0, CodingKeys.threshold, c, "must not be negative")
    }
}

/// Parameters of an `edge-pan` recognizer (an app's pan from an edge of its surface).
package struct EdgePanParameters: Hashable, Sendable, Codable {
    /// The edges it listens to.
    package var edges: Set<SurfaceEdge>
    /// Width of the zone along each edge where the touch must start, in mm.
    package var edgeZone: Double
    /// How far the centroid must move away from the edge before the pan begins, in mm.
    package var slop: Double
    /// Fewest touches.
    package var minTouches: Int
    /// Most touches.
    package var maxTouches: Int

    /// Creates edge-pan parameters.
    package init(edges: Set<SurfaceEdge> = Set(SurfaceEdge.allCases), edgeZone: Double = 5, slop: Double = 2,
                minTouches: Int = 1, maxTouches: Int = 1) {
        self.edges = edges; self.edgeZone = edgeZone; self.slop = slop
        self.minTouches = minTouches; self.maxTouches = maxTouches
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case edges, edgeZone, slop, minTouches, maxTouches }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = EdgePanParameters()
        edges = try c.decodeIfPresent(Set<SurfaceEdge>.self, forKey: .edges) ?? d.edges
        try require(!edges.isEmpty, CodingKeys.edges, c, "must name at least one edge")
        edgeZone = try c.decodeIfPresent(Double.self, forKey: .edgeZone) ?? d.edgeZone
        slop = try c.decodeIfPresent(Double.self, forKey: .slop) ?? d.slop
        try require(edgeZone > 0, CodingKeys.edgeZone, c, "must be positive")
        try require(slop >= 0, CodingKeys.slop, c, "must not be negative")
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
    }

    /// Encodes the edges in a stable order.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(SurfaceEdge.allCases.filter { edges.contains($0) }, forKey: .edges)
        try c.encode(edgeZone, forKey: .edgeZone)
        try c.encode(slop, forKey: .slop)
        try c.encode(minTouches, forKey: .minTouches)
        try c.encode(maxTouches, forKey: .maxTouches)
    }
}

/// Parameters of a `hover` recognizer (a stylus in proximity over the surface).
package struct HoverParameters: Hashable, Sendable, Codable {
    /// Creates hover parameters (there are none yet).
    package init() {}
    /// Decodes (no keys yet).
    package init(from decoder: any Decoder) throws {}
    /// Encodes nothing.
    package func encode(to encoder: any Encoder) throws {}
}

/// Parameters of a `drag` recognizer (semantics section 7: hold, then move).
package struct DragParameters: Hashable, Sendable, Codable {
    /// How long the touch must be held before it can lift an item, in ms.
    package var minDuration: Double
    /// Most the touch may move while being held, in mm.
    package var allowableMovement: Double
    /// How far it must move after the hold for the drag to begin, in mm.
    package var slop: Double
    /// Fewest touches.
    package var minTouches: Int
    /// Most touches.
    package var maxTouches: Int

    /// Creates drag parameters.
    package init(minDuration: Double = 500, allowableMovement: Double = 3, slop: Double = 2, minTouches: Int = 1, maxTouches: Int = 1) {
        self.minDuration = minDuration; self.allowableMovement = allowableMovement; self.slop = slop
        self.minTouches = minTouches; self.maxTouches = maxTouches
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case minDuration, allowableMovement, slop, minTouches, maxTouches }

    /// Decodes, with a default for every missing key.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let d = DragParameters()
        minDuration = try c.decodeIfPresent(Double.self, forKey: .minDuration) ?? d.minDuration
        allowableMovement = try c.decodeIfPresent(Double.self, forKey: .allowableMovement) ?? d.allowableMovement
        slop = try c.decodeIfPresent(Double.self, forKey: .slop) ?? d.slop
        try require(minDuration > 0, CodingKeys.minDuration, c, "must be positive")
        try require(allowableMovement >= 0, CodingKeys.allowableMovement, c, "must not be negative")
        try require(slop >= 0, CodingKeys.slop, c, "must not be negative")
        (minTouches, maxTouches) = try decodeTouchRange(c, min: .minTouches, max: .maxTouches, defaults: (d.minTouches, d.maxTouches))
    }
}
