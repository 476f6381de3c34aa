// SPDX-License-Identifier: MIT
import TouchCore

/// One contact's real reports, in millimetres, oldest first: the truth that
/// predictions and resampled positions are scored against.
package struct MotionStroke: Sendable {
    /// The reports, in time order, positions in millimetres.
    package var samples: [MotionSample]

    /// Creates a stroke; reports not later than the one before are dropped.
    package init(samples: [MotionSample]) {
        var kept: [MotionSample] = []
        kept.reserveCapacity(samples.count)
        for s in samples where kept.last.map({ s.time > $0.time }) ?? true { kept.append(s) }
        self.samples = kept
    }

    /// Time of the first report.
    package var start: Timestamp { samples.first?.time ?? .zero }
    /// Time of the last report.
    package var end: Timestamp { samples.last?.time ?? .zero }

    /// The real position at `time`, interpolated between the reports around it
    /// (clamped to the first and last report).
    package func position(at time: Timestamp) -> Point {
        guard let first = samples.first, let last = samples.last else { return .zero }
        if time <= first.time { return first.location }
        if time >= last.time { return last.location }
        // Binary search for the first report after `time`.
        var lo = 0, hi = samples.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if samples[mid].time <= time { lo = mid + 1 } else { hi = mid }
        }
        return MotionSample.between(samples[lo - 1], samples[lo], at: time).location
    }

    /// Speed in mm/s over the `window` milliseconds before `time`.
    package func speed(at time: Timestamp, window: Double = 10) -> Double {
        position(at: time).distance(to: position(at: time.adding(milliseconds: -window))) / window * 1000
    }

    /// The median interval between reports, in milliseconds.
    package var medianIntervalMilliseconds: Double {
        guard samples.count >= 2 else { return 0 }
        var d = (1..<samples.count).map { samples[$0].time.milliseconds(since: samples[$0 - 1].time) }
        d.sort()
        return d[d.count / 2]
    }
}

/// How one predictor did at one horizon over a set of strokes.
package struct PredictionScore: Hashable, Sendable {
    /// The predictor.
    package var kind: PredictorKind
    /// How far ahead of the newest report, in milliseconds.
    package var horizonMilliseconds: Double
    /// Predictions scored.
    package var count: Int
    /// Mean and 95th percentile of the distance to the real position (mm).
    package var meanError: Double, p95Error: Double
    /// Mean signed error along the path (mm): negative is behind the contact, positive ahead of it.
    package var meanAlong: Double
    /// 95th percentile of the error along the path, either way (mm).
    package var p95Along: Double
    /// Mean and 95th percentile of the error across the path (mm).
    package var meanAcross: Double, p95Across: Double
    /// Mean error where the contact moved faster than ``MotionQuality/highSpeed`` (mm), and how many.
    package var highSpeedMeanError: Double, highSpeedCount: Int
    /// Mean over stops of the furthest a prediction went past where the contact stopped (mm), and how many stops.
    package var stopOvershoot: Double, stops: Int
}

/// Scores of predictors and resampling on real strokes: error at each horizon
/// against the real position then, overshoot where the contact stops, and the
/// jitter of positions drawn once per display frame.
package enum MotionQuality {
    /// The horizons reported, in milliseconds.
    package static let horizons: [Double] = [4, 8, 16, 25]
    /// "High speed": faster than this, in mm/s over the last 10 ms.
    package static let highSpeed: Double = 150
    /// A stop: the speed over the last 20 ms falls under this (mm/s)...
    package static let stoppedSpeed: Double = 20
    /// ...after having been over this (mm/s).
    package static let movingSpeed: Double = 80

    /// Scores one predictor at each horizon over the strokes: after each real
    /// report, a prediction `h` ahead is compared with the real position `h`
    /// later (interpolated between the reports around it; predictions whose
    /// time is past the stroke's last report are not scored).
    package static func score(_ kind: PredictorKind, strokes: [MotionStroke], horizons: [Double] = horizons,
                             kalman: KalmanParameters = .standard) -> [PredictionScore] {
        var errors = [[Double]](repeating: [], count: horizons.count)
        var along = [[Double]](repeating: [], count: horizons.count)
        var across = [[Double]](repeating: [], count: horizons.count)
        var fast = [(sum: Double, count: Int)](repeating: (0, 0), count: horizons.count)
        var overshoot = [(sum: Double, count: Int)](repeating: (0, 0), count: horizons.count)
        var predictor = MotionPredictor(kind: kind, kalman: kalman)
        var predictions = [[Point]](repeating: [], count: horizons.count)
        for stroke in strokes {
            predictor.reset()
            for h in predictions.indices { predictions[h].removeAll(keepingCapacity: true) }
            for sample in stroke.samples {
                predictor.report(sample)
                for (h, horizon) in horizons.enumerated() {
                    let p = predictor.predicted(millisecondsAhead: horizon) ?? sample.location
                    predictions[h].append(p)
                    let target = sample.time.adding(milliseconds: horizon)
                    guard target <= stroke.end else { continue }
                    let truth = stroke.position(at: target)
                    let e = p - truth
                    errors[h].append(e.length)
                    if stroke.speed(at: target) > highSpeed { fast[h].sum += e.length; fast[h].count += 1 }
                    let direction = truth - stroke.position(at: target.adding(milliseconds: -10))
                    let length = direction.length
                    if length > 0.01 {
                        let d = direction / length
                        along[h].append(e.x * d.x + e.y * d.y)
                        across[h].append(abs(e.x * d.y - e.y * d.x))
                    }
                }
            }
            for stop in stops(of: stroke) {
                for (h, horizon) in horizons.enumerated() {
                    var worst = 0.0
                    for (i, s) in stroke.samples.enumerated()
                    where s.time >= stop.time.adding(milliseconds: -horizon) && s.time <= stop.time.adding(milliseconds: horizon) {
                        let past = predictions[h][i] - stop.location
                        worst = max(worst, past.x * stop.direction.x + past.y * stop.direction.y)
                    }
                    overshoot[h].sum += worst
                    overshoot[h].count += 1
                }
            }
        }
        return horizons.indices.map { h in
            let absAlong = along[h].map(abs)
            return PredictionScore(
                kind: kind, horizonMilliseconds: horizons[h], count: errors[h].count,
                meanError: mean(errors[h]), p95Error: percentile(errors[h], 0.95),
                meanAlong: mean(along[h]), p95Along: percentile(absAlong, 0.95),
                meanAcross: mean(across[h]), p95Across: percentile(across[h], 0.95),
                highSpeedMeanError: fast[h].count > 0 ? fast[h].sum / Double(fast[h].count) : 0, highSpeedCount: fast[h].count,
                stopOvershoot: overshoot[h].count > 0 ? overshoot[h].sum / Double(overshoot[h].count) : 0, stops: overshoot[h].count)
        }
    }

    /// A place where the contact stopped: its time, position and the direction it came from.
    package struct Stop: Hashable, Sendable {
        /// The first report of the rest (within 0.1 mm of where the contact stays).
        package var time: Timestamp
        /// Where the contact stopped (mm).
        package var location: Point
        /// Unit direction of the motion over the 30 ms before.
        package var direction: Point
    }

    /// The stops of a stroke: reports where the speed over the last 20 ms falls
    /// under ``stoppedSpeed`` after having been over ``movingSpeed``.
    package static func stops(of stroke: MotionStroke) -> [Stop] {
        var out: [Stop] = []
        var armed = false
        for (j, s) in stroke.samples.enumerated() {
            let v = stroke.speed(at: s.time, window: 20)
            if v > movingSpeed { armed = true; continue }
            guard armed, v < stoppedSpeed else { continue }
            armed = false
            // The speed lags the stop by its window: the stop is the first report of the rest.
            var first = j
            while first > 0 && stroke.samples[first - 1].location.distance(to: s.location) < 0.1 { first -= 1 }
            let stopped = stroke.samples[first]
            let d = stopped.location - stroke.position(at: stopped.time.adding(milliseconds: -30))
            guard d.length > 0.1 else { continue }
            out.append(Stop(time: stopped.time, location: stopped.location, direction: d / d.length))
        }
        return out
    }

    /// What a client draws once a frame.
    package enum FramePosition: String, Hashable, Sendable, CaseIterable {
        /// The newest report at the frame (today's `coalesce`).
        case latestReport = "latest-report"
        /// Resampled at the frame's time less the policy's latency (``TouchResampler``).
        case resampled
        /// The real position at the same time as ``resampled``, knowing every report: the motion's own.
        case motion
    }

    /// The jitter of positions drawn once a frame: how much the distance moved
    /// from one frame to the next strays from the contact's own, where the
    /// contact moves steadily. The contact's own per-frame motion at frame k is
    /// the mean over frames k-1...k+1 of the real motion (every report known,
    /// at the same sampling time as ``FramePosition/resampled``); a frame counts
    /// when that real motion is over 0.1 mm and within 25 % of its mean there
    /// (a steady stroke). The result is the root mean square of the
    /// differences, in the stroke's unit. Frames are every `periodMilliseconds`
    /// at four phases against the reports, from the first frame after a
    /// stroke's first report plus the latency to its last report.
    package static func jitter(_ method: FramePosition, strokes: [MotionStroke], periodMilliseconds: Double,
                              policy: ResamplingPolicy = .standard) -> Double {
        var squares = 0.0, count = 0
        var resampler = TouchResampler(policy: policy, capacity: 16)
        var drawn: [Double] = [], real: [Double] = []
        for stroke in strokes {
            for phase in 0..<4 {
                let offset = periodMilliseconds * Double(phase) / 4
                guard let frames = FrameTiming(periodMilliseconds: periodMilliseconds,
                                               reference: stroke.start.adding(milliseconds: offset)) else { continue }
                resampler.reset()
                drawn.removeAll(keepingCapacity: true)
                real.removeAll(keepingCapacity: true)
                var frame = frames.frame(atOrAfter: stroke.start.adding(milliseconds: policy.latencyMilliseconds))
                var next = 0
                var previous: (drawn: Point, real: Point)?
                while frame <= stroke.end {
                    while next < stroke.samples.count && stroke.samples[next].time <= frame {
                        resampler.report(stroke.samples[next])
                        next += 1
                    }
                    let truth = stroke.position(at: frame.adding(milliseconds: -policy.latencyMilliseconds))
                    let p: Point
                    switch method {
                    case .latestReport: p = stroke.samples[next - 1].location
                    case .resampled: p = resampler.sample(forFrameAt: frame)?.sample.location ?? stroke.samples[next - 1].location
                    case .motion: p = truth
                    }
                    if let previous {
                        drawn.append(p.distance(to: previous.drawn))
                        real.append(truth.distance(to: previous.real))
                    }
                    previous = (p, truth)
                    frame = frames.frame(after: frame)
                }
                guard real.count >= 3 else { continue }
                for k in 1..<(real.count - 1) {
                    let own = (real[k - 1] + real[k] + real[k + 1]) / 3
                    guard own > 0.1, abs(real[k - 1] - own) <= 0.25 * own, abs(real[k + 1] - own) <= 0.25 * own else { continue }
                    squares += (drawn[k] - own) * (drawn[k] - own)
                    count += 1
                }
            }
        }
        return count > 0 ? (squares / Double(count)).squareRoot() : 0
    }

    /// Mean of the values (0 when there are none).
    package static func mean(_ values: [Double]) -> Double {
        values.isEmpty ? 0 : values.reduce(0, +) / Double(values.count)
    }

    /// The `q` quantile of the values, nearest rank (0 when there are none).
    package static func percentile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return 0 }
        let sorted = values.sorted()
        let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
        return sorted[min(max(rank, 0), sorted.count - 1)]
    }
}
