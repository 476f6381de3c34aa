// SPDX-License-Identifier: MIT
import Glibc
import TouchCore
import TouchMotion

/// Resampling and prediction per touch (docs/semantics.md §14): ten touches
/// reported at 240 Hz, each report added to the touch's resampler and
/// predictor, and, as if every report were a display frame (the worst case),
/// a resampled position and a prediction 16 ms ahead taken. Timed per frame of
/// ten touches and divided by ten; allocations counted after a warm-up stroke.
func benchmarkMotion(kind: PredictorKind, strokes: Int = 200, reportsPerStroke: Int = 480) {
    let touches = 10
    var resamplers = [TouchResampler](repeating: TouchResampler(), count: touches)
    var predictors = [MotionPredictor](repeating: MotionPredictor(kind: kind), count: touches)
    var latency = Latency()
    var sink = 0.0
    var time = Timestamp(microseconds: 1_000_000)
    let interval = 1000.0 / 240
    func stroke(_ s: Int, timed: Bool) {
        for i in 0..<touches { resamplers[i].reset(); predictors[i].reset() }
        for r in 0..<reportsPerStroke {
            time = time.adding(milliseconds: interval)
            let angle = Double(r) * 0.02 + Double(s)
            let start = nowNanoseconds()
            for i in 0..<touches {
                let sample = MotionSample(time: time, location: Point(x: 100 * cos(angle) + Double(i) * 50, y: 100 * sin(angle)),
                                          force: 0.5)
                resamplers[i].report(sample)
                predictors[i].report(sample)
                sink += resamplers[i].sample(forFrameAt: time)?.sample.location.x ?? 0
                sink += predictors[i].predicted(millisecondsAhead: 16)?.x ?? 0
            }
            if timed { latency.record((nowNanoseconds() - start) / UInt64(touches)) }
        }
    }
    stroke(0, timed: false)
    for s in 1..<strokes { stroke(s, timed: true) }
    let mallocs = countAllocations { for s in 0..<20 { stroke(s, timed: false) } }
    let reports = 20 * reportsPerStroke * touches
    report("resample + predict (\(kind.rawValue), 16 ms) per touch and report",
           latency.summary + "; \(fixed(Double(mallocs) / Double(reports), 3)) allocations per touch report (\(mallocs) in \(reports))")
    if sink.isNaN { print("") }
}
