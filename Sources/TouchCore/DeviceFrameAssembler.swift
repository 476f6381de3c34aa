// SPDX-License-Identifier: MIT
/// Per-device state: routes each event to the tracker that owns it and, on
/// `SYN_REPORT`, reports the touches that changed.
struct DeviceFrameAssembler: Sendable {
    private(set) var info: DeviceInfo
    private var sampler: ContactSampler
    private let hovers: Bool
    private let fingerProtocol: ContactProtocol
    private let slotCapacity: Int
    private var slots: SlotTracker
    private var anonymous = AnonymousContactTracker()
    private var pen = PenTracker()
    private let hasPen: Bool
    private let secondaryAxes: Bool
    /// Codes a quirk disabled (`AttrEventCode=-...`): their events are dropped, as libevdev does; nil when none.
    private let disabled: DisabledCodes?

    // Single-touch devices.
    private var single = ContactLifecycle()
    private var singleX: Int32 = 0
    private var singleY: Int32 = 0
    private var singlePressure: Int32?
    private var singleTouchKey = false
    private var singleChanged = false
    private let contactKey: UInt16

    // Protocol A: the last BTN_TOUCH value, nil until the device sends one (a recording may start mid-touch).
    private var anonymousTouchKey: Bool?

    // Legacy ABS_X/ABS_Y on multitouch devices: only a fallback position.
    private var legacyX: Int32?
    private var legacyY: Int32?

    // Finger count from BTN_TOOL_FINGER...QUINTTAP, and synthetic touches beyond the slots.
    private var fingerToolsDown: UInt8 = 0
    private var synthetic: [ContactLifecycle] = Array(repeating: ContactLifecycle(), count: 5)
    private var lastRealSample: ContactSample?

    private var buttons: ToolButtons = []
    private var buttonsChanged = false
    /// After SYN_DROPPED: events are discarded up to and including the next SYN_REPORT.
    private(set) var dropping = false
    private(set) var droppedFrames = 0

    init(info: DeviceInfo, screenIndex: Int, generation: UInt32 = 0) {
        self.info = info
        let d = info.description
        sampler = ContactSampler(info: info, screenIndex: screenIndex, generation: generation)
        hovers = d.supports(.abs, EventCode.absMTDistance)
        fingerProtocol = info.classification.contactProtocol
        hasPen = info.classification.hasStylus
        secondaryAxes = info.classification.usesSecondaryPositionAxes
        contactKey = info.classification.contactKey
        let off = info.mapping.quirks.capabilityChanges.disabled
        disabled = off.isEmpty ? nil : off
        switch fingerProtocol {
        case .slotted(let n): slotCapacity = max(1, n); slots = SlotTracker(slotCount: n)
        case .anonymous: slotCapacity = Int.max; slots = SlotTracker(slotCount: 0)
        case .singleTouch: slotCapacity = 1; slots = SlotTracker(slotCount: 0)
        case .none: slotCapacity = Int.max; slots = SlotTracker(slotCount: 0)
        }
    }

    private var fingerCount: Int {
        var n = 0
        for (i, c) in DeviceClassification.fingerCountCodes.enumerated() where fingerToolsDown & (1 << UInt8(i)) != 0 {
            n = max(n, c.count)
        }
        return n
    }

    /// Applies one event; returns true when it completed a frame (touches may have been appended to `out`).
    mutating func handle(_ e: InputEvent, ids: inout TouchIDAllocator, lift: TouchPhase = .ended, into out: inout [Touch]) -> Bool {
        if dropping {
            if e.isSynReport { dropping = false }
            return false
        }
        if let disabled, e.type != .syn, disabled.contains(e.type, e.code) { return false }
        switch e.type {
        case .syn:
            switch e.code {
            case EventCode.synReport:
                commit(time: e.time, lift: lift, ids: &ids, into: &out)
                return true
            case EventCode.synMTReport:
                if fingerProtocol == .anonymous { anonymous.endContact() }
            case EventCode.synDropped:
                dropping = true
                droppedFrames += 1
                anonymous.discardFrame()
            default:
                break
            }
        case .key:
            handleKey(e.code, e.value)
        case .abs:
            handleAbs(e.code, e.value)
        case .msc:
            if e.code == EventCode.mscSerial && hasPen { pen.handleSerial(e.value) }
        default:
            break
        }
        return false
    }

    private mutating func handleKey(_ code: UInt16, _ value: Int32) {
        if code == EventCode.btnTouch && fingerProtocol == .anonymous { anonymousTouchKey = value != 0 }
        if fingerProtocol == .singleTouch && code == contactKey {
            singleTouchKey = value != 0
            singleChanged = true
            if code != EventCode.btnToolFinger { return }
        }
        if let i = DeviceClassification.fingerCountCodes.firstIndex(where: { $0.code == code }), fingerProtocol != .none {
            if value != 0 { fingerToolsDown |= 1 << UInt8(i) } else { fingerToolsDown &= ~(1 << UInt8(i)) }
            return
        }
        let bit: ToolButtons
        switch code {
        case EventCode.btnStylus: bit = .stylus
        case EventCode.btnStylus2: bit = .stylus2
        case EventCode.btnStylus3: bit = .stylus3
        case EventCode.btnLeft: bit = .left
        case EventCode.btnRight: bit = .right
        case EventCode.btnMiddle: bit = .middle
        default:
            if hasPen { _ = pen.handleKey(code: code, value: value) }
            return
        }
        let old = buttons
        if value != 0 { buttons.insert(bit) } else { buttons.remove(bit) }
        if old != buttons {
            buttonsChanged = true
            if hasPen { pen.touchButtons() }
        }
    }

    private mutating func handleAbs(_ code: UInt16, _ value: Int32) {
        if code >= EventCode.absMTSlot && code <= EventCode.absMTToolY {
            switch fingerProtocol {
            case .slotted: _ = slots.handle(code: code, value: value)
            case .anonymous: _ = anonymous.handle(code: code, value: value)
            case .singleTouch, .none: break
            }
            return
        }
        if hasPen {
            _ = pen.handleAbs(code: code, value: value)
            return
        }
        switch fingerProtocol {
        case .singleTouch:
            switch code {
            case EventCode.absX where !secondaryAxes, EventCode.absZ where secondaryAxes: singleX = value
            case EventCode.absY where !secondaryAxes, EventCode.absRX where secondaryAxes: singleY = value
            case EventCode.absPressure: singlePressure = value
            default: return
            }
            singleChanged = true
        case .slotted, .anonymous:
            // ABS_X/ABS_Y mirror the first contact: only used to place a slot that never got a position.
            if code == EventCode.absX { legacyX = value } else if code == EventCode.absY { legacyY = value }
        case .none:
            break
        }
    }

    private mutating func commit(time: Timestamp, lift: TouchPhase, ids: inout TouchIDAllocator, into out: inout [Touch]) {
        let device = info.id
        var realTouching = 0
        var anchor: ContactSample?
        switch fingerProtocol {
        case .slotted:
            let fallback: (x: Int32, y: Int32)? = legacyX.flatMap { x in legacyY.map { (x, $0) } }
            slots.commit(
                sampler: sampler, buttons: buttons, buttonsChanged: buttonsChanged, hovers: hovers, fallback: fallback,
                device: device, time: time, lift: lift, ids: &ids, into: &out)
            realTouching = slots.touchingCount
            anchor = slots.lastTouching
        case .anonymous:
            anonymous.commit(
                sampler: sampler, buttons: buttons, hovers: hovers, touchKeyUp: anonymousTouchKey == false,
                device: device, time: time, lift: lift,
                ids: &ids, into: &out)
            realTouching = anonymous.touchingCount
        case .singleTouch:
            if singleChanged || buttonsChanged {
                let s = sampler.single(x: singleX, y: singleY, secondary: secondaryAxes, pressure: singlePressure, buttons: buttons)
                single.update(.init(present: singleTouchKey, touching: singleTouchKey), sample: s, placement: sampler.placement, device: device, time: time,
                              lift: lift, ids: &ids, into: &out)
                singleChanged = false
            }
            realTouching = single.isTouching ? 1 : 0
            if single.isTouching { anchor = single.lastSample }
        case .none:
            break
        }
        if let anchor { lastRealSample = anchor }
        commitSynthetic(realTouching: realTouching, anchor: anchor, time: time, lift: lift, ids: &ids, into: &out)
        if hasPen { pen.commit(sampler: sampler, buttons: buttons, device: device, time: time, lift: lift, ids: &ids, into: &out) }
        buttonsChanged = false
    }

    /// Fingers the device counts (BTN_TOOL_*TAP) but cannot place, beyond its
    /// slots, become synthetic touches at the last real touch's position.
    private mutating func commitSynthetic(
        realTouching: Int, anchor: ContactSample?, time: Timestamp, lift: TouchPhase,
        ids: inout TouchIDAllocator, into out: inout [Touch]
    ) {
        let count = fingerCount
        let wanted = count > slotCapacity ? min(synthetic.count, max(0, count - realTouching)) : 0
        guard wanted > 0 || synthetic.contains(where: { $0.touchID != nil }) else { return }
        var s = anchor ?? lastRealSample ?? sampler.finger(RawContact(x: legacyX, y: legacyY), buttons: buttons)
        s.isSynthetic = true
        s.force = nil
        for i in synthetic.indices {
            let present = i < wanted
            synthetic[i].update(.init(present: present, touching: present), sample: s, placement: sampler.placement, device: info.id, time: time,
                                lift: lift, ids: &ids, into: &out)
        }
    }

    /// Cancels every active touch and ends every hover span of the device.
    mutating func cancelAll(time: Timestamp, into out: inout [Touch]) {
        let device = info.id
        slots.cancelAll(device: device, time: time, into: &out)
        anonymous.cancelAll(device: device, time: time, into: &out)
        single.cancel(device: device, time: time, into: &out)
        for i in synthetic.indices { synthetic[i].cancel(device: device, time: time, into: &out) }
        pen.cancel(device: device, time: time, into: &out)
        singleTouchKey = false
        anonymousTouchKey = nil
        fingerToolsDown = 0
    }

    /// Starts from the device's state (``TouchPipeline/addDevice(_:description:mapping:state:)``):
    /// slot values, the current slot, single-touch and legacy axes, keys.
    /// A contact already down is ignored until it lifts. Protocol A sends every
    /// contact's values in every frame, so only its `BTN_TOUCH` is taken.
    mutating func seed(_ state: DeviceState) {
        let keys = state.keysDown
        for code in keys {
            if let i = DeviceClassification.fingerCountCodes.firstIndex(where: { $0.code == code }), fingerProtocol != .none {
                fingerToolsDown |= 1 << UInt8(i)
            }
            switch code {
            case EventCode.btnStylus: buttons.insert(.stylus)
            case EventCode.btnStylus2: buttons.insert(.stylus2)
            case EventCode.btnStylus3: buttons.insert(.stylus3)
            case EventCode.btnLeft: buttons.insert(.left)
            case EventCode.btnRight: buttons.insert(.right)
            case EventCode.btnMiddle: buttons.insert(.middle)
            default: break
            }
        }
        if hasPen {
            pen.seed(axisValues: state.axisValues, keysDown: keys.filter { !isFingerCount($0) })
        }
        switch fingerProtocol {
        case .slotted, .anonymous:
            if fingerProtocol != .anonymous { slots.seed(state.slots, current: state.currentSlot) }
            // (0, 0) is a device that never reported a position: unknown, as offline.
            if let x = state.axisValues[EventCode.absX], let y = state.axisValues[EventCode.absY], x != 0 || y != 0 {
                legacyX = x
                legacyY = y
            }
            if fingerProtocol == .anonymous, keys.contains(EventCode.btnTouch) { anonymousTouchKey = true }
        case .singleTouch:
            if !hasPen {
                if let v = state.axisValues[secondaryAxes ? EventCode.absZ : EventCode.absX] { singleX = v }
                if let v = state.axisValues[secondaryAxes ? EventCode.absRX : EventCode.absY] { singleY = v }
                singlePressure = state.axisValues[EventCode.absPressure]
            }
            singleTouchKey = keys.contains(contactKey)
            if singleTouchKey { single.ignoreUntilGone() }
        case .none:
            break
        }
        // Fingers counted beyond the slots at open began unseen too.
        let counted = fingerCount
        if counted > slotCapacity {
            for i in synthetic.indices where i < counted - slotCapacity { synthetic[i].ignoreUntilGone() }
        }
    }

    private func isFingerCount(_ code: UInt16) -> Bool {
        DeviceClassification.fingerCountCodes.contains { $0.code == code }
    }

    /// The kernel state as the events fed so far say, as ``seed(_:)`` takes it.
    var state: DeviceState {
        var axes: [UInt16: Int32] = [:]
        if let legacyX { axes[EventCode.absX] = legacyX }
        if let legacyY { axes[EventCode.absY] = legacyY }
        var keys: [UInt16] = []
        for (i, c) in DeviceClassification.fingerCountCodes.enumerated() where fingerToolsDown & (1 << UInt8(i)) != 0 {
            keys.append(c.code)
        }
        switch fingerProtocol {
        case .slotted:
            let s = slots.snapshot
            return DeviceState(slots: s.slots, currentSlot: s.current, keysDown: keys.sorted(), axisValues: axes)
        case .singleTouch:
            if !hasPen {
                axes[secondaryAxes ? EventCode.absZ : EventCode.absX] = singleX
                axes[secondaryAxes ? EventCode.absRX : EventCode.absY] = singleY
                if let singlePressure { axes[EventCode.absPressure] = singlePressure }
            }
            if singleTouchKey { keys.append(contactKey) }
            return DeviceState(keysDown: Array(Set(keys)).sorted(), axisValues: axes)
        case .anonymous, .none:
            if anonymousTouchKey == true { keys.append(EventCode.btnTouch) }
            return DeviceState(keysDown: keys.sorted(), axisValues: axes)
        }
    }

    /// Touches in contact (hover spans excluded).
    var activeTouchCount: Int {
        var n = slots.touchingCount + anonymous.touchingCount + (single.isTouching ? 1 : 0)
        n += synthetic.reduce(0) { $0 + ($1.isTouching ? 1 : 0) }
        if pen.lifecycle.isTouching { n += 1 }
        return n
    }

    /// Maps the device anew (its mapping or its screen changed) without
    /// touching its state: contacts that begin from now on use the new
    /// placement, those already down keep theirs (semantics §11.2).
    mutating func remap(_ info: DeviceInfo, screenIndex: Int, generation: UInt32) {
        self.info = info
        sampler = ContactSampler(info: info, screenIndex: screenIndex, generation: generation)
    }

    /// Resets the dropping state (after a resync).
    mutating func endDropping() {
        dropping = false
        anonymous.discardFrame()
    }
}
