// SPDX-License-Identifier: MIT
import TouchCore

/// Whether the touches of a would-be pinch are moving the same way, as libinput tells a
/// two-finger scroll from a pinch on a touchpad (`tp_gesture_handle_state_unknown` in its
/// `src/evdev-mt-touchpad-gestures.c`): from the direction each finger moved since it came down,
/// not from how much their spacing changed. A scroll's spacing drifts (a finger pressed at a
/// pad's edge is reported moving less than the other), yet both fingers go the same way; a
/// pinch's fingers go apart or together.
///
/// The rule (docs/recognizers.md, "pinch"):
/// - a touch's direction is its motion since the set of touches down last changed (``Anchors``:
///   libinput takes the positions when the finger count changed), and counts once it is ``minMove`` long;
/// - a direction is given by the compass points (N, NE, E...) less than ``pointReach`` of an eighth
///   of a turn from it (one or two points); two touches go *the same way* when they share a point
///   or have neighbouring ones (about 90 degrees apart or less; up to 126 when both lie between
///   points; never opposite);
/// - of three or more touches, the topmost and the bottommost are the two compared;
/// - both moved ``minMove`` the same way: a scroll (or a swipe), not a pinch;
/// - on a touchpad, one moved ``maxMove`` while the other stayed within ``minMove``: a resting
///   finger or thumb beside a one-finger scroll, not a pinch. On a touchscreen that is a pinch
///   with one finger held still, so this applies to indirect touches only.
enum FingerDirections {
    /// Below this (mm from where it came down) a touch's direction is not yet known: libinput's `min_move`.
    static let minMove = 1.5
    /// A touch this far (mm) while another stays within ``minMove`` is a scroll beside a resting
    /// finger on a touchpad: libinput's `max_move`.
    static let maxMove = 4.0
    /// How far from a compass point (in eighths of a turn) a direction still has it: libinput marks
    /// the points within 0.9 of an eighth, so a direction close to one point has only that one.
    static let pointReach = 0.9

    /// The compass points of direction `d`, as bits (bit 0 east, then clockwise on screen: SE, S...).
    static func points(_ d: Point) -> UInt8 {
        var a = Angles.atan2(d.y, d.x) / (Angles.pi / 4)   // in (-4, 4]: eighths of a turn from east
        if a < 0 { a += 8 }
        let below = Int(a)                  // the point at or just before the direction
        let past = a - Double(below)
        var bits: UInt8 = 0
        if past < pointReach { bits |= UInt8(1 << (below % 8)) }
        if 1 - past < pointReach { bits |= UInt8(1 << ((below + 1) % 8)) }
        return bits
    }

    /// Whether two sets of compass points share one or have neighbouring ones.
    static func sameWay(_ a: UInt8, _ b: UInt8) -> Bool {
        let widened = a | (a << 1) | (a >> 1) | (a & 0x80 != 0 ? 1 : 0) | (a & 1 != 0 ? 0x80 : 0)
        return widened & b != 0
    }

    /// Where each touch down was when the set of touches down last changed.
    struct Anchors: Sendable {
        private(set) var keys: [Int] = []
        private(set) var points: [Point] = []

        /// Takes the touches' current positions as anchors when the set of touches down changed.
        mutating func follow(_ touches: [TrackedTouch]) {
            var i = 0, same = true
            for t in touches where t.isDown {
                if i >= keys.count || keys[i] != t.key { same = false; break }
                i += 1
            }
            if same && i == keys.count { return }
            keys.removeAll(keepingCapacity: true)
            points.removeAll(keepingCapacity: true)
            for t in touches where t.isDown {
                keys.append(t.key)
                points.append(t.locationMM)
            }
        }

        /// The anchor of touch `key`, or where it came down when it has none.
        func anchor(of t: TrackedTouch) -> Point {
            for (i, k) in keys.enumerated() where k == t.key { return points[i] }
            return t.startMM
        }
    }

    /// Why the touches are not pinching (a scroll or a resting finger), or nil when their
    /// directions leave a pinch possible (or are not known yet). Of three or more touches, the
    /// topmost and the bottommost are compared, as libinput does (a pinch's thumb is the lowest).
    static func notPinching(_ touches: [TrackedTouch], from anchors: Anchors) -> String? {
        var top: TrackedTouch?, bottom: TrackedTouch?
        for t in touches where t.isDown {
            if top == nil || t.locationMM.y < top!.locationMM.y { top = t }
            if bottom == nil || t.locationMM.y >= bottom!.locationMM.y { bottom = t }
        }
        guard let a = top, let b = bottom, a.key != b.key else { return nil }
        let da = a.locationMM - anchors.anchor(of: a), db = b.locationMM - anchors.anchor(of: b)
        let la = da.length, lb = db.length
        if la >= minMove && lb >= minMove {
            return sameWay(points(da), points(db)) ? "the fingers move the same way: a scroll" : nil
        }
        if a.type == .indirect && b.type == .indirect && (la < minMove) != (lb < minMove) && Swift.max(la, lb) >= maxMove {
            return "a finger rests while the other moves: a scroll on a touchpad"
        }
        return nil
    }
}
