// SPDX-License-Identifier: MIT

/// The protocol version this build speaks.
public let protocolVersion = 1

/// touchd's version, as the `hello` message reports it (`"touchd VERSION"`).
public let serverVersion = "0.1.0"

/// One device as the `hello` message lists it.
public struct HelloDevice: Hashable, Sendable {
    /// The device's id in events.
    public var id: UInt32
    /// Kernel name.
    public var name: String
    /// What it produces: `direct`, `indirect`, `stylus` (a tablet with pen and touch lists two).
    public var touchTypes: [WireTouchType]
    /// Multitouch slots (0 for protocol A or single-touch devices).
    public var slots: Int
    /// Physical size in millimetres.
    public var widthMM: Double
    /// Physical size in millimetres.
    public var heightMM: Double
    /// Where the size came from: `resolution`, `override`, `udev` or `fallback`.
    public var sizeSource: String
    /// Index of the screen it maps to.
    public var screen: Int
    /// Its pass-through mirror while touchd stands in front of the compositor
    /// for it (semantics §9), nil otherwise.
    public var passThrough: HelloPassThrough?
    /// Creates a device entry.
    public init(id: UInt32, name: String, touchTypes: [WireTouchType], slots: Int, widthMM: Double, heightMM: Double, sizeSource: String, screen: Int) {
        self.id = id
        self.name = name
        self.touchTypes = touchTypes
        self.slots = slots
        self.widthMM = widthMM
        self.heightMM = heightMM
        self.sizeSource = sizeSource
        self.screen = screen
    }
}

/// A device's pass-through mirror as `hello` lists it (`touchctl devices --running`).
public struct HelloPassThrough: Hashable, Sendable {
    /// The mirror's node, `/dev/input/eventN` (`?` when unknown).
    public var mirrorNode: String
    /// The mirror's kernel name.
    public var mirrorName: String
    /// How a touch touchd takes ends on it: `cancel` or `lift`.
    public var ending: String
    /// Why it ends so: `configured`, or what `auto` decided from (`auto: kwin_wayland 5.27.5
    /// passes cancels`, `auto: compositor unknown`); nil leaves the field out.
    public var endingReason: String?
    /// Creates an entry.
    public init(mirrorNode: String, mirrorName: String, ending: String, endingReason: String? = nil) {
        self.mirrorNode = mirrorNode
        self.mirrorName = mirrorName
        self.ending = ending
        self.endingReason = endingReason
    }
}

/// One screen as the `hello` message lists it.
public struct HelloScreen: Hashable, Sendable {
    /// Index used in events.
    public var index: Int
    /// Configured name.
    public var name: String
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// How far the picture is turned clockwise on the panel (0, 90, 180, 270);
    /// ``width`` and ``height`` are the screen as the user sees it, after the turn.
    public var rotation: Int
    /// Pixels the system keeps along each edge, as the user sees the screen.
    public var insets: WireInsets
    /// Physical size as the user sees the screen, when known.
    public var sizeMM: WireSize?
    /// Pixels per millimetre the server assumes for a screen without ``sizeMM``: about a
    /// 15.6-inch 1080p panel (141 dpi); its millimetre thresholds and travel use it.
    public static let fallbackPixelsPerMillimetre = 5.6

    /// Creates a screen entry.
    public init(index: Int, name: String, width: Int, height: Int, rotation: Int = 0, insets: WireInsets = WireInsets(),
                sizeMM: WireSize? = nil) {
        self.index = index
        self.name = name
        self.width = width
        self.height = height
        self.rotation = rotation
        self.insets = insets
        self.sizeMM = sizeMM
    }
}

/// Encodes protocol v1 messages as JSON lines.
public enum MessageEncoder {
    /// Writes the `hello` object (no trailing newline); `session` is the seat's session as the
    /// server follows it (left out when nil: a server that does not follow one, such as an offline replay).
    public static func hello(devices: [HelloDevice], screens: [HelloScreen], session: LoginSessionStatus? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", string: "hello")
        w.field("protocol", int: protocolVersion)
        w.field("server", string: "touchd " + serverVersion)
        w.key("devices")
        w.beginArray()
        for d in devices { device(d, into: &w) }
        w.endArray()
        screenList(screens, into: &w)
        if let session { sessionObject(session, into: &w) }
        w.endObject()
    }

    /// Writes the `screens` message (no trailing newline): the screens after
    /// a change of their geometry, sent to every client (semantics §11.3).
    public static func screens(_ screens: [HelloScreen], time: Double, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", string: "screens")
        w.field("time", number: time, decimals: 6)
        screenList(screens, into: &w)
        w.endObject()
    }

    /// The `screens` key and its list, as `hello` and `screens` carry it.
    static func screenList(_ screens: [HelloScreen], into w: inout JSONWriter) {
        w.key("screens")
        w.beginArray()
        for s in screens {
            w.beginObject()
            w.field("id", int: s.index)
            w.field("name", string: s.name)
            w.field("width", int: s.width)
            w.field("height", int: s.height)
            // Left out when 0, as are insets when none: `hello` of an unturned screen is as before.
            if s.rotation != 0 { w.field("rotation", int: s.rotation) }
            if let size = s.sizeMM {
                w.key("size")
                w.beginObject()
                w.field("width", number: size.width, decimals: 1)
                w.field("height", number: size.height, decimals: 1)
                w.endObject()
            }
            if !s.insets.isEmpty {
                w.key("insets")
                w.beginObject()
                w.field("top", number: s.insets.top, decimals: 1)
                w.field("right", number: s.insets.right, decimals: 1)
                w.field("bottom", number: s.insets.bottom, decimals: 1)
                w.field("left", number: s.insets.left, decimals: 1)
                w.endObject()
            }
            w.endObject()
        }
        w.endArray()
    }

    /// Writes one device entry, as `hello` and `device` messages carry it.
    public static func device(_ d: HelloDevice, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", int: d.id)
        w.field("name", string: d.name)
        w.key("touchType")
        if let first = d.touchTypes.first { w.string(first.rawValue) } else { w.null() }
        w.key("touchTypes")
        w.beginArray()
        for t in d.touchTypes { w.string(t.rawValue) }
        w.endArray()
        w.field("slots", int: d.slots)
        w.key("size")
        w.beginObject()
        w.field("width", number: d.widthMM, decimals: 1)
        w.field("height", number: d.heightMM, decimals: 1)
        w.field("source", string: d.sizeSource)
        w.endObject()
        w.field("screen", int: d.screen)
        if let p = d.passThrough {
            w.key("passThrough")
            w.beginObject()
            w.field("mirror", string: p.mirrorNode)
            w.field("name", string: p.mirrorName)
            w.field("ending", string: p.ending)
            if let reason = p.endingReason { w.field("endingReason", string: reason) }
            w.endObject()
        }
        w.endObject()
    }

    /// Writes one `touch` event object (no trailing newline); `surface` is set for a surface's
    /// raw touch stream (apart from the touch, so a ``TouchMessage`` is plain data, copied without
    /// reference counting on the path of every touch).
    public static func touch(_ t: TouchMessage, surface: String? = nil, into w: inout JSONWriter) {
        var room = touchRoom
        if let surface { room &+= 11 &+ JSONCursor.stringRoom(surface) }
        w.value(room: room) { c in
            c.raw(#"{"type":"touch","time":"#)
            c.seconds(microseconds: t.microseconds)
            c.raw(#","device":"#)
            c.int(t.device)
            c.raw(#","id":"#)
            c.int(t.id)
            c.raw(#","phase":"#)
            c.quoted(t.phase.protocolName)
            c.raw(#","touchType":"#)
            c.quoted(t.touchType.protocolName)
            c.raw(#","tool":"#)
            c.quoted(t.tool.protocolName)
            c.raw(#","screen":"#)
            c.int(t.screen)
            c.raw(#","location":"#)
            c.point(x: t.location.x, y: t.location.y, TwoDecimals.self)
            c.raw(#","locationMM":"#)
            c.point(x: t.locationMM.x, y: t.locationMM.y, TwoDecimals.self)
            if let v = t.force { c.raw(#","force":"#); c.number(v, FourDecimals.self) }
            if let v = t.majorRadius { c.raw(#","majorRadius":"#); c.number(v, TwoDecimals.self) }
            if let v = t.minorRadius { c.raw(#","minorRadius":"#); c.number(v, TwoDecimals.self) }
            if let v = t.altitude { c.raw(#","altitude":"#); c.number(v, FourDecimals.self) }
            if let v = t.azimuth { c.raw(#","azimuth":"#); c.number(v, FourDecimals.self) }
            if let v = t.distance { c.raw(#","distance":"#); c.number(v, FourDecimals.self) }
            if !t.buttons.isEmpty {
                c.raw(#","buttons":["#)
                var first = true
                for (button, name) in WireToolButtons.protocolNames where t.buttons.contains(button) {
                    if !first { c.raw(",") }
                    first = false
                    c.quoted(name)
                }
                c.raw("]")
            }
            if let s = t.serial { c.raw(#","serial":"#); c.int(s) }
            if t.phase == .hover { c.raw(#","inProximity":"#); c.bool(t.inProximity) }
            if t.isSynthetic { c.raw(#","synthetic":true"#) }
            if let surface { c.raw(#","surface":"#); c.string(surface) }
            c.raw("}")
        }
    }

    /// The most a touch line takes without its `surface`: the keys and
    /// punctuation (about 300 bytes with every optional key), 11 numbers
    /// (at most 32 bytes each), 4 integers (21), 3 enum names and 6 button
    /// names (at most 12 each): under 900.
    static var touchRoom: Int { 1024 }
}

/// A point or vector of a line (`location`, `translation`, `velocity`), in the line's unit.
public struct WirePoint: Hashable, Sendable, BitwiseCopyable {
    /// Horizontal coordinate.
    public var x: Double
    /// Vertical coordinate (grows downwards on screen).
    public var y: Double
    /// Creates a point.
    @inlinable public init(x: Double, y: Double) { self.x = x; self.y = y }
}

/// A `touch` line: one touch at one moment (docs/protocol.md, "touch"). Optional fields are left
/// out of the line when nil; the line's `surface` (a surface's raw touch stream) is given apart
/// (``MessageEncoder/touch(_:surface:into:)``).
public struct TouchMessage: Hashable, Sendable, BitwiseCopyable {
    /// `time`, in microseconds (the line has seconds with six decimals).
    public var microseconds: Int64
    /// `device`: the device's id.
    public var device: UInt32
    /// `id`: the touch's id, unique among the touches down.
    public var id: UInt32
    /// `phase`.
    public var phase: WireTouchPhase
    /// `touchType`.
    public var touchType: WireTouchType
    /// `tool`.
    public var tool: WireTool
    /// `screen`: the index of the device's screen.
    public var screen: Int
    /// `location`, in screen pixels.
    public var location: WirePoint
    /// `locationMM`, on the device in millimetres.
    public var locationMM: WirePoint
    /// `force`, 0...1.
    public var force: Double?
    /// `majorRadius`, in millimetres.
    public var majorRadius: Double?
    /// `minorRadius`, in millimetres.
    public var minorRadius: Double?
    /// `altitude`, in radians.
    public var altitude: Double?
    /// `azimuth`, in radians.
    public var azimuth: Double?
    /// `distance`, 0...1.
    public var distance: Double?
    /// `buttons` (left out when none).
    public var buttons: WireToolButtons
    /// `serial`: the tool's serial.
    public var serial: UInt32?
    /// `inProximity` (on `hover` lines only).
    public var inProximity: Bool
    /// `synthetic` (written only when true).
    public var isSynthetic: Bool

    /// Creates a touch line.
    @inlinable
    public init(
        microseconds: Int64, device: UInt32, id: UInt32, phase: WireTouchPhase, touchType: WireTouchType, tool: WireTool,
        screen: Int, location: WirePoint, locationMM: WirePoint, force: Double? = nil, majorRadius: Double? = nil,
        minorRadius: Double? = nil, altitude: Double? = nil, azimuth: Double? = nil, distance: Double? = nil,
        buttons: WireToolButtons = [], serial: UInt32? = nil, inProximity: Bool = true, isSynthetic: Bool = false
    ) {
        self.microseconds = microseconds
        self.device = device
        self.id = id
        self.phase = phase
        self.touchType = touchType
        self.tool = tool
        self.screen = screen
        self.location = location
        self.locationMM = locationMM
        self.force = force
        self.majorRadius = majorRadius
        self.minorRadius = minorRadius
        self.altitude = altitude
        self.azimuth = azimuth
        self.distance = distance
        self.buttons = buttons
        self.serial = serial
        self.inProximity = inProximity
        self.isSynthetic = isSynthetic
    }
}
