import TouchCore

/// Recognizes a quick stroke in one direction (discrete): `possible` -> `recognized` | `failed`.
///
/// Recognized as soon as the centroid has moved `minDistance` within
/// `directionTolerance` of one of `directions`' axes, at `minVelocity` or faster,
/// with `minTouches...maxTouches` touches down. Fails when the stroke leaves the
/// tolerance, when too many touches come down, or when the touches lift first.
/// Transition table: docs/state-machines/swipe.md.
struct SwipeRecognizer: GestureRecognizerMachine {
    let parameters: SwipeParameters
    private let cosTolerance: Double
    private var direction: SwipeDirection?
    private var touchesAtRecognition = 0

    init(parameters: SwipeParameters) {
        self.parameters = parameters
        self.cosTolerance = Angles.cos(Angles.radians(degrees: parameters.directionTolerance))
    }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool { touch.phase != .hover }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch core.state {
        case .possible: break
        case .began, .changed, .recognized, .ended, .cancelled, .failed: return .none
        }
        let down = core.downCount
        if down > parameters.maxTouches { return .fail }
        let t = core.translationMM
        let distance = t.length
        if distance >= parameters.minDistance {
            let horizontal = abs(t.x) >= abs(t.y)
            let along = horizontal ? abs(t.x) : abs(t.y)
            if along / distance < cosTolerance { return .fail }
            let dir: SwipeDirection = horizontal ? (t.x < 0 ? .left : .right) : (t.y < 0 ? .up : .down)
            if !parameters.directions.contains(dir) { return .fail }
            let v = core.velocityMM
            let speed = horizontal ? abs(v.x) : abs(v.y)
            let count = Swift.max(down, core.touches.count)
            if speed >= parameters.minVelocity && count >= parameters.minTouches {
                direction = dir
                touchesAtRecognition = count
                return .recognize
            }
        }
        return down == 0 ? .fail : .none
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.baseMeasurement()
        m.direction = direction
        m.touches = touchesAtRecognition
        m.translation = core.translationPX
        m.velocity = core.velocityPX
        return m
    }

    mutating func reset() { direction = nil; touchesAtRecognition = 0 }
}
