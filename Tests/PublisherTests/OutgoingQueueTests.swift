// SPDX-License-Identifier: MIT
import NIOCore
import Publisher
import Testing

@Suite struct OutgoingQueueTests {
    private func line(_ s: String) -> ByteBuffer { ByteBuffer(string: s + "\n") }

    private func drain(_ q: inout OutgoingQueue) -> [String] {
        var out: [String] = []
        while let b = q.pop() { out.append(String(buffer: b)) }
        return out
    }

    @Test func dropsPastTheEventLimitAndReportsTheGapInPlace() {
        var q = OutgoingQueue(maxEvents: 2, maxBytes: 1000, stuckTimeout: 5)
        #expect(q.offer(line("a"), time: 1, now: 0) == .queued)
        #expect(q.offer(line("b"), time: 2, now: 0) == .queued)
        #expect(q.offer(line("c"), time: 3, now: 0) == .dropped)
        #expect(q.offer(line("d"), time: 4, now: 0) == .dropped)
        #expect(q.lost == 2)
        #expect(q.pop().map { String(buffer: $0) } == "a\n")
        #expect(q.offer(line("e"), time: 5, now: 0) == .queued)
        #expect(drain(&q) == ["b\n", "{\"type\":\"overflow\",\"lost\":2,\"time\":4}\n", "e\n"])
    }

    @Test func reportsTheGapWhenTheQueueDrains() {
        var q = OutgoingQueue(maxEvents: 1, maxBytes: 1000, stuckTimeout: 5)
        _ = q.offer(line("a"), time: 1, now: 0)
        _ = q.offer(line("b"), time: 1.5, now: 0)
        #expect(drain(&q) == ["a\n", "{\"type\":\"overflow\",\"lost\":1,\"time\":1.5}\n"])
        #expect(q.lost == 0)
        #expect(q.pop() == nil)
    }

    @Test func enforcesTheByteLimit() {
        var q = OutgoingQueue(maxEvents: 100, maxBytes: 10, stuckTimeout: 5)
        #expect(q.offer(line("12345678"), time: 0, now: 0) == .queued)
        #expect(q.offer(line("12"), time: 0, now: 0) == .dropped)
        #expect(q.byteCount == 9)
    }

    @Test func controlLinesAreNeverDroppedAndFollowTheGap() {
        var q = OutgoingQueue(maxEvents: 1, maxBytes: 1000, stuckTimeout: 5)
        _ = q.offer(line("a"), time: 0, now: 0)
        _ = q.offer(line("b"), time: 7, now: 0)
        q.appendControl(line("ack"))
        #expect(drain(&q) == ["a\n", "{\"type\":\"overflow\",\"lost\":1,\"time\":7}\n", "ack\n"])
    }

    @Test func saysStuckAfterDroppingLongerThanTheTimeout() {
        var q = OutgoingQueue(maxEvents: 1, maxBytes: 1000, stuckTimeout: 5)
        _ = q.offer(line("a"), time: 0, now: 0)
        #expect(q.offer(line("b"), time: 0, now: 10) == .dropped)
        #expect(q.offer(line("c"), time: 0, now: 15) == .dropped)
        #expect(q.offer(line("d"), time: 0, now: 15.5) == .stuck)
    }

    @Test func acceptingAgainRestartsTheStuckTimer() {
        var q = OutgoingQueue(maxEvents: 1, maxBytes: 1000, stuckTimeout: 5)
        _ = q.offer(line("a"), time: 0, now: 0)
        #expect(q.offer(line("b"), time: 0, now: 1) == .dropped)
        _ = q.pop()
        #expect(q.offer(line("c"), time: 0, now: 4) == .queued)
        #expect(q.offer(line("d"), time: 0, now: 7) == .dropped)
        #expect(q.offer(line("e"), time: 0, now: 11) == .dropped)
        #expect(q.offer(line("f"), time: 0, now: 12.5) == .stuck)
    }

    @Test func givesTheRingBackOnceABacklogDrains() {
        var q = OutgoingQueue(maxEvents: 1000, maxBytes: 1 << 20, stuckTimeout: 5)
        let idle = q.ringCapacity
        for k in 0..<1000 { _ = q.offer(line("e\(k)"), time: 0, now: 0) }
        #expect(q.ringCapacity >= 1000)
        _ = q.pop()
        #expect(q.ringCapacity >= 1000)
        #expect(drain(&q).count == 999)
        #expect(q.ringCapacity == idle)
        #expect(q.byteCount == 0)
    }

    @Test func forgettingEverythingGivesTheRingBack() {
        var q = OutgoingQueue(maxEvents: 1000, maxBytes: 1 << 20, stuckTimeout: 5)
        let idle = q.ringCapacity
        for k in 0..<1001 { _ = q.offer(line("e\(k)"), time: 0, now: 0) }
        q.removeAll()
        #expect(q.ringCapacity == idle)
        #expect(q.pop() == nil)
    }
}
