// SPDX-License-Identifier: MIT
import TouchCore

/// The engine's side of arbitration: it hands the arena its inputs and carries out the
/// actions the arena returns (state mirrored in the recognizers, events, raw-stream marks,
/// claims, the edge hint, explanations). Arena.swift decides; this file only does.
extension Engine {
    /// Carries out what a recognizer asked for.
    mutating func apply(_ step: RecognizerStep, to s: Int) {
        if step == .fail && recordsDebug && slots[s].core.state == .possible, let reason = slots[s].machine.failureReason {
            debug(.failing(reason: reason), slot: s)
        }
        arena.step(step, of: ArenaMember(rawValue: s))
        carryOutArenaActions()
    }

    /// Cancels a recognizer (touch cancelled upstream, recognizer disabled).
    mutating func cancel(_ s: Int, reason: ArenaCancelReason) {
        arena.cancel(ArenaMember(rawValue: s), reason: reason)
        carryOutArenaActions()
    }

    /// Fails a recognizer that delivered nothing.
    mutating func failUndelivered(_ s: Int) {
        arena.failUndelivered(ArenaMember(rawValue: s))
        carryOutArenaActions()
    }

    /// Carries out the arena's actions in the order it asked for them.
    mutating func carryOutArenaActions() {
        var i = 0
        while i < arena.actions.count {
            let action = arena.actions[i]
            i += 1
            carryOut(action)
        }
        arena.clearActions()
    }

    private mutating func carryOut(_ action: ArenaAction) {
        switch action {
        case .transition(let m, let from, let to):
            let s = m.rawValue
            slots[s].core.state = to
            following[s] = slots[s].live && slots[s].core.followsMoves
            switch to {
            case .ended, .cancelled, .failed: slots[s].core.deadline = nil
            case .possible, .began, .changed, .recognized: break
            }
            debug(.transition(from: from, to: to), slot: s)
        case .deliver(let m, let state):
            emitGesture(m.rawValue, state)
        case .succeeded(let m):
            applyRawSwitches(of: m)
        case .signal(let m):
            showHint(m.rawValue)
        case .tookTouch(let key, let m):
            slots[m.rawValue].core.drop(key)
        case .claimed(let key, let m):
            guard let i = records.index(ofKey: key) else { return }
            records.items[i].slots.removeAll { $0 != m.rawValue }
            records.items[i].claimant = m.rawValue
            records.items[i].cancelRequested = true
            records.markPending(i)
        case .note(let m, let note):
            guard recordsDebug else { return }
            explain(note, slot: m.rawValue)
        }
    }

    /// Semantics section 5: what a recognizer that began or recognized does to the raw stream of its touches.
    private mutating func applyRawSwitches(of m: ArenaMember) {
        let s = m.rawValue
        let c = slots[s].config
        for k in arena.seen(by: m) {
            guard let i = records.index(ofKey: k) else { continue }
            if c.cancelsTouchesInView { records.items[i].cancelRequested = true }
            if c.delaysTouchesBegan && records.items[i].raw == .withholdingBegan { records.items[i].suppressRequested = true }
            if c.delaysTouchesEnded && !records.items[i].down { records.items[i].cancelRequested = true }
            records.markPending(i)
        }
        // The second swipe of a deferred edge used the window: the next swipe starts a new cycle.
        if slots[s].secondSwipe, let edge = slots[s].systemEdge, let screen = slots[s].screen {
            edgeWindows[edgeKey(edge, screen: screen)] = nil
        }
    }

    private mutating func explain(_ note: ArenaNote, slot s: Int) {
        switch note {
        case .gated: debug(.gated, slot: s)
        case .excluded(let by): debug(.excluded(by: slots[by.rawValue].qualifiedName), slot: s)
        case .dropped(let by): debug(.dropped(by: slots[by.rawValue].qualifiedName), slot: s)
        case .waiting(let on): debug(.waiting(on: slots[on.rawValue].qualifiedName), slot: s)
        case .simultaneous(let with): debug(.simultaneous(with: slots[with.rawValue].qualifiedName), slot: s)
        case .released(let by): debug(.released(by: slots[by.rawValue].qualifiedName), slot: s)
        case .cancelled(let reason): debug(.cancelled(reason: text(of: reason)), slot: s)
        case .impossibleStep(let step, let state): debug(.bug("step \(step) in state \(state.rawValue)"), slot: s)
        case .releasedIn(let state): debug(.bug("released in state \(state.rawValue)"), slot: s)
        }
    }

    private func text(of reason: ArenaCancelReason) -> String {
        switch reason {
        case .gaveUp: return "gave up"
        case .impossibleStep: return "impossible step"
        case .claimed(let by): return "touch taken by \(slots[by.rawValue].qualifiedName)"
        case .touchCancelled(let id): return "touch \(id) cancelled upstream"
        case .disabled: return "disabled"
        case .removed: return "removed"
        case .redeclared: return "redeclared"
        }
    }
}
