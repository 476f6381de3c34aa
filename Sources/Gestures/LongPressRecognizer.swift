// SPDX-License-Identifier: MIT
import TouchCore

/// Recognizes touches held still (continuous): `possible` -> `began` -> `changed`* -> `ended`.
///
/// Begins when `minTouches...maxTouches` touches have been down for `minDuration`
/// without any moving more than `allowableMovement`; then reports movement as
/// `changed` and ends when the touches lift below `minTouches`.
/// Transition table: docs/state-machines/long-press.md.
struct LongPressRecognizer: GestureRecognizerMachine {
    let parameters: LongPressParameters
    private var started = false

    init(parameters: LongPressParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool { touch.phase != .hover }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        let down = core.downCount
        switch core.state {
        case .possible:
            if !started && down > 0 {
                started = true
                core.deadline = time.adding(milliseconds: parameters.minDuration)
            }
            if down > parameters.maxTouches { return .fail }
            if core.farthestMM > parameters.allowableMovement { return .fail }
            if down == 0 { return .fail }  // lifted before the press was long enough
            return .none
        case .began, .changed:
            if down < parameters.minTouches { return .end }
            return .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible:
            let down = core.downCount
            return down >= parameters.minTouches && down <= parameters.maxTouches ? .begin : .fail
        case .began, .changed, .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.translation = core.translationPX
        return m
    }

    mutating func reset() { started = false }
}
