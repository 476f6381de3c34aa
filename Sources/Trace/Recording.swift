// SPDX-License-Identifier: MIT
import JSON
import TouchCore

/// The formats touchd reads and writes.
package enum TraceFormat: String, Sendable, CaseIterable {
    /// touchd's own JSON-lines trace (docs/trace-format.md).
    case native
    /// evemu 1.0-1.3 text (self-contained, or a split description + events pair).
    case evemu
    /// `libinput record` YAML, version 1.
    case libinputYAML = "libinput-yaml"
}

/// A device as a trace describes it.
package struct RecordedDevice: Hashable, Sendable {
    /// The device's capabilities.
    package var description: DeviceDescription
    /// The device node it was recorded from (`/dev/input/event3`), when the trace says.
    package var node: String?
    /// The device's kernel state when the recording of it began (its slots,
    /// current slot, keys and axes: docs/trace-format.md, `state`), when the
    /// trace says; replay starts the device from it, as touchd did live.
    package var initialState: DeviceState?
    /// Creates a recorded device.
    package init(description: DeviceDescription, node: String? = nil, initialState: DeviceState? = nil) {
        self.description = description
        self.node = node
        self.initialState = initialState
    }
}

/// One event of one device of a trace.
package struct RecordedEvent: Hashable, Sendable {
    /// Index of the device in ``Recording/devices``.
    package var device: DeviceID
    /// The event with its original timestamp.
    package var event: InputEvent
    /// Creates a recorded event.
    package init(device: DeviceID, event: InputEvent) {
        self.device = device
        self.event = event
    }
}

/// A problem in a trace that did not stop it from being read (for example a
/// code the device never declared), naming the file and line.
package struct TraceWarning: Hashable, Sendable, CustomStringConvertible {
    /// The file.
    package var file: String
    /// 1-based line number, or 0 when the warning is about the whole file.
    package var line: Int
    /// What is wrong.
    package var message: String
    /// Creates a warning.
    package init(file: String, line: Int, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }
    package var description: String { line > 0 ? "\(file):\(line): warning: \(message)" : "\(file): warning: \(message)" }
}

/// A trace that could not be read: names the file, the line and what is wrong.
package struct TraceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of problem.
    package struct Code: RawRepresentable, Hashable, Sendable {
        package var rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The file could not be opened or read.
        package static let unreadable = Code(rawValue: "unreadable")
        /// The file is not in any format touchd knows, or its header is wrong.
        package static let badHeader = Code(rawValue: "bad-header")
        /// A line could not be parsed.
        package static let badLine = Code(rawValue: "bad-line")
        /// The file ends in the middle of a record.
        package static let truncated = Code(rawValue: "truncated")
        /// An events-only file has no description to pair with.
        package static let missingDescription = Code(rawValue: "missing-description")
        /// The trace names a device it never described, or has no device.
        package static let badDevice = Code(rawValue: "bad-device")
        /// The trace could not be written (file descriptor write failed), or
        /// the recording cannot be expressed in the requested format.
        package static let unwritable = Code(rawValue: "unwritable")
    }
    /// What kind of problem.
    package var code: Code
    /// The file.
    package var file: String
    /// 1-based line number, or 0 when the error is about the whole file.
    package var line: Int
    /// What is wrong, for a person.
    package var message: String
    /// Creates an error.
    package init(_ code: Code, file: String, line: Int = 0, _ message: String) {
        self.code = code
        self.file = file
        self.line = line
        self.message = message
    }
    package var description: String { line > 0 ? "\(file):\(line): \(message)" : "\(file): \(message)" }
}

/// A whole trace in memory: devices and their events in time order.
package struct Recording: Hashable, Sendable {
    /// The devices; a device's ``DeviceID`` is its index here.
    package var devices: [RecordedDevice]
    /// All events of all devices, ordered by time (stable for equal times).
    package var events: [RecordedEvent]
    /// Problems found while reading that did not stop it.
    package var warnings: [TraceWarning]
    /// The format the trace was read from.
    package var format: TraceFormat
    /// Runtime changes of the screens and of the focused app (native traces recorded by
    /// `touchd --record`: `screens` and `focus` lines), in time order.
    package var screenChanges: [RecordedScreenChange] = []
    /// Creates a recording.
    package init(devices: [RecordedDevice], events: [RecordedEvent], warnings: [TraceWarning] = [], format: TraceFormat,
                screenChanges: [RecordedScreenChange] = []) {
        self.devices = devices
        self.events = events
        self.warnings = warnings
        self.format = format
        self.screenChanges = screenChanges
    }
}

/// The screens changed while the daemon recorded (a `screens` request or
/// `touchctl rotate`): a native trace's `screens` line; or the focused app
/// changed (a `focus` request, or its reporter gone): a `focus` line
/// (docs/trace-format.md).
package struct RecordedScreenChange: Hashable, Sendable {
    /// When, on the recording's clock: the change came after every event up to this time.
    package var time: Timestamp
    /// The `screens` or `focus` request as the protocol writes it (docs/protocol.md).
    package var request: JSONValue

    /// Creates a change.
    package init(time: Timestamp, request: JSONValue) {
        self.time = time
        self.request = request
    }
}
