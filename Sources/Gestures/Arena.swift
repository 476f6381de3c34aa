// SPDX-License-Identifier: MIT
import TouchCore

/// A recognizer as the arena knows it: the engine's index of its slot.
struct ArenaMember: Hashable, Sendable {
    var rawValue: Int
}

/// How a member's actions reach clients in the current interaction (semantics section 4).
enum Delivery: Sendable, Equatable {
    /// Nothing sent yet (still possible, or failed before sending anything).
    case none
    /// It began or recognized, but a member it waits for has not failed yet.
    case withheld
    /// Its actions are being sent.
    case delivering
}

/// What a member declares when the recognizers are configured: its relations to the
/// other members, resolved, and the properties the arena acts on. Nothing here names a kind.
struct ArenaDeclaration: Sendable, Equatable {
    /// Declarative `gestureRecognizerShouldBegin`: false fails it when it would begin.
    var shouldBegin = true
    /// When it begins or recognizes, its touches are cancelled for every other member and the raw streams.
    var claimsTouchesOnBegin = false
    /// Members that must fail before its actions are delivered (`requiresFailureOf`).
    var requiresFailureOf: [ArenaMember] = []
    /// Members it waits for only while they are undecided, share its touches and are not watchers;
    /// dropped if one of them succeeds (long press and drag, app pans and system edge swipes).
    var waitsFor: [ArenaMember] = []
    var simultaneousWithAll = false
    var simultaneousWith: [ArenaMember] = []
    var preventsAll = true
    var prevents: [ArenaMember] = []
    var preventableByAll = true
    var preventableBy: [ArenaMember] = []
}

/// Why the arena cancels a member.
enum ArenaCancelReason: Sendable, Equatable {
    /// Its recognizer asked (`cancel` step).
    case gaveUp
    /// Its recognizer asked for a step its state does not allow (our bug).
    case impossibleStep
    /// A member that claims its touches took one of them.
    case claimed(by: ArenaMember)
    /// One of its touches was cancelled upstream (palm, device removed).
    case touchCancelled(TouchID)
    case disabled
    case removed
    case redeclared
}

/// An arbitration decision worth explaining (semantics section 8).
enum ArenaNote: Sendable, Equatable {
    case gated
    case excluded(by: ArenaMember)
    case dropped(by: ArenaMember)
    case waiting(on: ArenaMember)
    case simultaneous(with: ArenaMember)
    case released(by: ArenaMember)
    case cancelled(ArenaCancelReason)
    /// Our bug: a step its state does not allow.
    case impossibleStep(RecognizerStep, in: RecognizerState)
    /// Our bug: a withheld member released in a state with nothing to deliver.
    case releasedIn(RecognizerState)
}

/// What the engine carries out for the arena, in order.
enum ArenaAction: Sendable, Equatable {
    /// The member's state changed (the engine mirrors it in the recognizer and logs it).
    case transition(ArenaMember, from: RecognizerState, to: RecognizerState)
    /// Send the member's gesture event in this state.
    case deliver(ArenaMember, GestureState)
    /// The member's began or recognized was delivered: its raw-touch switches apply (section 5).
    case succeeded(ArenaMember)
    /// A watcher would have begun: the engine signals it instead (the edge hint); it fails next.
    case signal(ArenaMember)
    /// A claim took `touch` from the member: the engine stops feeding it that touch.
    case tookTouch(Int, from: ArenaMember)
    /// `touch` now belongs to `by` alone: cancelled for every other member and for the raw stream.
    case claimed(touch: Int, by: ArenaMember)
    /// An explanation.
    case note(ArenaMember, ArenaNote)
}

/// Arbitration (semantics section 4) as a state machine: members and relations in,
/// actions out. It decides every state change of a member and reconciles the others:
/// exclusion, simultaneous recognition, canPrevent/canBePrevented, failure requirements
/// with withheld actions, waits, and claims (section 7). It knows the touch keys each
/// member took, never touches themselves, and no recognizer kind.
/// Transition table: docs/state-machines/arena.md.
struct GestureArena: Sendable {
    struct Member: Sendable {
        var live = false
        /// Position in the canonical order (deeper surfaces first, then owner, surface, name).
        var rank = Int.max
        var declaration = ArenaDeclaration()
        var state = RecognizerState.possible
        var delivery = Delivery.none
        /// It began or recognized, and that was delivered, in this interaction.
        var succeeded = false
        var engaged = false
        /// Only watches: it signals instead of beginning, and nobody waits for it.
        var watching = false
        /// Touch keys taken since it last reset (also the lifted ones).
        var seen: [Int] = []
        /// Touch keys taken that are still down and were not claimed away from it.
        var held: [Int] = []
    }

    private var members: [Member] = []
    /// Members in the current interactions, in the order they engaged.
    private(set) var engaged: [ArenaMember] = []
    /// Live members in canonical order.
    private var canonical: [ArenaMember] = []
    /// What the last inputs asked for; the engine carries them out, then calls ``clearActions()``.
    private(set) var actions: [ArenaAction] = []

    init() {
        engaged.reserveCapacity(64)
        actions.reserveCapacity(64)
    }

    // MARK: Configuration

    /// A new member (or a retired one's index given to a new recognizer), possible and idle.
    mutating func admit(_ m: ArenaMember) {
        var member = Member()
        member.live = true
        member.seen.reserveCapacity(10)
        member.held.reserveCapacity(10)
        if m.rawValue < members.count {
            members[m.rawValue] = member
        } else {
            precondition(m.rawValue == members.count, "members are admitted in index order")
            members.append(member)
        }
    }

    /// Sets a member's relations and properties; its part in the current interaction stays.
    mutating func declare(_ m: ArenaMember, _ declaration: ArenaDeclaration) {
        members[m.rawValue].declaration = declaration
    }

    /// The live members, in canonical order.
    mutating func setCanonicalOrder(_ order: [ArenaMember]) {
        canonical = order
        for (rank, m) in order.enumerated() { members[m.rawValue].rank = rank }
    }

    /// Takes a member out of service, cancelling it first when it is engaged.
    mutating func retire(_ m: ArenaMember, reason: ArenaCancelReason) {
        if members[m.rawValue].engaged {
            cancel(m, reason: reason)
            if let i = engaged.firstIndex(of: m) { engaged.remove(at: i) }
        }
        members[m.rawValue].live = false
        members[m.rawValue].engaged = false
    }

    // MARK: Touches

    /// Joins the current interaction; true when it was not engaged yet.
    mutating func engage(_ m: ArenaMember) -> Bool {
        guard !members[m.rawValue].engaged else { return false }
        members[m.rawValue].engaged = true
        engaged.append(m)
        return true
    }

    /// The member took touch `key`.
    mutating func take(_ key: Int, by m: ArenaMember) {
        members[m.rawValue].seen.append(key)
        members[m.rawValue].held.append(key)
    }

    /// Touch `key` lifted or was cancelled: nobody can claim it from `m` any more.
    mutating func touchLeft(_ key: Int, member m: ArenaMember) {
        if let i = members[m.rawValue].held.firstIndex(of: key) { members[m.rawValue].held.remove(at: i) }
    }

    /// For this interaction the member only watches (a deferred system edge swipe).
    mutating func watch(_ m: ArenaMember) { members[m.rawValue].watching = true }

    // MARK: Steps

    /// Carries out what the member's recognizer asked for.
    mutating func step(_ step: RecognizerStep, of m: ArenaMember) {
        let state = members[m.rawValue].state
        switch step {
        case .none:
            return
        case .fail:
            switch state {
            case .possible: fail(m)
            case .began, .changed, .recognized, .ended, .cancelled, .failed: misstep(m, step)
            }
        case .begin, .recognize:
            switch state {
            case .possible:
                if members[m.rawValue].watching {
                    actions.append(.signal(m))
                    fail(m)
                } else {
                    begin(m, discrete: step == .recognize)
                }
            case .began, .changed, .recognized, .ended, .cancelled, .failed: misstep(m, step)
            }
        case .change:
            switch state {
            case .began, .changed:
                transition(m, to: .changed)
                if members[m.rawValue].delivery == .delivering { actions.append(.deliver(m, .changed)) }
            case .possible, .recognized, .ended, .cancelled, .failed: misstep(m, step)
            }
        case .end:
            switch state {
            case .began, .changed:
                transition(m, to: .ended)
                if members[m.rawValue].delivery == .delivering { actions.append(.deliver(m, .ended)) }
            case .possible, .recognized, .ended, .cancelled, .failed: misstep(m, step)
            }
        case .cancel:
            cancel(m, reason: .gaveUp)
        }
    }

    /// Cancels a member (touch cancelled upstream or claimed, recognizer disabled or removed):
    /// an active one goes to `cancelled`, an undecided one to `failed`.
    mutating func cancel(_ m: ArenaMember, reason: ArenaCancelReason) {
        let state = members[m.rawValue].state
        switch state {
        case .possible:
            note(m, .cancelled(reason))
            fail(m)
        case .began, .changed:
            note(m, .cancelled(reason))
            if members[m.rawValue].delivery == .delivering {
                transition(m, to: .cancelled)
                actions.append(.deliver(m, .cancelled))
            } else {
                fail(m, as: .cancelled)
            }
        case .recognized, .ended:
            guard members[m.rawValue].delivery == .withheld else { return }
            note(m, .cancelled(reason))
            fail(m)
        case .cancelled, .failed:
            return
        }
    }

    /// Fails a member that has delivered nothing (exclusion, a dropped withheld action, a member
    /// that can never decide); one that already delivered keeps its win.
    mutating func failUndelivered(_ m: ArenaMember) {
        switch members[m.rawValue].state {
        case .possible, .began, .changed, .recognized, .ended:
            guard members[m.rawValue].delivery != .delivering else { return }
            fail(m)
        case .cancelled, .failed:
            return
        }
    }

    /// Back to possible, out of the interaction's bookkeeping (the engine removes it from ``engaged``).
    mutating func reset(_ m: ArenaMember) {
        if members[m.rawValue].live { transition(m, to: .possible) }
        members[m.rawValue].engaged = false
        members[m.rawValue].delivery = .none
        members[m.rawValue].succeeded = false
        members[m.rawValue].watching = false
        members[m.rawValue].seen.removeAll(keepingCapacity: true)
        members[m.rawValue].held.removeAll(keepingCapacity: true)
    }

    /// Removes the member at `index` of ``engaged`` (after ``reset(_:)``, or once retired).
    mutating func leave(at index: Int) { engaged.remove(at: index) }

    /// Forgets the actions carried out.
    mutating func clearActions() { actions.removeAll(keepingCapacity: true) }

    // MARK: Queries

    func state(of m: ArenaMember) -> RecognizerState { members[m.rawValue].state }
    func delivery(of m: ArenaMember) -> Delivery { members[m.rawValue].delivery }
    func isEngaged(_ m: ArenaMember) -> Bool { members[m.rawValue].engaged }
    func isLive(_ m: ArenaMember) -> Bool { members[m.rawValue].live }
    /// The touch keys it took since it last reset, in order.
    func seen(by m: ArenaMember) -> [Int] { members[m.rawValue].seen }
    func hasSeen(_ key: Int, by m: ArenaMember) -> Bool { members[m.rawValue].seen.contains(key) }
    func declaration(of m: ArenaMember) -> ArenaDeclaration { members[m.rawValue].declaration }

    /// Still undecided as far as the others can tell: possible, or succeeded but withheld.
    func isUndecided(_ m: ArenaMember) -> Bool {
        switch members[m.rawValue].state {
        case .possible: return true
        case .began, .changed, .recognized, .ended: return members[m.rawValue].delivery == .withheld
        case .cancelled, .failed: return false
        }
    }

    // MARK: Decisions

    /// The one place a member's state changes.
    private mutating func transition(_ m: ArenaMember, to: RecognizerState) {
        let from = members[m.rawValue].state
        guard from != to else { return }
        members[m.rawValue].state = to
        actions.append(.transition(m, from: from, to: to))
    }

    private mutating func note(_ m: ArenaMember, _ note: ArenaNote) { actions.append(.note(m, note)) }

    /// The one fail path: nothing more is delivered for `m` in this interaction, and every member
    /// that waited for it is released if nothing else holds it back.
    private mutating func fail(_ m: ArenaMember, as outcome: RecognizerState = .failed) {
        members[m.rawValue].delivery = .none
        transition(m, to: outcome)
        releaseUnblocked(by: m)
    }

    /// A (state, step) pair the machines should never produce: our bug; the member is cancelled safely.
    private mutating func misstep(_ m: ArenaMember, _ step: RecognizerStep) {
        note(m, .impossibleStep(step, in: members[m.rawValue].state))
        cancel(m, reason: .impossibleStep)
    }

    /// possible -> began / recognized, if the others and the gate allow it.
    private mutating func begin(_ m: ArenaMember, discrete: Bool) {
        if !members[m.rawValue].declaration.shouldBegin {
            note(m, .gated)
            fail(m)
            return
        }
        if let by = activeExcluder(of: m) {
            note(m, .excluded(by: by))
            fail(m)
            return
        }
        if let winner = succeededRequirement(of: m) {
            note(m, .dropped(by: winner))
            fail(m)
            return
        }
        transition(m, to: discrete ? .recognized : .began)
        if let blocker = blocker(of: m) {
            members[m.rawValue].delivery = .withheld
            note(m, .waiting(on: blocker))
            // Withholding `m` may close a cycle of requirements; the member the cycle lets go must not wait forever.
            releaseUnblocked(by: m)
            return
        }
        members[m.rawValue].delivery = .delivering
        members[m.rawValue].succeeded = true
        actions.append(.deliver(m, discrete ? .recognized : .began))
        afterSuccess(of: m)
    }

    /// An active member sharing touches with `m` that prevents it from beginning (simultaneous
    /// pairs are noted each time the question is asked).
    private mutating func activeExcluder(of m: ArenaMember) -> ArenaMember? {
        var excluder: ArenaMember?
        for o in engaged where o != m && members[o.rawValue].live && isActivelyDelivering(o) && shares(o, m) {
            if simultaneous(o, m) {
                note(m, .simultaneous(with: o))
            } else if prevents(o, m) {
                if let e = excluder, members[e.rawValue].rank <= members[o.rawValue].rank { continue }
                excluder = o
            }
        }
        return excluder
    }

    /// A member `m` must wait for: an engaged, undecided one it requires to fail, or one it waits for
    /// that is undecided, not a watcher, and shares its touches.
    func blocker(of m: ArenaMember) -> ArenaMember? {
        for r in members[m.rawValue].declaration.requiresFailureOf
        where members[r.rawValue].live && members[r.rawValue].engaged && isUndecided(r) {
            // A cycle of requirements (A waits for B waits for A) would hang both: the first in
            // canonical order does not wait for a withheld member that waits for it.
            if members[r.rawValue].delivery == .withheld && members[m.rawValue].rank < members[r.rawValue].rank
                && waits(r, for: m, depth: 0) { continue }
            return r
        }
        guard !members[m.rawValue].declaration.waitsFor.isEmpty else { return nil }
        for d in engaged where members[d.rawValue].live && isUndecided(d) && waitsOn(m, d) { return d }
        return nil
    }

    /// True when `w` declared it waits for `d` and `d` is in a position to hold it: it arbitrates
    /// (not a watcher) and shares a touch with `w`.
    private func waitsOn(_ w: ArenaMember, _ d: ArenaMember) -> Bool {
        members[w.rawValue].declaration.waitsFor.contains(d) && !members[d.rawValue].watching && shares(d, w)
    }

    /// True when withheld member `a` waits, directly or through other withheld members, for `b`.
    private func waits(_ a: ArenaMember, for b: ArenaMember, depth: Int) -> Bool {
        guard depth < 8 else { return false }
        for r in members[a.rawValue].declaration.requiresFailureOf where members[r.rawValue].live && members[r.rawValue].engaged {
            if r == b { return true }
            if members[r.rawValue].delivery == .withheld && waits(r, for: b, depth: depth + 1) { return true }
        }
        return false
    }

    /// A required member that already succeeded in this interaction: `m` never sends anything.
    private func succeededRequirement(of m: ArenaMember) -> ArenaMember? {
        for r in members[m.rawValue].declaration.requiresFailureOf
        where members[r.rawValue].live && members[r.rawValue].engaged && members[r.rawValue].succeeded { return r }
        return nil
    }

    /// `s` began or recognized and that was delivered: dropped dependents, exclusion, raw stream, claim.
    private mutating func afterSuccess(of s: ArenaMember) {
        // Members waiting for `s` to fail never send anything.
        for o in engaged where o != s && members[o.rawValue].live && members[o.rawValue].delivery == .withheld {
            if members[o.rawValue].declaration.requiresFailureOf.contains(s) || waitsOn(o, s) {
                note(o, .dropped(by: s))
                failUndelivered(o)
            }
        }
        // Exclusion: every other undecided member sharing a touch fails, unless simultaneous or not preventable.
        for o in engaged where o != s && members[o.rawValue].live && isUndecided(o) && shares(o, s) {
            if simultaneous(s, o) {
                note(o, .simultaneous(with: s))
            } else if prevents(s, o) {
                note(o, .excluded(by: s))
                failUndelivered(o)
            }
        }
        actions.append(.succeeded(s))
        if members[s.rawValue].declaration.claimsTouchesOnBegin { claimTouches(for: s) }
    }

    /// Section 7: the touches `s` still holds are cancelled for every other member (which loses
    /// them) and for the raw stream.
    private mutating func claimTouches(for s: ArenaMember) {
        let claimed = members[s.rawValue].held
        for key in claimed {
            for o in canonical where o != s && members[o.rawValue].live && members[o.rawValue].held.contains(key) {
                cancel(o, reason: .claimed(by: s))
                if let i = members[o.rawValue].held.firstIndex(of: key) { members[o.rawValue].held.remove(at: i) }
                actions.append(.tookTouch(key, from: o))
            }
            actions.append(.claimed(touch: key, by: s))
        }
    }

    /// Releases every withheld member that no longer has a blocker, crediting `s`.
    private mutating func releaseUnblocked(by s: ArenaMember) {
        var i = 0
        while i < engaged.count {
            let o = engaged[i]
            i += 1
            guard o != s, members[o.rawValue].live, members[o.rawValue].delivery == .withheld, blocker(of: o) == nil else { continue }
            release(o, by: s)
        }
    }

    /// Delivers a withheld member's pending action, as `began` (or `recognized`) even if it is
    /// already in `changed`, followed by `ended` if it already ended.
    private mutating func release(_ o: ArenaMember, by s: ArenaMember) {
        note(o, .released(by: s))
        if let by = activeExcluder(of: o) {
            note(o, .excluded(by: by))
            failUndelivered(o)
            return
        }
        if let winner = succeededRequirement(of: o) {
            note(o, .dropped(by: winner))
            failUndelivered(o)
            return
        }
        members[o.rawValue].delivery = .delivering
        members[o.rawValue].succeeded = true
        let state = members[o.rawValue].state
        switch state {
        case .recognized:
            actions.append(.deliver(o, .recognized))
        case .began, .changed:
            actions.append(.deliver(o, .began))
        case .ended:
            actions.append(.deliver(o, .began))
            actions.append(.deliver(o, .ended))
        case .possible, .cancelled, .failed:
            note(o, .releasedIn(state))
            return
        }
        afterSuccess(of: o)
    }

    /// Began and delivering (an active continuous gesture the others must respect).
    private func isActivelyDelivering(_ m: ArenaMember) -> Bool {
        members[m.rawValue].delivery == .delivering && members[m.rawValue].state.isActive
    }

    /// The two members took a common touch in this interaction.
    private func shares(_ a: ArenaMember, _ b: ArenaMember) -> Bool {
        for k in members[a.rawValue].seen where members[b.rawValue].seen.contains(k) { return true }
        return false
    }

    /// Either side allowing is enough (semantics section 4).
    private func simultaneous(_ a: ArenaMember, _ b: ArenaMember) -> Bool {
        let x = members[a.rawValue].declaration, y = members[b.rawValue].declaration
        return x.simultaneousWithAll || x.simultaneousWith.contains(b) || y.simultaneousWithAll || y.simultaneousWith.contains(a)
    }

    /// A may prevent B and B may be prevented by A.
    private func prevents(_ a: ArenaMember, _ b: ArenaMember) -> Bool {
        let x = members[a.rawValue].declaration, y = members[b.rawValue].declaration
        return (x.preventsAll || x.prevents.contains(b)) && (y.preventableByAll || y.preventableBy.contains(a))
    }
}
