// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

/// Checks the engine's outputs over a whole run (semantics sections 3 and 5):
/// each recognizer's actions come in a legal order (discrete kinds only
/// `recognized`; continuous kinds `began`, `changed`..., then `ended` or
/// `cancelled`, never two `began` in a row); each surface's raw touch stream
/// gives every touch `began`, `moved`..., then `ended` or `cancelled`; and,
/// once every touch has ended and every deadline has passed, nothing is left
/// open and the engine is idle.
package struct EngineInvariantChecker: Sendable {
    /// Problems found, in order, each naming the time, the recognizer or surface, and the touch.
    package private(set) var violations: [String] = []
    /// Continuous gestures begun and not yet ended or cancelled, by `surface/owner:recognizer`.
    package private(set) var activeGestures: Set<String> = []
    /// Raw touches delivered `began` and not yet `ended` or `cancelled`, as `surface touch`.
    package private(set) var openRawTouches: Set<String> = []
    /// Number of gesture actions seen.
    package private(set) var actionCount = 0

    /// Creates a checker.
    package init() {}

    /// Checks one output of ``Engine/handle(_:into:)`` or ``Engine/advance(to:into:)``.
    package mutating func check(_ output: EngineOutput) {
        switch output {
        case .gesture(let g): check(g)
        case .touch(let raw): check(raw)
        case .debug(let record):
            if case .bug(let what) = record.kind { violations.append("\(record.time) \(record.recognizer ?? "engine"): engine bug record: \(what)") }
        case .system: break
        case .mirror(let m): check(m)
        }
    }

    /// Semantics §9: the mirror gives each contact `began`, `moved`..., then `ended` or `cancelled` (a pen's hovers aside).
    private mutating func check(_ m: MirrorTouchEvent) {
        guard m.phase != .hover else { return }  // a pen's hover: no contact
        checkStream(key: "mirror \(m.touch.id)", phase: m.phase, at: "\(m.time) mirror touch \(m.touch.id)", what: "")
    }

    private mutating func check(_ g: GestureEvent) {
        actionCount += 1
        let key = (g.surface?.rawValue ?? "") + "/" + g.owner + ":" + g.recognizer
        let at = "\(g.time) \(key) (\(g.kind.rawValue))"
        if g.kind.isDiscrete != (g.state == .recognized) {
            violations.append("\(at): \(g.state.rawValue) for a \(g.kind.isDiscrete ? "discrete" : "continuous") kind")
        }
        switch g.state {
        case .recognized:
            if activeGestures.contains(key) { violations.append("\(at): recognized while active") }
        case .began:
            if !activeGestures.insert(key).inserted { violations.append("\(at): began twice") }
        case .changed:
            if !activeGestures.contains(key) { violations.append("\(at): changed before began") }
        case .ended, .cancelled:
            if activeGestures.remove(key) == nil { violations.append("\(at): \(g.state.rawValue) before began") }
        }
        if g.touches < 0 { violations.append("\(at): \(g.touches) touches") }
        if !g.location.x.isFinite || !g.location.y.isFinite { violations.append("\(at): location \(g.location) not finite") }
    }

    private mutating func check(_ raw: RawTouchEvent) {
        checkStream(key: "\(raw.surface.rawValue) \(raw.touch.id)", phase: raw.phase,
                    at: "\(raw.time) surface \(raw.surface.rawValue) touch \(raw.touch.id)", what: "raw ")
    }

    /// One touch stream (a surface's raw stream, a mirror): `began`, `moved`..., then `ended` or `cancelled`.
    private mutating func checkStream(key: String, phase: TouchPhase, at: String, what: String) {
        switch phase {
        case .began:
            if !openRawTouches.insert(key).inserted { violations.append("\(at): \(what)began twice") }
        case .moved:
            if !openRawTouches.contains(key) { violations.append("\(at): \(what)moved before began") }
        case .ended, .cancelled:
            if openRawTouches.remove(key) == nil { violations.append("\(at): \(what)\(phase.rawValue) before began") }
        case .hover:
            violations.append("\(at): hover delivered on a \(what.isEmpty ? "mirror" : "raw touch stream")")
        }
    }

    /// Checks the end state, after every touch ended and ``Engine/nextDeadline`` passed:
    /// no gesture or raw touch left open, and the engine idle with no deadline.
    package mutating func checkAllEnded(_ engine: Engine) {
        for key in activeGestures.sorted() { violations.append("\(key): still active after every touch ended") }
        for key in openRawTouches.sorted() { violations.append("raw touch \(key): never ended or cancelled") }
        if let d = engine.nextDeadline { violations.append("a deadline is still pending at \(d)") }
        if !engine.isIdle { violations.append("the engine is not idle after every touch ended and every deadline passed") }
    }
}
