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

    /// Parses a comma-separated list such as `gesture,touch`.
    public init(list: String) throws(ReplayError) {
        var s: ReplayStreams = []
        for part in list.split(separator: ",") {
            switch part.trimmingWhitespace() {
            case "touch", "touches": s.insert(.touch)
            case "gesture", "gestures": s.insert(.gesture)
            case "debug": s.insert(.debug)
            case let other: throw ReplayError("unknown event stream '\(other)' (expected touch, gesture, debug)")
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

/// Runs recordings through the offline pipeline on virtual time.
///
/// Several recordings replay one after another as distinct devices: the
/// first keeps its timestamps, each later one is shifted to start one second
/// after the previous one ended.
public struct ReplaySession {
    /// The recordings, in replay order.
    public let recordings: [Recording]
    /// Screens and device mapping.
    public let screens: [ScreenConfiguration]
    /// Per-device mapping (device index across all recordings -> mapping); missing = default.
    public var mappings: [DeviceID: DeviceMapping]

    /// Creates a session.
    public init(recordings: [Recording], screens: [ScreenConfiguration] = [ScreenConfiguration()], mappings: [DeviceID: DeviceMapping] = [:]) {
        self.recordings = recordings
        self.screens = screens
        self.mappings = mappings
    }

    /// The devices of all recordings with the ids the session gives them.
    public var deviceList: [(id: DeviceID, device: RecordedDevice)] {
        var out: [(DeviceID, RecordedDevice)] = []
        for r in recordings {
            for d in r.devices { out.append((DeviceID(out.count), d)) }
        }
        return out
    }

    /// A pipeline with every device of the session added.
    public func makePipeline() -> TouchPipeline {
        var pipeline = TouchPipeline(screens: screens)
        for (id, d) in deviceList {
            pipeline.addDevice(id, description: d.description, mapping: mappings[id] ?? DeviceMapping())
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
        screens.enumerated().map { HelloScreen(index: $0.offset, name: $0.element.name, width: $0.element.width, height: $0.element.height) }
    }

    /// Replays every event in time order, calling `frame` for each touch frame
    /// and `tick` before each event with its (shifted) time, then once more per
    /// recording end with `finished = true` frames.
    public func run(frame: (TouchFrame) -> Void) {
        var pipeline = makePipeline()
        var base: UInt32 = 0
        var offset: Int64 = 0
        var lastTime: Int64? = nil
        for r in recordings {
            if let last = lastTime, let first = r.events.first {
                offset = last + fileGapMicroseconds - first.event.time.microseconds
            } else {
                offset = 0
            }
            for e in r.events {
                var ev = e.event
                ev.time.microseconds &+= offset
                lastTime = ev.time.microseconds
                if let f = pipeline.process(ev, from: DeviceID(rawValue: base + e.device.rawValue)) {
                    frame(f)
                }
            }
            let end = Timestamp(microseconds: lastTime ?? 0)
            for f in pipeline.finish(at: end) { frame(f) }
            base += UInt32(r.devices.count)
        }
    }
}
