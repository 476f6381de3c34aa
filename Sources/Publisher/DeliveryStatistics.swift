// SPDX-License-Identifier: MIT
/// How published batches went inside touchd since the last report
/// (docs/daemon.md, "Signals": SIGUSR1 logs it): the time in
/// ``Publisher/publish(_:)`` on the input thread (encoding, and writing to
/// every client), and how many batches some client was behind for (its
/// lines waited in its backlog for the flusher).
///
/// Recording a batch is two clock reads around `publish` (one batch in 16)
/// and bucket increments (no allocation).
package struct DeliveryStatistics: Sendable, Equatable, CustomStringConvertible {
    /// A distribution of durations in log-linear buckets: exact microseconds
    /// below 8 us, then 8 buckets per power of two (within 12.5 %).
    package struct Distribution: Sendable, Equatable {
        private var counts = [UInt32](repeating: 0, count: Self.bucketCount)
        /// Durations recorded.
        package private(set) var count = 0
        /// The longest, in nanoseconds (exact).
        package private(set) var maximum: UInt64 = 0

        static let bucketCount = 8 + 40 * 8

        /// An empty distribution.
        package init() {}

        /// Adds a duration in nanoseconds.
        package mutating func record(nanoseconds ns: UInt64) {
            counts[Self.bucket(ns)] &+= 1
            count += 1
            if ns > maximum { maximum = ns }
        }

        /// The upper bound of the bucket holding the `p`-th percentile
        /// (0-100), in nanoseconds, never above the maximum; 0 when empty.
        package func percentile(_ p: Double) -> UInt64 {
            guard count > 0 else { return 0 }
            let rank = max(1, Int((p / 100 * Double(count)).rounded(.up)))
            var seen = 0
            for (b, c) in counts.enumerated() {
                seen += Int(c)
                // The last bucket also holds everything beyond it.
                if seen >= rank { return b == Self.bucketCount - 1 ? maximum : min(Self.upperBound(b), maximum) }
            }
            return maximum
        }

        /// `p50 41 us, p99 180 us, max 2.3 ms`.
        package var summary: String {
            "p50 \(Self.text(percentile(50))), p99 \(Self.text(percentile(99))), max \(Self.text(maximum))"
        }

        /// A duration in nanoseconds as `41 us` or `2.3 ms`.
        static func text(_ ns: UInt64) -> String {
            ns >= 1_000_000 ? "\(Double(ns / 10_000) / 100) ms" : "\(ns / 1000) us"
        }

        static func bucket(_ ns: UInt64) -> Int {
            let us = ns / 1000
            if us < 8 { return Int(us) }
            let e = 63 - us.leadingZeroBitCount  // >= 3
            let sub = Int((us >> UInt64(e - 3)) & 7)
            return min(8 + (e - 3) * 8 + sub, bucketCount - 1)
        }

        static func upperBound(_ b: Int) -> UInt64 {
            if b < 8 { return UInt64(b + 1) * 1000 }
            let e = (b - 8) / 8 + 3, sub = UInt64((b - 8) % 8)
            return ((8 + sub + 1) << UInt64(e - 3)) * 1000
        }
    }

    /// `publish` calls on the publishing (engine's) thread, one in
    /// `Publisher.timedOneIn` (16) timed.
    package var direct = Distribution()
    /// Batches published.
    package var batches = 0
    /// Batches of which some client's lines waited in its backlog.
    package var queued = 0

    /// Empty statistics.
    package init() {}

    /// `812 batches; publish p50 9 us, p99 20 us, max 96 us; 3 queued for clients behind`
    /// (the publish times are those of the batches timed, one in 16).
    package var description: String {
        let count = max(batches, direct.count)
        guard count > 0 else { return "no batches" }
        return "\(count) batches; publish \(direct.summary); \(queued) queued for clients behind"
    }
}
