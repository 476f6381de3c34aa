import TouchCore

/// The protocol version this build speaks.
public let protocolVersion = 1

/// touchd's version, as the `hello` message reports it (`"touchd VERSION"`).
public let serverVersion = "0.1.0"

/// One device as the `hello` message lists it.
public struct HelloDevice: Hashable, Sendable {
    /// The device's id in events.
    public var id: DeviceID
    /// Kernel name.
    public var name: String
    /// What it produces: `direct`, `indirect`, `stylus` (a tablet with pen and touch lists two).
    public var touchTypes: [TouchType]
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
    /// Creates a device entry.
    public init(id: DeviceID, name: String, touchTypes: [TouchType], slots: Int, widthMM: Double, heightMM: Double, sizeSource: String, screen: Int) {
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
    /// Creates a screen entry.
    public init(index: Int, name: String, width: Int, height: Int) {
        self.index = index
        self.name = name
        self.width = width
        self.height = height
    }
}

/// Encodes protocol v1 messages as JSON lines.
public enum MessageEncoder {
    /// Writes the `hello` object (no trailing newline).
    public static func hello(devices: [HelloDevice], screens: [HelloScreen], into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("hello")
        w.key("protocol"); w.int(protocolVersion)
        w.key("server"); w.string("touchd " + serverVersion)
        w.key("devices")
        w.beginArray()
        for d in devices { device(d, into: &w) }
        w.endArray()
        w.key("screens")
        w.beginArray()
        for s in screens {
            w.beginObject()
            w.key("id"); w.int(s.index)
            w.key("name"); w.string(s.name)
            w.key("width"); w.int(s.width)
            w.key("height"); w.int(s.height)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// Writes one device entry, as `hello` and `device` messages carry it.
    public static func device(_ d: HelloDevice, into w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.int(d.id.rawValue)
        w.key("name"); w.string(d.name)
        w.key("touchType")
        if let first = d.touchTypes.first { w.string(first.rawValue) } else { w.null() }
        w.key("touchTypes")
        w.beginArray()
        for t in d.touchTypes { w.string(t.rawValue) }
        w.endArray()
        w.key("slots"); w.int(d.slots)
        w.key("size")
        w.beginObject()
        w.key("width"); w.number(d.widthMM, decimals: 1)
        w.key("height"); w.number(d.heightMM, decimals: 1)
        w.key("source"); w.string(d.sizeSource)
        w.endObject()
        w.key("screen"); w.int(d.screen)
        w.endObject()
    }

    /// Writes one `touch` event object (no trailing newline); `surface` is
    /// set for a surface's raw touch stream.
    public static func touch(_ t: Touch, surface: String? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("touch")
        w.key("time"); w.number(t.time.seconds, decimals: 6)
        w.key("device"); w.int(t.device.rawValue)
        w.key("id"); w.int(t.id.rawValue)
        w.key("phase"); w.string(t.phase.rawValue)
        w.key("touchType"); w.string(t.type.rawValue)
        w.key("tool"); w.string(t.tool.rawValue)
        w.key("screen"); w.int(t.screen)
        w.key("location"); w.point(x: t.location.x, y: t.location.y, decimals: 2)
        w.key("locationMM"); w.point(x: t.locationMM.x, y: t.locationMM.y, decimals: 2)
        if let v = t.force { w.key("force"); w.number(v, decimals: 4) }
        if let v = t.majorRadius { w.key("majorRadius"); w.number(v, decimals: 2) }
        if let v = t.minorRadius { w.key("minorRadius"); w.number(v, decimals: 2) }
        if let v = t.altitude { w.key("altitude"); w.number(v, decimals: 4) }
        if let v = t.azimuth { w.key("azimuth"); w.number(v, decimals: 4) }
        if let v = t.distance { w.key("distance"); w.number(v, decimals: 4) }
        if !t.buttons.isEmpty {
            w.key("buttons")
            w.beginArray()
            for name in t.buttons.names { w.string(name) }
            w.endArray()
        }
        if let s = t.serial { w.key("serial"); w.int(s) }
        if t.phase == .hover { w.key("inProximity"); w.bool(t.inProximity) }
        if t.isSynthetic { w.key("synthetic"); w.bool(true) }
        if let surface { w.key("surface"); w.string(surface) }
        w.endObject()
    }
}
