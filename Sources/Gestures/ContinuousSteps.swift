// SPDX-License-Identifier: MIT
import TouchCore

/// The shared shape of the continuous recognizers that track a set of
/// touches and begin past a threshold (pan, pinch, rotate): begin late (only
/// with enough touches and past the threshold), fail fast (too many touches,
/// or all lifted before beginning).
extension RecognizerCore {
    /// Whether such a recognizer takes one more touch: never a hovering stylus;
    /// past `maxTouches`, extra touches are ignored once it is active (before,
    /// they reach it and fail it).
    func acceptsContact(_ touch: Touch, maxTouches: Int) -> Bool {
        touch.phase != .hover && (!state.isActive || downCount < maxTouches)
    }

    /// The step after the touches changed: `begin` once `minTouches...maxTouches`
    /// touches are down and `pastThreshold`; once active, `end` when fewer than
    /// `endBelow` touches remain, else `change`.
    func thresholdStep(minTouches: Int, maxTouches: Int, pastThreshold: Bool, endBelow: Int) -> RecognizerStep {
        let down = downCount
        switch state {
        case .possible:
            if down > maxTouches || down == 0 { return .fail }
            if down >= minTouches && pastThreshold { return .begin }
            return .none
        case .began, .changed:
            return down < endBelow ? .end : .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    /// The measurement of a moving set of touches: translation and velocity of the centroid in px.
    func translationMeasurement() -> GestureMeasurement {
        var m = baseMeasurement()
        m.translation = translationPX
        m.velocity = velocityPX
        return m
    }
}
