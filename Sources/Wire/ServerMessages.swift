// SPDX-License-Identifier: MIT
/// What happened to a device, as a `device` message reports it.
public enum DeviceChange: String, CaseIterable, Hashable, Sendable {
    case added
    case removed
    case changed
}

/// Why the server ends a connection, as a `goodbye` message reports it.
public struct GoodbyeReason: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The daemon is stopping.
    public static let shutdown: GoodbyeReason = "shutdown"
    /// The daemon is restarting (clients should reconnect).
    public static let restart: GoodbyeReason = "restart"
}

extension MessageEncoder {
    /// Writes `{"type":"ack","id":ID}` (the id is left out when the request had none).
    public static func ack(id: RequestID?, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("ack")
        if let id { w.key("id"); id.write(into: &w) }
        w.endObject()
    }

    /// Writes `{"type":"error","id":ID,"code":CODE,"message":TEXT}` (no id when unknown).
    public static func error(_ e: RequestError, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("error")
        if let id = e.id { w.key("id"); id.write(into: &w) }
        w.key("code"); w.string(e.code.rawValue)
        w.key("message"); w.string(e.message)
        w.endObject()
    }

    /// Writes `{"type":"goodbye","reason":REASON}`.
    public static func goodbye(reason: GoodbyeReason, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("goodbye")
        w.key("reason"); w.string(reason.rawValue)
        w.endObject()
    }

    /// Writes `{"type":"overflow","lost":N,"time":S}`: `lost` events were
    /// dropped for this client, the last of them stamped `time` (seconds).
    public static func overflow(lost: Int, time: Double, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("overflow")
        w.key("lost"); w.int(lost)
        w.key("time"); w.number(time, decimals: 6)
        w.endObject()
    }

    /// Writes `{"type":"device","time":S,"change":C,"device":{...}}`; the device
    /// entry has the shape of the `hello` message's entries.
    public static func device(_ change: DeviceChange, _ d: HelloDevice, time: Double, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("device")
        w.key("time"); w.number(time, decimals: 6)
        w.key("change"); w.string(change.rawValue)
        w.key("device"); device(d, into: &w)
        w.endObject()
    }

    /// Encodes one message into a fresh byte array (no newline): a convenience
    /// for rare messages; hot paths reuse a writer.
    public static func line(_ body: (inout JSONWriter) -> Void) -> [UInt8] {
        var w = JSONWriter(capacity: 128)
        body(&w)
        return w.bytes
    }
}
