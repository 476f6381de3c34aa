// SPDX-License-Identifier: MIT
import TouchCore

/// One real report of a contact, as resampling and prediction see it: a time,
/// a position and the stylus axes that are resampled with it.
package struct MotionSample: Hashable, Sendable, BitwiseCopyable {
    /// The kernel time of the report.
    package var time: Timestamp
    /// The position, in whatever unit the caller works in (pixels or millimetres).
    package var location: Point
    /// Normalised pressure 0...1, when reported.
    package var force: Double?
    /// Stylus altitude in radians, when tilt is reported.
    package var altitude: Double?
    /// Stylus azimuth in radians (0..<2pi), when tilt is reported.
    package var azimuth: Double?

    /// Creates a sample.
    @inlinable package init(time: Timestamp, location: Point, force: Double? = nil, altitude: Double? = nil, azimuth: Double? = nil) {
        self.time = time
        self.location = location
        self.force = force
        self.altitude = altitude
        self.azimuth = azimuth
    }

    /// The sample of a touch: its time, ``Touch/location`` and stylus axes.
    @inlinable package init(_ touch: Touch) {
        self.init(time: touch.time, location: touch.location, force: touch.force, altitude: touch.altitude, azimuth: touch.azimuth)
    }

    /// The sample of a touch in millimetres on its device (``Touch/locationMM``).
    @inlinable package init(millimetresOf touch: Touch) {
        self.init(time: touch.time, location: touch.locationMM, force: touch.force, altitude: touch.altitude, azimuth: touch.azimuth)
    }
}

/// The most recent reports of one touch, oldest dropped first: a ring of
/// fixed capacity, so that keeping a touch's history allocates once, when
/// the history is made, and never per report or per frame.
package struct MotionHistory: Sendable {
    private var storage: [MotionSample]
    private var head = 0
    /// How many samples are held (at most ``capacity``).
    package private(set) var count = 0

    /// Creates an empty history holding at most `capacity` samples (at least 2).
    package init(capacity: Int = 16) {
        let c = max(2, capacity)
        storage = [MotionSample](repeating: MotionSample(time: .zero, location: .zero), count: c)
    }

    /// The most samples the history holds.
    @inlinable package var capacity: Int { storageCount }
    @usableFromInline var storageCount: Int { storage.count }

    /// True when no sample is held.
    @inlinable package var isEmpty: Bool { count == 0 }

    /// The sample `back` reports before the newest (0 is the newest).
    package subscript(back back: Int) -> MotionSample {
        precondition(back >= 0 && back < count, "MotionHistory: no sample \(back) back of \(count)")
        var i = head - 1 - back
        if i < 0 { i += storage.count }
        return storage[i]
    }

    /// The newest sample, if any.
    @inlinable package var newest: MotionSample? { isEmpty ? nil : self[back: 0] }
    /// The oldest sample held, if any.
    @inlinable package var oldest: MotionSample? { isEmpty ? nil : self[back: count - 1] }

    /// Adds a report. One no later than the newest replaces it: a kernel frame
    /// has one time, and a history must stay in time order for interpolation.
    package mutating func append(_ sample: MotionSample) {
        if count > 0 {
            var last = head - 1
            if last < 0 { last += storage.count }
            if sample.time <= storage[last].time {
                storage[last] = sample
                return
            }
        }
        storage[head] = sample
        head += 1
        if head == storage.count { head = 0 }
        if count < storage.count { count += 1 }
    }

    /// Forgets every sample, keeping the storage.
    package mutating func removeAll() {
        head = 0
        count = 0
    }

    /// The mean interval between the held reports, in milliseconds (nil under two samples).
    package var meanIntervalMilliseconds: Double? {
        guard count >= 2 else { return nil }
        return self[back: 0].time.milliseconds(since: self[back: count - 1].time) / Double(count - 1)
    }

    /// The position at `time`, interpolated between the held reports around
    /// it, or nil when `time` is after the newest report or before the oldest.
    package func interpolated(at time: Timestamp) -> MotionSample? {
        guard count > 0 else { return nil }
        let newest = self[back: 0]
        if time == newest.time { return newest }
        if time > newest.time { return nil }
        var later = newest
        for back in 1..<max(1, count) {
            let earlier = self[back: back]
            if earlier.time <= time {
                return MotionSample.between(earlier, later, at: time)
            }
            later = earlier
        }
        return nil
    }
}

extension MotionSample {
    /// The straight-line blend of two samples at `time` (a fraction outside 0...1
    /// extrapolates the position; the stylus axes are held at the nearer end then).
    @inlinable package static func between(_ a: MotionSample, _ b: MotionSample, at time: Timestamp) -> MotionSample {
        let span = Double(b.time.microseconds - a.time.microseconds)
        let f = span > 0 ? Double(time.microseconds - a.time.microseconds) / span : 1
        let axes = min(max(f, 0), 1)
        return MotionSample(
            time: time,
            location: a.location + (b.location - a.location) * f,
            force: blend(a.force, b.force, axes),
            altitude: blend(a.altitude, b.altitude, axes),
            azimuth: blendAngle(a.azimuth, b.azimuth, axes)
        )
    }

    @inlinable static func blend(_ a: Double?, _ b: Double?, _ f: Double) -> Double? {
        guard let a, let b else { return f < 0.5 ? a : b }
        return a + (b - a) * f
    }

    /// Azimuth wraps at 2pi: blend along the shorter way round.
    @inlinable static func blendAngle(_ a: Double?, _ b: Double?, _ f: Double) -> Double? {
        guard let a, let b else { return f < 0.5 ? a : b }
        let twoPi = 2 * Double.pi
        var d = (b - a).truncatingRemainder(dividingBy: twoPi)
        if d > .pi { d -= twoPi } else if d < -.pi { d += twoPi }
        var r = (a + d * f).truncatingRemainder(dividingBy: twoPi)
        if r < 0 { r += twoPi }
        return r
    }
}
