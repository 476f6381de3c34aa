// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import Trace

/// Which event streams a replay prints.
package struct ReplayStreams: OptionSet, Hashable, Sendable {
    /// The bits.
    package var rawValue: UInt8
    /// Creates a stream set.
    package init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `touch` events: the typed touches.
    package static let touch = ReplayStreams(rawValue: 1 << 0)
    /// `gesture` events: what the recognizers recognized.
    package static let gesture = ReplayStreams(rawValue: 1 << 1)
    /// `debug` records: recognizer transitions and arbitration decisions.
    package static let debug = ReplayStreams(rawValue: 1 << 2)
    /// `system` events: deferral decisions and edge hints.
    package static let system = ReplayStreams(rawValue: 1 << 3)

    /// Parses a comma-separated list such as `gesture,touch`.
    package init(list: String) throws(ReplayError) {
        var s: ReplayStreams = []
        for part in list.split(separator: ",") {
            switch part.trimmingWhitespace() {
            case "touch", "touches": s.insert(.touch)
            case "gesture", "gestures": s.insert(.gesture)
            case "debug": s.insert(.debug)
            case "system": s.insert(.system)
            case let other: throw ReplayError("unknown event stream '\(other)' (expected touch, gesture, system, debug)")
            }
        }
        self = s
    }
}

/// A replay that could not run.
package struct ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String
    /// Creates an error.
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}

extension Substring {
    func trimmingWhitespace() -> String {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// What a replay produces, in order.
package enum ReplayOutput: Sendable {
    /// A typed touch from the pipeline (the `touch` stream).
    case touch(Touch)
    /// Something the gesture engine produced: a gesture, a surface's raw touch, a debug record.
    case engine(EngineOutput)
    /// A drag session's decision (semantics §12), for configuration file
    /// surfaces that play a part in sessions.
    case drag(DragSessionRecord)
}

/// A ``SessionSink`` that hands each touch and engine output to a closure
/// as ``ReplayOutput`` (device events are left out).
package struct ReplayOutputSink: SessionSink {
    let emit: (ReplayOutput) -> Void

    /// Creates a sink calling `emit`.
    package init(_ emit: @escaping (ReplayOutput) -> Void) { self.emit = emit }

    package mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine) {
        for t in frame.touches { emit(.touch(t)) }
        for o in outputs { emit(.engine(o)) }
    }

    package mutating func engineOutputs(_ outputs: [EngineOutput]) {
        for o in outputs { emit(.engine(o)) }
    }

    package mutating func dragSessionRecords(_ records: [DragSessionRecord]) {
        for r in records { emit(.drag(r)) }
    }

    package mutating func device(_ event: SessionDeviceEvent) {}
}

/// Runs recordings through the session core (``TouchSession``) on virtual
/// time, as fast as it can: same input, same output, on any machine.
///
/// Several recordings replay one after another as distinct devices
/// (``ReplayFeed``): the first keeps its timestamps, each later one is shifted
/// to start one second after the previous one ended.
package struct ReplaySession {
    /// The recordings, in replay order.
    package let recordings: [Recording]
    /// Screens, device rules and gestures.
    package let configuration: TouchdConfiguration

    /// Creates a session.
    package init(recordings: [Recording], configuration: TouchdConfiguration = TouchdConfiguration()) {
        self.recordings = recordings
        self.configuration = configuration
    }

    /// The devices of all recordings with the ids the session gives them.
    package var deviceList: [(id: DeviceID, device: RecordedDevice)] { ReplayFeed(recordings: recordings).devices }

    /// Devices the configuration ignores, with the reason.
    package var ignoredDevices: [(id: DeviceID, reason: String)] {
        deviceList.compactMap { entry in
            configuration.deviceSettings(for: entry.device.description, udevProperties: entry.device.description.udevProperties)
                .ignoredBecause.map { (entry.id, $0) }
        }
    }

    /// A session core with every device of the recordings added (those the
    /// configuration ignores are left out).
    package func makeSession(recordsDebug: Bool = true) -> TouchSession {
        var session = TouchSession(configuration: configuration, recordsDebug: recordsDebug)
        var sink = ReplayOutputSink { _ in }
        let start = ReplayFeed(recordings: recordings).startTime
        for (id, d) in deviceList { session.addRecordedDevice(id, d, at: start, into: &sink) }
        return session
    }

    /// A pipeline with every device of the session that the configuration does not ignore.
    package func makePipeline() -> TouchPipeline { makeSession().pipeline }

    /// Replays every event through `pipeline` alone (no gesture engine), calling
    /// `frame` for each touch frame, including the end-of-recording cancellations.
    package func frames(_ pipeline: inout TouchPipeline, _ frame: (TouchFrame) -> Void) {
        var feed = ReplayFeed(recordings: recordings)
        var group: [InputEvent] = []
        while true {
            switch feed.next(into: &group) {
            case .events(let device):
                var next = 0
                while next < group.count {
                    let (f, after) = pipeline.process(group, startingAt: next, from: device)
                    next = after
                    if let f { frame(f) }
                }
            case .recordingEnded(let time):
                for f in pipeline.finish(at: time) { frame(f) }
            case .screens:
                // The pipeline alone maps nothing to screens here: the change is the session's.
                continue
            case .passBegins, .finished:
                return
            }
        }
    }

    /// Replays every event in time order; `emit` receives each touch of each
    /// frame, then what the engine made of the frame. After the last event,
    /// every pending deadline of the engine is run.
    package func run(recordsDebug: Bool = true, _ emit: (ReplayOutput) -> Void) {
        withoutActuallyEscaping(emit) { emit in
            var sink = ReplayOutputSink(emit)
            var session = makeSession(recordsDebug: recordsDebug)
            Self.drive(&session, feed: ReplayFeed(recordings: recordings), into: &sink)
        }
    }

    /// Runs a feed through a session as fast as possible: the offline driver.
    /// A looping feed stops after `passes` passes. Deadlines fire as the
    /// paced and live drivers fire them (``ReplayFeed/deadlineLimit(before:group:lastEnd:)``);
    /// after the last pass, every pending one.
    package static func drive<Sink: SessionSink>(_ session: inout TouchSession, feed: ReplayFeed, passes: Int = 1,
                                                into sink: inout Sink) {
        var feed = feed
        var group: [InputEvent] = []
        var lastEnd = Timestamp.zero
        while true {
            let step = feed.next(into: &group)
            if let limit = ReplayFeed.deadlineLimit(before: step, group: group, lastEnd: lastEnd) {
                session.fireDeadlines(upTo: limit, into: &sink)
            }
            switch step {
            case .events(let device):
                session.handle(group, from: device, into: &sink)
            case .screens(let request, _):
                session.applyRecordedScreenChange(request, into: &sink)
            case .recordingEnded(let time):
                session.finishTouches(at: time, into: &sink)
                lastEnd = time
            case .passBegins(let pass):
                guard pass <= passes else {
                    session.runDownDeadlines(into: &sink)
                    return
                }
                session.restartDevices()
            case .finished:
                session.runDownDeadlines(into: &sink)
                return
            }
        }
    }
}
