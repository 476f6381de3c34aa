// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import LiveInput

@Suite struct LiveClockTests {
    @Test func pollTimeoutRoundsUpAndCaps() {
        let now = Timestamp(microseconds: 10_000_000)
        #expect(LiveClock.pollTimeout(until: nil, now: now) == -1)
        #expect(LiveClock.pollTimeout(until: nil, now: now, cap: 250) == 250)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 9_000_000), now: now) == 0)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 10_000_001), now: now) == 1)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 10_300_000), now: now) == 300)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 10_300_000), now: now, cap: 100) == 100)
    }

    @Test func nowIsMonotonic() {
        let a = LiveClock.now(), b = LiveClock.now()
        #expect(b >= a && a.microseconds > 0)
    }

}
