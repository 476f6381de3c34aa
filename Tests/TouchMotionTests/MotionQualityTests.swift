// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import TouchMotion

/// A stroke with a report every `interval` ms of the position f(t in ms).
private func stroke(count: Int, interval: Double, _ f: (Double) -> Point) -> MotionStroke {
    MotionStroke(samples: (0..<count).map { i in
        let t = Double(i) * interval
        return MotionSample(time: Timestamp(microseconds: 5_000_000).adding(milliseconds: t), location: f(t))
    })
}

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

@Suite struct MotionQualityTests {
    @Test func withoutPredictionASteadyStrokeIsSpeedTimesHorizonBehind() throws {
        // 0.3 mm/ms along a diagonal: every prediction is 0.3 h behind, none across.
        let s = stroke(count: 50, interval: 8) { Point(x: 0.3 * $0 * 0.6, y: 0.3 * $0 * 0.8) }
        let scores = MotionQuality.score(.none, strokes: [s], horizons: [4, 16])
        #expect(scores.count == 2)
        for score in scores {
            let h = score.horizonMilliseconds
            #expect(close(score.meanError, 0.3 * h))
            #expect(close(score.p95Error, 0.3 * h))
            #expect(close(score.meanAlong, -0.3 * h))
            #expect(close(score.meanAcross, 0))
            // 300 mm/s is high speed; every target with 10 ms of stroke before it counts.
            #expect(score.highSpeedCount > 40)
            #expect(close(score.highSpeedMeanError, 0.3 * h))
            // Only reports whose target is inside the stroke are scored.
            #expect(score.count == 50 - Int((h / 8).rounded(.up)))
        }
    }

    @Test func linearIsExactOnASteadyStroke() throws {
        let s = stroke(count: 30, interval: 5) { Point(x: 0.2 * $0, y: 1) }
        for score in MotionQuality.score(.linear, strokes: [s]) {
            // Only after the first report, with no line yet, is it 0.2 h behind.
            #expect(close(score.meanError, 0.2 * score.horizonMilliseconds / Double(score.count)))
            #expect(close(score.p95Error, 0))
            #expect(close(score.p95Across, 0))
        }
    }

    @Test func overshootAtAStopIsHowFarPredictionsRunPastIt() throws {
        // 0.2 mm/ms for 100 ms, then at rest at x = 20 for 100 ms; reports every 5 ms.
        let s = stroke(count: 41, interval: 5) { Point(x: 0.2 * min($0, 100), y: 0) }
        let stops = MotionQuality.stops(of: s)
        #expect(stops.count == 1)
        #expect(stops.first?.time == Timestamp(microseconds: 5_000_000).adding(milliseconds: 100))
        #expect(stops.first?.location == Point(x: 20, y: 0))
        let horizons: [Double] = [4, 16]
        let none = MotionQuality.score(.none, strokes: [s], horizons: horizons)
        let linear = MotionQuality.score(.linear, strokes: [s], horizons: horizons)
        let capped = MotionQuality.score(.cappedLinear, strokes: [s], horizons: horizons)
        for h in horizons.indices {
            #expect(none[h].stops == 1)
            #expect(close(none[h].stopOvershoot, 0))
            // The last moving report predicts 0.2 h past the stop.
            #expect(close(linear[h].stopOvershoot, 0.2 * horizons[h]))
            // Capped at half the 5 ms interval.
            #expect(close(capped[h].stopOvershoot, 0.2 * min(horizons[h], 2.5)))
        }
    }

    @Test func resamplingTakesOutTheJudderOfUnevenReportsPerFrame() {
        // 90 Hz reports under 60 Hz frames: one or two reports a frame.
        let v = 0.25
        let s = stroke(count: 90, interval: 1000.0 / 90) { Point(x: v * $0, y: 0) }
        let latest = MotionQuality.jitter(.latestReport, strokes: [s], periodMilliseconds: 1000.0 / 60)
        let resampled = MotionQuality.jitter(.resampled, strokes: [s], periodMilliseconds: 1000.0 / 60)
        let motion = MotionQuality.jitter(.motion, strokes: [s], periodMilliseconds: 1000.0 / 60)
        // Moves alternate between one and two reports' distance around 1.5: half a report's either way.
        #expect(close(latest, v * 1000 / 90 / 2, 0.05))
        // What remains is where the 5.6 ms cap on extrapolation bites (a frame's sampling time
        // more than half an interval past the newest report) and the touch's first frame.
        #expect(resampled < latest / 20)
        #expect(close(motion, 0, 1e-3))
    }

    @Test func jitterIsMeasuredWhereTheMotionIsSteadyOnly() {
        // A contact at rest, then moving: frames at rest do not count, whatever is drawn.
        let s = stroke(count: 120, interval: 5) { Point(x: $0 < 200 ? 0 : 0.2 * ($0 - 200), y: 0) }
        let resting = MotionStroke(samples: Array(s.samples.prefix(40)))
        #expect(MotionQuality.jitter(.latestReport, strokes: [resting], periodMilliseconds: 1000.0 / 60) == 0)
        // 200 Hz reports 1 mm apart under 60 Hz frames: 3 mm two frames in three, 4 mm in the
        // third, around 10/3 mm: sqrt((2 (1/3)^2 + (2/3)^2) / 3) = sqrt(2) / 3.
        let latest = MotionQuality.jitter(.latestReport, strokes: [s], periodMilliseconds: 1000.0 / 60)
        #expect(close(latest, 2.0.squareRoot() / 3, 0.02))
    }

    @Test func percentileAndMeanOfKnownValues() {
        let values = (1...100).map(Double.init)
        #expect(MotionQuality.percentile(values, 0.95) == 95)
        #expect(MotionQuality.mean(values) == 50.5)
        #expect(MotionQuality.percentile([], 0.5) == 0)
    }

    @Test func positionInterpolatesAndClampsToTheStroke() {
        let s = stroke(count: 3, interval: 10) { Point(x: $0, y: 0) }
        #expect(s.position(at: Timestamp(microseconds: 5_000_000).adding(milliseconds: 15)).x == 15)
        #expect(s.position(at: Timestamp(microseconds: 4_000_000)).x == 0)
        #expect(s.position(at: Timestamp(microseconds: 6_000_000)).x == 20)
        #expect(s.medianIntervalMilliseconds == 10)
    }
}
