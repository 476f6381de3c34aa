// SPDX-License-Identifier: MIT
import TouchCore

/// Recognizes touches moving apart or together (continuous): `possible` -> `began` -> `changed`* -> `ended`.
///
/// The span is the mean distance of the touches from their centroid. Begins once
/// `minTouches...maxTouches` touches are down, the span changed by `threshold` mm and the
/// fingers' directions leave a pinch possible (``FingerDirections``: fingers moving the same
/// way are a scroll, however their spacing drifts);
/// reports the scale relative to the span when the touches came down, and its rate.
/// Ends when fewer than `minTouches` remain. Transition table: docs/state-machines/pinch.md.
struct PinchRecognizer: GestureRecognizerMachine {
    let parameters: PinchParameters
    /// Where the touches down were when that set of touches formed (a finger came or went):
    /// the fingers' directions are measured from there, as libinput measures them from where
    /// they were when the finger count last changed.
    private var anchors = FingerDirections.Anchors()

    init(parameters: PinchParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        core.acceptsContact(touch, maxTouches: parameters.maxTouches)
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        if core.state == .possible { anchors.follow(core.touches) }
        return core.thresholdStep(minTouches: parameters.minTouches, maxTouches: parameters.maxTouches,
                           pastThreshold: abs(core.spanChangeMM) >= parameters.threshold
                               && FingerDirections.notPinching(core.touches, from: anchors) == nil,
                           endBelow: parameters.minTouches)
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.scale = core.scale
        m.scaleVelocity = core.scaleVelocity
        return m
    }

    mutating func reset() { anchors = FingerDirections.Anchors() }
}
