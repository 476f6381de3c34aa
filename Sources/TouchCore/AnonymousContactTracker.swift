// SPDX-License-Identifier: MIT
/// Multitouch protocol A: each contact's `ABS_MT_*` values end with
/// `SYN_MT_REPORT`; a frame lists every contact, so a frame without contacts
/// means all lifted. Contacts carry no identity, so they are matched to the
/// previous frame's: by `ABS_MT_TRACKING_ID` when the device sends it, else by
/// nearest neighbour within ``matchLimitMM`` (greedy on ascending distance,
/// ties broken by order: deterministic).
struct AnonymousContactTracker: Sendable {
    struct Contact: Sendable {
        var raw = RawContact()
        var sample = ContactSample()
        var lifecycle = ContactLifecycle()
    }

    /// Farthest a contact may move between two frames and stay the same touch.
    static let matchLimitMM = 40.0

    private var pending = RawContact()
    private var pendingHasData = false
    private var incoming: [Contact] = []
    private(set) var contacts: [Contact] = []
    private var matchOfIncoming: [Int] = []
    private var taken: [Bool] = []
    private var sawTrackingID = false

    init() {
        incoming.reserveCapacity(16)
        contacts.reserveCapacity(16)
        matchOfIncoming.reserveCapacity(16)
        taken.reserveCapacity(16)
    }

    /// Applies one `ABS_MT_*` value to the contact being reported.
    mutating func handle(code: UInt16, value: Int32) -> Bool {
        switch code {
        case EventCode.absMTTrackingID: pending.trackingID = value; sawTrackingID = true
        case EventCode.absMTPositionX: pending.x = value
        case EventCode.absMTPositionY: pending.y = value
        case EventCode.absMTPressure: pending.pressure = value
        case EventCode.absMTTouchMajor: pending.touchMajor = value
        case EventCode.absMTTouchMinor: pending.touchMinor = value
        case EventCode.absMTDistance: pending.distance = value
        case EventCode.absMTToolType: pending.toolType = value
        default: return false
        }
        pendingHasData = true
        return true
    }

    /// `SYN_MT_REPORT`: the contact being reported is complete.
    mutating func endContact() {
        // An empty SYN_MT_REPORT is the "no contacts" marker, a contact whose
        // tracking id is -1 has lifted, and a zero-size zero-pressure block is no contact.
        if pendingHasData && pending.x != nil && pending.y != nil && !(sawTrackingID && pending.trackingID < 0)
            && !Self.isEmptyBlock(pending) {
            incoming.append(Contact(raw: pending))
        }
        pending = RawContact()
        pendingHasData = false
    }

    /// Whether a reported block has a size or pressure and both are zero: some protocol-A
    /// touchpads (Apple bcm5974) keep reporting lifted fingers that way after `BTN_TOUCH` 0.
    static func isEmptyBlock(_ c: RawContact) -> Bool {
        guard c.touchMajor != nil || c.pressure != nil else { return false }
        return (c.touchMajor ?? 0) <= 0 && (c.pressure ?? 0) <= 0
    }

    /// Drops the contacts of an unfinished frame (SYN_DROPPED).
    mutating func discardFrame() {
        incoming.removeAll(keepingCapacity: true)
        pending = RawContact()
        pendingHasData = false
    }

    /// `SYN_REPORT`: match this frame's contacts to the last frame's and report.
    /// `touchKeyUp`: the device said `BTN_TOUCH` 0, so nothing touches and every touch ends.
    mutating func commit(
        sampler: ContactSampler, buttons: ToolButtons, hovers: Bool, touchKeyUp: Bool = false,
        device: DeviceID, time: Timestamp, lift: TouchPhase, ids: inout TouchIDAllocator, into out: inout [Touch]
    ) {
        if pendingHasData { endContact() }
        if touchKeyUp { incoming.removeAll(keepingCapacity: true) }
        for i in incoming.indices { incoming[i].sample = sampler.finger(incoming[i].raw, buttons: buttons) }
        match()
        for j in contacts.indices where !taken[j] {
            let s = contacts[j].sample
            contacts[j].lifecycle.update(
                .init(present: false, touching: false), sample: s, placement: sampler.placement, device: device, time: time,
                lift: lift, ids: &ids, into: &out)
        }
        for i in incoming.indices {
            if matchOfIncoming[i] >= 0 { incoming[i].lifecycle = contacts[matchOfIncoming[i]].lifecycle }
            let raw = incoming[i].raw
            let touching = !(hovers && (raw.distance ?? 0) > 0)
                && sampler.thresholds.touches(raw, wasTouching: incoming[i].lifecycle.isTouching)
            incoming[i].lifecycle.update(
                .init(present: true, touching: touching, palm: raw.toolType == EventCode.mtToolPalm || sampler.thresholds.isPalm(raw)),
                sample: incoming[i].sample, placement: sampler.placement, device: device, time: time, lift: lift, ids: &ids, into: &out)
        }
        swap(&contacts, &incoming)
        incoming.removeAll(keepingCapacity: true)
    }

    private mutating func match() {
        matchOfIncoming.removeAll(keepingCapacity: true)
        matchOfIncoming.append(contentsOf: repeatElement(-1, count: incoming.count))
        taken.removeAll(keepingCapacity: true)
        taken.append(contentsOf: repeatElement(false, count: contacts.count))
        if sawTrackingID {
            for i in incoming.indices {
                for j in contacts.indices where !taken[j] && contacts[j].raw.trackingID == incoming[i].raw.trackingID {
                    matchOfIncoming[i] = j
                    taken[j] = true
                    break
                }
            }
            return
        }
        let limit = Self.matchLimitMM * Self.matchLimitMM
        while true {
            var best = limit, bi = -1, bj = -1
            for i in incoming.indices where matchOfIncoming[i] < 0 {
                let p = incoming[i].sample.locationMM
                for j in contacts.indices where !taken[j] {
                    let q = contacts[j].sample.locationMM
                    let d = (p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y)
                    if d <= best && (bi < 0 || d < best) { best = d; bi = i; bj = j }
                }
            }
            guard bi >= 0 else { return }
            matchOfIncoming[bi] = bj
            taken[bj] = true
        }
    }

    /// Cancels every active contact.
    mutating func cancelAll(device: DeviceID, time: Timestamp, into out: inout [Touch]) {
        for j in contacts.indices { contacts[j].lifecycle.cancel(device: device, time: time, into: &out) }
        contacts.removeAll(keepingCapacity: true)
        discardFrame()
    }

    /// Number of contacts touching.
    var touchingCount: Int { contacts.reduce(0) { $0 + ($1.lifecycle.isTouching ? 1 : 0) } }
}
