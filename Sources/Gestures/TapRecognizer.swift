// SPDX-License-Identifier: MIT
import TouchCore

/// Recognizes one or more quick taps (discrete): `possible` -> `recognized` | `failed`.
///
/// A tap is: touches go down, none moves more than `maxMovement`, all lift within
/// `maxDuration`, and at most `maxTouches` (at least `minTouches`) were down together.
/// Further taps must start within `maxInterval` of the previous lift and within
/// `maxDistance` of the first tap. Transition table: docs/state-machines/tap.md.
struct TapRecognizer: GestureRecognizerMachine {
    let parameters: TapParameters
    /// Taps completed so far.
    private var tapsDone = 0
    /// A tap is in progress (touches down).
    private var inTap = false
    /// Most touches down together during the current tap.
    private var touchesThisTap = 0
    /// Touches of the last completed tap.
    private var touchesLastTap = 0
    private var firstTapMM: Point?
    private var lastTapPX: Point = .zero

    init(parameters: TapParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool { touch.phase != .hover }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible: break
        case .began, .changed, .recognized, .ended, .cancelled, .failed: return .none
        }
        let down = core.downCount
        if !inTap && down > 0 {
            // A new tap begins; the interval deadline (if any) has not passed or we would have failed.
            if let first = firstTapMM, core.centroidMM.distance(to: first) > parameters.maxDistance { return .fail }
            inTap = true
            touchesThisTap = 0
            core.deadline = time.adding(milliseconds: parameters.maxDuration)
        }
        if down > touchesThisTap { touchesThisTap = down }
        if touchesThisTap > parameters.maxTouches { return .fail }
        if core.farthestMM > parameters.maxMovement { return .fail }
        // The tap is where its fullest set of touches was, not where the last finger lifted.
        if down > 0 && down >= touchesThisTap { lastTapPX = core.centroidPX }
        guard inTap && down == 0 else { return .none }
        // Every touch of this tap lifted.
        inTap = false
        if touchesThisTap < parameters.minTouches { return .fail }
        if firstTapMM == nil { firstTapMM = core.centroidMM }
        tapsDone += 1
        touchesLastTap = touchesThisTap
        if tapsDone >= parameters.taps {
            core.deadline = nil
            return .recognize
        }
        core.deadline = time.adding(milliseconds: parameters.maxInterval)
        return .none
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible: return .fail  // held too long, or the next tap came too late
        case .began, .changed, .recognized, .ended, .cancelled, .failed: return .none
        }
    }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.taps = tapsDone
        m.touches = touchesLastTap
        m.location = lastTapPX
        return m
    }

    mutating func reset() {
        tapsDone = 0; inTap = false; touchesThisTap = 0; touchesLastTap = 0; firstTapMM = nil; lastTapPX = .zero
    }
}
