// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import JSON
import SystemCalls
import TouchCore

/// Streams a `touchd-trace` version 1 file (docs/trace-format.md): a header
/// line, then device, removal and frame lines as they happen.
///
/// Events are buffered until their `SYN_REPORT`, then written as one frame
/// line, so a crash loses at most the frame being written. For live
/// recording, create it with `flushEveryFrame: true` (or call ``flush()``
/// after each frame) so every complete frame reaches the file at once.
///
/// ```swift
/// var writer = NativeTraceWriter()           // into ``text``
/// writer.addDevice(DeviceID(0), device, at: nil)
/// for e in events { try writer.append(e) }
/// try writer.finish()
/// ```
package struct NativeTraceWriter {
    /// The current format version, written in the header line.
    package static let version = 1

    private enum Sink {
        case buffer
        case fileDescriptor(Int32)
    }

    private let sink: Sink
    private let name: String
    private let flushEveryFrame: Bool
    private var pending = ""
    private var frame: [RecordedEvent] = []
    private var frameDevice: DeviceID?
    /// Everything written so far, when writing to memory (the `init()` form).
    package private(set) var text = ""

    /// A writer that collects the trace in ``text``.
    package init() {
        self.sink = .buffer
        self.name = "memory"
        self.flushEveryFrame = false
        writeHeader()
    }

    /// A writer that appends to an open file descriptor (which the caller
    /// keeps open and closes). With `flushEveryFrame`, each complete frame is
    /// written at once, as a live recorder wants.
    ///
    /// `name` (the file's path) is what write errors name; without it, the descriptor.
    package init(fileDescriptor: Int32, name: String? = nil, flushEveryFrame: Bool = true) {
        self.sink = .fileDescriptor(fileDescriptor)
        self.name = name ?? "fd \(fileDescriptor)"
        self.flushEveryFrame = flushEveryFrame
        writeHeader()
    }

    private mutating func writeHeader() {
        pending += "{\"type\":\"header\",\"format\":\"touchd-trace\",\"version\":\(Self.version)}\n"
    }

    /// Writes a device line: `id` is how frame lines will name it; `time` is
    /// when it appeared (hot-plug), nil for devices present from the start.
    package mutating func addDevice(_ id: DeviceID, _ device: RecordedDevice, at time: Timestamp?) {
        let d = device.description
        var line = "{\"type\":\"device\",\"id\":\(id.rawValue)"
        if let time { line += ",\"time\":\(time.microseconds)" }
        line += ",\"name\":"
        JSONText.appendString(d.name, to: &line)
        line += ",\"bus\":\(d.id.bustype),\"vendor\":\(d.id.vendor),\"product\":\(d.id.product),\"version\":\(d.id.version)"
        line += ",\"properties\":[" + d.properties.numbers.map(String.init).joined(separator: ",") + "]"
        line += ",\"codes\":{"
        line += d.codes.keys.sorted().map { type in
            "\"\(type.rawValue)\":[" + d.codes[type]!.codes.map(String.init).joined(separator: ",") + "]"
        }.joined(separator: ",")
        line += "},\"absinfo\":{"
        line += d.absInfo.keys.sorted().map { code in
            let a = d.absInfo[code]!
            return "\"\(code)\":[\(a.minimum),\(a.maximum),\(a.fuzz),\(a.flat),\(a.resolution)]"
        }.joined(separator: ",")
        line += "}"
        if let node = device.node {
            line += ",\"node\":"
            JSONText.appendString(node, to: &line)
        }
        if !d.udevProperties.isEmpty {
            line += ",\"udev\":{"
            var first = true
            for key in d.udevProperties.keys.sorted() {
                if !first { line += "," }
                first = false
                JSONText.appendString(key, to: &line)
                line += ":"
                JSONText.appendString(d.udevProperties[key]!, to: &line)
            }
            line += "}"
        }
        if let state = device.initialState { Self.append(state, of: d, to: &line) }
        pending += line + "}\n"
    }

    // The `state` field (docs/trace-format.md): every slot with the slot axes the device declares.
    private static func append(_ state: DeviceState, of d: DeviceDescription, to line: inout String) {
        line += ",\"state\":{"
        var parts: [String] = []
        if let slot = state.currentSlot { parts.append("\"slot\":\(slot)") }
        if !state.slots.isEmpty {
            let slots = state.slots.map { s -> String in
                var axes: [(UInt16, Int32?)] = [
                    (EventCode.absMTTrackingID, s.trackingID), (EventCode.absMTPositionX, s.x), (EventCode.absMTPositionY, s.y),
                    (EventCode.absMTPressure, s.pressure), (EventCode.absMTTouchMajor, s.touchMajor),
                    (EventCode.absMTTouchMinor, s.touchMinor), (EventCode.absMTToolType, s.toolType), (EventCode.absMTDistance, s.distance),
                ]
                axes.sort { $0.0 < $1.0 }
                let values = axes.compactMap { code, value in value.map { "\"\(code)\":\($0)" } }
                return "\"\(s.slot)\":{" + values.joined(separator: ",") + "}"
            }
            parts.append("\"slots\":{" + slots.joined(separator: ",") + "}")
        }
        if !state.keysDown.isEmpty { parts.append("\"keys\":[" + state.keysDown.map(String.init).joined(separator: ",") + "]") }
        if !state.axisValues.isEmpty {
            parts.append("\"abs\":{" + state.axisValues.keys.sorted().map { "\"\($0)\":\(state.axisValues[$0]!)" }.joined(separator: ",") + "}")
        }
        line += parts.joined(separator: ",") + "}"
    }

    /// Writes a removal line: the device is gone and `id` may be reused by a later device line.
    package mutating func removeDevice(_ id: DeviceID, at time: Timestamp) throws(TraceError) {
        if frameDevice == id { writeFrame() }
        pending += "{\"type\":\"removed\",\"id\":\(id.rawValue),\"time\":\(time.microseconds)}\n"
        if flushEveryFrame { try flush() }
    }

    /// Writes a `screens` line: the screens changed at runtime at `time` (the
    /// daemon's event clock), by `request`, a `screens` request as one JSON
    /// object (the protocol's, docs/protocol.md); replay applies it after the
    /// events up to `time`.
    package mutating func screens(request: String, at time: Timestamp) throws(TraceError) {
        writeFrame()
        pending += "{\"type\":\"screens\",\"time\":\(time.microseconds),\"request\":\(request)}\n"
        if flushEveryFrame { try flush() }
    }

    /// Writes a `focus` line: the focused app changed at `time` (a follower's
    /// `focus` request as one JSON object, or `{"op":"focus"}` when it was
    /// forgotten); replay applies it after the events up to `time`.
    package mutating func focus(request: String, at time: Timestamp) throws(TraceError) {
        writeFrame()
        pending += "{\"type\":\"focus\",\"time\":\(time.microseconds),\"request\":\(request)}\n"
        if flushEveryFrame { try flush() }
    }

    /// Buffers an event; a `SYN_REPORT` writes the frame line. An event of
    /// another device than the buffered ones first writes those as a frame
    /// of their own (it was cut short, which readers accept).
    package mutating func append(_ event: RecordedEvent) throws(TraceError) {
        if let d = frameDevice, d != event.device { writeFrame() }
        frameDevice = event.device
        frame.append(event)
        if event.event.isSynReport {
            writeFrame()
            if flushEveryFrame { try flush() }
        }
    }

    private mutating func writeFrame() {
        guard let device = frameDevice, let first = frame.first else { return }
        let time = first.event.time
        var line = "{\"type\":\"frame\",\"device\":\(device.rawValue),\"time\":\(time.microseconds),\"events\":["
        for (i, r) in frame.enumerated() {
            let e = r.event
            if i > 0 { line += "," }
            line += "[\(e.type.rawValue),\(e.code),\(e.value)"
            if e.time != time { line += ",\(e.time.microseconds)" }
            line += "]"
        }
        pending += line + "]}\n"
        frame.removeAll(keepingCapacity: true)
        frameDevice = nil
    }

    /// Moves the written lines to the file descriptor (or to ``text``).
    /// An incomplete frame stays buffered.
    package mutating func flush() throws(TraceError) {
        guard !pending.isEmpty else { return }
        switch sink {
        case .buffer:
            text += pending
        case let .fileDescriptor(fd):
            do {
                try Syscall.writeAll(fd, Array(pending.utf8))
            } catch {
                throw TraceError(.unwritable, file: name, "cannot write: \(String(cString: strerror(error.errno))) (errno \(error.errno))")
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// Writes an incomplete last frame, if any, and flushes.
    package mutating func finish() throws(TraceError) {
        writeFrame()
        try flush()
    }
}
