// SPDX-License-Identifier: MIT
import TouchCore

/// Recognizes the system's swipe in from one screen edge (continuous, semantics section 6):
/// `possible` -> `began` -> `changed`* -> `ended`, or `possible` -> `failed`.
///
/// Takes only touches that start within `edgeZone` mm of its edge. Begin late: it begins
/// when the touch has travelled `minTravel` mm inwards within `maxAngle` degrees of the
/// inward direction. Fail fast: it fails as soon as the movement, once past
/// ``EdgeSwipeParameters/directionDistance``, leaves that angle (along the edge, or out), when
/// the touch lifts first, when a second touch joins, or when `timeLimit` passes first.
/// Distances are measured on the screen (pixels divided by the screen's pixels per mm), so
/// "inwards" follows the screen's orientation whatever the device's rotation.
/// Transition table: docs/state-machines/edge-swipe.md.
struct EdgeSwipeRecognizer: GestureRecognizerMachine {
    let parameters: EdgeSwipeParameters
    let context: RecognizerContext
    private let cosMaxAngle: Double
    /// Why it failed, for the debug record (begin late, fail fast: say which rule).
    private(set) var failureReason: String?

    init(parameters: EdgeSwipeParameters, context: RecognizerContext) {
        self.parameters = parameters
        self.context = context
        self.cosMaxAngle = Angles.cos(Angles.radians(degrees: parameters.maxAngle))
    }

    /// Distance in pixels from `p` to the edge, measured inwards (negative outside the screen).
    func depth(of p: Point) -> Double {
        let f = context.surfaceFrame
        switch parameters.edge {
        case .left: return p.x - f.x
        case .right: return f.x + f.width - p.x
        case .top: return p.y - f.y
        case .bottom: return f.y + f.height - p.y
        }
    }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        guard touch.phase != .hover, !core.state.isActive, context.surfaceFrame.contains(touch.location) else { return false }
        return depth(of: touch.location) <= parameters.edgeZone * context.pixelsPerMillimetre
    }

    /// The movement in screen millimetres: (inwards, along the edge).
    private func travel(_ core: RecognizerCore) -> (inward: Double, along: Double) {
        let t = core.translationPX / context.pixelsPerMillimetre
        switch parameters.edge {
        case .left: return (t.x, t.y)
        case .right: return (-t.x, t.y)
        case .top: return (t.y, t.x)
        case .bottom: return (-t.y, t.x)
        }
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible:
            if core.touches.count > 1 { return fail("a second touch joined: not a one-finger edge swipe") }
            guard let touch = core.touches.first else { return fail("no touch") }
            if core.deadline == nil { core.deadline = touch.beganAt.adding(milliseconds: parameters.timeLimit) }
            let (inward, along) = travel(core)
            let distance = (inward * inward + along * along).squareRoot()
            if distance >= EdgeSwipeParameters.directionDistance && (inward <= 0 || inward / distance < cosMaxAngle) {
                let outwards = inward < 0 && -inward >= abs(along)
                return fail(outwards ? "moved towards the edge" : "moved along the edge (more than \(parameters.maxAngle) degrees from inwards)")
            }
            if !touch.isDown { return fail("lifted before travelling \(parameters.minTravel) mm inwards") }
            guard inward >= parameters.minTravel else { return .none }
            core.deadline = nil
            return .begin
        case .began, .changed:
            return core.downCount == 0 ? .end : .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible: return fail("no inward swipe within \(parameters.timeLimit) ms")
        case .began, .changed, .recognized, .ended, .cancelled, .failed: return .none
        }
    }

    private mutating func fail(_ reason: String) -> RecognizerStep {
        failureReason = reason
        return .fail
    }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.translation = core.translationPX
        m.velocity = core.velocityPX
        m.edge = parameters.edge
        m.purpose = parameters.purpose
        return m
    }

    mutating func reset() { failureReason = nil }
}
