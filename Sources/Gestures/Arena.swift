import TouchCore

/// Arbitration (semantics section 4). Every state change of a recognizer goes through
/// here; the arena reconciles the others: exclusion, simultaneous recognition,
/// canPrevent/canBePrevented, failure requirements with withheld actions, and the
/// drag's claim on its touch (section 7). It works on members (slots) and the touch
/// keys they have seen, never on touches themselves.
/// Transition table: docs/state-machines/arena.md.
extension Engine {
    /// Carries out what a recognizer asked for.
    mutating func apply(_ step: RecognizerStep, to s: Int) {
        let state = slots[s].core.state
        switch step {
        case .none:
            return
        case .fail:
            switch state {
            case .possible:
                if recordsDebug, let reason = slots[s].machine.failureReason { debug(.failing(reason: reason), slot: s) }
                setState(s, .failed)
                slots[s].core.deadline = nil
                afterFailure(of: s)
            case .began, .changed, .recognized, .ended, .cancelled, .failed:
                misstep(s, step)
            }
        case .begin, .recognize:
            switch state {
            case .possible:
                if slots[s].deferredBy != nil { showHint(s) } else { begin(s, discrete: step == .recognize) }
            case .began, .changed, .recognized, .ended, .cancelled, .failed: misstep(s, step)
            }
        case .change:
            switch state {
            case .began, .changed:
                setState(s, .changed)
                if slots[s].delivery == .delivering { emitGesture(s, .changed) }
            case .possible, .recognized, .ended, .cancelled, .failed:
                misstep(s, step)
            }
        case .end:
            switch state {
            case .began, .changed:
                setState(s, .ended)
                slots[s].core.deadline = nil
                if slots[s].delivery == .delivering { emitGesture(s, .ended) }
            case .possible, .recognized, .ended, .cancelled, .failed:
                misstep(s, step)
            }
        case .cancel:
            forceCancel(s, reason: "gave up")
        }
    }

    /// A (state, step) pair the machines should never produce: logged as our bug; the recognizer fails safely.
    mutating func misstep(_ s: Int, _ step: RecognizerStep) {
        debug(.bug("step \(step) in state \(slots[s].core.state.rawValue)"), slot: s)
        forceCancel(s, reason: "impossible step")
    }

    /// The one place that changes a recognizer's state, and logs it.
    mutating func setState(_ s: Int, _ to: RecognizerState) {
        let from = slots[s].core.state
        guard from != to else { return }
        slots[s].core.state = to
        following[s] = slots[s].live && slots[s].core.followsMoves
        debug(.transition(from: from, to: to), slot: s)
    }

    /// possible -> began / recognized, if the others and the gate allow it.
    mutating func begin(_ s: Int, discrete: Bool) {
        let target: RecognizerState = discrete ? .recognized : .began
        if !slots[s].config.shouldBegin {
            debug(.gated, slot: s)
            setState(s, .failed)
            slots[s].core.deadline = nil
            afterFailure(of: s)
            return
        }
        if let by = activeExcluder(of: s) {
            debug(.excluded(by: slots[by].qualifiedName), slot: s)
            setState(s, .failed)
            slots[s].core.deadline = nil
            afterFailure(of: s)
            return
        }
        if let winner = succeededRequirement(of: s) {
            debug(.dropped(by: slots[winner].qualifiedName), slot: s)
            setState(s, .failed)
            slots[s].core.deadline = nil
            afterFailure(of: s)
            return
        }
        setState(s, target)
        if let blocker = blocker(of: s) {
            slots[s].delivery = .withheld
            debug(.waiting(on: slots[blocker].qualifiedName), slot: s)
            // Withholding `s` may close a cycle of requirements; the member the cycle lets go must not wait forever.
            releaseUnblocked(by: s)
            return
        }
        slots[s].delivery = .delivering
        slots[s].succeeded = true
        emitGesture(s, discrete ? .recognized : .began)
        afterSuccess(of: s)
    }

    /// An active recognizer sharing touches with `s` that prevents it from beginning (asked again at
    /// every state change: simultaneous pairs are logged each time they are allowed).
    mutating func activeExcluder(of s: Int) -> Int? {
        var excluder: Int?
        for o in engagedSlots where o != s && slots[o].live && slots[o].isActivelyDelivering && slots[o].shares(slots[s]) {
            if slots.simultaneous(o, s) {
                debug(.simultaneous(with: slots[o].qualifiedName), slot: s)
            } else if slots.prevents(o, s) {
                if excluder == nil || slots[o].rank < slots[excluder!].rank { excluder = o }
            }
        }
        return excluder
    }

    /// A recognizer that `s` must wait for: an engaged, undecided one it requires to fail,
    /// or (section 7) an undecided drag sharing its touches when `s` is a long press.
    func blocker(of s: Int) -> Int? {
        for r in slots[s].requires where slots[r].live && slots[r].engaged && slots[r].isUndecided {
            // A cycle of requirements (A waits for B waits for A) would hang both: the first in
            // canonical order does not wait for a withheld member that waits for it.
            if slots[r].delivery == .withheld && slots[s].rank < slots[r].rank && waits(r, for: s, depth: 0) { continue }
            return r
        }
        if slots[s].kind == .longPress {
            for d in engagedSlots where slots[d].live && slots[d].kind == .drag && slots[d].isUndecided && slots[d].shares(slots[s]) {
                return d
            }
        }
        if slots[s].waitsForSystemEdges {
            for d in engagedSlots where slots[d].live && slots[d].isUndecided && waitsForSystem(s, on: d) { return d }
        }
        return nil
    }

    /// True when withheld member `a` waits, directly or through other withheld members, for `b`.
    func waits(_ a: Int, for b: Int, depth: Int) -> Bool {
        guard depth < 8 else { return false }
        for r in slots[a].requires where slots[r].live && slots[r].engaged {
            if r == b { return true }
            if slots[r].delivery == .withheld && waits(r, for: b, depth: depth + 1) { return true }
        }
        return false
    }

    /// A required recognizer that already succeeded in this interaction: `s` never sends anything.
    func succeededRequirement(of s: Int) -> Int? {
        for r in slots[s].requires where slots[r].live && slots[r].engaged && slots[r].succeeded { return r }
        return nil
    }

    /// `s` began or recognized and that was delivered: exclusion, dropped dependents, raw stream, drag claim.
    mutating func afterSuccess(of s: Int) {
        // Recognizers waiting for `s` to fail never send anything.
        for o in engagedSlots where o != s && slots[o].live && slots[o].delivery == .withheld {
            if slots[o].requires.contains(s) || (slots[o].kind == .longPress && slots[s].kind == .drag && slots[s].shares(slots[o]))
                || waitsForSystem(o, on: s) {
                debug(.dropped(by: slots[s].qualifiedName), slot: o)
                forceFail(o)
            }
        }
        // Exclusion: every other undecided recognizer sharing a touch fails, unless simultaneous or not preventable.
        for o in engagedSlots where o != s && slots[o].live && slots[o].isUndecided && slots[o].shares(slots[s]) {
            if slots.simultaneous(s, o) {
                debug(.simultaneous(with: slots[s].qualifiedName), slot: o)
            } else if slots.prevents(s, o) {
                debug(.excluded(by: slots[s].qualifiedName), slot: o)
                forceFail(o)
            }
        }
        let c = slots[s].config
        for k in slots[s].seen {
            guard let i = records.index(ofKey: k) else { continue }
            if c.cancelsTouchesInView { records.items[i].cancelRequested = true }
            if c.delaysTouchesBegan && records.items[i].raw == .withholdingBegan { records.items[i].suppressRequested = true }
            if c.delaysTouchesEnded && !records.items[i].down { records.items[i].cancelRequested = true }
            records.markPending(i)
        }
        if slots[s].kind == .drag { claimTouches(for: s) }
        if let edge = slots[s].systemEdge, let screen = slots[s].screen {
            // Section 6: the system gesture cancels its touch for every app recognizer and the raw stream.
            claimTouches(for: s)
            // The second swipe of a deferred edge used the window: the next swipe starts a new cycle.
            if slots[s].secondSwipe { edgeWindows[edgeKey(edge, screen: screen)] = nil }
        }
    }

    /// Section 7: a drag that begins cancels its touches for everyone else.
    mutating func claimTouches(for s: Int) {
        for k in slots[s].seen {
            guard let i = records.index(ofKey: k), records.items[i].down else { continue }
            for o in records.items[i].slots where o != s && slots[o].live && slots[o].core.holds(k) {
                forceCancel(o, reason: "touch taken by \(slots[s].qualifiedName)")
                slots[o].core.drop(k)
            }
            records.items[i].slots.removeAll { $0 != s }
            records.items[i].cancelRequested = true
            records.markPending(i)
        }
    }

    /// `s` failed (or was cancelled before anything was delivered): release what waited for it.
    mutating func afterFailure(of s: Int) { releaseUnblocked(by: s) }

    /// Releases every withheld member that no longer has a blocker, crediting `s`.
    mutating func releaseUnblocked(by s: Int) {
        var i = 0
        while i < engagedSlots.count {
            let o = engagedSlots[i]
            i += 1
            guard o != s, slots[o].live, slots[o].delivery == .withheld, blocker(of: o) == nil else { continue }
            release(o, by: s)
        }
    }

    /// Delivers a withheld recognizer's pending action, as `began` (or `recognized`) even if it is
    /// already in `changed`, followed by `ended` if it already ended.
    mutating func release(_ o: Int, by s: Int) {
        debug(.released(by: slots[s].qualifiedName), slot: o)
        if let by = activeExcluder(of: o) {
            debug(.excluded(by: slots[by].qualifiedName), slot: o)
            forceFail(o)
            return
        }
        if let winner = succeededRequirement(of: o) {
            debug(.dropped(by: slots[winner].qualifiedName), slot: o)
            forceFail(o)
            return
        }
        slots[o].delivery = .delivering
        slots[o].succeeded = true
        let state = slots[o].core.state
        switch state {
        case .recognized:
            emitGesture(o, .recognized)
        case .began, .changed:
            emitGesture(o, .began)
        case .ended:
            emitGesture(o, .began)
            emitGesture(o, .ended)
        case .possible, .cancelled, .failed:
            debug(.bug("released in state \(state.rawValue)"), slot: o)
            return
        }
        afterSuccess(of: o)
    }

    /// Fails an undecided recognizer (exclusion, dropped withheld actions).
    mutating func forceFail(_ s: Int) {
        let state = slots[s].core.state
        switch state {
        case .possible, .began, .changed, .recognized, .ended:
            guard slots[s].delivery != .delivering else { return }
            slots[s].delivery = .none
            setState(s, .failed)
            slots[s].core.deadline = nil
            afterFailure(of: s)
        case .cancelled, .failed:
            return
        }
    }

    /// Cancels a recognizer whose touch was cancelled upstream, taken by a drag, or which was disabled:
    /// an active one goes to `cancelled`, an undecided one to `failed`.
    mutating func forceCancel(_ s: Int, reason: String) {
        let state = slots[s].core.state
        switch state {
        case .possible:
            debug(.cancelled(reason: reason), slot: s)
            setState(s, .failed)
            slots[s].core.deadline = nil
            afterFailure(of: s)
        case .began, .changed:
            debug(.cancelled(reason: reason), slot: s)
            let delivered = slots[s].delivery == .delivering
            setState(s, .cancelled)
            slots[s].core.deadline = nil
            if delivered {
                emitGesture(s, .cancelled)
            } else {
                slots[s].delivery = .none
                afterFailure(of: s)
            }
        case .recognized, .ended:
            if slots[s].delivery == .withheld {
                debug(.cancelled(reason: reason), slot: s)
                slots[s].delivery = .none
                setState(s, .failed)
                afterFailure(of: s)
            }
        case .cancelled, .failed:
            return
        }
    }
}
