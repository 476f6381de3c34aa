// SPDX-License-Identifier: MIT
import TouchCore

/// Recognizes a quick stroke in one direction (discrete): `possible` -> `recognized` | `failed`.
///
/// Recognized as soon as the centroid has moved `minDistance` within
/// `directionTolerance` of one of `directions`' axes, at `minVelocity` or faster,
/// with `minTouches...maxTouches` touches down. Fails when the stroke leaves the
/// tolerance, when it curves (its heading turns more than ``maxTurn``: a circle
/// is not a swipe, even when its first chord lies along an axis) or turns back
/// toward its start, when too many
/// touches come down, or when the touches lift first.
/// Transition table: docs/state-machines/swipe.md.
struct SwipeRecognizer: GestureRecognizerMachine {
    let parameters: SwipeParameters
    private let cosTolerance: Double
    /// The stroke's heading is measured once per this much travel of the centroid (mm).
    private let segmentMM: Double
    /// Most the heading may turn over ``turn``'s window, in radians: a quarter of the direction
    /// tolerance (7.5 degrees by default), so a circle of 40 mm radius, whose heading turns about
    /// 9.5 degrees over the window, is no swipe, while a stroke bending along a 60 mm radius (a
    /// thumb's arc) still is.
    let maxTurn: Double
    private var direction: SwipeDirection?
    private var touchesAtRecognition = 0
    private var segmentStart = Point.zero
    private var segmentTime = Timestamp.zero
    private var started = false
    private var lastHeading = Point.zero
    private var hasHeading = false
    /// Signed turn of the heading over the last three segments (about `minDistance` of
    /// travel: a long stroke that bends gently is still straight where it counts), in radians.
    private(set) var turn = 0.0
    /// The latest part of ``turn``: between the last two complete segments.
    private var earlierTurn = 0.0
    /// Farthest the centroid got from where it started, in mm.
    private var farthest = 0.0

    init(parameters: SwipeParameters) {
        self.parameters = parameters
        self.cosTolerance = Angles.cos(Angles.radians(degrees: parameters.directionTolerance))
        self.segmentMM = parameters.minDistance / 3
        self.maxTurn = Angles.radians(degrees: parameters.directionTolerance / 4)
    }

    /// The turn of the segment under way (at least 1 mm long, and not slow) from the last
    /// complete one: at a report rate where one report covers most of a segment, it still counts.
    private func partialTurn(_ t: Point, at time: Timestamp) -> Double {
        let step = t - segmentStart
        let length = step.length
        guard hasHeading, length >= 1 else { return 0 }
        let seconds = time.milliseconds(since: segmentTime) / 1000
        if seconds > 0 && length / seconds < parameters.minVelocity / 2 { return 0 }
        return Angles.turn(from: lastHeading, to: step)
    }

    /// Follows the heading of the centroid's path, one segment of ``segmentMM`` at a time.
    /// A segment slower than half `minVelocity` starts the measure again: the wobble of a
    /// finger settling or wandering slowly is not the curve of a stroke.
    private mutating func followHeading(_ t: Point, at time: Timestamp) {
        let step = t - segmentStart
        let length = step.length
        guard length >= segmentMM else { return }
        let heading = step / length
        let seconds = time.milliseconds(since: segmentTime) / 1000
        if seconds > 0 && length / seconds < parameters.minVelocity / 2 {
            hasHeading = false
            earlierTurn = 0; turn = 0
        } else if hasHeading {
            let latest = Angles.turn(from: lastHeading, to: heading)
            turn = earlierTurn + latest
            earlierTurn = latest
        }
        lastHeading = heading
        hasHeading = true
        segmentStart = t
        segmentTime = time
    }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool { touch.phase != .hover }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible: break
        case .began, .changed, .recognized, .ended, .cancelled, .failed: return .none
        }
        let down = core.downCount
        if down > parameters.maxTouches { return .fail }
        let t = core.translationMM
        if !started { started = true; segmentTime = time }
        followHeading(t, at: time)
        if abs(turn + partialTurn(t, at: time)) > maxTurn { return .fail }
        let distance = t.length
        // Coming back toward the start is turning round, however slowly the finger turned.
        if distance > farthest { farthest = distance } else if farthest - distance > segmentMM { return .fail }
        if distance >= parameters.minDistance {
            let horizontal = abs(t.x) >= abs(t.y)
            let along = horizontal ? abs(t.x) : abs(t.y)
            if along / distance < cosTolerance { return .fail }
            let dir: SwipeDirection = horizontal ? (t.x < 0 ? .left : .right) : (t.y < 0 ? .up : .down)
            if !parameters.directions.contains(dir) { return .fail }
            // Speed toward the direction: a finger already going back is not swiping forward.
            let v = core.velocityMM
            let speed = horizontal ? (t.x < 0 ? -v.x : v.x) : (t.y < 0 ? -v.y : v.y)
            let count = Swift.max(down, core.touches.count)
            if speed >= parameters.minVelocity && count >= parameters.minTouches {
                direction = dir
                touchesAtRecognition = count
                return .recognize
            }
        }
        return down == 0 ? .fail : .none
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.direction = direction
        m.touches = touchesAtRecognition
        m.translation = core.translationPX
        m.velocity = core.velocityPX
        return m
    }

    mutating func reset() {
        direction = nil; touchesAtRecognition = 0
        segmentStart = .zero; segmentTime = .zero; started = false; lastHeading = .zero; hasHeading = false; turn = 0; earlierTurn = 0
        farthest = 0
    }
}
