import Gestures
import TouchCore
import Trace
import Wire

/// Which event streams a replay prints.
public struct ReplayStreams: OptionSet, Hashable, Sendable {
    /// The bits.
    public var rawValue: UInt8
    /// Creates a stream set.
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `touch` events: the typed touches.
    public static let touch = ReplayStreams(rawValue: 1 << 0)
    /// `gesture` events: what the recognizers recognized.
    public static let gesture = ReplayStreams(rawValue: 1 << 1)
    /// `debug` records: recognizer transitions and arbitration decisions.
    public static let debug = ReplayStreams(rawValue: 1 << 2)
    /// `system` events: deferral decisions and edge hints.
    public static let system = ReplayStreams(rawValue: 1 << 3)

    /// Parses a comma-separated list such as `gesture,touch`.
    public init(list: String) throws(ReplayError) {
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
public struct ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension Substring {
    func trimmingWhitespace() -> String {
        var s = self
        while let f = s.first, f == " " || f == "\t" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}

/// Gap inserted between consecutive files of one replay, so that every
/// deadline of the previous file passes before the next one starts.
let fileGapMicroseconds: Int64 = 1_000_000

/// What a replay produces, in order.
public enum ReplayOutput: Sendable {
    /// A typed touch from the pipeline (the `touch` stream).
    case touch(Touch)
    /// Something the gesture engine produced: a gesture, a surface's raw touch, a debug record.
    case engine(EngineOutput)
}

/// Runs recordings through the offline pipeline and the gesture engine on
/// virtual time: same input, same output, on any machine.
///
/// Several recordings replay one after another as distinct devices: the
/// first keeps its timestamps, each later one is shifted to start one second
/// after the previous one ended.
public struct ReplaySession {
    /// The recordings, in replay order.
    public let recordings: [Recording]
    /// Screens, device rules and gestures.
    public let configuration: TouchdConfiguration

    /// Creates a session.
    public init(recordings: [Recording], configuration: TouchdConfiguration = TouchdConfiguration()) {
        self.recordings = recordings
        self.configuration = configuration
    }

    /// The devices of all recordings with the ids the session gives them.
    public var deviceList: [(id: DeviceID, device: RecordedDevice)] {
        var out: [(DeviceID, RecordedDevice)] = []
        for r in recordings {
            for d in r.devices { out.append((DeviceID(out.count), d)) }
        }
        return out
    }

    /// Devices the configuration ignores, with the reason.
    public var ignoredDevices: [(id: DeviceID, reason: String)] {
        deviceList.compactMap { entry in
            configuration.decision(for: entry.device.description).ignoredBecause.map { (entry.id, $0) }
        }
    }

    /// A pipeline with every device of the session that the configuration does not ignore.
    public func makePipeline() -> TouchPipeline {
        var pipeline = TouchPipeline(screens: configuration.screenConfigurations)
        for (id, d) in deviceList {
            let decision = configuration.decision(for: d.description)
            guard decision.ignoredBecause == nil else { continue }
            pipeline.addDevice(id, description: d.description, mapping: decision.mapping)
        }
        return pipeline
    }

    /// The `hello` entries for the session's devices.
    public func helloDevices(_ pipeline: TouchPipeline) -> [HelloDevice] {
        pipeline.devices.map { info in
            HelloDevice(
                id: info.id, name: info.description.name, touchTypes: info.classification.touchTypes,
                slots: info.description.slotCount, widthMM: info.geometry.width, heightMM: info.geometry.height,
                sizeSource: info.geometry.source.rawValue, screen: info.mapping.screen)
        }
    }

    /// The `hello` entries for the session's screens.
    public var helloScreens: [HelloScreen] {
        configuration.screens.enumerated().map {
            HelloScreen(index: $0.offset, name: $0.element.name, width: $0.element.width, height: $0.element.height)
        }
    }

    /// Replays every event through `pipeline` alone (no gesture engine), calling
    /// `frame` for each touch frame, including the end-of-trace cancellations.
    public func frames(_ pipeline: inout TouchPipeline, _ frame: (TouchFrame) -> Void) {
        var base: UInt32 = 0
        var lastTime: Int64? = nil
        for r in recordings {
            var offset: Int64 = 0
            if let last = lastTime, let first = r.events.first {
                offset = last + fileGapMicroseconds - first.event.time.microseconds
            }
            for e in r.events {
                var ev = e.event
                ev.time.microseconds &+= offset
                lastTime = ev.time.microseconds
                if let f = pipeline.process(ev, from: DeviceID(rawValue: base + e.device.rawValue)) { frame(f) }
            }
            for f in pipeline.finish(at: Timestamp(microseconds: lastTime ?? 0)) { frame(f) }
            base += UInt32(r.devices.count)
        }
    }

    /// Replays every event in time order; `emit` receives each touch of each
    /// frame, then what the engine made of the frame. After the last event,
    /// every pending deadline of the engine is run.
    public func run(recordsDebug: Bool = true, _ emit: (ReplayOutput) -> Void) {
        var pipeline = makePipeline()
        var engine = Engine(configuration: configuration.gestures(for: pipeline.devices))
        engine.recordsDebug = recordsDebug
        var outputs: [EngineOutput] = []
        outputs.reserveCapacity(64)
        func deliver(_ frame: TouchFrame) {
            for t in frame.touches { emit(.touch(t)) }
            outputs.removeAll(keepingCapacity: true)
            engine.handle(frame, into: &outputs)
            for o in outputs { emit(.engine(o)) }
        }
        frames(&pipeline, deliver)
        // Deadlines after the last event (a long press still held, a double-tap window).
        var guardCount = 0
        while let deadline = engine.nextDeadline, guardCount < 10_000 {
            outputs.removeAll(keepingCapacity: true)
            engine.advance(to: deadline, into: &outputs)
            for o in outputs { emit(.engine(o)) }
            guardCount += 1
        }
    }
}
