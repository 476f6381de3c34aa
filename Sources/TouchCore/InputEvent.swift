// SPDX-License-Identifier: MIT
/// A point in time on the kernel's clock (CLOCK_MONOTONIC for live input, the
/// recording's clock for traces), with microsecond precision.
///
/// TouchCore and Gestures never read a clock: every time they see comes from
/// an event, so replay is exact.
@usableFromInline package struct Timestamp: Hashable, Comparable, Sendable, BitwiseCopyable, CustomStringConvertible {
    /// Microseconds since the clock's origin.
    @usableFromInline package var microseconds: Int64

    /// Creates a timestamp from microseconds since the clock's origin.
    @inlinable package init(microseconds: Int64) { self.microseconds = microseconds }

    /// Creates a timestamp from the `struct timeval` halves an event carries.
    @inlinable package init(seconds: Int64, microseconds: Int64) {
        self.microseconds = seconds &* 1_000_000 &+ microseconds
    }

    /// The origin of the clock.
    package static let zero = Timestamp(microseconds: 0)

    /// Seconds as a floating-point number (microsecond precision).
    @inlinable package var seconds: Double { Double(microseconds) / 1_000_000 }

    /// This timestamp moved by a number of milliseconds (may be fractional or negative).
    @inlinable package func adding(milliseconds: Double) -> Timestamp {
        Timestamp(microseconds: microseconds &+ Int64((milliseconds * 1000).rounded()))
    }

    /// Milliseconds from `earlier` to this timestamp.
    @inlinable package func milliseconds(since earlier: Timestamp) -> Double {
        Double(microseconds &- earlier.microseconds) / 1000
    }

    @inlinable package static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        lhs.microseconds < rhs.microseconds
    }

    /// `seconds.microseconds`, as evemu prints it.
    @usableFromInline package var description: String {
        let sign = microseconds < 0 ? "-" : ""
        let m = microseconds.magnitude
        let frac = String(m % 1_000_000)
        return sign + String(m / 1_000_000) + "." + String(repeating: "0", count: 6 - frac.count) + frac
    }
}

/// One evdev event: `struct input_event` with the time folded into a ``Timestamp``.
package struct InputEvent: Hashable, Sendable {
    /// When the kernel stamped the event.
    package var time: Timestamp
    /// The event type (`EV_*`).
    package var type: EventType
    /// The event code; its meaning depends on ``type`` (see ``EventCode``).
    package var code: UInt16
    /// The signed 32-bit value.
    package var value: Int32

    /// Creates an event.
    @inlinable package init(time: Timestamp, type: EventType, code: UInt16, value: Int32) {
        self.time = time
        self.type = type
        self.code = code
        self.value = value
    }

    /// True for `EV_SYN / SYN_REPORT`, the end of a hardware frame.
    @inlinable package var isSynReport: Bool { type == .syn && code == EventCode.synReport }
}

/// Identifies one input device inside a pipeline (a trace's device index, or
/// the number the daemon gave a live device).
@usableFromInline package struct DeviceID: RawRepresentable, Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The number.
    @usableFromInline package var rawValue: UInt32
    /// Creates a device id.
    @inlinable package init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Creates a device id.
    @inlinable package init(_ value: Int) { self.rawValue = UInt32(truncatingIfNeeded: value) }
    @inlinable package static func < (a: DeviceID, b: DeviceID) -> Bool { a.rawValue < b.rawValue }
    @usableFromInline package var description: String { String(rawValue) }
}
