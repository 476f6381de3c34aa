// SPDX-License-Identifier: MIT
/// The kind of contact, as in UIKit's `UITouch.TouchType`.
@usableFromInline package enum TouchType: String, Hashable, Sendable, BitwiseCopyable, CaseIterable, Codable {
    /// A finger on a touchscreen: the point touched is the point on screen.
    case direct
    /// A finger on a touchpad: movement is relative to the screen.
    case indirect
    /// A pen tool (pen, eraser, brush, pencil, airbrush, mouse, lens).
    case stylus
}

/// The tool that made a touch.
@usableFromInline package enum Tool: String, Hashable, Sendable, BitwiseCopyable, CaseIterable, Codable {
    /// A finger.
    case finger
    /// A palm (the device said `MT_TOOL_PALM`): such touches are cancelled.
    case palm
    /// The tip of a pen (`BTN_TOOL_PEN`, `MT_TOOL_PEN`).
    case pen
    /// The eraser end of a pen (`BTN_TOOL_RUBBER`).
    case eraser
    /// `BTN_TOOL_BRUSH`
    case brush
    /// `BTN_TOOL_PENCIL`
    case pencil
    /// `BTN_TOOL_AIRBRUSH`
    case airbrush
    /// A tablet puck (`BTN_TOOL_MOUSE`).
    case mouse
    /// A tablet lens cursor (`BTN_TOOL_LENS`).
    case lens
}

/// Where a touch is in its life.
@usableFromInline package enum TouchPhase: String, Hashable, Sendable, BitwiseCopyable, CaseIterable, Codable {
    /// The contact started.
    case began
    /// The contact moved (or changed pressure, size, tilt or buttons).
    case moved
    /// The contact lifted.
    case ended
    /// The contact was taken away: palm, device removed, events dropped, daemon reload.
    case cancelled
    /// A stylus in proximity without contact. The last hover event of a
    /// proximity span has ``Touch/inProximity`` false.
    case hover

    /// True for `ended` and `cancelled`.
    @inlinable package var isTerminal: Bool { self == .ended || self == .cancelled }
}

/// A stable identifier for one touch, unique among the active touches of a pipeline.
@usableFromInline package struct TouchID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number.
    @usableFromInline package var rawValue: UInt32
    /// Creates a touch id.
    @inlinable package init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Creates a touch id.
    @inlinable package init(_ value: Int) { self.rawValue = UInt32(truncatingIfNeeded: value) }
    @inlinable package static func < (a: TouchID, b: TouchID) -> Bool { a.rawValue < b.rawValue }
    @usableFromInline package var description: String { String(rawValue) }
}

/// A 2-D point or vector.
@usableFromInline package struct Point: Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Horizontal coordinate.
    @usableFromInline package var x: Double
    /// Vertical coordinate (grows downwards on screen).
    @usableFromInline package var y: Double
    /// Creates a point.
    @inlinable package init(x: Double, y: Double) { self.x = x; self.y = y }
    /// The origin.
    package static let zero = Point(x: 0, y: 0)
    /// Euclidean distance to `other`.
    @inlinable package func distance(to other: Point) -> Double {
        let dx = x - other.x, dy = y - other.y
        return (dx * dx + dy * dy).squareRoot()
    }
    @inlinable package static func + (a: Point, b: Point) -> Point { Point(x: a.x + b.x, y: a.y + b.y) }
    @inlinable package static func - (a: Point, b: Point) -> Point { Point(x: a.x - b.x, y: a.y - b.y) }
    @inlinable package static func * (a: Point, s: Double) -> Point { Point(x: a.x * s, y: a.y * s) }
    @inlinable package static func / (a: Point, s: Double) -> Point { Point(x: a.x / s, y: a.y / s) }
    /// Length of the vector.
    @inlinable package var length: Double { (x * x + y * y).squareRoot() }
    @usableFromInline package var description: String { "(\(x), \(y))" }
}

/// Barrel and side buttons held on a stylus (or touchpad buttons), as a bit set.
@usableFromInline package struct ToolButtons: OptionSet, Hashable, Sendable {
    /// The bits.
    @usableFromInline package var rawValue: UInt8
    /// Creates a button set from its bits.
    @inlinable package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `BTN_STYLUS`
    package static let stylus = ToolButtons(rawValue: 1 << 0)
    /// `BTN_STYLUS2`
    package static let stylus2 = ToolButtons(rawValue: 1 << 1)
    /// `BTN_STYLUS3`
    package static let stylus3 = ToolButtons(rawValue: 1 << 2)
    /// `BTN_LEFT`
    package static let left = ToolButtons(rawValue: 1 << 3)
    /// `BTN_RIGHT`
    package static let right = ToolButtons(rawValue: 1 << 4)
    /// `BTN_MIDDLE`
    package static let middle = ToolButtons(rawValue: 1 << 5)

    /// Names of the buttons held, in bit order (`stylus`, `stylus2`, ...).
    package var names: [String] {
        var out: [String] = []
        if contains(.stylus) { out.append("stylus") }
        if contains(.stylus2) { out.append("stylus2") }
        if contains(.stylus3) { out.append("stylus3") }
        if contains(.left) { out.append("left") }
        if contains(.right) { out.append("right") }
        if contains(.middle) { out.append("middle") }
        return out
    }
}

/// One typed touch at one moment: what the gesture engine and clients see.
@usableFromInline package struct Touch: Hashable, Sendable {
    /// Stable for the touch's life; unique among active touches of the pipeline.
    @usableFromInline package var id: TouchID
    /// The device that reported it.
    @usableFromInline package var device: DeviceID
    /// Where the touch is in its life.
    @usableFromInline package var phase: TouchPhase
    /// Direct, indirect or stylus.
    @usableFromInline package var type: TouchType
    /// Finger, palm or a pen tool.
    @usableFromInline package var tool: Tool
    /// The kernel timestamp of the frame that produced this state.
    @usableFromInline package var time: Timestamp
    /// Position on the device's screen, in pixels (after calibration and rotation).
    @usableFromInline package var location: Point
    /// ``location`` in the previous event of this touch (equal to it on `began`).
    package var previousLocation: Point
    /// Position on the device surface in millimetres from its top-left corner (device axes).
    @usableFromInline package var locationMM: Point
    /// Index of the screen the device maps to.
    @usableFromInline package var screen: Int
    /// Normalised pressure 0...1, when the device reports pressure.
    @usableFromInline package var force: Double?
    /// Half the contact's major axis in millimetres, when reported.
    @usableFromInline package var majorRadius: Double?
    /// Half the contact's minor axis in millimetres, when reported.
    @usableFromInline package var minorRadius: Double?
    /// Stylus altitude angle in radians (pi/2 = perpendicular to the surface), when tilt is reported.
    @usableFromInline package var altitude: Double?
    /// Stylus azimuth angle in radians (0 = pointing along +x, clockwise on screen), when tilt is reported.
    @usableFromInline package var azimuth: Double?
    /// Hover distance, normalised 0...1 of the axis range (0 = touching range), when reported.
    @usableFromInline package var distance: Double?
    /// Buttons held.
    @usableFromInline package var buttons: ToolButtons
    /// Tool serial (`MSC_SERIAL`), when the device reports one.
    @usableFromInline package var serial: UInt32?
    /// For ``TouchPhase/hover``: false on the last event of a proximity span.
    @usableFromInline package var inProximity: Bool
    /// The contact as the device reported it, in its own units: what a
    /// pass-through mirror writes (semantics §9).
    package var deviceValues: DeviceContactValues = DeviceContactValues()
    /// True for a touch inferred from a finger count (`BTN_TOOL_TRIPLETAP` on a two-slot touchpad) rather than reported by a slot.
    @usableFromInline package var isSynthetic: Bool

    /// Creates a touch.
    package init(
        id: TouchID, device: DeviceID, phase: TouchPhase, type: TouchType, tool: Tool, time: Timestamp,
        location: Point, previousLocation: Point? = nil, locationMM: Point = .zero, screen: Int = 0,
        force: Double? = nil, majorRadius: Double? = nil, minorRadius: Double? = nil,
        altitude: Double? = nil, azimuth: Double? = nil, distance: Double? = nil,
        buttons: ToolButtons = [], serial: UInt32? = nil, inProximity: Bool = true, isSynthetic: Bool = false
    ) {
        self.id = id
        self.device = device
        self.phase = phase
        self.type = type
        self.tool = tool
        self.time = time
        self.location = location
        self.previousLocation = previousLocation ?? location
        self.locationMM = locationMM
        self.screen = screen
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

/// A contact's axis values in the device's own units, as the kernel reported
/// them (`ABS_MT_*`, or `ABS_X`/`ABS_Y` for a single-touch device or a pen,
/// with a pen's tilt and distance).
package struct DeviceContactValues: Hashable, Sendable {
    /// Position on the device's x axis.
    package var x: Int32
    /// Position on the device's y axis.
    package var y: Int32
    /// Pressure, when the device reports it.
    package var pressure: Int32?
    /// Touch major axis, when reported.
    package var touchMajor: Int32?
    /// Touch minor axis, when reported.
    package var touchMinor: Int32?
    /// A pen's `ABS_TILT_X`, when reported.
    package var tiltX: Int32?
    /// A pen's `ABS_TILT_Y`, when reported.
    package var tiltY: Int32?
    /// A pen's `ABS_DISTANCE` (hover height), when reported.
    package var distance: Int32?
    /// A pen's tool id (`ABS_MISC`, Wacom), when reported.
    package var toolID: Int32?
    /// A pen's `ABS_Z` (an art pen's barrel rotation), when reported.
    package var rotation: Int32?
    /// A pen's `ABS_WHEEL` (an airbrush's finger wheel), when reported.
    package var wheel: Int32?

    /// Creates values.
    package init(x: Int32 = 0, y: Int32 = 0, pressure: Int32? = nil, touchMajor: Int32? = nil, touchMinor: Int32? = nil,
                tiltX: Int32? = nil, tiltY: Int32? = nil, distance: Int32? = nil, toolID: Int32? = nil,
                rotation: Int32? = nil, wheel: Int32? = nil) {
        self.x = x
        self.y = y
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.tiltX = tiltX
        self.tiltY = tiltY
        self.distance = distance
        self.toolID = toolID
        self.rotation = rotation
        self.wheel = wheel
    }
}

/// The touches that changed in one hardware frame (one `SYN_REPORT`) of one device.
///
/// A frame lists each touch at most once; touches that did not change are not listed.
package struct TouchFrame: Hashable, Sendable {
    /// The device that produced the frame.
    package var device: DeviceID
    /// The frame's kernel timestamp.
    package var time: Timestamp
    /// The touches that began, moved, ended, were cancelled, or hovered in this frame.
    package var touches: [Touch]
    /// Creates a frame.
    package init(device: DeviceID, time: Timestamp, touches: [Touch]) {
        self.device = device
        self.time = time
        self.touches = touches
    }
}
