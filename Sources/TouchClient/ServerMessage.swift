// SPDX-License-Identifier: MIT
import JSON
import NIOCore
import Wire

/// One message from the server, kept as JSON with typed accessors for the
/// common fields. Unknown fields stay reachable through ``json``.
public struct ServerMessage: Hashable, Sendable {
    /// The whole message.
    public var json: JSONValue
    /// The line as the server sent it (a view of the received bytes, no copy), for a message
    /// read from the socket.
    private var received: ByteBuffer?

    /// Wraps a parsed message.
    public init(json: JSONValue) { self.json = json }

    /// Wraps a message parsed from `line`, which is kept as the server sent it.
    init(json: JSONValue, line: ByteBuffer) {
        self.json = json
        self.received = line
    }

    /// The line exactly as the server sent it (without its newline), when the message was read
    /// from the socket; re-encoding ``json`` would reorder its keys.
    public var line: String? { received.map { String(buffer: $0) } }

    /// The `type` field (`hello`, `touch`, `gesture`, ...).
    public var type: String { json["type"]?.stringValue ?? "" }
    /// Event time in seconds.
    public var time: Double? { json["time"]?.doubleValue }
    /// Device id.
    public var device: UInt32? { json["device"]?.int64Value.flatMap { UInt32(exactly: $0) } }
    /// The `id` field (a touch id in `touch` messages, a request id in `ack`/`error`).
    public var id: JSONValue? { json["id"] }
    /// Touch phase (`began`, `moved`, `ended`, `cancelled`, `hover`).
    public var phase: String? { json["phase"]?.stringValue }
    /// Recognizer state (`began`, `changed`, `recognized`, ...).
    public var state: String? { json["state"]?.stringValue }
    /// Gesture kind.
    public var kind: String? { json["kind"]?.stringValue }
    /// Recognizer name.
    public var recognizer: String? { json["recognizer"]?.stringValue }
    /// Surface id.
    public var surface: String? { json["surface"]?.stringValue }
    /// Touch type.
    public var touchType: String? { json["touchType"]?.stringValue }
    /// `location` as (x, y) in pixels.
    public var location: (x: Double, y: Double)? {
        guard let x = json["location"]?["x"]?.doubleValue, let y = json["location"]?["y"]?.doubleValue else { return nil }
        return (x, y)
    }
    /// The `field` member (any other field).
    public subscript(field: String) -> JSONValue? { json[field] }
}

/// What a ``TouchClient`` hands to its reader, in order.
public enum TouchEvent: Sendable {
    /// Connected (or reconnected): the server's `hello`.
    case hello(ServerMessage)
    /// A raw touch.
    case touch(ServerMessage)
    /// A recognizer action.
    case gesture(ServerMessage)
    /// A system gesture or hint.
    case system(ServerMessage)
    /// A device was added, removed or changed.
    case device(ServerMessage)
    /// The screen geometry changed (a `screens` request, a reload): `screens` as in `hello`.
    case screens(ServerMessage)
    /// The server dropped `lost` events for this client; the last was stamped `time`.
    case overflow(lost: Int, time: Double)
    /// The server is closing the connection.
    case goodbye(reason: String)
    /// An error not tied to a request this client is waiting for (e.g. `line-too-long`).
    case error(RequestError)
    /// A drag session event for this client (semantics §12): `event` is
    /// `items-requested`, `add-requested`, `entered`, `moved`, `exited`,
    /// `perform` or `ended` (docs/protocol.md, "Drag sessions").
    case drag(ServerMessage)
    /// One touch's position for one of the display frames the client stated
    /// with ``TouchClient/frames(periodMilliseconds:time:predictionHorizonMilliseconds:)``
    /// (docs/protocol.md, "frames"); read it with ``MotionMessage/init(_:)``.
    case motion(ServerMessage)
    /// A message type this library does not know (newer servers may send more).
    case other(ServerMessage)
    /// The connection was lost; pending requests failed. Reconnection follows if enabled.
    case disconnected
    /// Reconnected, and the subscriptions and surfaces of the previous connection were restored.
    case reconnected
}

extension TouchEvent {
    /// Classifies a parsed server line.
    init(_ m: ServerMessage) {
        switch m.type {
        case "hello": self = .hello(m)
        case "touch": self = .touch(m)
        case "gesture": self = .gesture(m)
        case "system": self = .system(m)
        case "device": self = .device(m)
        case "screens": self = .screens(m)
        case "drag": self = .drag(m)
        case "motion": self = .motion(m)
        case "overflow":
            self = .overflow(lost: Int(m["lost"]?.int64Value ?? 0), time: m.time ?? 0)
        case "goodbye": self = .goodbye(reason: m["reason"]?.stringValue ?? "")
        case "error": self = .error(RequestError(m))
        default: self = .other(m)
        }
    }
}

extension RequestError {
    /// The error an `error` message describes.
    init(_ m: ServerMessage) {
        let id: RequestID?
        switch m.id {
        case let .int(v)?: id = .int(v)
        case let .double(v)?: id = .double(v)
        case let .string(v)?: id = .string(v)
        case .null?, .bool?, .array?, .object?, nil: id = nil
        }
        self.init(ErrorCode(rawValue: m["code"]?.stringValue ?? "internal"), m["message"]?.stringValue ?? "", id: id)
    }
}

extension MotionMessage {
    /// Reads a `motion` line; nil when it is not one or a required field is
    /// missing or unknown to this library.
    public init?(_ m: ServerMessage) {
        guard m.type == "motion", let time = m.time, let frame = m["frame"]?.doubleValue,
              let device = m.device, let id = m["id"]?.int64Value.flatMap({ UInt32(exactly: $0) }),
              let type = m.touchType.flatMap(WireTouchType.init(rawValue:)),
              let tool = m["tool"]?.stringValue.flatMap(WireTool.init(rawValue:)),
              let screen = m["screen"]?.int64Value, let location = m.location,
              let sample = m["sample"]?.stringValue.flatMap(WireResampledKind.init(rawValue:))
        else { return nil }
        var predicted: WirePrediction?
        if let p = m["predicted"], let t = p["time"]?.doubleValue,
           let x = p["location"]?["x"]?.doubleValue, let y = p["location"]?["y"]?.doubleValue {
            predicted = WirePrediction(microseconds: Self.microseconds(t), location: WirePoint(x: x, y: y))
        }
        self.init(
            microseconds: Self.microseconds(time), frameMicroseconds: Self.microseconds(frame), device: device, id: id,
            touchType: type, tool: tool, screen: Int(screen), location: WirePoint(x: location.x, y: location.y), sample: sample,
            force: m["force"]?.doubleValue, altitude: m["altitude"]?.doubleValue, azimuth: m["azimuth"]?.doubleValue,
            predicted: predicted)
    }

    private static func microseconds(_ seconds: Double) -> Int64 { Int64((seconds * 1_000_000).rounded()) }
}
