// SPDX-License-Identifier: MIT
import TouchCore

/// Recognizes a pan that starts at an edge of its surface (continuous), for apps.
///
/// The first touch must land within `edgeZone` mm of one of `edges` (converted to
/// pixels with the screen's density). Begins when the centroid has moved `slop` mm,
/// mostly away from that edge; fails if the movement goes along or out of the edge.
/// Ends when the last touch lifts. Transition table: docs/state-machines/edge-pan.md.
struct EdgePanRecognizer: GestureRecognizerMachine {
    let parameters: EdgePanParameters
    let context: RecognizerContext
    private var edge: SurfaceEdge?

    init(parameters: EdgePanParameters, context: RecognizerContext) {
        self.parameters = parameters
        self.context = context
    }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        touch.phase != .hover && (!core.state.isActive || core.downCount < parameters.maxTouches)
    }

    /// The listened edge nearest to `p` within the zone, if any (ties in the order left, right, top, bottom).
    private func edge(at p: Point) -> SurfaceEdge? {
        let zone = parameters.edgeZone * context.pixelsPerMillimetre
        let f = context.surfaceFrame
        var best: (SurfaceEdge, Double)?
        for e in SurfaceEdge.allCases where parameters.edges.contains(e) {
            let d: Double
            switch e {
            case .left: d = p.x - f.x
            case .right: d = f.x + f.width - p.x
            case .top: d = p.y - f.y
            case .bottom: d = f.y + f.height - p.y
            }
            if d <= zone && (best == nil || d < best!.1) { best = (e, d) }
        }
        return best?.0
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        let down = core.downCount
        switch core.state {
        case .possible:
            if edge == nil {
                guard let first = core.touches.first, let e = edge(at: first.startPX) else { return .fail }
                edge = e
            }
            if down > parameters.maxTouches || down == 0 { return .fail }
            let t = core.translationMM
            guard t.length >= parameters.slop else { return .none }
            let inward: Double
            switch edge! {
            case .left: inward = t.x
            case .right: inward = -t.x
            case .top: inward = t.y
            case .bottom: inward = -t.y
            }
            // Mostly away from the edge: inward component at least the sideways one (within 45 degrees).
            if inward * inward * 2 < t.length * t.length || inward <= 0 { return .fail }
            return down >= parameters.minTouches ? .begin : .none
        case .began, .changed:
            return down == 0 ? .end : .change
        case .recognized, .ended, .cancelled, .failed:
            return .none
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep { .none }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        var m = core.translationMeasurement()
        m.edge = edge
        return m
    }

    mutating func reset() { edge = nil }
}
