// SPDX-License-Identifier: MIT
import JSON

/// A client's display frames, as the `frames` request states them
/// (docs/protocol.md, "frames"): touchd then sends the client one `motion`
/// line per touch and frame, the touch's position resampled at the frame's
/// time less the resampling lead, and optionally a predicted position.
public struct FramesRequest: Hashable, Sendable {
    /// `periodMs`: the time between two frames in milliseconds; 0 turns the
    /// `motion` lines off.
    public var periodMilliseconds: Double
    /// `time`: the presentation time of any one frame, in seconds on the clock
    /// of the events' `time` (the others are whole periods away).
    public var time: Double
    /// `predict.horizonMs`: how far past the newest report a position is
    /// predicted, in milliseconds (cut to the recommended horizon of each
    /// touch's type and tool); nil: no prediction.
    public var predictionHorizonMilliseconds: Double?

    /// The shortest period a client may state (a 1000 Hz display).
    public static let minPeriodMilliseconds = 1.0
    /// The longest period a client may state (one frame a second).
    public static let maxPeriodMilliseconds = 1000.0
    /// The longest prediction horizon a client may ask for; each touch's is
    /// cut further to its type's and tool's recommended horizon.
    public static let maxHorizonMilliseconds = 100.0

    /// Creates a request.
    public init(periodMilliseconds: Double, time: Double, predictionHorizonMilliseconds: Double? = nil) {
        self.periodMilliseconds = periodMilliseconds
        self.time = time
        self.predictionHorizonMilliseconds = predictionHorizonMilliseconds
    }

    /// No `motion` lines (the default).
    public static let off = FramesRequest(periodMilliseconds: 0, time: 0)

    /// Whether it turns the `motion` lines off.
    public var isOff: Bool { periodMilliseconds == 0 }
}

extension FieldReader {
    /// `frames`' fields: `periodMs` (required: 0, or from 1 to 1000), `time`
    /// (required unless `periodMs` is 0: seconds, not negative) and
    /// `predict` (optional: `{"horizonMs": 0 to 100}`).
    func framesRequest(_ fields: [String: JSONValue]) throws(RequestError) -> FramesRequest {
        let period = try requiredNumber(fields["periodMs"], path: "periodMs")
        guard period == 0 || (period >= FramesRequest.minPeriodMilliseconds && period <= FramesRequest.maxPeriodMilliseconds) else {
            throw bad("periodMs", "expected 0 (off) or a number of milliseconds from 1 to 1000, not \(Self.written(fields["periodMs"]))")
        }
        guard period > 0 else { return .off }
        let time = try requiredNumber(fields["time"], path: "time")
        guard time >= 0, time.isFinite else {
            throw bad("time", "expected a frame's time in seconds (not negative), not \(Self.written(fields["time"]))")
        }
        var horizon: Double?
        if let p = present(fields["predict"]) {
            guard case let .object(predict) = p else { throw bad("predict", "expected an object, not \(p.kindDescription)") }
            let h = try requiredNumber(predict["horizonMs"], path: "predict.horizonMs")
            guard h >= 0, h <= FramesRequest.maxHorizonMilliseconds else {
                throw bad("predict.horizonMs", "expected a number of milliseconds from 0 to 100, not \(Self.written(predict["horizonMs"]))")
            }
            horizon = h
        }
        return FramesRequest(periodMilliseconds: period, time: time, predictionHorizonMilliseconds: horizon)
    }

    /// A value as the client wrote it (an integer stays one).
    static func written(_ v: JSONValue?) -> String {
        var w = JSONWriter(capacity: 32)
        (v ?? .null).write(into: &w)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

extension RequestEnvelope {
    /// Writes `frames`' fields into an open object.
    static func writeFrames(_ f: FramesRequest, into w: inout JSONWriter) {
        w.key("periodMs"); writeNumber(f.periodMilliseconds, into: &w)
        guard !f.isOff else { return }
        w.key("time"); writeNumber(f.time, into: &w)
        if let h = f.predictionHorizonMilliseconds {
            w.key("predict")
            w.beginObject()
            w.key("horizonMs"); writeNumber(h, into: &w)
            w.endObject()
        }
    }
}

/// How a `motion` line's position came about (its `sample`).
public enum WireResampledKind: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// A real report at exactly that time, or the touch's last report once it ended.
    case real
    /// Between two real reports.
    case interpolated
    /// Past the newest report, by at most the resampler's bound (docs/semantics.md §14).
    case extrapolated
    /// A real report's position kept (one report only, a gap, a touch at rest).
    case held

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .real: return "real"
        case .interpolated: return "interpolated"
        case .extrapolated: return "extrapolated"
        case .held: return "held"
        }
    }
}

/// A `motion` line's `predicted` object: where the touch is guessed to be
/// some milliseconds past its newest report. Never a report: a client draws
/// it and replaces it with the next frame's.
public struct WirePrediction: Hashable, Sendable, BitwiseCopyable {
    /// `time`, in microseconds: the newest report's time plus the horizon.
    public var microseconds: Int64
    /// `location`, in screen pixels.
    public var location: WirePoint

    /// Creates one.
    @inlinable public init(microseconds: Int64, location: WirePoint) {
        self.microseconds = microseconds
        self.location = location
    }
}

/// A `motion` line: one touch's position for one display frame of a client
/// that sent `frames` (docs/protocol.md, "frames").
public struct MotionMessage: Hashable, Sendable, BitwiseCopyable {
    /// `time`, in microseconds: when the position was taken (the frame's time less the lead).
    public var microseconds: Int64
    /// `frame`, in microseconds: the frame's presentation time.
    public var frameMicroseconds: Int64
    /// `device`: the touch's device, as on its `touch` lines.
    public var device: UInt32
    /// `id`: the touch's id, as on its `touch` lines.
    public var id: UInt32
    /// `touchType`.
    public var touchType: WireTouchType
    /// `tool`.
    public var tool: WireTool
    /// `screen`.
    public var screen: Int
    /// `location`, in screen pixels.
    public var location: WirePoint
    /// `sample`: how the position came about.
    public var sample: WireResampledKind
    /// `force`, 0...1, resampled like the position (interpolated, never extrapolated).
    public var force: Double?
    /// `altitude`, in radians, resampled like `force`.
    public var altitude: Double?
    /// `azimuth`, in radians, resampled like `force`.
    public var azimuth: Double?
    /// `predicted`, when the client asked for prediction and the touch's kind has one.
    public var predicted: WirePrediction?

    /// Creates a motion line.
    @inlinable
    public init(
        microseconds: Int64, frameMicroseconds: Int64, device: UInt32, id: UInt32, touchType: WireTouchType, tool: WireTool,
        screen: Int, location: WirePoint, sample: WireResampledKind, force: Double? = nil, altitude: Double? = nil,
        azimuth: Double? = nil, predicted: WirePrediction? = nil
    ) {
        self.microseconds = microseconds
        self.frameMicroseconds = frameMicroseconds
        self.device = device
        self.id = id
        self.touchType = touchType
        self.tool = tool
        self.screen = screen
        self.location = location
        self.sample = sample
        self.force = force
        self.altitude = altitude
        self.azimuth = azimuth
        self.predicted = predicted
    }
}

extension MessageEncoder {
    /// Writes one `motion` object (no trailing newline).
    public static func motion(_ m: MotionMessage, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", literal: "motion")
        w.field("time", seconds: m.microseconds)
        w.field("frame", seconds: m.frameMicroseconds)
        w.field("device", int: m.device)
        w.field("id", int: m.id)
        w.field("touchType", literal: m.touchType.protocolName)
        w.field("tool", literal: m.tool.protocolName)
        w.field("screen", int: m.screen)
        w.field("location", x: m.location.x, y: m.location.y, decimals: 2)
        w.field("sample", literal: m.sample.protocolName)
        if let v = m.force { w.field("force", number: v, decimals: 4) }
        if let v = m.altitude { w.field("altitude", number: v, decimals: 4) }
        if let v = m.azimuth { w.field("azimuth", number: v, decimals: 4) }
        if let p = m.predicted {
            w.key("predicted")
            w.beginObject()
            w.field("time", seconds: p.microseconds)
            w.field("location", x: p.location.x, y: p.location.y, decimals: 2)
            w.endObject()
        }
        w.endObject()
    }
}
