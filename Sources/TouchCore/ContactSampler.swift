// SPDX-License-Identifier: MIT
/// Raw per-contact axis values of one finger contact (a slot or a protocol-A contact).
struct RawContact: Hashable, Sendable {
    var x: Int32?
    var y: Int32?
    var pressure: Int32?
    var touchMajor: Int32?
    var touchMinor: Int32?
    var distance: Int32?
    var toolType: Int32 = EventCode.mtToolFinger
    var trackingID: Int32 = -1
}

/// Turns raw axis values into a ``ContactSample``: units, screen mapping and
/// normalisation for one device. Built once per device; no allocation per call.
struct ContactSampler: Sendable {
    let geometry: DeviceGeometry
    /// Where new contacts land; contacts already down keep theirs (``ContactLifecycle``).
    var placement: ScreenPlacement
    let fingerType: TouchType
    let mtPressure: AbsInfo?
    let mtDistance: AbsInfo?
    let hasTouchMinor: Bool
    let hasTouchMajor: Bool
    let stX: AbsInfo
    let stY: AbsInfo
    let secondaryX: AbsInfo
    let secondaryY: AbsInfo
    let pressure: AbsInfo?
    let distance: AbsInfo?
    let tiltX: AbsInfo?
    let tiltY: AbsInfo?
    let unitsPerMM: Double
    /// What counts as a contact and as a palm (quirks).
    let thresholds: ContactThresholds

    init(info: DeviceInfo, screenIndex: Int, generation: UInt32 = 0) {
        let d = info.description
        geometry = info.geometry
        placement = ScreenPlacement(mapping: info.mapping, screen: info.screen, index: screenIndex, generation: generation)
        thresholds = info.mapping.contactThresholds
        fingerType = info.classification.fingerType ?? .direct
        mtPressure = d.supports(.abs, EventCode.absMTPressure) ? d.absInfo[EventCode.absMTPressure] : nil
        mtDistance = d.supports(.abs, EventCode.absMTDistance) ? d.absInfo[EventCode.absMTDistance] : nil
        hasTouchMajor = d.supports(.abs, EventCode.absMTTouchMajor)
        hasTouchMinor = d.supports(.abs, EventCode.absMTTouchMinor)
        stX = d.absInfo[EventCode.absX] ?? info.geometry.xAxis
        stY = d.absInfo[EventCode.absY] ?? info.geometry.yAxis
        secondaryX = d.absInfo[EventCode.absZ] ?? stX
        secondaryY = d.absInfo[EventCode.absRX] ?? stY
        pressure = d.supports(.abs, EventCode.absPressure) ? d.absInfo[EventCode.absPressure] : nil
        distance = d.supports(.abs, EventCode.absDistance) ? d.absInfo[EventCode.absDistance] : nil
        tiltX = d.supports(.abs, EventCode.absTiltX) ? d.absInfo[EventCode.absTiltX] : nil
        tiltY = d.supports(.abs, EventCode.absTiltY) ? d.absInfo[EventCode.absTiltY] : nil
        let u = info.geometry.unitsPerMM
        unitsPerMM = (u.x + u.y) / 2
    }

    /// 0...1 of an axis range, clamped.
    static func unit(_ v: Int32, _ axis: AbsInfo) -> Double {
        min(max(DeviceGeometry.normalise(v, on: axis), 0), 1)
    }

    func place(_ n: Point, into s: inout ContactSample) {
        s.normalised = n
        s.generation = placement.generation
        s.placedRotation = placement.rotation
        s.location = placement.place(n)
        s.locationMM = geometry.millimetres(normalised: n)
        s.screen = placement.screen
    }

    /// A finger contact reported on the multitouch axes.
    func finger(_ c: RawContact, buttons: ToolButtons) -> ContactSample {
        var s = ContactSample()
        switch c.toolType {
        case EventCode.mtToolPen: s.type = .stylus; s.tool = .pen
        case EventCode.mtToolPalm: s.type = fingerType; s.tool = .palm
        default: s.type = fingerType; s.tool = .finger
        }
        place(geometry.normalised(x: c.x ?? 0, y: c.y ?? 0), into: &s)
        s.deviceValues = DeviceContactValues(x: c.x ?? 0, y: c.y ?? 0, pressure: c.pressure,
                                             touchMajor: hasTouchMajor ? c.touchMajor : nil,
                                             touchMinor: hasTouchMinor ? c.touchMinor : nil)
        if let p = c.pressure, let mtPressure { s.force = Self.unit(p, mtPressure) }
        if hasTouchMajor, let major = c.touchMajor, unitsPerMM > 0 {
            let r = Double(major) / 2 / unitsPerMM
            s.majorRadius = r
            // Without ABS_MT_TOUCH_MINOR the kernel's contact is circular.
            s.minorRadius = hasTouchMinor ? c.touchMinor.map { Double($0) / 2 / unitsPerMM } : r
        }
        if let dist = c.distance, let mtDistance { s.distance = Self.unit(dist, mtDistance) }
        s.buttons = buttons
        return s
    }

    /// The single contact of an `ABS_X`/`ABS_Y` device.
    func single(x: Int32, y: Int32, secondary: Bool, pressure p: Int32?, buttons: ToolButtons) -> ContactSample {
        var s = ContactSample()
        s.type = fingerType
        s.tool = .finger
        let n = secondary
            ? Point(x: DeviceGeometry.normalise(x, on: secondaryX), y: DeviceGeometry.normalise(y, on: secondaryY))
            : Point(x: DeviceGeometry.normalise(x, on: stX), y: DeviceGeometry.normalise(y, on: stY))
        place(n, into: &s)
        s.deviceValues = DeviceContactValues(x: x, y: y, pressure: pressure == nil ? nil : p)
        if let p, let pressure { s.force = Self.unit(p, pressure) }
        s.buttons = buttons
        return s
    }

    /// A pen tool on `ABS_X`/`ABS_Y`.
    func pen(_ p: PenAxes, tool: Tool, buttons: ToolButtons, serial: UInt32?) -> ContactSample {
        var s = ContactSample()
        s.type = .stylus
        s.tool = tool
        place(Point(x: DeviceGeometry.normalise(p.x, on: stX), y: DeviceGeometry.normalise(p.y, on: stY)), into: &s)
        s.deviceValues = DeviceContactValues(x: p.x, y: p.y, pressure: pressure == nil ? nil : p.pressure,
                                             tiltX: tiltX == nil ? nil : p.tiltX, tiltY: tiltY == nil ? nil : p.tiltY,
                                             distance: distance == nil ? nil : p.distance, toolID: p.toolID,
                                             rotation: p.rotation, wheel: p.wheel)
        if let v = p.pressure, let pressure { s.force = Self.unit(v, pressure) }
        if let v = p.distance, let distance { s.distance = Self.unit(v, distance) }
        if let tx = tiltX, let ty = tiltY, let vx = p.tiltX, let vy = p.tiltY {
            let a = StylusTilt.altitudeAzimuth(tiltX: StylusTilt.radians(vx, axis: tx), tiltY: StylusTilt.radians(vy, axis: ty))
            s.altitude = a.altitude
            s.azimuth = StylusTilt.normaliseAngle(a.azimuth + placement.rotation.radians)
        }
        s.buttons = buttons
        s.serial = serial
        return s
    }
}

/// Current axis values of a pen.
struct PenAxes: Hashable, Sendable {
    var x: Int32 = 0
    var y: Int32 = 0
    var pressure: Int32?
    var distance: Int32?
    var tiltX: Int32?
    var tiltY: Int32?
    /// `ABS_MISC`: the tool's id (Wacom), for the pass-through mirror.
    var toolID: Int32?
    /// `ABS_Z` (an art pen's rotation) and `ABS_WHEEL` (an airbrush's wheel), for the pass-through mirror.
    var rotation: Int32?
    var wheel: Int32?
}
