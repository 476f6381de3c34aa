// SPDX-License-Identifier: MIT
import Testing
@testable import TouchDaemon

/// When touchd pings systemd's watchdog: at once, then every half interval, on a given clock.
@Suite struct WatchdogScheduleTests {
    @Test func noIntervalMeansNoWatchdog() {
        #expect(WatchdogSchedule(intervalMicroseconds: nil, now: .now) == nil)
        #expect(WatchdogSchedule(intervalMicroseconds: 0, now: .now) == nil)
    }

    @Test func aPingIsDueAtOnceThenEveryHalfInterval() throws {
        let start = ContinuousClock.now
        var schedule = try #require(WatchdogSchedule(intervalMicroseconds: 10_000_000, now: start))
        #expect(schedule.period == .seconds(5))
        // (Mutating calls are evaluated outside #expect, which takes its operands as constants.)
        func due(_ seconds: Int) -> Bool { schedule.isDue(at: start + .seconds(seconds)) }
        let atOnce = due(0)
        #expect(atOnce)
        let early = due(4)
        #expect(!early)
        #expect(schedule.wait(at: start + .seconds(4)) == .seconds(1))
        let onTime = due(5)
        #expect(onTime)
        // Late (a loop that waited longer): due at once, and the next a full period after.
        let late = due(12), beforeNext = due(16)
        #expect(late && !beforeNext)
        #expect(schedule.wait(at: start + .seconds(18)) == .zero)
        let next = due(17)
        #expect(next)
    }
}
