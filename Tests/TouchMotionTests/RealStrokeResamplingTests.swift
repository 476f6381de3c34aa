// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import TouchTesting
@testable import TouchMotion

/// Resampling a real recording on virtual time: four fingers dragged down an
/// Atmel maXTouch panel, drawn at 60 Hz.
@Suite struct RealStrokeResamplingTests {
    @Test func everyFrameGetsOnePositionPerTouchWithinTheTouchsLife() throws {
        let replay = TouchReplay.run(try RealFixtures.read("evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
        let touches = replay.touches.filter { $0.phase != .hover }
        let ids = Set(touches.map(\.id))
        #expect(ids.count == 4)
        let first = try #require(touches.first).time, last = try #require(touches.last).time
        let frames = try #require(FrameTiming(periodMilliseconds: 1000.0 / 60, reference: first.adding(milliseconds: 7)))
        var resamplers: [TouchID: TouchResampler] = [:]
        var ended: [TouchID: Touch] = [:]
        var next = 0
        var frame = frames.frame(atOrAfter: first)
        var positions: [TouchID: [Point]] = [:]
        while frame <= last.adding(milliseconds: 40) {
            while next < touches.count && touches[next].time <= frame {
                let t = touches[next]
                let sample = MotionSample(millimetresOf: t)
                if t.phase.isTerminal {
                    resamplers[t.id, default: TouchResampler()].end(sample)
                    ended[t.id] = t
                } else {
                    resamplers[t.id, default: TouchResampler()].report(sample)
                }
                next += 1
            }
            for (id, r) in resamplers {
                let s = try #require(r.sample(forFrameAt: frame))
                positions[id, default: []].append(s.sample.location)
                if let end = ended[id], frame.adding(milliseconds: -5) >= end.time {
                    // After the lift: the last report, never beyond.
                    #expect(s.sample.location == end.locationMM)
                }
            }
            frame = frames.frame(after: frame)
        }
        #expect(ended.count == 4)
        for (id, ps) in positions {
            // One position per frame from the touch's first frame to the end of the run.
            let began = try #require(touches.first { $0.id == id }).time
            var expected = 0
            var f = frames.frame(atOrAfter: first)
            while f <= last.adding(milliseconds: 40) { if f >= began { expected += 1 }; f = frames.frame(after: f) }
            #expect(ps.count == expected, "touch \(id)")
            // The drag goes down: a frame goes back up only a little, where an extrapolation
            // (at most min(8 ms, half an interval) past the newest report) ran ahead of the next one.
            for (a, b) in zip(ps, ps.dropFirst()) { #expect(b.y >= a.y - 0.5, "touch \(id)") }
        }
    }

    @Test func resamplingJuddersLessThanTheNewestReportOnThisRecording() throws {
        let replay = TouchReplay.run(try RealFixtures.read("evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
        var strokes: [TouchID: [MotionSample]] = [:]
        for t in replay.touches where t.phase == .began || t.phase == .moved { strokes[t.id, default: []].append(MotionSample(millimetresOf: t)) }
        let list = strokes.values.map { MotionStroke(samples: $0) }
        let latest = MotionQuality.jitter(.latestReport, strokes: list, periodMilliseconds: 1000.0 / 60)
        let resampled = MotionQuality.jitter(.resampled, strokes: list, periodMilliseconds: 1000.0 / 60)
        #expect(latest > 0)
        #expect(resampled < latest)
    }
}
