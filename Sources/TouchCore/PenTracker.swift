// SPDX-License-Identifier: MIT
/// A pen (or puck) on `ABS_X`/`ABS_Y`: proximity per tool from `BTN_TOOL_*`,
/// contact from `BTN_TOUCH`, pressure, distance, tilt, barrel buttons, serial.
///
/// Axis values of the frame in which the tool leaves proximity are dropped
/// (Wacom zeroes X/Y there). Until the device sends any `BTN_TOOL_*` event, a
/// position, pressure or `BTN_TOUCH` event implies the pen is in proximity: a
/// recording may start with the pen already there, and some pens (UC-Logic)
/// declare no tool code at all.
struct PenTracker: Sendable {
    private var axes = PenAxes()
    private var pendingAxes = PenAxes()
    private var axesChanged = false
    private var toolsDown: UInt8 = 0
    private var toolEventSeen = false
    private var implied = false
    private var touching = false
    private var serial: UInt32?
    private var changed = false
    private(set) var lifecycle = ContactLifecycle()

    private static func toolIndex(_ code: UInt16) -> Int? {
        let i = Int(code) - Int(EventCode.btnToolPen)
        guard i >= 0 && i < DeviceClassification.penToolCodes.count else { return nil }
        return DeviceClassification.penToolCodes[i].code == code ? i : nil
    }

    /// Applies a key event; returns false when it is not a pen key.
    mutating func handleKey(code: UInt16, value: Int32) -> Bool {
        if let i = Self.toolIndex(code) {
            if value != 0 { toolsDown |= 1 << UInt8(i) } else { toolsDown &= ~(1 << UInt8(i)) }
            toolEventSeen = true
            implied = false
        } else if code == EventCode.btnTouch {
            touching = value != 0
            if !toolEventSeen { implied = true }
        } else {
            return false
        }
        changed = true
        return true
    }

    /// Applies an absolute axis event; returns false when it is not a pen axis.
    mutating func handleAbs(code: UInt16, value: Int32) -> Bool {
        switch code {
        case EventCode.absX: pendingAxes.x = value
        case EventCode.absY: pendingAxes.y = value
        case EventCode.absPressure: pendingAxes.pressure = value
        case EventCode.absDistance: pendingAxes.distance = value
        case EventCode.absTiltX: pendingAxes.tiltX = value
        case EventCode.absTiltY: pendingAxes.tiltY = value
        case EventCode.absMisc: pendingAxes.toolID = value
        case EventCode.absZ: pendingAxes.rotation = value
        case EventCode.absWheel: pendingAxes.wheel = value
        default: return false
        }
        if !toolEventSeen && code != EventCode.absDistance && code != EventCode.absMisc && code != EventCode.absZ
            && code != EventCode.absWheel { implied = true }
        axesChanged = true
        changed = true
        return true
    }

    /// `MSC_SERIAL` (signed on the wire; the bit pattern is the serial).
    mutating func handleSerial(_ value: Int32) {
        let s = UInt32(bitPattern: value)
        if serial != s { serial = s; changed = true }
    }

    /// Marks the pen for re-reporting (a button changed).
    mutating func touchButtons() { changed = true }

    /// The tool in proximity, if any (lowest tool code wins when several are down).
    var tool: Tool? {
        if toolsDown != 0 { return DeviceClassification.penToolCodes[toolsDown.trailingZeroBitCount].tool }
        return implied ? .pen : nil
    }

    /// Ends the frame.
    mutating func commit(
        sampler: ContactSampler, buttons: ToolButtons, device: DeviceID, time: Timestamp, lift: TouchPhase,
        ids: inout TouchIDAllocator, into out: inout [Touch]
    ) {
        guard changed else { return }
        changed = false
        let tool = self.tool
        if tool != nil && axesChanged { axes = pendingAxes }
        pendingAxes = axes
        axesChanged = false
        let sample = sampler.pen(axes, tool: tool ?? lifecycle.lastSample.tool, buttons: buttons, serial: serial)
        lifecycle.update(
            .init(present: tool != nil, touching: tool != nil && touching), sample: sample, placement: sampler.placement,
            device: device, time: time, lift: lift, ids: &ids, into: &out)
    }

    /// Starts from a device's state: its pen axes and keys. A tool already in
    /// proximity is ignored until it leaves (its span's beginning was never seen).
    mutating func seed(axisValues: [UInt16: Int32], keysDown: [UInt16]) {
        for (code, value) in axisValues {
            guard handleAbs(code: code, value: value) else { continue }
        }
        axes = pendingAxes
        axesChanged = false
        implied = false
        for code in keysDown { _ = handleKey(code: code, value: 1) }
        changed = false
        if tool != nil { lifecycle.ignoreUntilGone() }
    }

    /// Ends any contact or hover span; later axis events imply proximity again.
    mutating func cancel(device: DeviceID, time: Timestamp, into out: inout [Touch]) {
        lifecycle.cancel(device: device, time: time, into: &out)
        toolsDown = 0
        implied = false
        toolEventSeen = false
        touching = false
    }
}
