// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

/// Turns what the app world may see of one device's contacts
/// (``MirrorTouchEvent``s, semantics §9) into the evdev events of its
/// pass-through mirror, in multitouch protocol B whatever the device speaks.
///
/// Each contact gets a slot (the lowest free one) and a tracking id of its
/// own; positions and the other axes are the device's own values
/// (``DeviceContactValues``). A contact cancelled on the mirror is turned into
/// a palm (`ABS_MT_TOOL_TYPE` = `MT_TOOL_PALM`) for one frame, then ended in
/// the next one: libinput reports that as a touch cancel, not an up, so the
/// app sees no click (``MirrorConventions`` says why, from libinput's source,
/// and the guest suite `MirrorDeviceTests` checks it against libinput). `BTN_TOUCH`, the `BTN_TOOL_*` finger count and
/// `ABS_X`/`ABS_Y` (the first contact's position) follow the contacts, as the
/// kernel's multitouch helpers report them.
///
/// With ``MirrorEnding/cancel``, contacts taken in one frame become palms
/// only when no other contact stays down on the mirror (`wl_touch.cancel`
/// ends every touch of the app, not one); otherwise they lift.
///
/// With ``MirrorEnding/lift`` (the default) a taken contact is not turned
/// into a palm: it ends with an up that is neither a click nor a fling, over
/// the next few hundred milliseconds (``nextDeadline``, ``advance(to:into:)``),
/// since compositors that drop libinput's cancel would leave it down in the
/// app for ever (docs/pass-through.md). A device's pen goes through
/// ``MirrorPenWriter``, on the legacy axes and keys, which are then the pen's
/// alone (no pointer emulation for fingers), as touchd's own core reads such
/// a device. Pure: events and times in, events out.
package struct MirrorEventWriter: Sendable {
    /// Slots of the mirror (``DeviceDescription/slotCount`` of the mirror's description).
    package let slotCount: Int
    let declared: DeviceDescription
    /// How a taken contact ends; a change applies to contacts taken from then on
    /// (`auto` decides again when the compositor reading the mirror becomes known).
    package var ending: MirrorEnding

    struct Contact: Sendable {
        var touch: TouchID
        var trackingID: Int32
        /// Its last values (the first contact's are `ABS_X`/`ABS_Y`).
        var values: DeviceContactValues
        /// Turned into a palm in the frame being written: ended in the next one.
        var palm = false
        /// Where and when it went down on the mirror.
        var down: DeviceContactValues
        var downTime: Timestamp
        /// Whether it went farther from its down than a tap's slop.
        var leftSlop = false
        /// Taken, ending as ``MirrorEnding/lift`` says: the next step and when.
        var lift: LiftStep?
    }

    enum LiftStep: Sendable {
        /// Back from the excursion to where the app last saw it.
        case back(due: Timestamp)
        /// The up.
        case up(due: Timestamp)
        var due: Timestamp {
            switch self {
            case .back(let t), .up(let t): return t
            }
        }
    }
    /// The excursion and slop in device units, per axis.
    let excursion: (x: Int32, y: Int32)
    /// Contacts in ``MirrorEnding/lift``'s ending (a check per event instead of a scan).
    var lifting = 0
    /// The contact in each slot, nil when the slot is free.
    var slots: [Contact?]
    var nextTrackingID: Int32 = 0
    /// The device's pen, when it has one (pen tools or stylus buttons declared).
    var pen: MirrorPenWriter
    /// Whether `BTN_TOUCH` and `ABS_X`/`ABS_Y` are the pen's: fingers then write none.
    let hasPen: Bool
    /// Slots whose contact became a palm this frame.
    var palmSlots: [Int] = []
    /// Slots whose contact was taken this frame under ``MirrorEnding/cancel``: at the frame's end
    /// they become palms when no other contact stays down, else they lift (``resolveCancels(into:)``).
    var cancelSlots: [Int] = []
    /// Slots whose contact began in the frame being written.
    var beganSlots: [Int] = []
    /// Slots whose contact began and ended in the frame being written: ended in
    /// the next frame, or a reader would see it neither go down nor up.
    var deferredEnds: [Int] = []
    var frameTime = Timestamp.zero
    var currentSlot = -1
    /// The contact count and first contact's position last written: keys and
    /// `ABS_X`/`ABS_Y` are written only when they change.
    var reportedCount = 0
    var reportedPointer: (x: Int32, y: Int32)?

    /// Creates a writer for a mirror declaring `mirror` (its description
    /// decides which axes and keys are written); `ending` says how a taken
    /// contact ends.
    package init(mirror: DeviceDescription, ending: MirrorEnding = .default) {
        declared = mirror
        self.ending = ending
        func units(_ code: UInt16) -> Int32 {
            guard let a = mirror.absInfo[code] else { return 1 }
            // Without a resolution: 3 % of the axis, about 6 mm of a 10" panel.
            let perMM = a.resolution > 0 ? Double(a.resolution) : Double(max(1, a.maximum - a.minimum)) * 0.03 / MirrorLiftTiming.excursionMM
            return Int32(max(1, (perMM * MirrorLiftTiming.excursionMM).rounded()))
        }
        excursion = (units(EventCode.absMTPositionX), units(EventCode.absMTPositionY))
        pen = MirrorPenWriter(mirror: mirror, excursionMM: MirrorLiftTiming.excursionMM)
        hasPen = DeviceClassification.penToolCodes.contains { mirror.supports(.key, $0.code) }
            || mirror.supports(.key, EventCode.btnStylus) || mirror.supports(.key, EventCode.btnStylus2)
        slotCount = max(1, mirror.slotCount)
        slots = Array(repeating: nil, count: slotCount)
        palmSlots.reserveCapacity(slotCount)
        cancelSlots.reserveCapacity(slotCount)
        beganSlots.reserveCapacity(slotCount)
        deferredEnds.reserveCapacity(slotCount)
    }

    /// The contacts on the mirror now.
    package var activeContacts: Int { slots.reduce(0) { $0 + ($1 == nil ? 0 : 1) } }

    /// Appends the events of one mirror event (part of the frame ended by ``endFrame(at:into:)``).
    package mutating func append(_ e: MirrorTouchEvent, into out: inout [InputEvent]) {
        frameTime = e.time
        if e.touch.type == .stylus {
            if hasPen { pen.append(e) }
            return
        }
        switch e.phase {
        case .began:
            guard let s = slots.firstIndex(where: { $0 == nil }) else { return }  // more contacts than slots: left out
            let id = nextTrackingID
            nextTrackingID = nextTrackingID == Int32(UInt16.max) ? 0 : nextTrackingID + 1
            slots[s] = Contact(touch: e.touch.id, trackingID: id, values: e.touch.deviceValues,
                               down: e.touch.deviceValues, downTime: e.time)
            beganSlots.append(s)
            select(s, into: &out)
            // Before the tracking id: libinput reads the slot's tool type when a contact starts,
            // and a slot left a palm by an earlier cancel would swallow the new contact.
            if declares(EventCode.absMTToolType) { abs(EventCode.absMTToolType, EventCode.mtToolFinger, into: &out) }
            abs(EventCode.absMTTrackingID, id, into: &out)
            values(e.touch.deviceValues, into: &out)
        case .moved:
            guard let s = slot(of: e.touch.id), slots[s]?.palm == false, slots[s]?.lift == nil else { return }
            slots[s]?.values = e.touch.deviceValues
            if slots[s]?.leftSlop == false, let c = slots[s], outsideSlop(c.down, c.values) { slots[s]?.leftSlop = true }
            select(s, into: &out)
            values(e.touch.deviceValues, into: &out)
        case .ended:
            // A contact being lifted ends on its own schedule.
            guard let s = slot(of: e.touch.id), slots[s]?.lift == nil else { return }
            // A withheld contact delivered on its lift begins and ends at once: the end waits a frame.
            if beganSlots.contains(s) {
                if !deferredEnds.contains(s) { deferredEnds.append(s) }
                return
            }
            select(s, into: &out)
            abs(EventCode.absMTTrackingID, -1, into: &out)
            slots[s] = nil
        case .cancelled:
            guard let s = slot(of: e.touch.id), slots[s]?.palm == false, slots[s]?.lift == nil else { return }
            if ending == .lift {
                beginLift(s, at: e.time, into: &out)
                return
            }
            // Whether it may be cancelled depends on the rest of the frame.
            slots[s]?.palm = true
            cancelSlots.append(s)
        case .hover:
            return
        }
    }

    /// Whether events appended since the last frame end wait to be written
    /// (a pen's are gathered until ``endFrame(at:into:)``, as are contacts taken under ``MirrorEnding/cancel``).
    package var hasFramePending: Bool { pen.hasFramePending || !cancelSlots.isEmpty }

    /// Ends the frame: the keys and single-touch axes, the pen, `SYN_REPORT`;
    /// when a contact became a palm (or the pen has more), a second frame.
    package mutating func endFrame(at time: Timestamp, into out: inout [InputEvent]) {
        frameTime = time
        if !cancelSlots.isEmpty { resolveCancels(into: &out) }
        keysAndPointer(into: &out)
        pen.flush(into: &out)
        syn(into: &out)
        beganSlots.removeAll(keepingCapacity: true)
        if pen.flushFollowing(into: &out) && palmSlots.isEmpty && deferredEnds.isEmpty {
            syn(into: &out)
            return
        }
        guard !palmSlots.isEmpty || !deferredEnds.isEmpty else { return }
        for s in palmSlots {
            select(s, into: &out)
            abs(EventCode.absMTTrackingID, -1, into: &out)
            // The slot's next contact is a finger again.
            abs(EventCode.absMTToolType, EventCode.mtToolFinger, into: &out)
            slots[s] = nil
        }
        for s in deferredEnds {
            select(s, into: &out)
            abs(EventCode.absMTTrackingID, -1, into: &out)
            slots[s] = nil
        }
        palmSlots.removeAll(keepingCapacity: true)
        deferredEnds.removeAll(keepingCapacity: true)
        keysAndPointer(into: &out)
        syn(into: &out)
    }

    // MARK: Cancel (``MirrorEnding/cancel``)

    /// The contacts taken this frame end as palms (libinput's cancel) only when
    /// no other contact stays down on the mirror: `wl_touch.cancel` ends every
    /// touch the app has, so a cancel beside a contact still down (or one
    /// still lifting, or one ending in the next frame) would end that one too.
    /// Otherwise each taken contact lifts.
    mutating func resolveCancels(into out: inout [InputEvent]) {
        var othersDown = !deferredEnds.isEmpty
        if !othersDown {
            for c in slots {
                guard let c else { continue }
                if !c.palm || c.lift != nil { othersDown = true; break }
            }
        }
        for s in cancelSlots {
            // Ended in this frame after it was taken: nothing left to end.
            guard slots[s]?.palm == true else { continue }
            if othersDown {
                slots[s]?.palm = false
                beginLift(s, at: frameTime, into: &out)
            } else {
                select(s, into: &out)
                abs(EventCode.absMTToolType, EventCode.mtToolPalm, into: &out)
                palmSlots.append(s)
            }
        }
        cancelSlots.removeAll(keepingCapacity: true)
    }

    // MARK: Lift (``MirrorEnding/lift``)

    /// When ``advance(to:into:)`` has something to write: the next step of a
    /// taken contact's ending; nil when none is ending.
    package var nextDeadline: Timestamp? {
        guard lifting > 0 else { return pen.nextDeadline }
        var next: Timestamp? = pen.nextDeadline
        for c in slots {
            guard let due = c?.lift?.due else { continue }
            if next == nil || due < next! { next = due }
        }
        return next
    }

    /// Writes the steps of taken contacts' endings due by `time`, as one frame
    /// (nothing when none is due).
    package mutating func advance(to time: Timestamp, into out: inout [InputEvent]) {
        guard lifting > 0 || pen.lift != nil else { return }
        var wrote = pen.advance(to: time, into: &out)
        frameTime = time
        for s in slots.indices {
            guard let c = slots[s], let step = c.lift, step.due <= time else { continue }
            wrote = true
            select(s, into: &out)
            switch step {
            case .back(let due):
                // Back where the app last saw it; then still.
                abs(EventCode.absMTPositionX, c.values.x, into: &out)
                abs(EventCode.absMTPositionY, c.values.y, into: &out)
                slots[s]?.lift = .up(due: Self.upTime(still: due, down: c.downTime))
            case .up:
                abs(EventCode.absMTTrackingID, -1, into: &out)
                slots[s] = nil
                lifting -= 1
            }
        }
        guard wrote else { return }
        keysAndPointer(into: &out)
        syn(into: &out)
    }

    /// The up: still long enough from `still`, and not a tap after `down`.
    static func upTime(still: Timestamp, down: Timestamp) -> Timestamp {
        max(still.adding(milliseconds: MirrorLiftTiming.stillMilliseconds),
            down.adding(milliseconds: MirrorLiftTiming.notBeforeMilliseconds))
    }

    func outsideSlop(_ a: DeviceContactValues, _ b: DeviceContactValues) -> Bool {
        // The excursion is larger than toolkits' slops; half of it is the slop here.
        (Int64(a.x) - Int64(b.x)).magnitude * 2 >= UInt64(excursion.x)
            || (Int64(a.y) - Int64(b.y)).magnitude * 2 >= UInt64(excursion.y)
    }

    /// A taken contact starts ending: it stops; unmoved, it goes out of the
    /// slop in this frame (towards the middle of the axis, so it stays on the
    /// surface beneath) and comes back in a later one.
    mutating func beginLift(_ s: Int, at time: Timestamp, into out: inout [InputEvent]) {
        guard let c = slots[s] else { return }
        lifting += 1
        if c.leftSlop {
            slots[s]?.lift = .up(due: Self.upTime(still: time, down: c.downTime))
            return
        }
        let x = declared.absInfo[EventCode.absMTPositionX]
        let middle = x.map { ($0.minimum + $0.maximum) / 2 } ?? c.values.x
        let outX = c.values.x < middle ? c.values.x + excursion.x : c.values.x - excursion.x
        select(s, into: &out)
        abs(EventCode.absMTPositionX, outX, into: &out)
        slots[s]?.lift = .back(due: time.adding(milliseconds: MirrorLiftTiming.returnMilliseconds))
    }

    /// Ends every contact (the device went away, pass-through stops): one frame, nothing left down.
    package mutating func endAll(at time: Timestamp, into out: inout [InputEvent]) {
        frameTime = time
        for s in slots.indices where slots[s] != nil {
            select(s, into: &out)
            abs(EventCode.absMTTrackingID, -1, into: &out)
            slots[s] = nil
        }
        lifting = 0
        pen.endAll(at: time, into: &out)
        palmSlots.removeAll(keepingCapacity: true)
        cancelSlots.removeAll(keepingCapacity: true)
        beganSlots.removeAll(keepingCapacity: true)
        deferredEnds.removeAll(keepingCapacity: true)
        keysAndPointer(into: &out)
        syn(into: &out)
    }

    // MARK: Events

    func slot(of touch: TouchID) -> Int? { slots.firstIndex { $0?.touch == touch } }

    func declares(_ code: UInt16) -> Bool { declared.supports(.abs, code) }

    mutating func select(_ s: Int, into out: inout [InputEvent]) {
        guard s != currentSlot else { return }
        currentSlot = s
        abs(EventCode.absMTSlot, Int32(s), into: &out)
    }

    func values(_ v: DeviceContactValues, into out: inout [InputEvent]) {
        abs(EventCode.absMTPositionX, v.x, into: &out)
        abs(EventCode.absMTPositionY, v.y, into: &out)
        if let p = v.pressure, declares(EventCode.absMTPressure) { abs(EventCode.absMTPressure, p, into: &out) }
        if let m = v.touchMajor, declares(EventCode.absMTTouchMajor) { abs(EventCode.absMTTouchMajor, m, into: &out) }
        if let m = v.touchMinor, declares(EventCode.absMTTouchMinor) { abs(EventCode.absMTTouchMinor, m, into: &out) }
    }

    // What the kernel's input_mt_report_pointer_emulation reports: BTN_TOUCH, the finger count
    // as BTN_TOOL_*, and the first contact on ABS_X/ABS_Y. Contacts turning into palms still count.
    // Only changes are written: most frames only move contacts.
    mutating func keysAndPointer(into out: inout [InputEvent]) {
        var count = 0
        var first: DeviceContactValues?
        for c in slots {
            guard let c else { continue }
            count += 1
            if first == nil { first = c.values }
        }
        if count != reportedCount {
            if (count > 0) != (reportedCount > 0) && !hasPen { key(EventCode.btnTouch, count > 0, into: &out) }
            if Self.tool(for: reportedCount) != Self.tool(for: count) {
                key(Self.tool(for: reportedCount), false, into: &out)
                key(Self.tool(for: count), true, into: &out)
            }
            reportedCount = count
        }
        if let first, !hasPen, reportedPointer?.x != first.x || reportedPointer?.y != first.y {
            if declares(EventCode.absX) { abs(EventCode.absX, first.x, into: &out) }
            if declares(EventCode.absY) { abs(EventCode.absY, first.y, into: &out) }
            reportedPointer = (first.x, first.y)
        }
    }

    /// The `BTN_TOOL_*` key of a finger count (0: none).
    static func tool(for count: Int) -> UInt16? {
        switch count {
        case 0: return nil
        case 1: return EventCode.btnToolFinger
        case 2: return EventCode.btnToolDoubleTap
        case 3: return EventCode.btnToolTripleTap
        case 4: return EventCode.btnToolQuadTap
        default: return EventCode.btnToolQuintTap
        }
    }

    func key(_ code: UInt16?, _ down: Bool, into out: inout [InputEvent]) {
        guard let code, declared.supports(.key, code) else { return }
        out.append(InputEvent(time: frameTime, type: .key, code: code, value: down ? 1 : 0))
    }

    func abs(_ code: UInt16, _ value: Int32, into out: inout [InputEvent]) {
        out.append(InputEvent(time: frameTime, type: .abs, code: code, value: value))
    }

    func syn(into out: inout [InputEvent]) {
        out.append(InputEvent(time: frameTime, type: .syn, code: EventCode.synReport, value: 0))
    }
}
