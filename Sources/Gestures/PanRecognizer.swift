import TouchCore

/// Recognizes touches moving together (continuous): `possible` -> `began` -> `changed`* -> `ended`.
///
/// Begins once `minTouches...maxTouches` touches are down and their centroid has moved
/// `slop`; reports the centroid's translation since touch-down and its velocity. Touches
/// may be added (up to `maxTouches`) or lifted mid-pan: translation integrates the mean
/// displacement of the touches present in consecutive frames, so it never jumps.
/// Ends when the last touch lifts. Transition table: docs/state-machines/pan.md.
struct PanRecognizer: GestureRecognizerMachine {
    let parameters: PanParameters

    init(parameters: PanParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        // Past the limit, extra touches are ignored once panning (before, they fail it).
        touch.phase != .hover && (!core.state.isActive || core.downCount < parameters.maxTouches)
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        let down = core.downCount
        switch core.state {
        case .possible:
            if down > parameters.maxTouches { return .fail }
            if down == 0 { return .fail }
            if down >= parameters.minTouches && core.translationMM.length >= parameters.slop { return .begin }
            return .none
        case .began, .changed:
            return down == 0 ? .end : .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.translation = core.translationPX
        m.velocity = core.velocityPX
        return m
    }

    mutating func reset() {}
}
