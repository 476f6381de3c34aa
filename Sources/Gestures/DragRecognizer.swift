// SPDX-License-Identifier: MIT
import TouchCore

/// Picks something up: hold, then move (continuous, semantics section 7):
/// `possible` -> `began` -> `changed`* -> `ended` | `cancelled`.
///
/// The touches must be held `minDuration` without moving more than
/// `allowableMovement`; after that (still `possible`, "armed") moving `slop`
/// from where they were when armed begins the drag. Lifting before it begins
/// fails it. When a drag begins the engine cancels its touches for every other
/// recognizer and for the raw stream; a long press in play with a drag waits
/// for the drag to fail. Transition table: docs/state-machines/drag.md.
struct DragRecognizer: GestureRecognizerMachine {
    let parameters: DragParameters
    private var started = false
    private var armedAt: Point?

    init(parameters: DragParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        touch.phase != .hover && !core.state.isActive && core.downCount < parameters.maxTouches
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        let down = core.downCount
        switch core.state {
        case .possible:
            if !started && down > 0 {
                started = true
                core.deadline = time.adding(milliseconds: parameters.minDuration)
            }
            if down == 0 || down > parameters.maxTouches { return .fail }
            guard let armed = armedAt else {
                return core.farthestMM > parameters.allowableMovement ? .fail : .none
            }
            return core.translationMM.distance(to: armed) >= parameters.slop ? .begin : .none
        case .began, .changed:
            return down == 0 ? .end : .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible:
            let down = core.downCount
            if down < parameters.minTouches || down > parameters.maxTouches { return .fail }
            armedAt = core.translationMM
            return .none
        case .began, .changed, .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.translation = core.translationPX
        m.velocity = core.velocityPX
        return m
    }

    mutating func reset() { started = false; armedAt = nil }
}
