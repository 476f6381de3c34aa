// SPDX-License-Identifier: MIT
import ArgumentParser
import Session
import TouchCore
import TouchMotion
import Wire

/// `touchctl motion-quality`: how far behind a drawing client is, what each
/// predictor does about it, and how resampling steadies positions per frame.
struct MotionQualityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "motion-quality",
        abstract: "Score prediction and resampling on the strokes of traces.",
        discussion: """
            Every contact with at least --min-reports reports that moves is a stroke, grouped as \
            touchscreen fingers, touchpad fingers and pens. After each report, each predictor guesses \
            the position 4, 8, 16 and 25 ms ahead; the real position then (interpolated between the \
            reports around it) is the truth. Jitter is the spread of frame-to-frame motion of positions \
            drawn once a frame at 60 and 120 Hz: the latest report (coalesce), resampled at frame time \
            - 5 ms, and the motion itself. docs/performance.md explains the tables.
            """
    )

    @OptionGroup var input: TraceInputOptions

    @Option(help: "Strokes need at least this many reports.")
    var minReports = 10

    @Option(help: "The Kalman predictor's process noise (mm^2 per report interval).")
    var kalmanProcessNoise = KalmanParameters.standard.processNoise

    @Option(help: "The Kalman predictor's measurement noise (mm^2).")
    var kalmanMeasurementNoise = KalmanParameters.standard.measurementNoise

    @Flag(help: "Split each group by the strokes' report rate: under 90 Hz, 90 to 150 Hz, 150 Hz and over.")
    var byRate = false

    @Flag(help: "One JSON object per table row instead of text.")
    var json = false

    func validate() throws {
        if minReports < 3 { throw ValidationError("--min-reports must be at least 3") }
        if !(kalmanProcessNoise > 0) { throw ValidationError("--kalman-process-noise must be positive") }
        if !(kalmanMeasurementNoise > 0) { throw ValidationError("--kalman-measurement-noise must be positive") }
    }

    /// The groups strokes are scored in.
    enum Group: String, CaseIterable {
        case touchscreen = "touchscreen fingers"
        case touchpad = "touchpad fingers"
        case pen = "pens"
    }

    func run() throws {
        let recordings = try readRecordings(input)
        let session = ReplaySession(recordings: recordings, configuration: try loadConfiguration(input))
        var pipeline = session.makePipeline()
        var open: [Key: (group: Group, samples: [MotionSample])] = [:]
        var strokes: [Group: [MotionStroke]] = [:]
        func close(_ key: Key) {
            guard let s = open.removeValue(forKey: key) else { return }
            let stroke = MotionStroke(samples: s.samples)
            guard stroke.samples.count >= minReports, Self.moves(stroke) else { return }
            strokes[s.group, default: []].append(stroke)
        }
        session.frames(&pipeline) { frame in
            for t in frame.touches {
                let key = Key(device: t.device, touch: t.id)
                guard let group = Self.group(of: t) else { close(key); continue }
                switch t.phase {
                case .began:
                    close(key)
                    open[key] = (group, [MotionSample(millimetresOf: t)])
                case .moved:
                    open[key]?.samples.append(MotionSample(millimetresOf: t))
                case .ended, .cancelled, .hover:
                    // The lift's report repeats the last position at a later time: not motion.
                    close(key)
                }
            }
        }
        for key in Array(open.keys) { close(key) }

        var out = Output()
        for group in Group.allCases {
            for (name, list) in Self.split(strokes[group] ?? [], group: group, byRate: byRate) where !list.isEmpty {
                let rates = list.map { 1000 / max($0.medianIntervalMilliseconds, 0.001) }
                let reports = list.reduce(0) { $0 + $1.samples.count }
                let scores = PredictorKind.allCases.map {
                    MotionQuality.score($0, strokes: list, kalman: KalmanParameters(processNoise: kalmanProcessNoise, measurementNoise: kalmanMeasurementNoise))
                }
                let jitter = [1000.0 / 60, 1000.0 / 120].map { period in
                    (period, MotionQuality.FramePosition.allCases.map { MotionQuality.jitter($0, strokes: list, periodMilliseconds: period) })
                }
                if json {
                    writeJSON(group: name, strokes: list.count, reports: reports, rates: rates, scores: scores, jitter: jitter, to: &out)
                } else {
                    writeText(group: name, strokes: list.count, reports: reports, rates: rates, scores: scores, jitter: jitter, to: &out)
                }
            }
        }
        if strokes.isEmpty && !json { out.line("no strokes with \(minReports) reports that move") }
        out.flush()
    }

    private struct Key: Hashable { var device: DeviceID; var touch: TouchID }

    /// The group's strokes, or its strokes in bands of report rate (named "pens, 150 Hz and over").
    static func split(_ list: [MotionStroke], group: Group, byRate: Bool) -> [(String, [MotionStroke])] {
        guard byRate else { return [(group.rawValue, list)] }
        func rate(_ s: MotionStroke) -> Double { 1000 / max(s.medianIntervalMilliseconds, 0.001) }
        return [
            (group.rawValue + ", under 90 Hz", list.filter { rate($0) < 90 }),
            (group.rawValue + ", 90 to 150 Hz", list.filter { rate($0) >= 90 && rate($0) < 150 }),
            (group.rawValue + ", 150 Hz and over", list.filter { rate($0) >= 150 }),
        ]
    }

    static func group(of t: Touch) -> Group? {
        if t.isSynthetic { return nil }
        switch (t.type, t.tool) {
        case (.direct, .finger): return .touchscreen
        case (.indirect, .finger): return .touchpad
        case (.stylus, .pen), (.stylus, .pencil), (.stylus, .brush), (.stylus, .airbrush), (.stylus, .eraser): return .pen
        default: return nil
        }
    }

    /// A stroke moves when its reports span more than 2 mm.
    static func moves(_ s: MotionStroke) -> Bool {
        guard let first = s.samples.first else { return false }
        return s.samples.contains { $0.location.distance(to: first.location) > 2 }
    }

    private func number(_ v: Double, _ decimals: Int = 2) -> String { TouchText.fixed(v, decimals) }

    private func writeText(group: String, strokes: Int, reports: Int, rates: [Double], scores: [[PredictionScore]],
                           jitter: [(Double, [Double])], to out: inout Output) {
        out.line("\(group): \(strokes) strokes, \(reports) reports, \(number(rates.min() ?? 0, 0))-\(number(rates.max() ?? 0, 0)) Hz")
        out.line("  prediction error (mm; along: mean signed, - is behind, p95 either way)")
        out.line("  ms  predictor      n      mean   p95    along  p95    across p95    fast(n)        stop(n)")
        for h in MotionQuality.horizons.indices {
            for row in scores {
                let s = row[h]
                var line = "  " + pad(number(s.horizonMilliseconds, 0), 3) + " " + pad(s.kind.rawValue, 13)
                line += " " + pad(String(s.count), 6)
                for v in [s.meanError, s.p95Error, s.meanAlong, s.p95Along, s.meanAcross, s.p95Across] { line += " " + pad(number(v), 6) }
                line += " " + pad(number(s.highSpeedMeanError) + "(\(s.highSpeedCount))", 14)
                line += " " + number(s.stopOvershoot) + "(\(s.stops))"
                out.line(line)
            }
        }
        out.line("  jitter of per-frame motion (mm): frames  latest-report  resampled  motion")
        for (period, values) in jitter {
            out.line("    " + pad(number(1000 / period, 0) + " Hz", 8) + "                 " + values.map { pad(number($0), 10) }.joined(separator: " "))
        }
    }

    private func writeJSON(group: String, strokes: Int, reports: Int, rates: [Double], scores: [[PredictionScore]],
                           jitter: [(Double, [Double])], to out: inout Output) {
        var w = JSONWriter()
        for row in scores {
            for s in row {
                w.reset()
                w.beginObject()
                w.key("table"); w.string("prediction")
                w.key("group"); w.string(group)
                w.key("strokes"); w.int(strokes)
                w.key("predictor"); w.string(s.kind.rawValue)
                w.key("horizonMs"); w.number(s.horizonMilliseconds, decimals: 1)
                w.key("count"); w.int(s.count)
                for (k, v) in [("meanError", s.meanError), ("p95Error", s.p95Error), ("meanAlong", s.meanAlong), ("p95Along", s.p95Along),
                               ("meanAcross", s.meanAcross), ("p95Across", s.p95Across), ("highSpeedMeanError", s.highSpeedMeanError),
                               ("stopOvershoot", s.stopOvershoot)] {
                    w.key(dynamic: k); w.number(v, decimals: 4)
                }
                w.key("highSpeedCount"); w.int(s.highSpeedCount)
                w.key("stops"); w.int(s.stops)
                w.endObject()
                out.line(w)
            }
        }
        for (period, values) in jitter {
            w.reset()
            w.beginObject()
            w.key("table"); w.string("jitter")
            w.key("group"); w.string(group)
            w.key("strokes"); w.int(strokes)
            w.key("frameHz"); w.number(1000 / period, decimals: 0)
            for (method, v) in zip(MotionQuality.FramePosition.allCases, values) { w.key(dynamic: method.rawValue); w.number(v, decimals: 4) }
            w.endObject()
            out.line(w)
        }
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }
}
