// SPDX-License-Identifier: MIT
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
        core.acceptsContact(touch, maxTouches: parameters.maxTouches)
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        core.thresholdStep(minTouches: parameters.minTouches, maxTouches: parameters.maxTouches,
                           pastThreshold: core.translationMM.length >= parameters.slop, endBelow: 1)
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement { core.translationMeasurement() }

    mutating func reset() {}
}
