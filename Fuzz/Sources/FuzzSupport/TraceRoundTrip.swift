// SPDX-License-Identifier: MIT
import TouchCore
import Trace

/// What the trace harnesses check about every trace a reader accepts: it can
/// be written as a native trace, and reading that back gives the same devices
/// and events (the writer and reader agree on everything a reader can produce).
package enum TraceRoundTrip {
    /// One fuzz input read as `format` (given, so detection never refuses it):
    /// any thrown ``TraceError`` with a message is a correct answer; a crash,
    /// another error, or an accepted trace that does not survive a native
    /// round trip stops the fuzzer.
    package static func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int, format: TraceFormat) {
        let bytes = UnsafeBufferPointer(start: size > 0 ? data : nil, count: size)
        let recording: Recording
        do {
            recording = try TraceReader.read(bytes: bytes, name: "fuzz", format: format)
        } catch let error as TraceError {
            if error.message.isEmpty { invariantViolated("TraceError without a message: \(error.code.rawValue)") }
            return
        } catch {
            invariantViolated("TraceReader threw something else than a TraceError: \(error)")
        }
        check(recording)
    }

    /// Checks `recording` (read from a fuzz input); stops the fuzzer when the round trip differs.
    package static func check(_ recording: Recording) {
        if recording.events.contains(where: { Int($0.device.rawValue) >= recording.devices.count }) {
            invariantViolated("an event names a device the recording does not have")
        }
        let text: String
        do {
            text = try TraceWriter.render(recording, as: .native)
        } catch {
            // The writer refuses what the format cannot express; a clear error is fine.
            return
        }
        let again: Recording
        do {
            again = try TraceReader.read(text: text, name: "round-trip", format: .native)
        } catch {
            invariantViolated("the native trace written from an accepted trace does not read back: \(error)\n\(text.prefix(2000))")
        }
        if again.devices.map(\.description) != recording.devices.map(\.description) {
            invariantViolated("native round trip changed the devices:\n\(recording.devices)\n\(again.devices)\n\(text.prefix(1000))")
        }
        if again.events != recording.events {
            invariantViolated("native round trip changed the events (\(recording.events.count) -> \(again.events.count))")
        }
    }
}
