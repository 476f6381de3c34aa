// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import TouchMotion

@Suite struct MotionHistoryTests {
    private func sample(_ ms: Int64, _ x: Double) -> MotionSample {
        MotionSample(time: Timestamp(microseconds: ms * 1000), location: Point(x: x, y: 0))
    }

    @Test func keepsTheNewestReportsUpToItsCapacity() {
        var h = MotionHistory(capacity: 4)
        for i in 0..<10 { h.append(sample(Int64(i) * 10, Double(i))) }
        #expect(h.count == 4)
        #expect(h[back: 0].location.x == 9)
        #expect(h[back: 3].location.x == 6)
        #expect(h.oldest?.location.x == 6)
        #expect(h.meanIntervalMilliseconds == 10)
    }

    @Test func aReportNoLaterThanTheNewestReplacesIt() {
        var h = MotionHistory(capacity: 4)
        h.append(sample(10, 1))
        h.append(sample(20, 2))
        h.append(sample(20, 5))
        #expect(h.count == 2)
        #expect(h[back: 0].location.x == 5)
    }

    @Test func interpolatesOnlyInsideWhatItHolds() {
        var h = MotionHistory(capacity: 3)
        for i in 0..<5 { h.append(sample(Int64(i) * 10, Double(i) * 2)) }
        #expect(h.interpolated(at: Timestamp(microseconds: 25_000))?.location.x == 5)
        #expect(h.interpolated(at: Timestamp(microseconds: 45_000)) == nil)
        #expect(h.interpolated(at: Timestamp(microseconds: 15_000)) == nil)
        h.removeAll()
        #expect(h.isEmpty)
        #expect(h.interpolated(at: .zero) == nil)
    }
}
