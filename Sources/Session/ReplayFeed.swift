// SPDX-License-Identifier: MIT
import JSON
import TouchCore
import Trace

/// Recordings as a ``TouchSession`` takes them: one device's events at a
/// time, up to each frame's end, on one time line.
///
/// Several recordings follow one another as distinct devices: the first
/// keeps its timestamps, each later one starts ``TouchSession/replayGapMicroseconds``
/// after the previous one ended. When the feed loops, the recordings start
/// again after the same gap, as often as asked for, each pass with every
/// device's state fresh (``Step/passBegins``). Offline replay and
/// `touchd --replay` read the same feed; only the pacing differs.
package struct ReplayFeed: Sendable {
    /// What comes next.
    package enum Step: Hashable, Sendable {
        /// Events of one device, up to the end of a frame (or up to where the
        /// next event is another device's): in the buffer given to ``next(into:)``.
        case events(DeviceID)
        /// The screens changed at this time (a recorded `screens` request,
        /// ``Trace/RecordedScreenChange``): applied after the events up to it.
        case screens(JSONValue, at: Timestamp)
        /// A recording ended at this time: every touch still down is cancelled then.
        case recordingEnded(at: Timestamp)
        /// A new pass over the recordings begins (looping): devices start afresh.
        case passBegins(Int)
        /// Nothing more.
        case finished
    }

    /// The recordings, in replay order.
    package let recordings: [Recording]
    /// Whether the recordings start again after the last one.
    package let loops: Bool
    /// The devices of all recordings with the ids the feed gives them.
    package let devices: [(id: DeviceID, device: RecordedDevice)]
    /// The pass under way, from 1.
    package private(set) var pass = 1
    /// The time (shifted) of the last event handed out.
    package private(set) var lastTime: Timestamp?

    private var file = 0
    private var index = 0
    /// The next screen change of the recording under way.
    private var screenIndex = 0
    private var offset: Int64 = 0
    private var base: UInt32 = 0
    private var ended = false

    /// Creates a feed.
    package init(recordings: [Recording], loops: Bool = false) {
        self.recordings = recordings
        self.loops = loops
        var list: [(id: DeviceID, device: RecordedDevice)] = []
        for r in recordings {
            for d in r.devices { list.append((DeviceID(rawValue: UInt32(list.count)), d)) }
        }
        devices = list
        startFile()
    }

    /// The time (shifted) of the next event, nil at the end of a recording.
    package var nextEventTime: Timestamp? {
        guard !ended, file < recordings.count, index < recordings[file].events.count else { return nil }
        return Timestamp(microseconds: recordings[file].events[index].event.time.microseconds &+ offset)
    }

    /// The time the first event is stamped with (the start of the time line).
    package var startTime: Timestamp {
        recordings.first(where: { !$0.events.isEmpty })?.events[0].event.time ?? .zero
    }

    /// Up to which time the session's deadlines fire before `step` is carried
    /// out, the same for every driver of a feed (offline and paced), so both
    /// give the live daemon's order: a deadline due before a frame fires
    /// before the frame, at its own time. Before a frame (`group` holds its
    /// events) or a screen change, up to its time; before a new pass or the
    /// end, up to one ``TouchSession/replayGapMicroseconds`` after the last
    /// recording ended (`lastEnd`); nil before a recording's end (its touches
    /// are cancelled at the time of its last event).
    package static func deadlineLimit(before step: Step, group: [InputEvent], lastEnd: Timestamp) -> Timestamp? {
        switch step {
        case .events: return group.first?.time
        case .screens(_, let time): return time
        case .recordingEnded: return nil
        case .passBegins, .finished: return Timestamp(microseconds: lastEnd.microseconds + TouchSession.replayGapMicroseconds)
        }
    }

    /// The next step; for ``Step/events(_:)`` the events replace `group`'s contents.
    package mutating func next(into group: inout [InputEvent]) -> Step {
        group.removeAll(keepingCapacity: true)
        while true {
            guard !ended else { return .finished }
            guard file < recordings.count else {
                guard loops, lastTime != nil else {
                    ended = true
                    return .finished
                }
                pass += 1
                file = 0
                base = 0
                startFile()
                return .passBegins(pass)
            }
            let events = recordings[file].events
            // A change recorded at time t came after the events up to t.
            let changes = recordings[file].screenChanges
            if screenIndex < changes.count, index >= events.count || changes[screenIndex].time < events[index].event.time {
                let change = changes[screenIndex]
                screenIndex += 1
                return .screens(change.request, at: Timestamp(microseconds: change.time.microseconds &+ offset))
            }
            guard index < events.count else {
                let end = lastTime ?? .zero
                base += UInt32(recordings[file].devices.count)
                file += 1
                startFile()
                return .recordingEnded(at: end)
            }
            let device = DeviceID(rawValue: base + events[index].device.rawValue)
            while index < events.count {
                let e = events[index]
                guard DeviceID(rawValue: base + e.device.rawValue) == device else { break }
                var event = e.event
                event.time.microseconds &+= offset
                group.append(event)
                lastTime = event.time
                index += 1
                if event.isSynReport { break }
            }
            return .events(device)
        }
    }

    // The next recording starts one gap after the last event handed out.
    private mutating func startFile() {
        index = 0
        screenIndex = 0
        guard file < recordings.count, let last = lastTime, let first = recordings[file].events.first else { return }
        offset = last.microseconds + TouchSession.replayGapMicroseconds - first.event.time.microseconds
    }
}
