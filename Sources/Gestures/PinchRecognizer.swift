import TouchCore

/// Recognizes touches moving apart or together (continuous): `possible` -> `began` -> `changed`* -> `ended`.
///
/// The span is the mean distance of the touches from their centroid. Begins once
/// `minTouches...maxTouches` touches are down and the span changed by `threshold` mm;
/// reports the scale relative to the span when the touches came down, and its rate.
/// Ends when fewer than `minTouches` remain. Transition table: docs/state-machines/pinch.md.
struct PinchRecognizer: GestureRecognizerMachine {
    let parameters: PinchParameters

    init(parameters: PinchParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        touch.phase != .hover && (!core.state.isActive || core.downCount < parameters.maxTouches)
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        let down = core.downCount
        switch core.state {
        case .possible:
            if down > parameters.maxTouches || down == 0 { return .fail }
            if down >= parameters.minTouches && abs(core.spanChangeMM) >= parameters.threshold { return .begin }
            return .none
        case .began, .changed:
            return down < parameters.minTouches ? .end : .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.scale = core.scale
        m.scaleVelocity = core.scaleVelocity
        return m
    }

    mutating func reset() {}
}
