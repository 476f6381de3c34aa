// SPDX-License-Identifier: MIT
import TouchCore

/// Checks the touch invariants over a stream of frames: every touch that began
/// ends or is cancelled exactly once; ids are never reused; no two active
/// touches share an id; a frame never lists a touch twice; every hover span
/// ends with `inProximity` false; frames and touches agree on device and time.
package struct TouchInvariantChecker: Sendable {
    /// Problems found, in order, each naming the frame time and touch id.
    package private(set) var violations: [String] = []
    /// Contacts begun and not yet ended.
    package private(set) var activeContacts: Set<TouchID> = []
    /// Hover spans not yet ended.
    package private(set) var activeHovers: Set<TouchID> = []
    private var retired: Set<TouchID> = []
    /// Number of contacts that began.
    package private(set) var beganCount = 0
    /// Number of hover spans seen.
    package private(set) var hoverSpanCount = 0

    /// Creates a checker.
    package init() {}

    private mutating func fail(_ f: TouchFrame, _ t: Touch?, _ what: String) {
        violations.append("t=\(f.time) device \(f.device)" + (t.map { " touch \($0.id)" } ?? "") + ": " + what)
    }

    /// Checks one frame.
    package mutating func check(_ frame: TouchFrame) {
        var seen: Set<TouchID> = []
        if frame.touches.isEmpty { fail(frame, nil, "empty frame") }
        for t in frame.touches {
            if !seen.insert(t.id).inserted { fail(frame, t, "listed twice in one frame") }
            if t.device != frame.device { fail(frame, t, "device \(t.device) differs from the frame's") }
            if t.time != frame.time { fail(frame, t, "time \(t.time) differs from the frame's") }
            switch t.phase {
            case .began:
                if activeContacts.contains(t.id) || activeHovers.contains(t.id) || retired.contains(t.id) {
                    fail(frame, t, "began with an id already used")
                }
                if t.previousLocation != t.location { fail(frame, t, "began with previousLocation \(t.previousLocation) != location \(t.location)") }
                activeContacts.insert(t.id)
                beganCount += 1
            case .moved:
                if !activeContacts.contains(t.id) { fail(frame, t, "moved without being active") }
            case .ended, .cancelled:
                if activeContacts.remove(t.id) == nil { fail(frame, t, "\(t.phase) without being active") }
                retired.insert(t.id)
            case .hover:
                if activeContacts.contains(t.id) || retired.contains(t.id) { fail(frame, t, "hover with a contact's or retired id") }
                if !activeHovers.contains(t.id) {
                    activeHovers.insert(t.id)
                    hoverSpanCount += 1
                }
                if !t.inProximity {
                    activeHovers.remove(t.id)
                    retired.insert(t.id)
                }
            }
        }
    }

    /// Checks that nothing is left active (call after ``TouchPipeline/finish(at:)``'s frames).
    package mutating func checkAllEnded() {
        for id in activeContacts.sorted() { violations.append("touch \(id) never ended or was cancelled") }
        for id in activeHovers.sorted() { violations.append("hover span \(id) never left proximity") }
    }
}
