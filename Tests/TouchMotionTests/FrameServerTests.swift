// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import TouchMotion

/// Virtual time from 1 s: `ms` milliseconds later.
private func at(_ ms: Double) -> Timestamp { Timestamp(microseconds: 1_000_000).adding(milliseconds: ms) }

/// A finger report at `ms`, at x = `x` pixels.
private func finger(_ phase: TouchPhase, _ ms: Double, x: Double, id: UInt32 = 1, type: TouchType = .direct, tool: Tool = .finger,
                    force: Double? = nil) -> ServedReport {
    ServedReport(device: 0, id: id, phase: phase, type: type, tool: tool, screen: 0,
                 sample: MotionSample(time: at(ms), location: Point(x: x, y: 0), force: force))
}

/// Frames every 10 ms, one at 0 ms: sampled 5 ms before, at 5, 15, 25 ... ms.
private func server(horizon: Double? = nil) -> FrameServer {
    FrameServer(timing: FrameTiming(periodMilliseconds: 10, reference: at(0))!, horizonMilliseconds: horizon)
}

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-6) -> Bool { abs(a - b) <= tolerance }

@Suite struct FrameServerTests {
    /// Feeds reports; returns what each served, in order.
    private func feed(_ s: inout FrameServer, _ reports: [ServedReport]) -> [[ServedMotion]] {
        reports.map { r in
            var out: [ServedMotion] = []
            s.report(r) { out.append($0) }
            return out
        }
    }

    @Test func servesEachFrameOnceInterpolatedBetweenTheReportsAroundItsSamplingTime() throws {
        var s = server()
        // 1 px/ms, a report every 4 ms from 1 ms.
        let reports = [finger(.began, 1, x: 1)] + stride(from: 5.0, through: 41, by: 4).map { finger(.moved, $0, x: $0) }
        let served = feed(&s, reports).flatMap { $0 }
        // Sampling times 5, 15, 25, 35 ms (frames 10, 20, 30, 40): one line each, in order.
        #expect(served.map(\.frame) == [at(10), at(20), at(30), at(40)])
        for m in served {
            #expect(m.resampled.sample.time == m.frame.adding(milliseconds: -5))
            #expect(close(m.resampled.sample.location.x, m.resampled.sample.time.milliseconds(since: at(0))))
            #expect(m.resampled.kind == .interpolated || m.resampled.kind == .real)
            #expect(m.predicted == nil)
        }
    }

    @Test func aFramesLineGoesOutWithTheFirstReportAtOrAfterItsSamplingTime() {
        var s = server()
        let out = feed(&s, [finger(.began, 1, x: 1), finger(.moved, 9, x: 9), finger(.moved, 17, x: 17)])
        // Sampling 5 ms: completed by the report at 9 ms; sampling 15 ms: by the one at 17 ms.
        #expect(out.map { $0.map(\.frame) } == [[], [at(10)], [at(20)]])
        #expect(close(out[1][0].resampled.sample.location.x, 5))
        #expect(out[1][0].resampled.kind == .interpolated)
    }

    @Test func theFirstFrameIsTheFirstSampledAtOrAfterTheTouchBegan() {
        var s = server()
        // Began at 6 ms: the frame at 10 ms samples 5 ms, before the touch; its first frame is at 20 ms.
        let out = feed(&s, [finger(.began, 6, x: 0), finger(.moved, 12, x: 6), finger(.moved, 18, x: 12)]).flatMap { $0 }
        #expect(out.map(\.frame) == [at(20)])
        // A report exactly at a sampling time is served as it is.
        var exact = server()
        let first = feed(&exact, [finger(.began, 5, x: 3)]).flatMap { $0 }
        #expect(first.map(\.frame) == [at(10)])
        #expect(first.first?.resampled.kind == .real)
    }

    @Test func theLastFrameIsAtOrBeforeTheLiftAndNothingComesAfter() {
        var s = server(horizon: 8)
        // Lifted at 22 ms, between the frames sampled at 15 and 25 ms.
        let out = feed(&s, [finger(.began, 1, x: 1), finger(.moved, 9, x: 9), finger(.moved, 17, x: 17), finger(.ended, 22, x: 22)])
        #expect(out.flatMap { $0 }.map(\.frame) == [at(10), at(20)])
        // The lift completes no frame (the next samples 25 ms, past it), and the touch is gone.
        #expect(out[3].isEmpty)
        #expect(s.activeTouches == 0)
        // A later report of that id is a new touch: its frames start from it.
        #expect(feed(&s, [finger(.moved, 30, x: 30)]) == [[]])
        #expect(s.activeTouches == 1)
    }

    @Test func aLiftAtASamplingTimeServesThatFrameWithoutPrediction() {
        var s = server(horizon: 8)
        let out = feed(&s, [finger(.began, 1, x: 1), finger(.moved, 9, x: 9), finger(.ended, 15, x: 15)])
        #expect(out[2].map(\.frame) == [at(20)])
        #expect(out[2].first?.resampled.kind == .real)
        #expect(out[2].first?.predicted == nil)
        #expect(s.activeTouches == 0)
    }

    @Test func aCancelledTouchIsDroppedWithoutAFrame() {
        var s = server()
        let out = feed(&s, [finger(.began, 1, x: 1), finger(.moved, 9, x: 9), finger(.cancelled, 30, x: 30)])
        #expect(out[2].isEmpty)
        #expect(s.activeTouches == 0)
    }

    @Test func afterAGapOnlyTheNewestFrameDueIsServed() {
        var s = server()
        // Reports at 1 and 9 ms, then nothing until 57 ms (a finger at rest).
        let out = feed(&s, [finger(.began, 1, x: 1), finger(.moved, 9, x: 9), finger(.moved, 57, x: 57)])
        // Frames sampled at 15, 25, 35 and 45 ms would be invented: only the newest due (55 ms, frame 60) is served.
        #expect(out[2].map(\.frame) == [at(60)])
        #expect(close(out[2][0].resampled.sample.location.x, 55))
        // A gap of at most 20 ms serves every frame due.
        var short = server()
        let regular = feed(&short, [finger(.began, 1, x: 1), finger(.moved, 21, x: 21)])
        #expect(regular[1].map(\.frame) == [at(10), at(20)])
    }

    @Test func afterSYNDroppedTheResyncedTouchesAreServedAsTheSessionReportsThem() {
        // SYN_DROPPED (docs/semantics.md §14): the session core resyncs from the device's state at
        // 40 ms: touch 1 still down (a move after a 31 ms gap), touch 2 gone (cancelled), touch 3 new.
        var s = server()
        let out = feed(&s, [finger(.began, 1, x: 1, id: 1), finger(.began, 2, x: 100, id: 2),
                            finger(.moved, 9, x: 9, id: 1), finger(.moved, 9, x: 107, id: 2),
                            finger(.moved, 40, x: 40, id: 1), finger(.cancelled, 40, x: 107, id: 2),
                            finger(.began, 40, x: 200, id: 3), finger(.moved, 46, x: 206, id: 3)])
        // Touch 1: no frames invented over the gap, only the newest due (sampled at 35 ms), between the reports around it.
        #expect(out[4].map(\.frame) == [at(40)])
        #expect(out[4].map(\.id) == [1])
        #expect(close(out[4][0].resampled.sample.location.x, 35))
        // Touch 2: no frame for its cancellation. Touch 3: its first frame is the first sampled after it began.
        #expect(out[5].isEmpty && out[6].isEmpty)
        #expect(out[7].map(\.id) == [3])
        #expect(out[7].map(\.frame) == [at(50)])
        #expect(close(out[7][0].resampled.sample.location.x, 205))
        #expect(s.activeTouches == 2)
    }

    @Test func eachTouchIsServedItsOwnFrames() {
        var s = server()
        let out = feed(&s, [finger(.began, 1, x: 1, id: 1), finger(.began, 2, x: 100, id: 2),
                            finger(.moved, 9, x: 9, id: 1), finger(.moved, 9, x: 107, id: 2)])
        #expect(out[2].map(\.id) == [1])
        #expect(out[3].map(\.id) == [2])
        #expect(close(out[3][0].resampled.sample.location.x, 103))
    }

    @Test func predictionsAreMarkedAndCutToTheRecommendedHorizon() throws {
        var s = server(horizon: 50)
        let out = feed(&s, [finger(.began, 1, x: 1), finger(.moved, 5, x: 5), finger(.moved, 9, x: 9)]).flatMap { $0 }
        let m = try #require(out.first)
        let p = try #require(m.predicted)
        // Served with the report at 5 ms. A finger on a touchscreen: the line
        // through the last two reports, at most 16 ms past the newest.
        #expect(m.frame == at(10))
        #expect(p.time == at(5 + 16))
        #expect(close(p.location.x, 21))
        // The resampled position is not moved by the prediction.
        #expect(close(m.resampled.sample.location.x, 5))
        // Palms get none whatever is asked.
        var palms = server(horizon: 8)
        let palm = feed(&palms, [finger(.began, 1, x: 1, tool: .palm), finger(.moved, 9, x: 9, tool: .palm)]).flatMap { $0 }
        #expect(palm.count == 1)
        #expect(palm.allSatisfy { $0.predicted == nil })
        // No horizon, no prediction.
        var none = server()
        #expect(feed(&none, [finger(.began, 1, x: 1), finger(.moved, 9, x: 9)]).flatMap { $0 }.allSatisfy { $0.predicted == nil })
    }

    @Test func stylusPressureIsResampledWithThePosition() throws {
        var s = server()
        let out = feed(&s, [finger(.began, 1, x: 1, type: .stylus, tool: .pen, force: 0.1),
                            finger(.moved, 9, x: 9, type: .stylus, tool: .pen, force: 0.5)]).flatMap { $0 }
        let m = try #require(out.first)
        #expect(close(try #require(m.resampled.sample.force), 0.3))
        #expect(m.type == .stylus && m.tool == .pen)
    }

    @Test func hoversAreNotServed() {
        var s = server()
        #expect(feed(&s, [finger(.hover, 1, x: 1), finger(.hover, 9, x: 9)]).flatMap { $0 }.isEmpty)
        #expect(s.activeTouches == 0)
    }
}
