// SPDX-License-Identifier: MIT
/// How a device reports finger contacts.
package enum ContactProtocol: Hashable, Sendable {
    /// Multitouch protocol B: `ABS_MT_SLOT` selects one of `slots` slots
    /// (at most ``maxSlots``).
    case slotted(slots: Int)
    /// Multitouch protocol A: `ABS_MT_POSITION_*` without slots, contacts separated by `SYN_MT_REPORT`.
    case anonymous
    /// One contact: `ABS_X`/`ABS_Y` plus `BTN_TOUCH` (or `BTN_TOOL_FINGER`).
    case singleTouch
    /// No finger contacts (pen-only devices, pads, keyboards, mice).
    case none

    /// The most slots a device is given (libevdev's limit too): a device
    /// declaring more (`ABS_MT_SLOT` max 2^31 - 1 from a broken driver or a
    /// hostile uinput device) gets this many; events for slots beyond are
    /// dropped like those of any out-of-range slot. Without the limit such a
    /// device exhausted memory when added (found by fuzz-pipeline-engine).
    package static let maxSlots = 256
}

/// What a device is, decided from its description alone (see docs/touches.md
/// for every rule and heuristic).
package struct DeviceClassification: Hashable, Sendable {
    /// `direct` or `indirect` when the device reports finger contacts, nil otherwise.
    package var fingerType: TouchType?
    /// True when the device reports pen tools.
    package var hasStylus: Bool
    /// The pen tools the device declares (`[.pen]` when a pen is inferred without tool codes).
    package var stylusTools: [Tool]
    /// The touch types the device produces, in `TouchType` order.
    package var touchTypes: [TouchType]
    /// How finger contacts are reported.
    package var contactProtocol: ContactProtocol
    /// `INPUT_PROP_SEMI_MT`: slots are bounding-box corners, not fingers.
    package var isSemiMT: Bool
    /// Most fingers the device can report: the larger of its slot count and its
    /// highest `BTN_TOOL_*TAP` finger count (1 for single-touch, 0 without fingers).
    package var maxFingerCount: Int
    /// False for devices that produce no touches (pads, keyboards, mice).
    package var isTouchDevice: Bool
    /// Single-touch devices whose position arrives on `ABS_Z`/`ABS_RX` instead of
    /// `ABS_X`/`ABS_Y` (eGalax USB TouchController, heuristic H3).
    package var usesSecondaryPositionAxes: Bool
    /// The key that reports contact on a single-touch device: `BTN_TOUCH`,
    /// `BTN_TOOL_FINGER` when there is no `BTN_TOUCH`, or `BTN_LEFT` (heuristic H6).
    package var contactKey: UInt16
    /// A sentence explaining the decision.
    package var reason: String
    /// Why no touch can come from the device (nil for touch devices): no
    /// position axes, or axes whose absinfo has no range. Daemon and
    /// `touchctl devices` ignore such a device with this reason.
    package var unusableReason: String?

    /// The pen tool codes, in kernel order.
    package static let penToolCodes: [(code: UInt16, tool: Tool)] = [
        (EventCode.btnToolPen, .pen), (EventCode.btnToolRubber, .eraser), (EventCode.btnToolBrush, .brush),
        (EventCode.btnToolPencil, .pencil), (EventCode.btnToolAirbrush, .airbrush),
        (EventCode.btnToolMouse, .mouse), (EventCode.btnToolLens, .lens),
    ]

    /// Finger-count tool codes and the count each stands for.
    package static let fingerCountCodes: [(code: UInt16, count: Int)] = [
        (EventCode.btnToolFinger, 1), (EventCode.btnToolDoubleTap, 2), (EventCode.btnToolTripleTap, 3),
        (EventCode.btnToolQuadTap, 4), (EventCode.btnToolQuintTap, 5),
    ]

    /// Classifies a device from its description.
    package init(_ description: DeviceDescription) {
        let d = description
        let props = d.properties
        func axis(_ code: UInt16) -> Bool {
            guard d.supports(.abs, code) else { return false }
            // Wacom pads declare ABS_X/ABS_Y with a 0..1 range: not a position.
            guard let info = d.absInfo[code] else { return true }
            return info.span > 1
        }
        let hasMT = axis(EventCode.absMTPositionX) && axis(EventCode.absMTPositionY)
        let hasSlots = d.supports(.abs, EventCode.absMTSlot)
        let hasST = axis(EventCode.absX) && axis(EventCode.absY)
        let hasTouchKey = d.supports(.key, EventCode.btnTouch)
        let hasFingerTool = d.supports(.key, EventCode.btnToolFinger)
        let hasPressure = d.supports(.abs, EventCode.absPressure)
        let hasStylusButton = d.supports(.key, EventCode.btnStylus) || d.supports(.key, EventCode.btnStylus2)
        let declaredTools = Self.penToolCodes.filter { d.supports(.key, $0.code) }.map(\.tool)
        let noProps = props.isEmpty

        var notes: [String] = []
        var tools = declaredTools
        var secondaryAxes = false

        // H3: eGalax "USB TouchController" declares BTN_TOOL_PEN but is a
        // resistive touchscreen: only BTN_TOUCH + positions, no pressure, no barrel button.
        let fakePen = noProps && !hasMT && hasTouchKey && !hasPressure && !hasStylusButton
            && declaredTools == [.pen] && (hasST || (axis(EventCode.absZ) && axis(EventCode.absRX)))
        if fakePen {
            tools = []
            secondaryAxes = axis(EventCode.absZ) && axis(EventCode.absRX)
            notes.append("declares BTN_TOOL_PEN but has no pressure or barrel button: a touchscreen (heuristic H3)")
        }
        // H4: a pen that declares no tool code (UC-Logic): BTN_TOUCH + pressure + barrel button.
        if tools.isEmpty && !fakePen && noProps && !hasMT && hasST && hasTouchKey && hasPressure && hasStylusButton {
            tools = [.pen]
            notes.append("no pen tool code but BTN_TOUCH, ABS_PRESSURE and BTN_STYLUS: a pen (heuristic H4)")
        } else if !declaredTools.isEmpty && !fakePen {
            notes.append("has pen tools " + declaredTools.map(\.rawValue).joined(separator: ", "))
        }
        let hasStylus = !tools.isEmpty

        // H6: an absolute touchmonitor that reports contact as the left button
        // (Elo 2700): ABS_X/ABS_Y + BTN_LEFT only, no relative axes at all.
        let hasRel = !(d.codes[.rel]?.isEmpty ?? true)
        let leftButtonScreen = noProps && !hasMT && hasST && !hasTouchKey && !hasFingerTool && tools.isEmpty && !hasRel
            && d.supports(.key, EventCode.btnLeft) && !d.supports(.key, EventCode.btnRight)
        var contactKey = hasTouchKey ? EventCode.btnTouch : (hasFingerTool ? EventCode.btnToolFinger : EventCode.btnTouch)

        // Finger contacts and their protocol.
        var proto: ContactProtocol = .none
        if hasMT {
            proto = hasSlots ? .slotted(slots: min(d.slotCount, ContactProtocol.maxSlots)) : .anonymous
        } else if !hasStylus && (hasST || secondaryAxes) && (hasTouchKey || hasFingerTool) {
            proto = .singleTouch
        } else if leftButtonScreen {
            proto = .singleTouch
            contactKey = EventCode.btnLeft
            notes.append("ABS_X/ABS_Y with BTN_LEFT as its only button and no relative axes: a touchmonitor (heuristic H6)")
        }
        if hasStylus && !hasMT && hasFingerTool {
            notes.append("BTN_TOOL_FINGER on a pen tablet without MT axes is its pad, not a finger")
        }

        var fingerType: TouchType?
        if proto != .none {
            if props.contains(.direct) {
                fingerType = .direct
                notes.append("INPUT_PROP_DIRECT: direct")
            } else if !props.isDisjoint(with: [.pointer, .buttonpad, .semiMT, .topButtonpad]) {
                fingerType = .indirect
                notes.append("touchpad property (POINTER/BUTTONPAD/SEMI_MT): indirect")
            } else if hasFingerTool {
                fingerType = .indirect
                notes.append(noProps
                    ? "no input properties; has BTN_TOOL_FINGER: assumed touchpad (heuristic H1)"
                    : "BTN_TOOL_FINGER without INPUT_PROP_DIRECT: indirect")
            } else if hasRel {
                fingerType = .indirect
                notes.append("no input properties; has relative axes: assumed touchpad (heuristic H5)")
            } else {
                fingerType = .direct
                let what = hasMT ? "ABS_MT_POSITION_X" : (secondaryAxes ? "ABS_Z/ABS_RX positions" : "ABS_X/ABS_Y + a contact key")
                notes.append("no touchpad property; has \(what) without BTN_TOOL_FINGER: assumed touchscreen (heuristic H2)")
            }
        }

        var types: [TouchType] = []
        if let fingerType { types.append(fingerType) }
        if hasStylus { types.append(.stylus) }

        var maxFingers = 0
        switch proto {
        case .slotted(let slots): maxFingers = slots
        // Protocol A declares no limit: at least two (it is multitouch), raised by BTN_TOOL_*TAP below.
        case .anonymous: maxFingers = 2
        case .singleTouch: maxFingers = 1
        case .none: maxFingers = 0
        }
        if proto != .none {
            for (code, count) in Self.fingerCountCodes where d.supports(.key, code) { maxFingers = max(maxFingers, count) }
        }

        self.fingerType = fingerType
        self.hasStylus = hasStylus
        self.stylusTools = tools
        self.touchTypes = types
        self.contactProtocol = proto
        self.isSemiMT = props.contains(.semiMT)
        self.maxFingerCount = maxFingers
        self.isTouchDevice = !types.isEmpty
        self.usesSecondaryPositionAxes = secondaryAxes
        self.contactKey = contactKey
        var unusable: String?
        if types.isEmpty {
            // Position axes declared without a range (max <= min + 1) are a broken
            // description rather than a pad: say which.
            let degenerate = [EventCode.absMTPositionX, EventCode.absMTPositionY, EventCode.absX, EventCode.absY]
                .compactMap { code -> String? in
                    guard d.supports(.abs, code), let info = d.absInfo[code], info.span <= 1 else { return nil }
                    return "\(EventNames.code(.abs, code)) has no usable range (minimum \(info.minimum), maximum \(info.maximum))"
                }
            let what = !degenerate.isEmpty ? degenerate.joined(separator: ", ")
                : d.supports(.rel) ? "relative axes only" : "no position axes with touch or pen keys"
            notes.append("\(what): not a touch device (pad, keyboard or mouse)")
            unusable = "\(what): no touches can come from it"
        }
        self.unusableReason = unusable
        self.reason = notes.joined(separator: "; ")
    }
}
