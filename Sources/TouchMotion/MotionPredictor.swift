// SPDX-License-Identifier: MIT
import TouchCore

/// How a touch's position ahead of its newest report is guessed.
package enum PredictorKind: String, Hashable, Sendable, CaseIterable {
    /// No prediction: the newest report's position (what a client drawing the
    /// latest report shows).
    case none
    /// The line through the last two reports, as far ahead as asked.
    case linear
    /// The line through the last two reports, at most min(8 ms, half the last
    /// interval) ahead: Android's cap on resampling's extrapolation.
    case cappedLinear = "linear-capped"
    /// A quadratic in time fitted by least squares to the last reports
    /// (Chromium's `LeastSquaresPredictor` fits one to its last three).
    case quadratic
    /// A Kalman filter per axis on position, velocity, acceleration and jerk,
    /// predicting with damped higher terms (as ink-stroke-modeler and
    /// Chromium's `KalmanPredictor` do).
    case kalman
}

/// The predictor touchd uses for a kind of touch and how far ahead it may go,
/// chosen on the bundled recordings (docs/performance.md, "Resampling and prediction").
package struct PredictionDefault: Hashable, Sendable {
    /// The method.
    package var kind: PredictorKind
    /// The longest horizon offered, in milliseconds: past it the prediction's
    /// overshoot where a contact stops outweighs what it gains.
    package var maxHorizonMilliseconds: Double

    /// Creates one.
    package init(kind: PredictorKind, maxHorizonMilliseconds: Double) {
        self.kind = kind
        self.maxHorizonMilliseconds = maxHorizonMilliseconds
    }

    /// The default for a touch of this type and tool: the line through the
    /// last two reports for fingers (best at every horizon on touchscreens and
    /// touchpads), up to 16 ms on touchscreens and 8 ms on touchpads, whose
    /// reports are slower and noisier; the Kalman filter up to 25 ms for pens,
    /// where it is best by far. Palms and pucks get no prediction.
    package static func recommended(type: TouchType, tool: Tool) -> PredictionDefault {
        switch (type, tool) {
        case (.direct, .finger): return PredictionDefault(kind: .linear, maxHorizonMilliseconds: 16)
        case (.indirect, .finger): return PredictionDefault(kind: .linear, maxHorizonMilliseconds: 8)
        case (.stylus, .pen), (.stylus, .pencil), (.stylus, .brush), (.stylus, .airbrush), (.stylus, .eraser):
            return PredictionDefault(kind: .kalman, maxHorizonMilliseconds: 25)
        default: return PredictionDefault(kind: .none, maxHorizonMilliseconds: 0)
        }
    }
}

/// Guesses a touch's position some milliseconds after its newest report.
///
/// Pure and allocation-free after it is made: reports go in one at a time with
/// their kernel times; a prediction is a function of what went in.
package struct MotionPredictor: Sendable {
    /// The method.
    package let kind: PredictorKind
    /// Reports used by the linear and quadratic methods, and the Kalman filter's time step.
    private var history: MotionHistory
    private var kalmanX: KalmanAxis
    private var kalmanY: KalmanAxis
    private var kalmanUpdates = 0
    /// Reports the quadratic fit uses.
    package static let quadraticWindow = 5
    /// Reports the Kalman filter takes before it predicts (ink-stroke-modeler's
    /// `min_stable_iteration`); before that it predicts as ``PredictorKind/cappedLinear``.
    package static let kalmanStableReports = 4

    /// Creates a predictor. `unitsPerMillimetre` scales the Kalman filter's
    /// noise, tuned in millimetres, to the unit of the positions given.
    package init(kind: PredictorKind, unitsPerMillimetre: Double = 1, kalman: KalmanParameters = .standard) {
        self.kind = kind
        self.history = MotionHistory(capacity: 8)
        let s2 = unitsPerMillimetre * unitsPerMillimetre
        self.kalmanX = KalmanAxis(processNoise: kalman.processNoise * s2, measurementNoise: kalman.measurementNoise * s2)
        self.kalmanY = kalmanX
        self.kalmanParameters = kalman
    }

    /// The Kalman filter's parameters.
    package let kalmanParameters: KalmanParameters

    /// The newest report, if any.
    package var newest: MotionSample? { history.newest }

    /// Adds a real report.
    package mutating func report(_ sample: MotionSample) {
        let first = history.isEmpty
        let replaced = !first && sample.time <= history[back: 0].time
        history.append(sample)
        guard kind == .kalman, !replaced else { return }
        if first {
            kalmanX.start(at: sample.location.x)
            kalmanY.start(at: sample.location.y)
        } else {
            kalmanX.step(measured: sample.location.x)
            kalmanY.step(measured: sample.location.y)
        }
        kalmanUpdates += 1
    }

    /// Starts over for a new touch, keeping the storage.
    package mutating func reset() {
        history.removeAll()
        kalmanUpdates = 0
    }

    /// The position `milliseconds` after the newest report (nil before any report).
    package func predicted(millisecondsAhead milliseconds: Double) -> Point? {
        guard let newest = history.newest else { return nil }
        let ahead = max(0, milliseconds)
        switch kind {
        case .none:
            return newest.location
        case .linear:
            return linear(ahead: ahead) ?? newest.location
        case .cappedLinear:
            return cappedLinear(ahead: ahead) ?? newest.location
        case .quadratic:
            return quadratic(ahead: ahead) ?? linear(ahead: ahead) ?? newest.location
        case .kalman:
            guard kalmanUpdates >= Self.kalmanStableReports, let step = history.meanIntervalMilliseconds, step > 0 else {
                return cappedLinear(ahead: ahead) ?? newest.location
            }
            let t = ahead / step
            return Point(x: kalmanX.predicted(steps: t, parameters: kalmanParameters),
                         y: kalmanY.predicted(steps: t, parameters: kalmanParameters))
        }
    }

    private func linear(ahead: Double) -> Point? {
        guard history.count >= 2 else { return nil }
        let b = history[back: 0], a = history[back: 1]
        let dt = b.time.milliseconds(since: a.time)
        guard dt > 0 else { return nil }
        return b.location + (b.location - a.location) * (ahead / dt)
    }

    private func cappedLinear(ahead: Double) -> Point? {
        guard history.count >= 2 else { return nil }
        let dt = history[back: 0].time.milliseconds(since: history[back: 1].time)
        guard dt <= ResamplingPolicy.standard.longestIntervalToExtrapolateMilliseconds else { return history[back: 0].location }
        return linear(ahead: min(ahead, ResamplingPolicy.standard.maxExtrapolationMilliseconds,
                                 ResamplingPolicy.standard.extrapolationFraction * dt))
    }

    /// Least squares of x(t) = c0 + c1 t + c2 t^2 over the window, t in ms from the newest report.
    private func quadratic(ahead: Double) -> Point? {
        let n = min(history.count, Self.quadraticWindow)
        guard n >= 3 else { return nil }
        let t0 = history[back: 0].time
        var s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0, s4 = 0.0
        var sx0 = 0.0, sx1 = 0.0, sx2 = 0.0, sy0 = 0.0, sy1 = 0.0, sy2 = 0.0
        for back in 0..<n {
            let s = history[back: back]
            let t = s.time.milliseconds(since: t0)
            let t2 = t * t
            s0 += 1; s1 += t; s2 += t2; s3 += t2 * t; s4 += t2 * t2
            sx0 += s.location.x; sx1 += s.location.x * t; sx2 += s.location.x * t2
            sy0 += s.location.y; sy1 += s.location.y * t; sy2 += s.location.y * t2
        }
        // Normal equations [[s0 s1 s2][s1 s2 s3][s2 s3 s4]] c = rhs, by Cramer's rule.
        let det = s0 * (s2 * s4 - s3 * s3) - s1 * (s1 * s4 - s3 * s2) + s2 * (s1 * s3 - s2 * s2)
        guard abs(det) > 1e-9 else { return nil }
        func solve(_ r0: Double, _ r1: Double, _ r2: Double) -> Double {
            let c0 = r0 * (s2 * s4 - s3 * s3) - s1 * (r1 * s4 - s3 * r2) + s2 * (r1 * s3 - s2 * r2)
            let c1 = s0 * (r1 * s4 - r2 * s3) - r0 * (s1 * s4 - s3 * s2) + s2 * (s1 * r2 - r1 * s2)
            let c2 = s0 * (s2 * r2 - s3 * r1) - s1 * (s1 * r2 - r1 * s2) + r0 * (s1 * s3 - s2 * s2)
            return (c0 + c1 * ahead + c2 * ahead * ahead) / det
        }
        return Point(x: solve(sx0, sx1, sx2), y: solve(sy0, sy1, sy2))
    }
}

/// The Kalman filter's tuning, in millimetres and report intervals.
package struct KalmanParameters: Hashable, Sendable {
    /// Variance of the jerk that drives the motion, per step (mm^2).
    package var processNoise: Double
    /// Variance of a report's position error (mm^2).
    package var measurementNoise: Double
    /// Weight of the acceleration term when predicting (ink-stroke-modeler: 0.5).
    package var accelerationWeight: Double
    /// Weight of the jerk term when predicting (ink-stroke-modeler: 0.1).
    package var jerkWeight: Double

    /// Creates parameters.
    package init(processNoise: Double, measurementNoise: Double, accelerationWeight: Double = 0.5, jerkWeight: Double = 0.1) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
        self.accelerationWeight = accelerationWeight
        self.jerkWeight = jerkWeight
    }

    /// The tuning chosen on the bundled recordings (docs/performance.md).
    /// Only the ratio of the two noises matters once the filter settles: 0.1
    /// did best of 0.1 to 10 on the pen and finger strokes.
    package static let standard = KalmanParameters(processNoise: 0.01, measurementNoise: 0.1)
}

/// A constant-jerk Kalman filter on one axis, time in steps of one report
/// interval: state (position, velocity, acceleration, jerk), position measured.
struct KalmanAxis: Sendable {
    private var state = SIMD4<Double>(0, 0, 0, 0)
    private var covariance = Matrix4.identity
    private let processNoise: Double
    private let measurementNoise: Double

    init(processNoise: Double, measurementNoise: Double) {
        self.processNoise = processNoise
        self.measurementNoise = measurementNoise
    }

    mutating func start(at position: Double) {
        state = SIMD4(position, 0, 0, 0)
        covariance = Matrix4(diagonal: SIMD4(measurementNoise, 1, 1, 1))
    }

    /// One step: predict with the motion model, then correct with the measured position.
    mutating func step(measured z: Double) {
        state = Matrix4.transition.times(state)
        covariance = Matrix4.transition.times(covariance).timesTransposed(Matrix4.transition)
            + Matrix4.jerkNoise.scaled(by: processNoise)
        let innovation = z - state[0]
        let s = covariance.r0[0] + measurementNoise
        let gain = SIMD4(covariance.r0[0], covariance.r1[0], covariance.r2[0], covariance.r3[0]) / s
        state += gain * innovation
        // P = (I - K H) P, H = [1 0 0 0]: subtract K times P's first row.
        let first = covariance.r0
        covariance.r0 -= gain[0] * first
        covariance.r1 -= gain[1] * first
        covariance.r2 -= gain[2] * first
        covariance.r3 -= gain[3] * first
    }

    func predicted(steps t: Double, parameters: KalmanParameters) -> Double {
        state[0] + state[1] * t + parameters.accelerationWeight * state[2] * t * t / 2
            + parameters.jerkWeight * state[3] * t * t * t / 6
    }
}

/// A 4x4 matrix as four rows, on the stack.
struct Matrix4: Sendable {
    var r0, r1, r2, r3: SIMD4<Double>

    static let identity = Matrix4(diagonal: SIMD4(1, 1, 1, 1))
    /// Constant jerk over one step.
    static let transition = Matrix4(r0: SIMD4(1, 1, 0.5, 1.0 / 6), r1: SIMD4(0, 1, 1, 0.5), r2: SIMD4(0, 0, 1, 1), r3: SIMD4(0, 0, 0, 1))
    /// g g^T for g = (1/6, 1/2, 1, 1): a random jerk change's effect on each state over a step.
    static let jerkNoise: Matrix4 = {
        let g = SIMD4<Double>(1.0 / 6, 0.5, 1, 1)
        return Matrix4(r0: g * g[0], r1: g * g[1], r2: g * g[2], r3: g * g[3])
    }()

    init(r0: SIMD4<Double>, r1: SIMD4<Double>, r2: SIMD4<Double>, r3: SIMD4<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2; self.r3 = r3
    }

    init(diagonal d: SIMD4<Double>) {
        self.init(r0: SIMD4(d[0], 0, 0, 0), r1: SIMD4(0, d[1], 0, 0), r2: SIMD4(0, 0, d[2], 0), r3: SIMD4(0, 0, 0, d[3]))
    }

    func times(_ v: SIMD4<Double>) -> SIMD4<Double> {
        SIMD4((r0 * v).sum(), (r1 * v).sum(), (r2 * v).sum(), (r3 * v).sum())
    }

    /// self x m: each row of the result is a combination of m's rows.
    func times(_ m: Matrix4) -> Matrix4 {
        func row(_ a: SIMD4<Double>) -> SIMD4<Double> { m.r0 * a[0] + m.r1 * a[1] + m.r2 * a[2] + m.r3 * a[3] }
        return Matrix4(r0: row(r0), r1: row(r1), r2: row(r2), r3: row(r3))
    }

    /// self x m^T: element (i, j) is row i of self dot row j of m.
    func timesTransposed(_ m: Matrix4) -> Matrix4 {
        func row(_ a: SIMD4<Double>) -> SIMD4<Double> { SIMD4((a * m.r0).sum(), (a * m.r1).sum(), (a * m.r2).sum(), (a * m.r3).sum()) }
        return Matrix4(r0: row(r0), r1: row(r1), r2: row(r2), r3: row(r3))
    }

    func scaled(by s: Double) -> Matrix4 { Matrix4(r0: r0 * s, r1: r1 * s, r2: r2 * s, r3: r3 * s) }

    static func + (a: Matrix4, b: Matrix4) -> Matrix4 { Matrix4(r0: a.r0 + b.r0, r1: a.r1 + b.r1, r2: a.r2 + b.r2, r3: a.r3 + b.r3) }
}
