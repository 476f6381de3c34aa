// SPDX-License-Identifier: MIT
import TouchCore

/// The gesture engine: touch frames and virtual time in, ordered gesture events,
/// raw touch events and explanations out. Pure: no clock, no I/O; the same inputs
/// give the same outputs (semantics sections 2 to 5, 7, 8).
///
/// Feed every ``TouchFrame`` to ``handle(_:into:)`` in time order and call
/// ``advance(to:into:)`` when ``nextDeadline`` passes with no input.
package struct Engine: Sendable {
    /// The configuration in force.
    package internal(set) var configuration: GestureConfiguration
    /// When false, no ``DebugRecord``s are produced (saves their allocations).
    package var recordsDebug = true

    var slots: [RecognizerSlot] = []
    var freeSlots: [Int] = []
    var systemSlots: [Int] = []
    var index = SurfaceIndex()
    var records = TouchRecords()
    /// Record indices of the contacts and hovers down, by touch id.
    var activeContacts = ActiveTouchTable()
    var activeHovers = ActiveTouchTable()
    /// Arbitration between the recognizers (members indexed like ``slots``).
    var arena = GestureArena()
    /// `slots[i].rank`, kept apart so sorting never copies the slots.
    var ranks: [Int] = []
    /// `slots[i].live && slots[i].core.followsMoves`, kept apart (set with the state) so a moved touch
    /// skips the recognizers it was offered to that decided without reading their slots.
    var following: [Bool] = []
    var rawOpen: [SurfaceID: Int] = [:]
    var nextKey = 1
    var nextInteraction = 1
    var now = Timestamp.zero
    // Scratch buffers reused every frame.
    var out: [EngineOutput] = []
    var dirtySlots: [Int] = []
    var scratch: [Int] = []
    var pendingScratch: [Int] = []
    /// The motion of each set of touches stepped in the current frame, shared by the recognizers following it.
    var motion = SharedMotion()
    // System edge gestures (semantics section 6).
    /// The system gestures of each screen that has them.
    var systemByScreen: [Int: SystemGestureConfiguration] = [:]
    /// The policy's answer to each surface's deferral request.
    var deferrals: [SurfaceID: DeferralDecision] = [:]
    /// Per screen edge (``edgeKey(_:screen:)``): end of the window opened by its last hint.
    var edgeWindows: [Int: Timestamp] = [:]
    /// Whether the user's session is locked or not the seat's (semantics section 13): the
    /// shortcuts and edge swipes not marked `whenLocked` are disabled, so the locker gets every touch.
    package internal(set) var sessionQuiet = false
    /// The focused app as the user's session reported it (nil: unknown): shortcuts and edge
    /// swipes with app conditions, and `appRules`' deferred edges, follow it (``setFocus(_:)``).
    package internal(set) var focus: FocusedApp?
    /// A focus change reported while touches were down: put in force once they have all lifted.
    var pendingFocus: FocusedApp??

    /// The earliest time at which ``advance(to:)`` would do something, if any.
    ///
    /// Kept up to date by every mutating entry point (``handle(_:into:)``,
    /// ``advance(to:into:)``, the configuration changes) rather than computed
    /// when read: the daemon reads it once or more per wake-up through a
    /// stored property, and a computed property of this struct called there
    /// made the caller copy the whole engine first (a retain and a release of
    /// every buffer it holds; docs/performance.md, "A round of input: copies of
    /// the engine, the runtime's check").
    package internal(set) var nextDeadline: Timestamp?

    /// Devices whose contacts go to a pass-through mirror: their touches also produce
    /// ``EngineOutput/mirror(_:)`` events (semantics §9). Applies to touches that begin afterwards.
    package var mirroredDevices: Set<DeviceID> = []

    /// Surfaces whose long presses alongside a drag wait until the drag fails,
    /// which for a touch held still is its lift (UIKit's compact environment,
    /// semantics §12.8); elsewhere a long press begins at its own time beside
    /// the drag, which may still take the touch. Set by ``setCompact(_:surface:)``.
    package private(set) var compactSurfaces: Set<SurfaceID> = []

    /// Makes a surface's long presses alongside a drag wait until the drag
    /// fails (`true`, compact) or begin at their own time beside it (`false`,
    /// regular, the default; semantics §12.8). Applies at once, also to the
    /// interactions in progress.
    package mutating func setCompact(_ compact: Bool, surface: SurfaceID) {
        let changed = compact ? compactSurfaces.insert(surface).inserted : compactSurfaces.remove(surface) != nil
        if changed { resolveRelations() }
    }

    /// Creates an engine. Surfaces with unknown parents are treated as roots; call
    /// ``GestureConfiguration/validate()`` first to reject such configurations.
    package init(configuration: GestureConfiguration) {
        self.configuration = configuration
        dirtySlots.reserveCapacity(64)
        scratch.reserveCapacity(64)
        rebuild()
        nextDeadline = earliestDeadline()
    }

    // MARK: Input

    /// Handles one frame; returns what it caused, in order.
    package mutating func handle(_ frame: TouchFrame) -> [EngineOutput] {
        var buffer: [EngineOutput] = []
        handle(frame, into: &buffer)
        return buffer
    }

    /// Handles one frame, appending what it caused to `output` (reuse the buffer to avoid allocation).
    /// Deadlines up to the frame's time fire first.
    package mutating func handle(_ frame: TouchFrame, into output: inout [EngineOutput]) {
        swap(&out, &output)
        defer { swap(&out, &output) }
        fireDeadlines(upTo: frame.time)
        now = frame.time
        for touch in frame.touches {
            switch touch.phase {
            case .began: contactBegan(touch)
            case .moved: contactMoved(touch)
            case .ended: touchWentAway(touch, cancelled: false)
            case .cancelled: touchWentAway(touch, cancelled: true)
            case .hover: hovered(touch)
            }
        }
        stepDirty()
        settle()
        if pendingFocus != nil && activeContacts.count == 0 { out.append(contentsOf: applyPendingFocus()) }
        nextDeadline = earliestDeadline()
    }

    /// Fires the deadlines up to `time` (long presses, double-tap windows...); returns what they caused.
    package mutating func advance(to time: Timestamp) -> [EngineOutput] {
        var buffer: [EngineOutput] = []
        advance(to: time, into: &buffer)
        return buffer
    }

    /// Fires the deadlines up to `time`, appending what they caused to `output`.
    package mutating func advance(to time: Timestamp, into output: inout [EngineOutput]) {
        swap(&out, &output)
        defer { swap(&out, &output) }
        fireDeadlines(upTo: time)
        nextDeadline = earliestDeadline()
    }

    /// The earliest deadline of the engaged recognizers: what ``nextDeadline``
    /// holds after each mutating entry point.
    func earliestDeadline() -> Timestamp? {
        var best: Timestamp?
        for m in arena.engaged {
            if let d = slots[m.rawValue].core.deadline, best == nil || d < best! { best = d }
        }
        return best
    }

    /// True when no touch is down, no recognizer is engaged and no raw delivery is pending.
    package var isIdle: Bool { arena.engaged.isEmpty && records.isEmpty }

    /// The state of a recognizer (for tests and inspection); nil when there is no such recognizer.
    package func state(of name: String, surface: SurfaceID?) -> RecognizerState? {
        slotIndex(name: name, surface: surface).map { slots[$0].core.state }
    }

    func slotIndex(name: String, surface: SurfaceID?) -> Int? {
        slots.indices.first { slots[$0].live && slots[$0].surface == surface && slots[$0].config.name == name }
    }

    // MARK: Touches

    mutating func contactBegan(_ touch: Touch) {
        if let hover = activeHovers.removeValue(forKey: touch.id) {
            endTrackedTouch(hover, with: touch, cancelled: false)
        }
        if activeContacts[touch.id] != nil {
            debug(.bug("touch began twice without ending"), touch: touch.id)
            contactMoved(touch)
            return
        }
        let key = nextKey
        nextKey += 1
        let hit = index.hit(touch.location, screen: touch.screen)
        var blocked: String?
        if let h = hit { blocked = exclusiveBlock(surface: index.entries[h].config, screen: touch.screen) }
        let surface = hit.map { index.entries[$0].config }
        var record = TouchRecord(
            key: key, id: touch.id, isHover: false, surface: blocked == nil ? surface?.id : nil,
            owner: surface?.owner ?? "", screen: touch.screen, exclusive: surface?.exclusiveTouch ?? false,
            interaction: 0, slots: records.spareSlotList(), last: touch, first: touch)
        let mirrored = !mirroredDevices.isEmpty && mirroredDevices.contains(touch.device)
        if let reason = blocked {
            record.interaction = newInteraction()
            debug(.unhandled(reason: reason), touch: touch.id, interaction: record.interaction)
            if mirrored {
                record.mirror = .open
                emitMirror(record, phase: .began)
            }
            activeContacts[touch.id] = records.insert(record)
            return
        }
        if let h = hit {
            engage(touch, key: key, chain: index.entries[h].chain, record: &record)
        } else {
            engage(touch, key: key, chain: systemSlots, record: &record)
        }
        if recordsDebug {
            let names = record.slots.map { slots[$0].qualifiedName }
            debug(.inPlay(surface: record.surface, recognizers: names), touch: touch.id, interaction: record.interaction)
        }
        if let s = surface, record.surface != nil {
            let open = rawOpen[s.id] ?? 0
            if s.multipleTouch || open == 0 {
                rawOpen[s.id] = open + 1
                if record.slots.contains(where: { slots[$0].delaysBegan }) {
                    record.raw = .withholdingBegan
                    record.heldOnlyBySystem = !record.slots.contains { slots[$0].delaysBegan && slots[$0].systemEdge == nil }
                } else {
                    record.raw = .open
                    emitRaw(record, phase: .began)
                }
            }
        }
        if mirrored {
            // Semantics §9: withheld only while a system edge swipe may take it.
            if isHeldForMirror(record) {
                record.mirror = .withholdingBegan
            } else {
                record.mirror = .open
                emitMirror(record, phase: .began)
            }
        }
        let i = records.insert(record)
        activeContacts[touch.id] = i
        if record.raw == .withholdingBegan || record.mirror == .withholdingBegan { records.markPending(i) }
    }

    /// Offers a new touch to the recognizers of a chain (semantics sections 2.2 to 2.4).
    mutating func engage(_ touch: Touch, key: Int, chain: [Int], record: inout TouchRecord) {
        var interaction = Int.max
        for s in chain where slots[s].live && arena.isEngaged(ArenaMember(rawValue: s)) { interaction = min(interaction, slots[s].interaction) }
        if interaction == Int.max { interaction = newInteraction() }
        record.interaction = interaction
        for s in chain where slots[s].live {
            let member = ArenaMember(rawValue: s)
            if let refused = slots[s].refusal(of: touch, engaged: arena.isEngaged(member)) {
                if recordsDebug, let reason = refused.reason { debug(.refused(reason: reason), slot: s, touch: touch.id, interaction: interaction) }
                continue
            }
            if arena.engage(member) { slots[s].interaction = interaction }
            slots[s].core.add(touch, key: key)
            arena.take(key, by: member)
            if slots[s].systemEdge != nil && arena.seen(by: member).count == 1 { chooseSystemRole(s, for: touch, interaction: interaction) }
            markDirty(s)
            record.slots.append(s)
        }
    }

    /// Semantics 2.5: while an exclusive surface is touched no other surface of the screen gets touches, and vice versa.
    func exclusiveBlock(surface: SurfaceConfiguration, screen: Int) -> String? {
        for i in records.order {  // in touch order, not dictionary order: the reason must be deterministic
            let r = records.items[i]
            guard r.down, !r.isHover, r.screen == screen, let other = r.surface, other != surface.id else { continue }
            if r.exclusive { return "surface \(other) is exclusiveTouch and touched" }
            if surface.exclusiveTouch { return "surface \(surface.id) is exclusiveTouch and \(other) is touched" }
        }
        return nil
    }

    mutating func contactMoved(_ touch: Touch) {
        guard let i = activeContacts[touch.id] else {
            debug(.bug("moved without began"), touch: touch.id)
            return
        }
        records.items[i].last = touch
        let key = records.items[i].key
        for s in records.items[i].slots {
            assert(following[s] == (slots[s].live && slots[s].core.followsMoves), "following[\(s)] out of date")
            if following[s] && slots[s].core.update(touch, key: key, lifted: false) { markDirty(s) }
        }
        switch records.items[i].raw {
        case .open: if !records.items[i].cancelRequested { emitRaw(records.items[i], phase: .moved) }
        case .withholdingBegan: records.items[i].movedWhileWithheld = true
        case .none, .finished: break
        }
        switch records.items[i].mirror {
        case .open: if records.items[i].claimant == nil { emitMirror(records.items[i], phase: .moved) }
        case .withholdingBegan: records.items[i].movedWhileMirrorWithheld = true
        case .none, .finished: break
        }
    }

    mutating func touchWentAway(_ touch: Touch, cancelled: Bool) {
        if let i = activeContacts.removeValue(forKey: touch.id) {
            endTrackedTouch(i, with: touch, cancelled: cancelled)
        } else if let i = activeHovers.removeValue(forKey: touch.id) {
            endTrackedTouch(i, with: touch, cancelled: cancelled)
        } else {
            debug(.bug("\(touch.phase.rawValue) without began"), touch: touch.id)
        }
    }

    /// A touch lifted, left proximity, or was cancelled upstream (palm, device removed).
    mutating func endTrackedTouch(_ i: Int, with touch: Touch, cancelled: Bool) {
        records.items[i].last = touch
        records.items[i].down = false
        records.items[i].endedPhase = cancelled ? .cancelled : .ended
        records.markPending(i)
        let key = records.items[i].key
        for s in records.items[i].slots where slots[s].live { arena.touchLeft(key, member: ArenaMember(rawValue: s)) }
        for s in records.items[i].slots where slots[s].live && slots[s].core.holds(key) {
            if cancelled {
                cancel(s, reason: .touchCancelled(touch.id))
                slots[s].core.drop(key)
            } else if slots[s].core.update(touch, key: key, lifted: true) {
                markDirty(s)
            }
        }
    }

    mutating func hovered(_ touch: Touch) {
        // Semantics §9: a pen's hover is no contact, nothing claims it: the mirror gets it at once.
        if !mirroredDevices.isEmpty && mirroredDevices.contains(touch.device) {
            out.append(.mirror(MirrorTouchEvent(time: now, phase: .hover, touch: touch)))
        }
        if let i = activeHovers[touch.id] {
            if !touch.inProximity {
                activeHovers[touch.id] = nil
                endTrackedTouch(i, with: touch, cancelled: false)
                return
            }
            records.items[i].last = touch
            let key = records.items[i].key
            let inside = records.items[i].surface.flatMap { index.byID[$0] }.map { index.entries[$0].hitRect.contains(touch.location) } ?? false
            if !inside {
                // Left its surface: the hover ends there (a new one may begin elsewhere on the next event).
                activeHovers[touch.id] = nil
                endTrackedTouch(i, with: touch, cancelled: false)
                return
            }
            for s in records.items[i].slots {
                assert(following[s] == (slots[s].live && slots[s].core.followsMoves), "following[\(s)] out of date")
                if following[s] && slots[s].core.update(touch, key: key, lifted: false) { markDirty(s) }
            }
            return
        }
        guard touch.inProximity, let hit = index.hit(touch.location, screen: touch.screen) else { return }
        let key = nextKey
        nextKey += 1
        let surface = index.entries[hit].config
        var record = TouchRecord(key: key, id: touch.id, isHover: true, surface: surface.id, owner: surface.owner,
                                 screen: touch.screen, exclusive: false, interaction: 0, slots: records.spareSlotList(), last: touch, first: touch)
        engage(touch, key: key, chain: index.entries[hit].hoverChain, record: &record)
        activeHovers[touch.id] = records.insert(record)
    }

    mutating func newInteraction() -> Int {
        defer { nextInteraction += 1 }
        return nextInteraction
    }

    mutating func markDirty(_ s: Int) {
        if !slots[s].dirty {
            slots[s].dirty = true
            dirtySlots.append(s)
        }
    }

    /// Steps every recognizer whose touches changed, in canonical order.
    mutating func stepDirty() {
        guard !dirtySlots.isEmpty else { return }
        let rank = ranks
        dirtySlots.sort { rank[$0] < rank[$1] }
        swap(&scratch, &dirtySlots)
        motion.removeAll()
        for s in scratch {
            slots[s].dirty = false
            guard slots[s].live else { continue }
            let step: RecognizerStep
            if slots[s].core.state.isTerminal {
                step = .none  // decided: it only waits for its touches to go, no need to follow them
            } else {
                motion.integrate(&slots[s].core, at: now)
                if slots[s].systemEdge != nil && slots[s].core.state == .possible, let other = multiFingerGesture(beside: s) {
                    // Semantics §6: never while another finger of the device is in a multi-finger gesture.
                    debug(.failing(reason: "another touch of the device is in a multi-finger gesture (\(slots[other].qualifiedName))"), slot: s)
                    step = .fail
                } else {
                    step = slots[s].touchesChanged(at: now)
                }
            }
            apply(step, to: s)
            slots[s].core.removeLifted()
        }
        scratch.removeAll(keepingCapacity: true)
    }

    /// Fires deadlines up to `time` in time order (ties in canonical order), each at its own time.
    mutating func fireDeadlines(upTo time: Timestamp) {
        while true {
            var best: Int?
            for m in arena.engaged {
                let s = m.rawValue
                guard let d = slots[s].core.deadline, d <= time else { continue }
                if let b = best, let bd = slots[b].core.deadline,
                   bd < d || (bd == d && slots[b].rank < slots[s].rank) { continue }
                best = s
            }
            guard let s = best, let d = slots[s].core.deadline else { break }
            now = d
            slots[s].core.deadline = nil
            let step = slots[s].deadlinePassed(at: d)
            apply(step, to: s)
            settle()
        }
        if now < time { now = time }
    }

    /// After each frame or deadline: raw deliveries that can be decided now, then resets.
    mutating func settle() {
        flushRawTouches()
        var i = 0
        while i < arena.engaged.count {
            let m = arena.engaged[i]
            let s = m.rawValue
            if slots[s].live && slots[s].core.state == .possible && slots[s].core.downCount == 0 && slots[s].core.deadline == nil {
                // Nothing can ever decide it now; it would hang everything waiting for it.
                debug(.bug("possible with no touches and no deadline"), slot: s)
                failUndelivered(s)
            }
            if !slots[s].live || (slots[s].core.state.isTerminal && slots[s].core.downCount == 0 && arena.delivery(of: m) != .withheld) {
                reset(s)
                arena.leave(at: i)
            } else {
                i += 1
            }
        }
    }

    mutating func reset(_ s: Int) {
        arena.reset(ArenaMember(rawValue: s))
        carryOutArenaActions()
        slots[s].core.reset()
        following[s] = slots[s].live
        slots[s].machine = RecognizerMachine(slots[s].config.kind, context: slots[s].context)
        slots[s].deferredBy = nil
        slots[s].secondSwipe = false
    }

    // MARK: Output

    mutating func debug(_ kind: DebugRecord.Kind, slot: Int? = nil, touch: TouchID? = nil, interaction: Int? = nil) {
        guard recordsDebug else { return }
        let name = slot.map { slots[$0].qualifiedName }
        let i = interaction ?? slot.map { slots[$0].interaction }
        out.append(.debug(DebugRecord(time: now, interaction: i, touch: touch, recognizer: name, kind: kind)))
    }

    mutating func emitGesture(_ s: Int, _ state: GestureState) {
        let m = slots[s].machine.measurement(slots[s].core)
        out.append(.gesture(GestureEvent(
            time: now, device: m.device, surface: slots[s].surface, owner: slots[s].owner, recognizer: slots[s].config.name,
            kind: slots[s].kind, state: state, touches: m.touches, touchType: m.touchType, location: m.location,
            taps: m.taps, direction: m.direction, translation: m.translation, velocity: m.velocity, scale: m.scale,
            scaleVelocity: m.scaleVelocity, rotation: m.rotation, rotationVelocity: m.rotationVelocity, edge: m.edge,
            purpose: m.purpose, isSystem: slots[s].isSystemOwned)))
    }

    mutating func emitMirror(_ record: TouchRecord, phase: TouchPhase) {
        let touch = phase == .began ? record.first : record.last
        out.append(.mirror(MirrorTouchEvent(time: now, phase: phase, touch: touch)))
    }

    mutating func emitRaw(_ record: TouchRecord, phase: TouchPhase) {
        guard let surface = record.surface else { return }
        let touch = phase == .began ? record.first : record.last
        out.append(.touch(RawTouchEvent(time: now, surface: surface, owner: record.owner, phase: phase, touch: touch)))
    }
}

/// Why a recognizer does not take a touch offered to it (semantics sections 2.2 to 2.4).
/// Text is made only when the engine explains itself (`recordsDebug`).
enum Refusal: Equatable, Sendable {
    case disabled
    /// A system edge swipe of another screen: not worth a debug record.
    case otherScreen
    case touchType(TouchType)
    case outsideRegion
    /// `requiresExclusiveTouchType` while it tracks touches of another type.
    case trackingOtherType(TouchType)
    case alreadyDecided(RecognizerState)
    /// The recognizer's own rule (touch count, tool): not worth a debug record.
    case notAccepted

    /// The debug record's reason, or nil for refusals not worth one.
    var reason: String? {
        switch self {
        case .disabled: return "disabled"
        case .otherScreen, .notAccepted: return nil
        case .touchType(let t): return "touch type \(t.rawValue) not allowed"
        case .outsideRegion: return "outside its region"
        case .trackingOtherType(let t): return "tracking \(t.rawValue) touches (requiresExclusiveTouchType)"
        case .alreadyDecided(let state): return "already \(state.rawValue) in this interaction"
        }
    }
}
