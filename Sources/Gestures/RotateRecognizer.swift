// SPDX-License-Identifier: MIT
import TouchCore

/// Recognizes touches turning around their centroid (continuous): `possible` -> `began` -> `changed`* -> `ended`.
///
/// Rotation is the mean turn of the touches around their centroid, in radians,
/// clockwise positive in screen coordinates (y grows downwards). Begins once
/// `minTouches...maxTouches` touches are down and have turned `threshold` radians;
/// ends when fewer than `minTouches` remain. Transition table: docs/state-machines/rotate.md.
struct RotateRecognizer: GestureRecognizerMachine {
    let parameters: RotateParameters

    init(parameters: RotateParameters) { self.parameters = parameters }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        core.acceptsContact(touch, maxTouches: parameters.maxTouches)
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        core.thresholdStep(minTouches: parameters.minTouches, maxTouches: parameters.maxTouches,
                           pastThreshold: abs(core.rotation) >= parameters.threshold, endBelow: parameters.minTouches)
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.rotation = core.rotation
        m.rotationVelocity = core.rotationVelocity
        return m
    }

    mutating func reset() {}
}
