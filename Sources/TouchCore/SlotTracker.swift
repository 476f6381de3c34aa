// SPDX-License-Identifier: MIT
/// Multitouch protocol B: `ABS_MT_SLOT` selects a slot, `ABS_MT_TRACKING_ID`
/// >= 0 starts a contact in it and -1 ends it; values are sent only when they change.
struct SlotTracker: Sendable {
    struct Slot: Sendable {
        var raw = RawContact()
        var changed = false
        /// The slot's contact was replaced by another within this frame (a -> b, or a -> -1 -> b).
        var restarted = false
        var endedInFrame = false
        var lifecycle = ContactLifecycle()
    }

    private(set) var slots: [Slot]
    /// Recordings may start without `ABS_MT_SLOT`: slot 0 is implied.
    private(set) var current = 0
    /// Events for a slot beyond the declared range are dropped; this counts them.
    private(set) var outOfRangeEvents = 0

    init(slotCount: Int) {
        slots = Array(repeating: Slot(), count: max(1, slotCount))
    }

    /// Starts from a device's state (``DeviceState``): its slot values and
    /// current slot. A slot holding a contact is ignored until that contact ends.
    /// An empty slot at (0, 0) is taken as never used: its position stays
    /// unknown, so a contact that begins there without one is placed as
    /// offline replay places it (the legacy `ABS_X`/`ABS_Y`, some touchpads
    /// send no slot position at all).
    mutating func seed(_ snapshots: [SlotSnapshot], current: Int?) {
        for s in snapshots where s.slot >= 0 && s.slot < slots.count {
            let unused = s.trackingID < 0 && s.x == 0 && s.y == 0
            slots[s.slot].raw = RawContact(
                x: unused ? nil : s.x, y: unused ? nil : s.y, pressure: s.pressure, touchMajor: s.touchMajor, touchMinor: s.touchMinor,
                distance: s.distance, toolType: s.toolType ?? EventCode.mtToolFinger, trackingID: s.trackingID)
            if s.trackingID >= 0 { slots[s.slot].lifecycle.ignoreUntilGone() }
        }
        if let current { self.current = current }
    }

    /// The slots' values and the current slot, as ``seed(_:current:)`` takes them.
    var snapshot: (slots: [SlotSnapshot], current: Int) {
        let snapshots = slots.indices.map { i in
            let r = slots[i].raw
            return SlotSnapshot(slot: i, trackingID: r.trackingID, x: r.x ?? 0, y: r.y ?? 0, pressure: r.pressure,
                                touchMajor: r.touchMajor, touchMinor: r.touchMinor, toolType: r.toolType, distance: r.distance)
        }
        return (snapshots, current)
    }

    /// Applies one `ABS_MT_*` event; returns false when the code is not a slot axis.
    mutating func handle(code: UInt16, value: Int32) -> Bool {
        if code == EventCode.absMTSlot {
            current = Int(value)
            return true
        }
        guard current >= 0 && current < slots.count else {
            outOfRangeEvents += 1
            return code >= EventCode.absMTTouchMajor && code <= EventCode.absMTToolY
        }
        switch code {
        case EventCode.absMTTrackingID:
            let old = slots[current].raw.trackingID
            if value >= 0 {
                if (old >= 0 && old != value) || slots[current].endedInFrame { slots[current].restarted = true }
            } else if old >= 0 {
                slots[current].endedInFrame = true
            }
            slots[current].raw.trackingID = value
        case EventCode.absMTPositionX: slots[current].raw.x = value
        case EventCode.absMTPositionY: slots[current].raw.y = value
        case EventCode.absMTPressure: slots[current].raw.pressure = value
        case EventCode.absMTTouchMajor: slots[current].raw.touchMajor = value
        case EventCode.absMTTouchMinor: slots[current].raw.touchMinor = value
        case EventCode.absMTDistance: slots[current].raw.distance = value
        case EventCode.absMTToolType: slots[current].raw.toolType = value
        default: return false
        }
        slots[current].changed = true
        return true
    }

    /// Ends the frame: every changed slot reports its touch.
    /// `fallback` positions a contact whose slot never received a position.
    mutating func commit(
        sampler: ContactSampler, buttons: ToolButtons, buttonsChanged: Bool, hovers: Bool, fallback: (x: Int32, y: Int32)?,
        device: DeviceID, time: Timestamp, lift: TouchPhase, ids: inout TouchIDAllocator, into out: inout [Touch]
    ) {
        for i in slots.indices where slots[i].changed || buttonsChanged {
            if slots[i].raw.x == nil || slots[i].raw.y == nil, let fallback {
                if slots[i].raw.x == nil { slots[i].raw.x = fallback.x }
                if slots[i].raw.y == nil { slots[i].raw.y = fallback.y }
            }
            let raw = slots[i].raw
            let sample = sampler.finger(raw, buttons: buttons)
            if slots[i].restarted {
                slots[i].lifecycle.update(
                    .init(present: false, touching: false), sample: sample, placement: sampler.placement, device: device, time: time,
                    lift: lift, ids: &ids, into: &out)
            }
            let present = raw.trackingID >= 0
            // A contact with a non-zero ABS_MT_DISTANCE hovers above the surface.
            let touching = present && !(hovers && (raw.distance ?? 0) > 0)
                && sampler.thresholds.touches(raw, wasTouching: slots[i].lifecycle.isTouching)
            let palm = raw.toolType == EventCode.mtToolPalm || (present && sampler.thresholds.isPalm(raw))
            slots[i].lifecycle.update(
                .init(present: present, touching: touching, palm: palm),
                sample: sample, placement: sampler.placement, device: device, time: time, lift: lift, ids: &ids, into: &out)
            slots[i].changed = false
            slots[i].restarted = false
            slots[i].endedInFrame = false
        }
    }

    /// Cancels every active contact (device removed, end of trace).
    mutating func cancelAll(device: DeviceID, time: Timestamp, into out: inout [Touch]) {
        for i in slots.indices { slots[i].lifecycle.cancel(device: device, time: time, into: &out) }
    }

    /// Number of slots in contact.
    var touchingCount: Int { slots.reduce(0) { $0 + ($1.lifecycle.isTouching ? 1 : 0) } }

    /// The sample of the highest touching slot, if any.
    var lastTouching: ContactSample? {
        for i in slots.indices.reversed() where slots[i].lifecycle.isTouching { return slots[i].lifecycle.lastSample }
        return nil
    }

    /// Every slot's lifecycle, for counting and invariants.
    var lifecycles: some Sequence<ContactLifecycle> { slots.lazy.map(\.lifecycle) }
}
