// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import TouchMotion

/// Virtual time: a report every `interval` ms from `start`, moving `speed` mm/ms along x.
private func reports(count: Int, interval: Double, speed: Double, start: Int64 = 1_000_000) -> [MotionSample] {
    (0..<count).map { i in
        let t = Double(i) * interval
        return MotionSample(time: Timestamp(microseconds: start).adding(milliseconds: t), location: Point(x: speed * t, y: 0))
    }
}

private func close(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool { abs(a - b) <= tolerance }

@Suite struct TouchResamplerTests {
    @Test func interpolatesBetweenTheReportsAroundTheSamplingTime() throws {
        var r = TouchResampler()
        for s in reports(count: 5, interval: 10, speed: 0.1) { r.report(s) }
        // Reports at 0, 10, 20, 30, 40 ms; a frame at 27 ms samples 22 ms.
        let frame = Timestamp(microseconds: 1_000_000).adding(milliseconds: 27)
        let s = try #require(r.sample(forFrameAt: frame))
        #expect(s.kind == .interpolated)
        #expect(close(s.sample.location.x, 2.2))
        #expect(s.sample.time == frame.adding(milliseconds: -5))
    }

    @Test func extrapolatesAtMostHalfTheLastIntervalAndEightMilliseconds() throws {
        var r = TouchResampler()
        for s in reports(count: 3, interval: 10, speed: 0.1) { r.report(s) }
        // Newest report at 20 ms; sampling at 40 ms wants 20 ms ahead, gets min(8, 10 / 2) = 5 ms.
        let s = try #require(r.sample(at: Timestamp(microseconds: 1_000_000).adding(milliseconds: 40)))
        #expect(s.kind == .extrapolated)
        #expect(close(s.sample.location.x, 2.5))
        var slow = TouchResampler()
        for s in reports(count: 3, interval: 18, speed: 0.1) { slow.report(s) }
        // Interval 18 ms: half is 9, the 8 ms cap wins.
        let t = try #require(slow.sample(at: Timestamp(microseconds: 1_000_000).adding(milliseconds: 36 + 30)))
        #expect(close(t.sample.location.x, 3.6 + 0.8))
    }

    @Test func theFirstFrameOfATouchHoldsItsFirstReport() throws {
        var r = TouchResampler()
        #expect(r.sample(at: Timestamp(microseconds: 5)) == nil)
        let first = MotionSample(time: Timestamp(microseconds: 1_000_000), location: Point(x: 3, y: 4))
        r.report(first)
        // A frame whose sampling time is before the touch began: its first position, never an earlier one.
        let s = try #require(r.sample(forFrameAt: Timestamp(microseconds: 1_002_000)))
        #expect(s.kind == .held)
        #expect(s.sample.location == first.location)
        // One report only: nothing to extrapolate from.
        let later = try #require(r.sample(at: Timestamp(microseconds: 1_010_000)))
        #expect(later.kind == .held)
        #expect(later.sample.location == first.location)
    }

    @Test func neverGoesPastTheTouchsEnd() throws {
        var r = TouchResampler()
        let samples = reports(count: 4, interval: 8, speed: 0.2)
        for s in samples.dropLast() { r.report(s) }
        r.end(samples[3])
        #expect(r.hasEnded)
        // A lift between two frames: the next frame's sampling time is after the end.
        let s = try #require(r.sample(at: samples[3].time.adding(milliseconds: 6)))
        #expect(s.kind == .real)
        #expect(s.sample.location == samples[3].location)
        // Before the end, still interpolated.
        let before = try #require(r.sample(at: samples[3].time.adding(milliseconds: -4)))
        #expect(before.kind == .interpolated)
        #expect(close(before.sample.location.x, samples[3].location.x - 0.8))
    }

    @Test func aGapOrARestIsNotExtrapolatedAcross() throws {
        var r = TouchResampler()
        let start = Timestamp(microseconds: 1_000_000)
        r.report(MotionSample(time: start, location: Point(x: 0, y: 0)))
        // 40 ms without reports (a finger at rest, or lost reports), then one that moved.
        r.report(MotionSample(time: start.adding(milliseconds: 40), location: Point(x: 4, y: 0)))
        let s = try #require(r.sample(at: start.adding(milliseconds: 45)))
        #expect(s.kind == .held)
        #expect(s.sample.location.x == 4)
        // Inside the gap, interpolation between its two ends.
        let inside = try #require(r.sample(at: start.adding(milliseconds: 10)))
        #expect(close(inside.sample.location.x, 1))
    }

    @Test func aCancelledTouchAfterSynDroppedStopsWhereItsLastReportWas() throws {
        // The pipeline cancels touches on SYN_DROPPED; the cancel carries the last known position.
        var r = TouchResampler()
        let samples = reports(count: 3, interval: 5, speed: 0.3)
        for s in samples { r.report(s) }
        var cancel = samples[2]
        cancel.time = samples[2].time.adding(milliseconds: 30)
        r.end(cancel)
        let s = try #require(r.sample(at: cancel.time.adding(milliseconds: 10)))
        #expect(s.sample.location == samples[2].location)
        #expect(s.kind == .real)
    }

    @Test func stylusAxesAreInterpolatedAndAzimuthWrapsTheShortWay() throws {
        var r = TouchResampler()
        let start = Timestamp(microseconds: 2_000_000)
        r.report(MotionSample(time: start, location: .zero, force: 0.2, altitude: 1.0, azimuth: 6.2))
        r.report(MotionSample(time: start.adding(milliseconds: 10), location: Point(x: 1, y: 0), force: 0.6, altitude: 1.2, azimuth: 0.1))
        let s = try #require(r.sample(at: start.adding(milliseconds: 5)))
        #expect(close(try #require(s.sample.force), 0.4))
        #expect(close(try #require(s.sample.altitude), 1.1))
        // Half way from 6.2 to 0.1 the short way round (across 2pi), not back through pi.
        let expected = (6.2 + (0.1 + 2 * Double.pi - 6.2) / 2).truncatingRemainder(dividingBy: 2 * Double.pi)
        #expect(close(try #require(s.sample.azimuth), expected, 1e-12))
        // Extrapolated: the axes stay at the newest report's values.
        let e = try #require(r.sample(at: start.adding(milliseconds: 13)))
        #expect(e.kind == .extrapolated)
        #expect(e.sample.force == 0.6)
    }

    @Test func framesFollowTheStatedPeriodAndPhase() throws {
        let frames = try #require(FrameTiming(periodMilliseconds: 16.667, reference: Timestamp(microseconds: 1_000_000)))
        #expect(frames.frame(atOrAfter: Timestamp(microseconds: 1_000_000)) == Timestamp(microseconds: 1_000_000))
        #expect(frames.frame(atOrAfter: Timestamp(microseconds: 1_000_001)) == Timestamp(microseconds: 1_016_667))
        #expect(frames.frame(atOrAfter: Timestamp(microseconds: 999_000)) == Timestamp(microseconds: 1_000_000))
        #expect(frames.frame(atOrAfter: Timestamp(microseconds: 983_000)) == Timestamp(microseconds: 983_333))
        #expect(FrameTiming(periodMilliseconds: 0, reference: .zero) == nil)
    }

    @Test func oneReportPerFrameWhateverThePanelRate() throws {
        // A 90 Hz panel under a 60 Hz display: every frame gets one position, moving evenly.
        var r = TouchResampler()
        let samples = reports(count: 60, interval: 1000.0 / 90, speed: 0.1)
        let frames = try #require(FrameTiming(periodMilliseconds: 1000.0 / 60, reference: samples[0].time.adding(milliseconds: 3)))
        var frame = frames.frame(atOrAfter: samples[0].time.adding(milliseconds: 5))
        var next = 0
        var positions: [Double] = []
        while frame <= samples.last!.time {
            while next < samples.count && samples[next].time <= frame { r.report(samples[next]); next += 1 }
            positions.append(try #require(r.sample(forFrameAt: frame)).sample.location.x)
            frame = frames.frame(after: frame)
        }
        let moves = zip(positions.dropFirst(), positions).map { $0 - $1 }
        #expect(moves.count > 30)
        for m in moves.dropFirst() { #expect(close(m, 0.1 * 1000 / 60, 0.01)) }
    }
}
