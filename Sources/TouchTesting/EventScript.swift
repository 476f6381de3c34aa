// SPDX-License-Identifier: MIT
import TouchCore

/// Builds evdev event sequences for tests, frame by frame, with times advancing
/// by a fixed step:
///
/// ```swift
/// var s = EventScript()
/// s.frame { $0.slot(0); $0.trackingID(7); $0.position(100, 200) }
/// ```
package struct EventScript: Sendable {
    /// The events so far.
    package private(set) var events: [InputEvent] = []
    /// Time of the next event.
    package var time: Timestamp
    /// Milliseconds between frames.
    package var frameInterval: Double

    /// Creates an empty script starting at `start`.
    package init(start: Timestamp = Timestamp(microseconds: 1_000_000), frameInterval: Double = 10) {
        time = start
        self.frameInterval = frameInterval
    }

    /// Appends one event at the current time.
    package mutating func event(_ type: EventType, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: time, type: type, code: code, value: value))
    }

    /// `EV_ABS`.
    package mutating func abs(_ code: UInt16, _ value: Int32) { event(.abs, code, value) }
    /// `EV_KEY`.
    package mutating func key(_ code: UInt16, _ value: Int32) { event(.key, code, value) }
    /// `MSC_SERIAL`.
    package mutating func serial(_ value: Int32) { event(.msc, EventCode.mscSerial, value) }
    /// `ABS_MT_SLOT`.
    package mutating func slot(_ n: Int32) { abs(EventCode.absMTSlot, n) }
    /// `ABS_MT_TRACKING_ID` (-1 lifts).
    package mutating func trackingID(_ id: Int32) { abs(EventCode.absMTTrackingID, id) }
    /// `ABS_MT_POSITION_X` and `_Y`.
    package mutating func position(_ x: Int32, _ y: Int32) {
        abs(EventCode.absMTPositionX, x)
        abs(EventCode.absMTPositionY, y)
    }
    /// `ABS_X` and `ABS_Y`.
    package mutating func point(_ x: Int32, _ y: Int32) {
        abs(EventCode.absX, x)
        abs(EventCode.absY, y)
    }
    /// `SYN_MT_REPORT` (end of one protocol-A contact).
    package mutating func mtReport() { event(.syn, EventCode.synMTReport, 0) }
    /// `SYN_DROPPED`.
    package mutating func dropped() { event(.syn, EventCode.synDropped, 0) }
    /// `SYN_REPORT`, then the clock advances by ``frameInterval``.
    package mutating func report() {
        event(.syn, EventCode.synReport, 0)
        time = time.adding(milliseconds: frameInterval)
    }

    /// Appends the events `body` adds, then `SYN_REPORT`.
    package mutating func frame(_ body: (inout EventScript) -> Void) {
        body(&self)
        report()
    }

    /// A protocol-A frame: one `SYN_MT_REPORT`-terminated contact per point (an empty list lifts all).
    package mutating func anonymousFrame(_ contacts: [(x: Int32, y: Int32)], trackingIDs: [Int32]? = nil) {
        for (i, c) in contacts.enumerated() {
            if let trackingIDs { trackingID(trackingIDs[i]) }
            position(c.x, c.y)
            mtReport()
        }
        if contacts.isEmpty { mtReport() }
        report()
    }
}
