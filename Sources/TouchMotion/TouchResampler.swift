// SPDX-License-Identifier: MIT
import TouchCore

/// Where a resampled position is taken and how far it may be invented
/// (docs/semantics.md §14; the figures behind the defaults: docs/performance.md,
/// "Resampling and prediction").
package struct ResamplingPolicy: Hashable, Sendable {
    /// How long before a frame's time the position is taken: late enough that a
    /// report after it has usually arrived, so that the position is interpolated
    /// rather than invented (Android and Chromium take 5 ms).
    package var latencyMilliseconds: Double
    /// The most a position is extrapolated past the newest report.
    package var maxExtrapolationMilliseconds: Double
    /// Extrapolation is also cut to this fraction of the last report interval:
    /// a velocity from two reports says little about what comes after a longer time.
    package var extrapolationFraction: Double
    /// Past this interval between the last two reports, nothing is extrapolated:
    /// the contact was at rest (panels stop reporting a still finger) or reports were lost.
    package var longestIntervalToExtrapolateMilliseconds: Double

    /// Creates a policy.
    package init(latencyMilliseconds: Double = 5, maxExtrapolationMilliseconds: Double = 8,
                extrapolationFraction: Double = 0.5, longestIntervalToExtrapolateMilliseconds: Double = 20) {
        self.latencyMilliseconds = latencyMilliseconds
        self.maxExtrapolationMilliseconds = maxExtrapolationMilliseconds
        self.extrapolationFraction = extrapolationFraction
        self.longestIntervalToExtrapolateMilliseconds = longestIntervalToExtrapolateMilliseconds
    }

    /// Android's and Chromium's: 5 ms before the frame, at most min(8 ms, half
    /// the last interval) past the newest report, nothing after a 20 ms gap.
    package static let standard = ResamplingPolicy()
}

/// How a resampled position came about.
package enum ResampledKind: String, Hashable, Sendable, CaseIterable {
    /// A real report at exactly that time (or the touch's last report, once it ended).
    case real
    /// Between two real reports.
    case interpolated
    /// Past the newest report, by at most the policy's bound.
    case extrapolated
    /// A real report's position kept: before the touch's first report, or when
    /// extrapolating is not allowed (one report only, a gap, a touch at rest).
    case held
}

/// A position at a chosen time and how it was obtained.
package struct ResampledSample: Hashable, Sendable {
    /// Time, position and stylus axes (the axes are interpolated, never extrapolated).
    package var sample: MotionSample
    /// Interpolated, extrapolated, held or real.
    package var kind: ResampledKind
    /// Creates one.
    @inlinable package init(sample: MotionSample, kind: ResampledKind) {
        self.sample = sample
        self.kind = kind
    }
}

/// The display's frames as a client states them: a period and the time of one
/// frame (its presentation time on the kernel's clock of the reports).
package struct FrameTiming: Hashable, Sendable {
    /// Time between frames, in microseconds (positive).
    package var periodMicroseconds: Int64
    /// The time of any one frame; the others are a whole number of periods away.
    package var reference: Timestamp

    /// Creates frame timing; nil when the period is not positive.
    package init?(periodMilliseconds: Double, reference: Timestamp) {
        let period = Int64((periodMilliseconds * 1000).rounded())
        guard period > 0 else { return nil }
        self.periodMicroseconds = period
        self.reference = reference
    }

    /// The first frame at or after `time`.
    package func frame(atOrAfter time: Timestamp) -> Timestamp {
        let offset = time.microseconds - reference.microseconds
        var frames = offset / periodMicroseconds
        if frames * periodMicroseconds < offset { frames += 1 }
        return Timestamp(microseconds: reference.microseconds + frames * periodMicroseconds)
    }

    /// The frame after `frame`.
    @inlinable package func frame(after frame: Timestamp) -> Timestamp {
        Timestamp(microseconds: frame.microseconds + periodMicroseconds)
    }
}

/// One touch's reports and its position at any frame: interpolated between the
/// reports around the frame's sampling time, extrapolated a bounded amount
/// when no later report exists yet, and never past the touch's end.
///
/// Pure: time comes from the reports and the frames asked for; nothing is
/// allocated after the resampler is made.
package struct TouchResampler: Sendable {
    /// The policy in force.
    package var policy: ResamplingPolicy
    private var history: MotionHistory
    /// True once the touch ended or was cancelled: no position goes past its last report.
    package private(set) var hasEnded = false

    /// Creates a resampler keeping the last `capacity` reports.
    package init(policy: ResamplingPolicy = .standard, capacity: Int = 16) {
        self.policy = policy
        self.history = MotionHistory(capacity: capacity)
    }

    /// The newest real report, if any.
    package var newest: MotionSample? { history.newest }

    /// Adds a real report of the touch (its began or a move).
    package mutating func report(_ sample: MotionSample) {
        history.append(sample)
    }

    /// Adds the touch's last report (ended or cancelled): positions at later
    /// times are this one.
    package mutating func end(_ sample: MotionSample) {
        history.append(sample)
        hasEnded = true
    }

    /// Starts over for a new touch, keeping the storage.
    package mutating func reset() {
        history.removeAll()
        hasEnded = false
    }

    /// The position for the frame presented at `frameTime`: taken at
    /// `frameTime` less the policy's latency.
    package func sample(forFrameAt frameTime: Timestamp) -> ResampledSample? {
        sample(at: frameTime.adding(milliseconds: -policy.latencyMilliseconds))
    }

    /// The position at `time`; nil before the first report.
    package func sample(at time: Timestamp) -> ResampledSample? {
        guard let newest = history.newest, let oldest = history.oldest else { return nil }
        if time <= oldest.time {
            var s = oldest
            s.time = time
            return ResampledSample(sample: s, kind: time == oldest.time ? .real : .held)
        }
        if time == newest.time { return ResampledSample(sample: newest, kind: .real) }
        if time < newest.time, let s = history.interpolated(at: time) {
            return ResampledSample(sample: s, kind: .interpolated)
        }
        // After the newest report.
        var held = newest
        held.time = time
        if hasEnded || history.count < 2 { return ResampledSample(sample: held, kind: hasEnded ? .real : .held) }
        let previous = history[back: 1]
        let interval = newest.time.milliseconds(since: previous.time)
        guard interval > 0, interval <= policy.longestIntervalToExtrapolateMilliseconds else {
            return ResampledSample(sample: held, kind: .held)
        }
        let wanted = time.milliseconds(since: newest.time)
        let allowed = min(wanted, policy.maxExtrapolationMilliseconds, policy.extrapolationFraction * interval)
        guard allowed > 0 else { return ResampledSample(sample: held, kind: .held) }
        var s = MotionSample.between(previous, newest, at: newest.time.adding(milliseconds: allowed))
        s.time = time
        return ResampledSample(sample: s, kind: .extrapolated)
    }
}
