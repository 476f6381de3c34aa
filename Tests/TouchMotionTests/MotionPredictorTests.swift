// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import TouchMotion

/// Reports every `interval` ms of x(t) = f(t in ms), y = 0.
private func feed(_ p: inout MotionPredictor, count: Int, interval: Double, _ f: (Double) -> Double) {
    for i in 0..<count {
        let t = Double(i) * interval
        p.report(MotionSample(time: Timestamp(microseconds: 1_000_000).adding(milliseconds: t), location: Point(x: f(t), y: 0)))
    }
}

@Suite struct MotionPredictorTests {
    @Test func noneIsTheNewestReport() throws {
        var p = MotionPredictor(kind: .none)
        #expect(p.predicted(millisecondsAhead: 8) == nil)
        feed(&p, count: 5, interval: 8) { 0.3 * $0 }
        #expect(try #require(p.predicted(millisecondsAhead: 16)).x == 0.3 * 32)
    }

    @Test func linearFollowsTheLastTwoReportsAsFarAsAsked() throws {
        var p = MotionPredictor(kind: .linear)
        feed(&p, count: 5, interval: 8) { 0.3 * $0 }
        #expect(abs(try #require(p.predicted(millisecondsAhead: 25)).x - 0.3 * (32 + 25)) < 1e-9)
    }

    @Test func cappedLinearStopsAtHalfTheIntervalAndEightMilliseconds() throws {
        var p = MotionPredictor(kind: .cappedLinear)
        feed(&p, count: 5, interval: 8) { 0.3 * $0 }
        #expect(abs(try #require(p.predicted(millisecondsAhead: 25)).x - 0.3 * (32 + 4)) < 1e-9)
        #expect(abs(try #require(p.predicted(millisecondsAhead: 2)).x - 0.3 * (32 + 2)) < 1e-9)
    }

    @Test func quadraticIsExactOnAParabola() throws {
        var p = MotionPredictor(kind: .quadratic)
        let f: (Double) -> Double = { 0.002 * $0 * $0 + 0.1 * $0 + 3 }
        feed(&p, count: 7, interval: 5, f)
        #expect(abs(try #require(p.predicted(millisecondsAhead: 16)).x - f(30 + 16)) < 1e-6)
    }

    @Test func kalmanConvergesOnSteadyMotionAndBeatsNoneThere() throws {
        var k = MotionPredictor(kind: .kalman)
        var n = MotionPredictor(kind: .none)
        let f: (Double) -> Double = { 0.2 * $0 }
        feed(&k, count: 40, interval: 8, f)
        feed(&n, count: 40, interval: 8, f)
        let truth = f(39 * 8 + 16)
        let kalmanError = abs(try #require(k.predicted(millisecondsAhead: 16)).x - truth)
        let noneError = abs(try #require(n.predicted(millisecondsAhead: 16)).x - truth)
        #expect(kalmanError < 0.05 * noneError)
    }

    @Test func kalmanWaitsForEnoughReportsBeforeUsingItsState() throws {
        var k = MotionPredictor(kind: .kalman)
        feed(&k, count: 3, interval: 8) { 0.3 * $0 }
        // Under four reports it predicts as the capped line.
        #expect(abs(try #require(k.predicted(millisecondsAhead: 25)).x - 0.3 * (16 + 4)) < 1e-9)
    }

    @Test func defaultsFollowTheMeasuredTables() {
        #expect(PredictionDefault.recommended(type: .direct, tool: .finger) == PredictionDefault(kind: .linear, maxHorizonMilliseconds: 16))
        #expect(PredictionDefault.recommended(type: .indirect, tool: .finger).maxHorizonMilliseconds == 8)
        #expect(PredictionDefault.recommended(type: .stylus, tool: .pen).kind == .kalman)
        #expect(PredictionDefault.recommended(type: .direct, tool: .palm).kind == PredictorKind.none)
    }

    @Test func resetForgetsTheTouch() {
        var p = MotionPredictor(kind: .kalman)
        feed(&p, count: 10, interval: 8) { $0 }
        p.reset()
        #expect(p.predicted(millisecondsAhead: 8) == nil)
        #expect(p.newest == nil)
    }
}
