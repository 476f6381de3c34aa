// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

/// The pen of a pass-through mirror (semantics §9; docs/pass-through.md,
/// "Pens"): what the app world may see of a device's pen, written as the
/// kernel's tablet drivers write it, on the legacy axes (`ABS_X`/`ABS_Y`,
/// `ABS_PRESSURE`, `ABS_DISTANCE`, `ABS_TILT_X`/`Y`, the tool id `ABS_MISC`, an art pen's rotation
/// `ABS_Z`, an airbrush's wheel `ABS_WHEEL`), `BTN_TOOL_<tool>` for
/// proximity, `BTN_TOUCH` for the tip, `BTN_STYLUS`/`2`/`3`, `MSC_SERIAL`,
/// each in the device's own units (``DeviceContactValues``), so libinput's
/// tablet interface reports proximity, axes, tip and buttons as it would
/// for the original.
///
/// A hover is never withheld (nothing claims it); a tip contact is the
/// engine's like a finger's: withheld while a system edge swipe may take it
/// (the pen leaves proximity on the mirror meanwhile, and comes back at the
/// contact's first position if the swipe fails), and a claimed one ends the
/// ``MirrorEnding/lift`` way whatever the device's ending: libinput's tablet
/// interface and Wayland's tablet protocol have no cancel, and a tip up
/// straight after the claim would be a click. The pen then stays in
/// proximity, still, until the real one hovers again or leaves.
///
/// Events of a frame are gathered by ``append(_:)`` and written by
/// ``flush(into:)`` at the frame's end (their order within a frame is the
/// engine's, not the pen's); what must follow in a frame of its own (a tip
/// up after a tip down of the same frame, a tool after another) is written
/// by ``flushFollowing(into:)`` after the caller's `SYN_REPORT`.
struct MirrorPenWriter: Sendable {
    let declared: DeviceDescription
    /// A tip that has not left the slop goes this far on `ABS_X`, and back.
    let excursion: Int32
    let middleX: Int32?

    // What the mirror shows.
    var inProximity = false
    var toolCode: UInt16 = EventCode.btnToolPen
    var contact: TouchID?
    var buttons: ToolButtons = []
    var serial: UInt32?
    var last = DeviceContactValues()
    var down = DeviceContactValues()
    var downTime = Timestamp.zero
    var leftSlop = false
    /// A taken tip's ending (``MirrorEnding/lift``), its next step and when.
    var lift: MirrorEventWriter.LiftStep?
    /// While a taken tip ends: the real pen's latest hover, applied after the up.
    var afterLift: Touch?

    // The frame being gathered.
    var pending = false
    var began: Touch?
    var moved: Touch?
    var ended = false
    var cancelled = false
    var hover: Touch?
    var time = Timestamp.zero
    /// Events for a frame of their own after the caller's `SYN_REPORT`.
    var following: [InputEvent] = []

    init(mirror: DeviceDescription, excursionMM: Double) {
        declared = mirror
        let x = mirror.absInfo[EventCode.absX]
        let perMM = x.map { $0.resolution > 0 ? Double($0.resolution) : Double(max(1, $0.maximum - $0.minimum)) * 0.03 / excursionMM } ?? 1
        excursion = Int32(max(1, (perMM * excursionMM).rounded()))
        middleX = x.map { ($0.minimum + $0.maximum) / 2 }
        following.reserveCapacity(24)
    }

    /// Whether a frame has pen events gathered and not written yet.
    var hasFramePending: Bool { pending }

    /// Gathers one mirror event of the pen.
    mutating func append(_ e: MirrorTouchEvent) {
        pending = true
        time = e.time
        switch e.phase {
        case .began:
            began = e.touch
            moved = nil
            ended = false
            cancelled = false
        case .moved:
            if e.touch.id == began?.id || e.touch.id == contact { moved = e.touch }
        case .ended:
            if e.touch.id == began?.id || e.touch.id == contact { ended = true }
        case .cancelled:
            if e.touch.id == began?.id || e.touch.id == contact { cancelled = true }
        case .hover:
            hover = e.touch
        }
    }

    /// Writes the gathered frame's pen events (before the caller's `SYN_REPORT`).
    mutating func flush(into out: inout [InputEvent]) {
        guard pending else { return }
        pending = false
        defer {
            began = nil
            moved = nil
            ended = false
            cancelled = false
            hover = nil
        }
        var later = false  // what starts now goes in the following frame
        if lift != nil {
            guard began != nil else {
                if let h = hover { afterLift = h }
                return
            }
            // A new tip while the last one's ending runs: that ending completes first.
            finishLift(into: &out)
            later = true
        }
        if let b = began {
            let t = moved ?? b
            if inProximity && toolCode != Self.code(of: b.tool) {
                proximityOut(into: &out)
                later = true
            }
            write(later, &out) { w, o in
                w.proximityIn(b.tool, into: &o)
                w.axes(t, into: &o)
                w.key(EventCode.btnTouch, true, into: &o)
            }
            contact = b.id
            down = b.deviceValues
            downTime = time
            leftSlop = outsideSlop(down, t.deviceValues)
            if cancelled {
                write(true, &out) { w, o in w.beginLift(into: &o) }
            } else if ended {
                // Down and up in one frame would be neither: the up comes a frame later.
                write(true, &out) { w, o in w.tipUp(into: &o) }
                later = true
            }
        } else if contact != nil {
            if let m = moved {
                axes(m, into: &out)
                if !leftSlop && outsideSlop(down, m.deviceValues) { leftSlop = true }
            }
            if cancelled {
                beginLift(into: &out)
            } else if ended {
                tipUp(into: &out)
            }
        }
        guard contact == nil, lift == nil else { return }
        if let h = hover, h.inProximity {
            if inProximity && toolCode != Self.code(of: h.tool) {
                write(later, &out) { w, o in w.proximityOut(into: &o) }
                later = true
            }
            write(later, &out) { w, o in
                w.proximityIn(h.tool, into: &o)
                w.axes(h, into: &o)
            }
        } else if ended || (hover != nil && began == nil) {
            // The tip went up with no hover after it, or the hover span ended with
            // no tip down: the pen left (a span starting again in this frame
            // would be the latest hover).
            write(later, &out) { w, o in w.proximityOut(into: &o) }
        }
    }

    /// Writes what ``flush(into:)`` left for a frame of its own; false when nothing.
    mutating func flushFollowing(into out: inout [InputEvent]) -> Bool {
        guard !following.isEmpty else { return false }
        out.append(contentsOf: following)
        following.removeAll(keepingCapacity: true)
        return true
    }

    private mutating func write(_ later: Bool, _ out: inout [InputEvent], _ body: (inout MirrorPenWriter, inout [InputEvent]) -> Void) {
        if later {
            var f = following
            following = []
            body(&self, &f)
            following = f
        } else {
            body(&self, &out)
        }
    }

    // MARK: The ending of a taken tip

    /// When the taken tip's ending has its next step, nil when none.
    var nextDeadline: Timestamp? { lift?.due }

    /// Writes the ending's step due by `time`; false when none was due.
    mutating func advance(to time: Timestamp, into out: inout [InputEvent]) -> Bool {
        guard let step = lift, step.due <= time else { return false }
        self.time = time
        switch step {
        case .back(let due):
            abs(EventCode.absX, last.x, into: &out)
            lift = .up(due: MirrorEventWriter.upTime(still: due, down: downTime))
        case .up:
            lift = nil
            tipUp(into: &out)
            applyAfterLift(into: &out)
        }
        return true
    }

    mutating func beginLift(into out: inout [InputEvent]) {
        if leftSlop {
            lift = .up(due: MirrorEventWriter.upTime(still: time, down: downTime))
            return
        }
        let outX = last.x < (middleX ?? last.x) ? last.x + excursion : last.x - excursion
        abs(EventCode.absX, outX, into: &out)
        lift = .back(due: time.adding(milliseconds: MirrorLiftTiming.returnMilliseconds))
    }

    /// Ends a taken tip's ending at once (a new tip comes).
    mutating func finishLift(into out: inout [InputEvent]) {
        guard let step = lift else { return }
        if case .back = step { abs(EventCode.absX, last.x, into: &out) }
        lift = nil
        tipUp(into: &out)
        afterLift = nil
    }

    private mutating func applyAfterLift(into out: inout [InputEvent]) {
        guard let h = afterLift else { return }
        afterLift = nil
        if h.inProximity && toolCode == Self.code(of: h.tool) {
            axes(h, into: &out)
        } else {
            proximityOut(into: &out)
        }
    }

    /// Ends everything (pass-through stops): the tip up, the pen out of proximity.
    mutating func endAll(at time: Timestamp, into out: inout [InputEvent]) {
        self.time = time
        lift = nil
        afterLift = nil
        pending = false
        began = nil
        moved = nil
        hover = nil
        ended = false
        cancelled = false
        following.removeAll(keepingCapacity: true)
        tipUp(into: &out)
        proximityOut(into: &out)
    }

    // MARK: Events

    private mutating func tipUp(into out: inout [InputEvent]) {
        guard contact != nil else { return }
        contact = nil
        key(EventCode.btnTouch, false, into: &out)
    }

    private mutating func proximityIn(_ tool: Tool, into out: inout [InputEvent]) {
        guard !inProximity else { return }
        inProximity = true
        toolCode = Self.code(of: tool)
        key(toolCode, true, into: &out)
    }

    private mutating func proximityOut(into out: inout [InputEvent]) {
        guard inProximity else { return }
        inProximity = false
        setButtons([], into: &out)
        key(toolCode, false, into: &out)
    }

    private mutating func axes(_ t: Touch, into out: inout [InputEvent]) {
        let v = t.deviceValues
        abs(EventCode.absX, v.x, into: &out)
        abs(EventCode.absY, v.y, into: &out)
        if let p = v.pressure, declares(EventCode.absPressure) { abs(EventCode.absPressure, p, into: &out) }
        if let d = v.distance, declares(EventCode.absDistance) { abs(EventCode.absDistance, d, into: &out) }
        if let x = v.tiltX, declares(EventCode.absTiltX) { abs(EventCode.absTiltX, x, into: &out) }
        if let y = v.tiltY, declares(EventCode.absTiltY) { abs(EventCode.absTiltY, y, into: &out) }
        if let m = v.toolID, declares(EventCode.absMisc) { abs(EventCode.absMisc, m, into: &out) }
        if let z = v.rotation, declares(EventCode.absZ) { abs(EventCode.absZ, z, into: &out) }
        if let w = v.wheel, declares(EventCode.absWheel) { abs(EventCode.absWheel, w, into: &out) }
        last = v
        setButtons(t.buttons, into: &out)
        if let s = t.serial, s != serial, declared.supports(.msc, EventCode.mscSerial) {
            serial = s
            out.append(InputEvent(time: time, type: .msc, code: EventCode.mscSerial, value: Int32(bitPattern: s)))
        }
    }

    private mutating func setButtons(_ held: ToolButtons, into out: inout [InputEvent]) {
        guard held != buttons else { return }
        if held.contains(.stylus) != buttons.contains(.stylus) { key(EventCode.btnStylus, held.contains(.stylus), into: &out) }
        if held.contains(.stylus2) != buttons.contains(.stylus2) { key(EventCode.btnStylus2, held.contains(.stylus2), into: &out) }
        if held.contains(.stylus3) != buttons.contains(.stylus3) { key(EventCode.btnStylus3, held.contains(.stylus3), into: &out) }
        buttons = held
    }

    func outsideSlop(_ a: DeviceContactValues, _ b: DeviceContactValues) -> Bool {
        // As for fingers: half the excursion is the slop.
        (Int64(a.x) - Int64(b.x)).magnitude * 2 >= UInt64(excursion)
            || (Int64(a.y) - Int64(b.y)).magnitude * 2 >= UInt64(excursion)
    }

    func declares(_ code: UInt16) -> Bool { declared.supports(.abs, code) }

    /// The `BTN_TOOL_*` code of a pen tool.
    static func code(of tool: Tool) -> UInt16 {
        DeviceClassification.penToolCodes.first { $0.tool == tool }?.code ?? EventCode.btnToolPen
    }

    func key(_ code: UInt16, _ down: Bool, into out: inout [InputEvent]) {
        guard declared.supports(.key, code) else { return }
        out.append(InputEvent(time: time, type: .key, code: code, value: down ? 1 : 0))
    }

    func abs(_ code: UInt16, _ value: Int32, into out: inout [InputEvent]) {
        out.append(InputEvent(time: time, type: .abs, code: code, value: value))
    }
}
