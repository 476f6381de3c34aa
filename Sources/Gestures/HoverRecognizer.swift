// SPDX-License-Identifier: MIT
import TouchCore

/// Reports a stylus in proximity over the surface (continuous):
/// `possible` -> `began` -> `changed`* -> `ended` | `cancelled`.
///
/// Sees only hover touches (never contacts). Begins on the first hover event,
/// changes as the stylus moves, and ends when it leaves proximity, touches down,
/// or leaves the surface. Not arbitrated against contact recognizers: a hover
/// shares no touch with them. Transition table: docs/state-machines/hover.md.
struct HoverRecognizer: GestureRecognizerMachine {
    let parameters: HoverParameters

    init(parameters: HoverParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool { touch.phase == .hover && core.isEmpty }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        let down = core.downCount
        switch core.state {
        case .possible:
            return down > 0 ? .begin : .fail
        case .began, .changed:
            return down == 0 ? .end : .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.touchType = .stylus
        return m
    }

    mutating func reset() {}
}
