// SPDX-License-Identifier: MIT
/// Everything a touch reports at one moment except its id and phase.
struct ContactSample: Hashable, Sendable {
    var type: TouchType = .direct
    var tool: Tool = .finger
    var location: Point = .zero
    var locationMM: Point = .zero
    var screen: Int = 0
    var force: Double?
    var majorRadius: Double?
    var minorRadius: Double?
    var altitude: Double?
    var azimuth: Double?
    var distance: Double?
    var buttons: ToolButtons = []
    var serial: UInt32?
    var isSynthetic = false
    var deviceValues = DeviceContactValues()
    /// The position on the device, 0...1 on both axes.
    var normalised: Point = .zero
    /// The generation of the placement ``location`` comes from (``ScreenPlacement/generation``).
    var generation: UInt32 = 0
    /// That placement's turn (the azimuth was turned by it).
    var placedRotation: Rotation = .none

    /// This sample placed with `other` (a touch that began before the geometry changed).
    /// The sample keeps only the generation and turn of its placement, not the placement: it is
    /// copied for every contact of every frame.
    func placed(with other: ScreenPlacement) -> ContactSample {
        var s = self
        s.location = other.place(normalised)
        s.screen = other.screen
        if let a = azimuth {
            let turn = Double(other.rotation.rawValue - placedRotation.rawValue) * Double.pi / 180
            s.azimuth = StylusTilt.normaliseAngle(a + turn)
        }
        s.generation = other.generation
        s.placedRotation = other.rotation
        return s
    }
}

/// Hands out touch ids in order of appearance, starting at 1.
struct TouchIDAllocator: Sendable {
    private var next: UInt32 = 1
    mutating func allocate() -> TouchID {
        defer { next &+= 1 }
        return TouchID(rawValue: next)
    }
}

/// Where one contact source (a slot, a protocol-A contact, a pen) is in its
/// life; turns per-frame observations into touch phases.
///
/// A contact span and each hover span get their own ``TouchID``. A hover span
/// ends with one `hover` whose `inProximity` is false: when the tool leaves, or
/// when it touches down (the same frame then holds the contact's `began`).
struct ContactLifecycle: Sendable {
    enum State: Hashable, Sendable {
        /// Nothing there.
        case idle
        /// In proximity without contact.
        case hovering(TouchID)
        /// In contact.
        case touching(TouchID)
        /// A palm: reported once as cancelled, then ignored until it goes away.
        case ignored
    }

    /// What the source shows this frame.
    struct Observation {
        /// Something is there (tracking id set, tool in proximity).
        var present: Bool
        /// It touches the surface.
        var touching: Bool
        /// The device called it a palm.
        var palm: Bool = false
    }

    private(set) var state: State = .idle
    private(set) var last = ContactSample()
    /// Where the current span's samples are placed: the placement it began in (semantics §11.2).
    private var spanPlacement = ScreenPlacement()

    /// The id of the touch or hover span, if any.
    var touchID: TouchID? {
        switch state {
        case .hovering(let id), .touching(let id): return id
        case .idle, .ignored: return nil
        }
    }

    /// True while in contact.
    var isTouching: Bool {
        if case .touching = state { return true }
        return false
    }

    /// The last sample reported (used to place synthetic touches).
    var lastSample: ContactSample { last }

    /// Advances by one frame. `lift` is the phase of a contact that goes away
    /// (`ended`, or `cancelled` during a resync).
    /// `placement` is the sampler's: where `new` was placed.
    mutating func update(
        _ o: Observation, sample new: ContactSample, placement: ScreenPlacement, device: DeviceID, time: Timestamp,
        lift: TouchPhase, ids: inout TouchIDAllocator, into out: inout [Touch]
    ) {
        // A span that began before the geometry changed finishes in its own (semantics §11.2).
        if state != .idle, state != .ignored, new.generation != spanPlacement.generation {
            advance(o, sample: new.placed(with: spanPlacement), new: new, placement: placement,
                    device: device, time: time, lift: lift, ids: &ids, into: &out)
        } else {
            // The common case passes the caller's sample on as it is (a copy per contact per frame showed).
            advance(o, sample: new, new: new, placement: placement, device: device, time: time, lift: lift, ids: &ids, into: &out)
        }
    }

    /// ``update(_:sample:device:time:lift:ids:into:)`` with `sample` placed for the span (`new`
    /// as the sampler placed it, for a span that starts again).
    private mutating func advance(
        _ o: Observation, sample: ContactSample, new: ContactSample, placement: ScreenPlacement, device: DeviceID, time: Timestamp,
        lift: TouchPhase, ids: inout TouchIDAllocator, into out: inout [Touch]
    ) {
        switch state {
        case .idle:
            guard o.present else { return }
            spanPlacement = placement
            if o.palm {
                state = .ignored
            } else if o.touching {
                let id = ids.allocate()
                state = .touching(id)
                out.append(Self.touch(id, .began, sample, previous: sample.location, device, time))
            } else {
                let id = ids.allocate()
                state = .hovering(id)
                out.append(Self.touch(id, .hover, sample, previous: sample.location, device, time))
            }
        case .hovering(let id):
            if !o.present || o.palm || o.touching || sample.tool != last.tool {
                // After a tool change the old span ends with its own tool's last state.
                let final = o.present && sample.tool == last.tool ? sample : last
                var t = Self.touch(id, .hover, final, previous: last.location, device, time)
                t.inProximity = false
                out.append(t)
                state = .idle
                if o.present { update(o, sample: new, placement: placement, device: device, time: time, lift: lift, ids: &ids, into: &out) }
                return
            }
            if sample != last { out.append(Self.touch(id, .hover, sample, previous: last.location, device, time)) }
        case .touching(let id):
            if o.palm {
                out.append(Self.touch(id, .cancelled, sample, previous: last.location, device, time))
                state = .ignored
            } else if !o.present || !o.touching || sample.tool != last.tool {
                let s = o.present && sample.tool == last.tool ? sample : last
                out.append(Self.touch(id, lift, s, previous: last.location, device, time))
                state = .idle
                if o.present { update(o, sample: new, placement: placement, device: device, time: time, lift: lift, ids: &ids, into: &out) }
                return
            } else if sample != last {
                out.append(Self.touch(id, .moved, sample, previous: last.location, device, time))
            }
        case .ignored:
            if !o.present { state = .idle }
        }
        last = sample
    }

    /// A contact already there when the device was opened: its beginning was
    /// never seen, so it is ignored until it goes away (never delivered half-way).
    mutating func ignoreUntilGone() {
        if state == .idle { state = .ignored }
    }

    /// Ends whatever is active: a contact is cancelled, a hover span gets its final
    /// hover with `inProximity` false.
    mutating func cancel(device: DeviceID, time: Timestamp, into out: inout [Touch]) {
        switch state {
        case .idle, .ignored:
            break
        case .hovering(let id):
            var t = Self.touch(id, .hover, last, previous: last.location, device, time)
            t.inProximity = false
            out.append(t)
        case .touching(let id):
            out.append(Self.touch(id, .cancelled, last, previous: last.location, device, time))
        }
        state = .idle
    }

    static func touch(
        _ id: TouchID, _ phase: TouchPhase, _ s: ContactSample, previous: Point, _ device: DeviceID, _ time: Timestamp
    ) -> Touch {
        var t = Touch(
            id: id, device: device, phase: phase, type: s.type, tool: s.tool, time: time,
            location: s.location, previousLocation: previous, locationMM: s.locationMM, screen: s.screen,
            force: s.force, majorRadius: s.majorRadius, minorRadius: s.minorRadius,
            altitude: s.altitude, azimuth: s.azimuth, distance: s.distance,
            buttons: s.buttons, serial: s.serial, inProximity: true, isSynthetic: s.isSynthetic
        )
        t.deviceValues = s.deviceValues
        return t
    }
}
