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
        w.field("type", string: "hello")
        w.field("protocol", int: protocolVersion)
        w.field("server", string: "touchd " + serverVersion)
        w.key("devices")
        w.beginArray()
        for d in devices { device(d, into: &w) }
        w.endArray()
        w.key("screens")
        w.beginArray()
        for s in screens {
            w.beginObject()
            w.field("id", int: s.index)
            w.field("name", string: s.name)
            w.field("width", int: s.width)
            w.field("height", int: s.height)
            w.endObject()
        }
        w.endArray()
        w.endObject()
    }

    /// Writes one device entry, as `hello` and `device` messages carry it.
    public static func device(_ d: HelloDevice, into w: inout JSONWriter) {
        w.beginObject()
        w.field("id", int: d.id.rawValue)
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
        w.endObject()
    }

    /// Writes one `touch` event object (no trailing newline); `surface` is
    /// set for a surface's raw touch stream.
    public static func touch(_ t: Touch, surface: String? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", literal: "touch")
        w.field("time", number: t.time.seconds, decimals: 6)
        w.field("device", int: t.device.rawValue)
        w.field("id", int: t.id.rawValue)
        w.field("phase", literal: t.phase.protocolName)
        w.field("touchType", literal: t.type.protocolName)
        w.field("tool", literal: t.tool.protocolName)
        w.field("screen", int: t.screen)
        w.field("location", x: t.location.x, y: t.location.y, decimals: 2)
        w.field("locationMM", x: t.locationMM.x, y: t.locationMM.y, decimals: 2)
        if let v = t.force { w.field("force", number: v, decimals: 4) }
        if let v = t.majorRadius { w.field("majorRadius", number: v, decimals: 2) }
        if let v = t.minorRadius { w.field("minorRadius", number: v, decimals: 2) }
        if let v = t.altitude { w.field("altitude", number: v, decimals: 4) }
        if let v = t.azimuth { w.field("azimuth", number: v, decimals: 4) }
        if let v = t.distance { w.field("distance", number: v, decimals: 4) }
        if !t.buttons.isEmpty {
            w.key("buttons")
            w.beginArray()
            for name in t.buttons.names { w.string(name) }
            w.endArray()
        }
        if let s = t.serial { w.field("serial", int: s) }
        if t.phase == .hover { w.field("inProximity", bool: t.inProximity) }
        if t.isSynthetic { w.field("synthetic", bool: true) }
        if let surface { w.field("surface", string: surface) }
        w.endObject()
    }
}
