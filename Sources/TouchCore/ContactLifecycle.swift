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
    /// Where ``normalised`` was placed on a screen.
    var placement = ScreenPlacement(mapping: DeviceMapping(), screen: ScreenConfiguration(), index: 0)

    /// This sample placed with `other` (a touch that began before the geometry changed).
    func placed(with other: ScreenPlacement) -> ContactSample {
        var s = self
        s.location = other.place(normalised)
        s.screen = other.screen
        if let a = azimuth {
            let turn = Double(other.rotation.rawValue - placement.rotation.rawValue) * Double.pi / 180
            s.azimuth = StylusTilt.normaliseAngle(a + turn)
        }
        s.placement = other
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
    mutating func update(
        _ o: Observation, sample new: ContactSample, device: DeviceID, time: Timestamp,
        lift: TouchPhase, ids: inout TouchIDAllocator, into out: inout [Touch]
    ) {
        // A span that began before the geometry changed finishes in its own (semantics §11.2).
        var sample = new
        if state != .idle, state != .ignored, new.placement.generation != last.placement.generation {
            sample = new.placed(with: last.placement)
        }
        switch state {
        case .idle:
            guard o.present else { return }
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
                if o.present { update(o, sample: new, device: device, time: time, lift: lift, ids: &ids, into: &out) }
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
                if o.present { update(o, sample: new, device: device, time: time, lift: lift, ids: &ids, into: &out) }
                return
            } else if sample != last {
                out.append(Self.touch(id, .moved, sample, previous: last.location, device, time))
            }
        case .ignored:
            if !o.present { state = .idle }
        }
        last = sample
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
