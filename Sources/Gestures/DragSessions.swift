// SPDX-License-Identifier: MIT
import TouchCore

/// Drag sessions across clients (semantics §12): the state machine that opens
/// a session when a source's `drag` recognizer begins, tells the drop target
/// under the session's touch that it entered, moved and exited, hands the
/// items' data to the target at the lift, and tells every party the end once.
///
/// Pure, like the engine it follows: it reads the engine's outputs (the drag's
/// began, changed, ended and cancelled; taps on surfaces that add items) and
/// the clients' answers, with the time they come with, and returns its next
/// deadline (a source or an adding client that has not answered). The session
/// follows the drag recognizer, so whatever ends the drag (a lift, a system
/// gesture's claim, an unplug, the surface going away) ends the session.
/// See docs/state-machines/drag-session.md.
package struct DragSessions: Sendable {
    /// How long a source or an adding client has to answer, in microseconds:
    /// the hold of the drag already took half a second, and a client on the
    /// same machine answers in well under a millisecond.
    package static let answerTimeoutMicroseconds: Int64 = 250_000
    /// Items a session holds at most.
    package static let maxItems = 64
    /// Representations an item has at most.
    package static let maxRepresentations = 8
    /// Bytes of data (UTF-8) a session holds at most, all items together. A
    /// `perform` carrying them stays inside a client's outgoing queue (1 MiB)
    /// even if every byte needed a six-byte JSON escape.
    package static let maxDataBytes = 131_072

    struct Session: Sendable {
        var id: Int
        var owner: String
        var surface: SurfaceID
        var recognizer: String
        var screen: Int
        var location: Point
        /// The pending request for the source's items, until they come.
        var awaiting: Int?
        var items: [DragItem] = []
        var dataBytes = 0
        /// Every type of the items, in order of first appearance.
        var types: [String] = []
        var target: (surface: SurfaceID, owner: String)?
        var proposal = DropOperation.cancel
        /// Clients that added items (told the end).
        var adders: [String] = []
    }

    struct Request: Sendable {
        var id: Int
        var session: Int
        var owner: String
        var surface: SurfaceID
        var deadline: Timestamp
        var adding: Bool
        /// An adding request's tap, held back from its client until the answer:
        /// delivered as a tap if no item comes, consumed if items join.
        var heldTap: GestureEvent?
    }

    var roles: [SurfaceID: DragRoles] = [:]
    /// The owner of each surface with roles.
    var roleOwners: [SurfaceID: String] = [:]
    var sessions: [Session] = []
    var requests: [Request] = []
    var nextSession = 1
    var nextRequest = 1
    /// The latest time seen (an output's, a deadline's, an answer's).
    var now = Timestamp.zero

    /// The earliest time at which ``advance(to:into:)`` would do something.
    package private(set) var nextDeadline: Timestamp?

    /// Positions, in the outputs the last ``observe(_:engine:into:)`` read, of
    /// taps held back for an answer (semantics §12.5): the caller leaves them
    /// out of what it delivers.
    package private(set) var heldOutputs: [Int] = []
    /// Held taps whose answer brought no item (none, no answer in time, or
    /// the session ended first): they go on as taps, late. The caller
    /// delivers them and calls ``clearReleasedTaps()``.
    package private(set) var releasedTaps: [GestureEvent] = []

    /// Decisions since the caller last cleared them (``clearRecords()``), for
    /// explanations and views; the touch's moves over a target make none.
    package private(set) var records: [DragSessionRecord] = []

    /// Forgets the records once read.
    package mutating func clearRecords() {
        if !records.isEmpty { records.removeAll(keepingCapacity: true) }
    }

    mutating func record(_ s: Session, _ kind: DragSessionRecord.Kind, at time: Timestamp) {
        now = max(now, time)
        records.append(DragSessionRecord(time: time, session: s.id, source: s.owner, sourceSurface: s.surface, screen: s.screen, location: s.location,
                                         items: s.items.count, types: s.types, kind: kind))
    }

    /// Forgets the released taps once delivered.
    package mutating func clearReleasedTaps() { releasedTaps.removeAll(keepingCapacity: true) }

    /// Taps held back for an answer now.
    package var pendingTaps: Int { requests.reduce(0) { $0 + ($1.heldTap == nil ? 0 : 1) } }

    /// Creates an empty table.
    package init() {}

    /// True when no session is open and no surface plays a part: the engine's
    /// outputs need not be looked at.
    package var isIdle: Bool { sessions.isEmpty && roles.isEmpty }

    /// The sessions open, for inspection (the live view, tests).
    package var openSessions: [DragSessionSnapshot] {
        sessions.map {
            DragSessionSnapshot(id: $0.id, owner: $0.owner, surface: $0.surface, location: $0.location,
                                isActive: $0.awaiting == nil, items: $0.items.count, types: $0.types,
                                target: $0.target?.surface, proposal: $0.proposal)
        }
    }

    // MARK: Roles

    /// Sets what a surface does in drag sessions (empty roles remove it). A
    /// target that no longer accepts the items is left at the next move.
    package mutating func setRoles(_ r: DragRoles, of surface: SurfaceID, owner: String) {
        roles[surface] = r.isEmpty ? nil : r
        roleOwners[surface] = r.isEmpty ? nil : owner
    }

    /// The roles of a surface.
    package func roles(of surface: SurfaceID) -> DragRoles { roles[surface] ?? DragRoles() }

    /// A surface went away: it plays no part any more, and a session over it
    /// has no target (its client removed it, and is told nothing more of it).
    package mutating func surfaceRemoved(_ id: SurfaceID) {
        roles[id] = nil
        roleOwners[id] = nil
        // A tap held for an answer on it is no tap of a surface that exists any more.
        for i in requests.indices where requests[i].surface == id { requests[i].heldTap = nil }
        for i in sessions.indices where sessions[i].target?.surface == id {
            sessions[i].target = nil
            sessions[i].proposal = .cancel
        }
    }

    /// A client went away (call before its surfaces are removed from the
    /// engine): its sessions end (`source-gone`) for the other parties, it is
    /// no target any more, and its pending requests are forgotten.
    package mutating func ownerGone(_ owner: String, at time: Timestamp, into out: inout [DragSessionEvent]) {
        for (id, o) in roleOwners where o == owner {
            roles[id] = nil
            roleOwners[id] = nil
        }
        var i = 0
        while i < sessions.count {
            if sessions[i].owner == owner {
                finish(at: i, reason: .sourceGone, time: time, into: &out)
                continue
            }
            if sessions[i].target?.owner == owner {
                sessions[i].target = nil
                sessions[i].proposal = .cancel
            }
            sessions[i].adders.removeAll { $0 == owner }
            i += 1
        }
        requests.removeAll { $0.owner == owner }
        nextDeadline = earliestDeadline()
    }

    // MARK: The engine's outputs

    /// Follows what the engine produced (a frame's, a deadline's, a surface
    /// change's outputs), in order.
    package mutating func observe(_ outputs: [EngineOutput], engine: borrowing Engine, into out: inout [DragSessionEvent]) {
        if !heldOutputs.isEmpty { heldOutputs.removeAll(keepingCapacity: true) }
        guard !isIdle else { return }
        for (n, o) in outputs.enumerated() {
            guard case .gesture(let g) = o, let surface = g.surface else { continue }
            switch g.kind {
            case .drag: dragged(g, surface: surface, engine: engine, into: &out)
            case .tap where g.state == .recognized:
                if tapped(g, surface: surface, engine: engine, into: &out) { heldOutputs.append(n) }
            default: break
            }
        }
        nextDeadline = earliestDeadline()
    }

    mutating func dragged(_ g: GestureEvent, surface: SurfaceID, engine: borrowing Engine, into out: inout [DragSessionEvent]) {
        let existing = sessions.firstIndex { $0.surface == surface && $0.recognizer == g.recognizer }
        if g.time > now { now = g.time }
        switch g.state {
        case .began:
            guard existing == nil, roles[surface]?.offersItems == true, let screen = engine.screen(ofSurface: surface) else { return }
            let request = Request(id: nextRequest, session: nextSession, owner: g.owner, surface: surface,
                                  deadline: Timestamp(microseconds: g.time.microseconds + Self.answerTimeoutMicroseconds), adding: false)
            sessions.append(Session(id: nextSession, owner: g.owner, surface: surface, recognizer: g.recognizer, screen: screen,
                                    location: g.location, awaiting: request.id))
            record(sessions[sessions.count - 1], .opened(request: request.id), at: g.time)
            requests.append(request)
            nextSession += 1
            nextRequest += 1
            out.append(DragSessionEvent(time: g.time, session: request.session, owner: g.owner, surface: surface,
                                        location: g.location, kind: .itemsRequested(request: request.id)))
        case .changed:
            guard let i = existing else { return }
            sessions[i].location = g.location
            if sessions[i].awaiting == nil { retarget(i, time: g.time, engine: engine, into: &out) }
        case .ended:
            guard let i = existing else { return }
            sessions[i].location = g.location
            if sessions[i].awaiting == nil { retarget(i, time: g.time, engine: engine, into: &out) }
            finish(at: i, reason: .lifted, time: g.time, into: &out)
        case .cancelled:
            guard let i = existing else { return }
            finish(at: i, reason: .touchCancelled, time: g.time, into: &out)
        case .recognized:
            break
        }
    }

    /// A tap on a surface that adds items asks its owner, for the latest
    /// active session on the same screen (UIKit's tap on a draggable view
    /// while a drag is in progress). True when the tap is held for the answer.
    mutating func tapped(_ g: GestureEvent, surface: SurfaceID, engine: borrowing Engine, into out: inout [DragSessionEvent]) -> Bool {
        guard roles[surface]?.addsItems == true, let screen = engine.screen(ofSurface: surface),
              let s = sessions.lastIndex(where: { $0.awaiting == nil && $0.screen == screen }) else { return false }
        let request = Request(id: nextRequest, session: sessions[s].id, owner: g.owner, surface: surface,
                              deadline: Timestamp(microseconds: g.time.microseconds + Self.answerTimeoutMicroseconds), adding: true,
                              heldTap: g)
        nextRequest += 1
        requests.append(request)
        record(sessions[s], .addAsked(owner: g.owner, surface: surface, request: request.id), at: g.time)
        out.append(DragSessionEvent(time: g.time, session: request.session, owner: g.owner, surface: surface,
                                    location: g.location, kind: .addRequested(request: request.id)))
        return true
    }

    /// An adding request is over without items: its tap goes on as a tap.
    mutating func release(_ r: Request, of s: Session, because reason: String, at time: Timestamp) {
        guard let tap = r.heldTap else { return }
        releasedTaps.append(tap)
        record(s, .tapReleased(owner: r.owner, surface: r.surface, reason: reason), at: time)
    }

    /// Finds the target under the touch and tells the old and the new one.
    mutating func retarget(_ i: Int, time: Timestamp, engine: borrowing Engine, into out: inout [DragSessionEvent]) {
        let location = sessions[i].location
        let types = sessions[i].types
        let hit = engine.firstSurface(at: location, screen: sessions[i].screen) { id in
            roles[id]?.accepts(anyOf: types) ?? false
        }
        let id = sessions[i].id
        if let old = sessions[i].target, old.surface != hit?.surface {
            record(sessions[i], .exited(owner: old.owner, surface: old.surface), at: time)
            out.append(DragSessionEvent(time: time, session: id, owner: old.owner, surface: old.surface, location: location, kind: .exited))
            sessions[i].target = nil
            sessions[i].proposal = .cancel
        }
        guard let new = hit else { return }
        if sessions[i].target == nil {
            sessions[i].target = new
            record(sessions[i], .entered(owner: new.owner, surface: new.surface), at: time)
            out.append(DragSessionEvent(time: time, session: id, owner: new.owner, surface: new.surface, location: location,
                                        kind: .entered(types: types, items: sessions[i].items.count)))
        } else {
            out.append(DragSessionEvent(time: time, session: id, owner: new.owner, surface: new.surface, location: location, kind: .moved))
        }
    }

    /// Ends session `i`: the data to the target if it takes them, then the end to every party once.
    mutating func finish(at i: Int, reason: DragEndReason, time: Timestamp, into out: inout [DragSessionEvent]) {
        let s = sessions.remove(at: i)
        for r in requests where r.session == s.id { release(r, of: s, because: "the session ended first", at: time) }
        requests.removeAll { $0.session == s.id }
        var outcome = DragOutcome.cancelled
        if reason == .lifted, let target = s.target, s.proposal == .copy || s.proposal == .move {
            outcome = s.proposal == .copy ? .copy : .move
            record(s, .dropped(owner: target.owner, surface: target.surface, operation: s.proposal), at: time)
            out.append(DragSessionEvent(time: time, session: s.id, owner: target.owner, surface: target.surface, location: s.location,
                                        kind: .perform(operation: s.proposal, items: s.items)))
        }
        record(s, .ended(outcome: outcome, reason: reason), at: time)
        var told: [String] = []
        func tell(_ owner: String, _ surface: SurfaceID?) {
            guard !told.contains(owner) else { return }
            told.append(owner)
            out.append(DragSessionEvent(time: time, session: s.id, owner: owner, surface: surface, location: nil,
                                        kind: .ended(outcome: outcome, reason: reason)))
        }
        if let target = s.target { tell(target.owner, target.surface) }
        tell(s.owner, s.surface)
        for a in s.adders { tell(a, nil) }
    }

    // MARK: Deadlines

    /// Requests not answered by `time` expire: a source's session ends
    /// (`timed-out`, the drag goes on without it); an adding tap adds nothing.
    package mutating func advance(to time: Timestamp, into out: inout [DragSessionEvent]) {
        guard let d = nextDeadline, d <= time else { return }
        while let r = requests.min(by: { $0.deadline < $1.deadline }), r.deadline <= time {
            requests.removeAll { $0.id == r.id }
            if !r.adding, let i = sessions.firstIndex(where: { $0.id == r.session }) {
                finish(at: i, reason: .timedOut, time: r.deadline, into: &out)
            } else if let s = sessions.first(where: { $0.id == r.session }) {
                release(r, of: s, because: "no answer in 250 ms", at: r.deadline)
            }
        }
        nextDeadline = earliestDeadline()
    }

    func earliestDeadline() -> Timestamp? {
        requests.min { $0.deadline < $1.deadline }?.deadline
    }

    // MARK: Clients' answers

    /// A client answers request `request` with items. For a source, no item
    /// ends the session (`no-items`: the drag goes on without it), items make
    /// it active and the target under the touch is found; for an adding
    /// client, the items join the session (none: nothing happens).
    ///
    /// - Throws: `unknown-request` when the client has no such pending
    ///   request; `limit-exceeded` when the session would hold too much
    ///   (nothing is added then); `bad-field` for an item without representations.
    package mutating func offerItems(
        _ items: [DragItem], request: Int, from owner: String, at time: Timestamp, engine: borrowing Engine,
        into out: inout [DragSessionEvent]
    ) throws(DragRequestError) {
        now = max(now, time)
        guard let r = requests.firstIndex(where: { $0.id == request && $0.owner == owner }),
              let i = sessions.firstIndex(where: { $0.id == requests[r].session }) else {
            throw DragRequestError(.unknownRequest, "request: no pending drag request \(request) for this client")
        }
        var bytes = sessions[i].dataBytes
        for (n, item) in items.enumerated() {
            guard !item.representations.isEmpty else { throw DragRequestError(.badField, "items[\(n)].representations: must not be empty") }
            guard item.representations.count <= Self.maxRepresentations else {
                throw DragRequestError(.limitExceeded, "items[\(n)].representations: more than \(Self.maxRepresentations)")
            }
            bytes += item.dataBytes
        }
        guard sessions[i].items.count + items.count <= Self.maxItems else {
            throw DragRequestError(.limitExceeded, "items: a session holds at most \(Self.maxItems) items")
        }
        guard bytes <= Self.maxDataBytes else {
            throw DragRequestError(.limitExceeded, "items: a session holds at most \(Self.maxDataBytes) bytes of data")
        }
        let adding = requests[r].adding
        let answered = requests.remove(at: r)
        defer { nextDeadline = earliestDeadline() }
        if !adding && items.isEmpty {
            finish(at: i, reason: .noItems, time: time, into: &out)
            return
        }
        guard !items.isEmpty else {
            release(answered, of: sessions[i], because: "no item", at: time)
            return
        }
        sessions[i].items += items
        sessions[i].dataBytes = bytes
        for item in items {
            for rep in item.representations where !sessions[i].types.contains(rep.type) { sessions[i].types.append(rep.type) }
        }
        if adding, owner != sessions[i].owner, !sessions[i].adders.contains(owner) { sessions[i].adders.append(owner) }
        if !adding {
            sessions[i].awaiting = nil
            record(sessions[i], .itemsAnswered, at: time)
        } else {
            record(sessions[i], .itemsAdded(owner: owner, count: items.count), at: time)
        }
        if adding, let target = sessions[i].target {
            // The target is told the new count and types as if entered anew; it may propose again.
            record(sessions[i], .exited(owner: target.owner, surface: target.surface), at: time)
            out.append(DragSessionEvent(time: time, session: sessions[i].id, owner: target.owner, surface: target.surface,
                                        location: sessions[i].location, kind: .exited))
            sessions[i].target = nil
            sessions[i].proposal = .cancel
        }
        retarget(i, time: time, engine: engine, into: &out)
    }

    /// The target under a session's touch proposes an operation; it may change it while the touch is over it.
    ///
    /// - Throws: `unknown-session` unless `owner` owns the surface the session is over.
    /// `time`: when the proposal came (for the record); by default the latest time the sessions saw.
    package mutating func propose(_ operation: DropOperation, session: Int, from owner: String, at time: Timestamp? = nil) throws(DragRequestError) {
        let time = time ?? now
        guard let i = sessions.firstIndex(where: { $0.id == session && $0.target?.owner == owner }) else {
            throw DragRequestError(.unknownSession, "session: no drag session \(session) over this client's surfaces")
        }
        if sessions[i].proposal != operation, let target = sessions[i].target {
            record(sessions[i], .proposal(owner: target.owner, surface: target.surface, operation: operation), at: time)
        }
        sessions[i].proposal = operation
    }
}

/// A session as the live view and tests see it.
package struct DragSessionSnapshot: Hashable, Sendable {
    /// The session's number.
    package var id: Int
    /// The source's owner.
    package var owner: String
    /// The source surface.
    package var surface: SurfaceID
    /// The touch, in screen pixels.
    package var location: Point
    /// False while the source has not answered.
    package var isActive: Bool
    /// How many items.
    package var items: Int
    /// Their types.
    package var types: [String]
    /// The target under the touch.
    package var target: SurfaceID?
    /// Its last proposal.
    package var proposal: DropOperation
}
