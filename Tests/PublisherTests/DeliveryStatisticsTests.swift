// SPDX-License-Identifier: MIT
import Testing
@testable import Publisher

/// The delivery statistics SIGUSR1 logs (docs/daemon.md, "Signals").
@Suite struct DeliveryStatisticsTests {
    @Test func percentilesFallInTheBucketOfTheRankedDuration() {
        var d = DeliveryStatistics.Distribution()
        // 1 to 100 us, once each.
        for us in 1...100 { d.record(nanoseconds: UInt64(us) * 1000 + 300) }
        #expect(d.count == 100)
        #expect(d.maximum == 100_300)
        // Below 8 us buckets are exact microseconds.
        #expect(d.percentile(1) == 2_000)
        // Above, within 12.5 %: the 50th is 50.3 us, in the 48-52 us bucket.
        #expect(d.percentile(50) == 52_000)
        // The 99th (99.3 us) is in the 96-104 us bucket, capped at the maximum.
        #expect(d.percentile(99) == 100_300)
        #expect(d.percentile(100) == 100_300)
    }

    @Test func bucketsCoverMillisecondsAndClampHuge() {
        var d = DeliveryStatistics.Distribution()
        d.record(nanoseconds: 2_300_000)
        d.record(nanoseconds: UInt64.max / 2)
        #expect(d.percentile(50) >= 2_300_000 && d.percentile(50) <= 2_300_000 * 9 / 8)
        #expect(d.percentile(100) == UInt64.max / 2)
    }

    @Test func describesItselfForTheLog() {
        #expect(DeliveryStatistics().description == "no batches")
        var s = DeliveryStatistics()
        // The 50th percentile (41 us) is reported as its bucket's upper bound (40-44 us).
        for us in [3, 4, 5, 6, 7, 9, 40, 41, 42, 2300] { s.direct.record(nanoseconds: UInt64(us) * 1000) }
        s.queued = 4
        // The 50th percentile (7 us) is reported as its bucket's upper bound.
        #expect(s.description == "10 batches; publish p50 8 us, p99 2.3 ms, max 2.3 ms; 4 queued for clients behind")
        var direct = DeliveryStatistics()
        direct.direct.record(nanoseconds: 5000)
        #expect(direct.description == "1 batches; publish p50 5 us, p99 5 us, max 5 us; 0 queued for clients behind")
        // Publish times are sampled (one batch in 16): the count is of every batch.
        direct.batches = 32
        #expect(direct.description == "32 batches; publish p50 5 us, p99 5 us, max 5 us; 0 queued for clients behind")
    }

    /// The publisher counts every batch and times one in 16 (docs/daemon.md, SIGUSR1).
    @Test func thePublisherCountsEveryBatchAndTimesOneIn16() async throws {
        try await withSocketPublisher { publisher, _, _ in
            for n in 0..<40 { publisher.publish([event(n, .gesture)]) }
            let s = try #require(await publisher.takeStatistics())
            #expect(s.batches == 40)
            #expect(s.direct.count == 40 / Publisher.timedOneIn)
            let again = try #require(await publisher.takeStatistics())
            #expect(again.batches == 0 && again.direct.count == 0)
        }
    }

    /// A batch some client could not take at once is counted, once however many clients were behind.
    @Test func theWriterCountsTheBatchesAClientWasBehindFor() throws {
        let p = EmbeddedPublisher()
        let slow = try p.connect(), other = try p.connect(), fast = try p.connect()
        for c in [slow, other, fast] {
            try p.send(c, #"{"op":"subscribe","events":["touch"]}"# + "\n")
            _ = try p.lines(c)
        }
        try p.stopReading(slow)
        try p.stopReading(other)
        var writer = DirectWriter()
        let outputs = p.hub.outputs.withLock { $0 }
        writer.offer(EventBatch([event(1, .touch)]), to: outputs)
        writer.offer(EventBatch([event(2, .gesture)]), to: outputs)
        #expect(writer.takeQueued() == 1)
        #expect(writer.takeQueued() == 0)
        #expect(numbers(try p.lines(fast)) == [1])
    }
}
