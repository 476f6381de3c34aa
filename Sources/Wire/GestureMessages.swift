// SPDX-License-Identifier: MIT

extension MessageEncoder {
    /// Writes one `gesture` event object (no trailing newline).
    ///
    /// Kind-specific fields: `taps` (tap), `direction` (swipe), `translation`
    /// and `velocity` in px and px/s (pan, edge-pan, drag), `scale` and
    /// `velocity` in scale/s (pinch), `rotation` in radians and `velocity` in
    /// rad/s (rotate), `edge` (edge-pan).
    public static func gesture(_ e: GestureMessage, into w: inout JSONWriter) {
        var room = gestureRoom &+ JSONCursor.stringRoom(e.owner) &+ JSONCursor.stringRoom(e.recognizer)
        if let s = e.surface { room &+= JSONCursor.stringRoom(s) }
        if let p = e.purpose { room &+= 11 &+ JSONCursor.stringRoom(p) }
        w.value(room: room) { c in
            c.raw(#"{"type":"gesture","time":"#)
            c.seconds(microseconds: e.microseconds)
            c.raw(#","device":"#)
            c.int(e.device)
            c.raw(#","surface":"#)
            if let s = e.surface { c.string(s) } else { c.raw("null") }
            c.raw(#","owner":"#)
            c.string(e.owner)
            c.raw(#","recognizer":"#)
            c.string(e.recognizer)
            c.raw(#","kind":"#)
            c.quoted(e.kind.protocolName)
            c.raw(#","state":"#)
            c.quoted(e.state.protocolName)
            c.raw(#","touches":"#)
            c.int(e.touches)
            c.raw(#","touchType":"#)
            c.quoted(e.touchType.protocolName)
            c.raw(#","location":"#)
            c.point(x: e.location.x, y: e.location.y, TwoDecimals.self)
            if let v = e.taps { c.raw(#","taps":"#); c.int(v) }
            if let v = e.direction { c.raw(#","direction":"#); c.quoted(v.protocolName) }
            if let v = e.translation { c.raw(#","translation":"#); c.point(x: v.x, y: v.y, TwoDecimals.self) }
            if let v = e.velocity { c.raw(#","velocity":"#); c.point(x: v.x, y: v.y, OneDecimal.self) }
            if let v = e.scale { c.raw(#","scale":"#); c.number(v, FourDecimals.self) }
            if let v = e.scaleVelocity { c.raw(#","velocity":"#); c.number(v, FourDecimals.self) }
            if let v = e.rotation { c.raw(#","rotation":"#); c.number(v, FourDecimals.self) }
            if let v = e.rotationVelocity { c.raw(#","velocity":"#); c.number(v, FourDecimals.self) }
            if let v = e.edge { c.raw(#","edge":"#); c.quoted(v.protocolName) }
            if let p = e.purpose { c.raw(#","purpose":"#); c.string(p) }
            if e.isSystem { c.raw(#","system":true"#) }
            c.raw("}")
        }
    }

    /// The most a gesture line takes without its strings (`surface`, `owner`,
    /// `recognizer`, `purpose`): the keys and punctuation (about 330 bytes
    /// with every optional key), 11 numbers (at most 32 bytes each), 3
    /// integers (21), 4 enum names (at most 14 each): under 800.
    static var gestureRoom: Int { 1024 }
}

/// A `gesture` line: one action of a recognizer (docs/protocol.md, "gesture"). Kind-specific
/// fields are nil for the other kinds and left out of the line.
public struct GestureMessage: Hashable, Sendable {
    /// `time`, in microseconds (the line has seconds with six decimals).
    public var microseconds: Int64
    /// `device`: the device whose touches made the gesture.
    public var device: UInt32
    /// `surface`: the recognizer's surface (null for system recognizers).
    public var surface: String?
    /// `owner`: the recognizer's owner (a client, `config` or `system`).
    public var owner: String
    /// `recognizer`: its name.
    public var recognizer: String
    /// `kind`.
    public var kind: WireGestureKind
    /// `state`.
    public var state: WireGestureState
    /// `touches`: how many touches take part.
    public var touches: Int
    /// `touchType` of those touches.
    public var touchType: WireTouchType
    /// `location`: their centroid, in screen pixels.
    public var location: WirePoint
    /// `taps` (tap).
    public var taps: Int?
    /// `direction` (swipe).
    public var direction: WireSwipeDirection?
    /// `translation` in pixels (pan, edge-pan, edge-swipe, drag).
    public var translation: WirePoint?
    /// `velocity` in pixels per second (pan, edge-pan, edge-swipe, drag, swipe).
    public var velocity: WirePoint?
    /// `scale` (pinch).
    public var scale: Double?
    /// `velocity` in scale per second (pinch).
    public var scaleVelocity: Double?
    /// `rotation` in radians (rotate).
    public var rotation: Double?
    /// `velocity` in radians per second (rotate).
    public var rotationVelocity: Double?
    /// `edge` (edge-pan, edge-swipe).
    public var edge: WireEdge?
    /// `purpose` (edge-swipe).
    public var purpose: String?
    /// `system` (written only when true).
    public var isSystem: Bool

    /// Creates a gesture line.
    @inlinable
    public init(
        microseconds: Int64, device: UInt32, surface: String?, owner: String, recognizer: String,
        kind: WireGestureKind, state: WireGestureState, touches: Int, touchType: WireTouchType, location: WirePoint,
        taps: Int? = nil, direction: WireSwipeDirection? = nil, translation: WirePoint? = nil, velocity: WirePoint? = nil,
        scale: Double? = nil, scaleVelocity: Double? = nil, rotation: Double? = nil, rotationVelocity: Double? = nil,
        edge: WireEdge? = nil, purpose: String? = nil, isSystem: Bool = false
    ) {
        self.microseconds = microseconds
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
