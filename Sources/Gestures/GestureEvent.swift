// SPDX-License-Identifier: MIT
import TouchCore

/// The state a ``GestureEvent`` reports (semantics section 3).
@usableFromInline package enum GestureState: String, Hashable, Sendable, CaseIterable, Codable {
    /// A discrete gesture happened.
    case recognized
    /// A continuous gesture started.
    case began
    /// A continuous gesture moved on.
    case changed
    /// A continuous gesture finished normally.
    case ended
    /// A continuous gesture was called off (touch cancelled, drag took the touch, recognizer disabled).
    case cancelled
}

/// The direction of a swipe, in screen coordinates (y grows downwards).
@usableFromInline package enum SwipeDirection: String, Hashable, Sendable, CaseIterable, Codable {
    /// Towards smaller x.
    case left
    /// Towards larger x.
    case right
    /// Towards smaller y.
    case up
    /// Towards larger y.
    case down
}

/// An edge of a surface (for edge pans) or of a screen (for system edge swipes).
@usableFromInline package enum SurfaceEdge: String, Hashable, Sendable, CaseIterable, Codable {
    /// x = frame.x
    case left
    /// x = frame.x + frame.width
    case right
    /// y = frame.y
    case top
    /// y = frame.y + frame.height
    case bottom
}

/// One action of a recognizer: what is published to the surface's owner and to subscribers.
///
/// Events carry everything a client needs (semantics section 4: the state of a
/// recognizer is only meaningful inside an action).
@usableFromInline package struct GestureEvent: Hashable, Sendable {
    /// When it happened (the frame's timestamp, or the deadline that fired).
    @usableFromInline package var time: Timestamp
    /// The device whose touches made the gesture.
    @usableFromInline package var device: DeviceID
    /// The surface the recognizer belongs to; nil for system recognizers.
    @usableFromInline package var surface: SurfaceID?
    /// The owner of the recognizer (a client id, `config` or `system`).
    @usableFromInline package var owner: String
    /// The recognizer's name.
    @usableFromInline package var recognizer: String
    /// What was recognized.
    @usableFromInline package var kind: GestureKind
    /// `recognized` for discrete kinds; `began`/`changed`/`ended`/`cancelled` for continuous ones.
    @usableFromInline package var state: GestureState
    /// Number of touches taking part.
    @usableFromInline package var touches: Int
    /// The type of those touches (the first one's when types are mixed).
    @usableFromInline package var touchType: TouchType
    /// Centroid of the touches, in screen pixels.
    @usableFromInline package var location: Point
    /// Tap: the number of taps.
    @usableFromInline package var taps: Int?
    /// Swipe: its direction.
    @usableFromInline package var direction: SwipeDirection?
    /// Pan, edge-pan, edge-swipe, drag: translation of the centroid since the gesture started, in pixels.
    @usableFromInline package var translation: Point?
    /// Pan, edge-pan, edge-swipe, drag, swipe: velocity of the centroid in pixels per second.
    @usableFromInline package var velocity: Point?
    /// Pinch: span relative to the span at the start (1 = unchanged).
    @usableFromInline package var scale: Double?
    /// Pinch: scale change per second.
    @usableFromInline package var scaleVelocity: Double?
    /// Rotate: radians since the start, clockwise positive in screen coordinates.
    @usableFromInline package var rotation: Double?
    /// Rotate: radians per second.
    @usableFromInline package var rotationVelocity: Double?
    /// Edge-pan, edge-swipe: the edge it started from.
    @usableFromInline package var edge: SurfaceEdge?
    /// Edge-swipe: what the system gesture is for (`home`, `notifications`, `back`...).
    @usableFromInline package var purpose: String?
    /// True for recognizers owned by the system (published with `"system": true`).
    @usableFromInline package var isSystem: Bool

    /// Creates an event.
    package init(
        time: Timestamp, device: DeviceID, surface: SurfaceID?, owner: String, recognizer: String,
        kind: GestureKind, state: GestureState, touches: Int, touchType: TouchType, location: Point,
        taps: Int? = nil, direction: SwipeDirection? = nil, translation: Point? = nil, velocity: Point? = nil,
        scale: Double? = nil, scaleVelocity: Double? = nil, rotation: Double? = nil,
        rotationVelocity: Double? = nil, edge: SurfaceEdge? = nil, purpose: String? = nil, isSystem: Bool = false
    ) {
        self.time = time
        self.device = device
        self.surface = surface
        self.owner = owner
        self.recognizer = recognizer
        self.kind = kind
        self.state = state
        self.touches = touches
        self.touchType = touchType
        self.location = location
        self.taps = taps
        self.direction = direction
        self.translation = translation
        self.velocity = velocity
        self.scale = scale
        self.scaleVelocity = scaleVelocity
        self.rotation = rotation
        self.rotationVelocity = rotationVelocity
        self.edge = edge
        self.purpose = purpose
        self.isSystem = isSystem
    }
}

/// The kind-specific values a recognizer measured; the engine wraps them into a ``GestureEvent``.
struct GestureMeasurement: Hashable, Sendable {
    var device: DeviceID = DeviceID(0)
    var touches: Int = 0
    var touchType: TouchType = .direct
    var location: Point = .zero
    var taps: Int? = nil
    var direction: SwipeDirection? = nil
    var translation: Point? = nil
    var velocity: Point? = nil
    var scale: Double? = nil
    var scaleVelocity: Double? = nil
    var rotation: Double? = nil
    var rotationVelocity: Double? = nil
    var edge: SurfaceEdge? = nil
    var purpose: String? = nil
}
