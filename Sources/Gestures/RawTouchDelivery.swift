// SPDX-License-Identifier: MIT
import TouchCore

/// The raw ("responder") touch stream of each surface, shaped by the recognizers
/// holding each touch (semantics section 5):
/// - `cancelsTouchesInView`: when a recognizer recognizes or begins, its touches get `cancelled`;
/// - `delaysTouchesBegan`: `began` waits until the recognizer fails; if it succeeds, the touch never appears;
/// - `delaysTouchesEnded`: `ended` waits until the recognizer fails or succeeds (then `cancelled`).
/// Only undecided recognizers hold anything back, so every touch settles once they all decide.
/// Transition table: docs/state-machines/raw-touches.md.
extension Engine {
    /// The switches by which an undecided recognizer holds raw touches back.
    enum Hold {
        case delaysBegan, delaysEnded
    }

    /// True when an undecided recognizer that took touch `key` has the given switch on.
    func isHeld(_ record: TouchRecord, by flag: Hold) -> Bool {
        // A deferred system edge swipe only watches: it holds nothing back.
        for s in record.slots where slots[s].live && slots[s].holds(flag) && slots[s].deferredBy == nil
            && arena.isUndecided(ArenaMember(rawValue: s)) && arena.hasSeen(record.key, by: ArenaMember(rawValue: s)) {
            return true
        }
        return false
    }

    /// True when a system edge swipe that is in play for the touch, not deferred, and undecided
    /// holds its `began` back: what the app world behind a mirror waits for (semantics §9).
    func isHeldForMirror(_ record: TouchRecord) -> Bool {
        for s in record.slots where slots[s].live && slots[s].systemEdge != nil && slots[s].delaysBegan
            && arena.isUndecided(ArenaMember(rawValue: s)) && arena.hasSeen(record.key, by: ArenaMember(rawValue: s)) {
            return true
        }
        return false
    }

    /// Delivers whatever the recognizers' decisions now allow, oldest touch first; forgets settled touches.
    mutating func flushRawTouches() {
        records.takePending(into: &pendingScratch)
        for i in pendingScratch {
            var r = records.items[i]
            settleRaw(&r)
            settleMirror(&r)
            let mirrorSettled = r.mirror == .none || r.mirror == .finished
            let settled = (r.raw == .none || r.raw == .finished) && mirrorSettled
            if !r.down && settled {
                r.slots = []  // the stored record's list is then unshared and goes back to the pool as is
                records.remove(i)
                continue
            }
            records.items[i] = r
            // Still waiting on a recognizer (delayed began, held end, or a cancel to deliver): keep looking.
            if r.raw == .withholdingBegan || r.mirror == .withholdingBegan || (!r.down && !settled)
                || (r.cancelRequested && !settled) || (r.claimant != nil && !mirrorSettled) {
                records.markPending(i)
            }
        }
        pendingScratch.removeAll(keepingCapacity: true)
    }

    mutating func settleRaw(_ r: inout TouchRecord) {
        switch r.raw {
        case .none, .finished:
            return
        case .withholdingBegan:
            if r.suppressRequested || (r.cancelRequested && !r.heldOnlyBySystem) || r.endedPhase == .cancelled {
                // The touch never appears in the raw stream.
                if r.heldOnlyBySystem && r.suppressRequested { debug(.withheldDiscarded, touch: r.id, interaction: r.interaction) }
                finishRaw(&r)
                return
            }
            if isHeld(r, by: .delaysBegan) { return }
            debug(.withheldDelivered(phase: .began), touch: r.id, interaction: r.interaction)
            r.raw = .open
            emitRaw(r, phase: .began)
            if r.movedWhileWithheld { emitRaw(r, phase: .moved) }
            settleRaw(&r)
        case .open:
            if r.cancelRequested || r.endedPhase == .cancelled {
                emitRaw(r, phase: .cancelled)
                finishRaw(&r)
                return
            }
            guard r.endedPhase == .ended else { return }
            if isHeld(r, by: .delaysEnded) {
                r.endHeld = true
                return
            }
            if r.endHeld { debug(.withheldDelivered(phase: .ended), touch: r.id, interaction: r.interaction) }
            emitRaw(r, phase: .ended)
            finishRaw(&r)
        }
    }

    /// The mirror's stream of one contact (semantics §9): withheld while a system edge swipe may
    /// take it, never delivered if one does, cancelled once a claiming recognizer takes it.
    mutating func settleMirror(_ r: inout TouchRecord) {
        switch r.mirror {
        case .none, .finished:
            return
        case .withholdingBegan:
            if r.claimant != nil || r.endedPhase == .cancelled {
                // The app world never sees the touch.
                r.mirror = .finished
                return
            }
            if isHeldForMirror(r) { return }
            r.mirror = .open
            emitMirror(r, phase: .began)
            if r.movedWhileMirrorWithheld { emitMirror(r, phase: .moved) }
            settleMirror(&r)
        case .open:
            if r.claimant != nil || r.endedPhase == .cancelled {
                emitMirror(r, phase: .cancelled)
                r.mirror = .finished
                return
            }
            guard r.endedPhase == .ended else { return }
            emitMirror(r, phase: .ended)
            r.mirror = .finished
        }
    }

    mutating func finishRaw(_ r: inout TouchRecord) {
        r.raw = .finished
        if let s = r.surface, let n = rawOpen[s] {
            if n <= 1 { rawOpen[s] = nil } else { rawOpen[s] = n - 1 }
        }
    }
}
