// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemCalls
import TouchCore
import Trace

/// `touchd --record FILE`: the input the daemon reads (devices as they come
/// and go, every event, libevdev's sync events after a drop), written as a
/// native `touchd-trace` frame by frame, so that `touchctl replay` or
/// `touchd --replay` reproduce what the daemon saw. A write error (disk
/// full, file gone) ends the recording, never the daemon.
struct DaemonRecorder {
    /// The file's path.
    let path: String
    private let fd: Int32
    private var writer: NativeTraceWriter
    private var devices = Set<DeviceID>()
    private var started = false
    /// Events written so far.
    private(set) var eventCount = 0

    /// Creates (or truncates) the file, readable by its owner and group.
    init(path: String) throws(TraceError) {
        let fd: Int32
        do {
            fd = try Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o640)
        } catch {
            throw TraceError(.unwritable, file: path, "cannot create: \(String(cString: strerror(error.errno))) (errno \(error.errno))")
        }
        self.path = path
        self.fd = fd
        writer = NativeTraceWriter(fileDescriptor: fd, name: path, flushEveryFrame: true)
    }

    /// A device in service from now on; devices added before the first event are present from the start.
    /// `state` is the device's kernel state when it was opened: the trace carries it, so replay starts where live did.
    mutating func addDevice(_ id: DeviceID, _ description: DeviceDescription, udevProperties: [String: String],
                            state: DeviceState? = nil, at time: Timestamp) throws(TraceError) {
        var d = description
        d.udevProperties = udevProperties
        writer.addDevice(id, RecordedDevice(description: d, initialState: state), at: started ? time : nil)
        devices.insert(id)
        try writer.flush()
    }

    /// A device went away.
    mutating func removeDevice(_ id: DeviceID, at time: Timestamp) throws(TraceError) {
        guard devices.remove(id) != nil else { return }
        try writer.removeDevice(id, at: time)
    }

    /// Events of a device in service, in order (others are not the daemon's input).
    mutating func append(_ events: [InputEvent], from id: DeviceID) throws(TraceError) {
        guard devices.contains(id) else { return }
        started = true
        for e in events { try writer.append(RecordedEvent(device: id, event: e)) }
        eventCount += events.count
    }

    /// The screens changed at runtime (a `screens` request, as one JSON object), after the events up to `time`.
    mutating func screens(request: String, at time: Timestamp) throws(TraceError) {
        try writer.screens(request: request, at: time)
    }

    /// The focused app changed (a `focus` request, as one JSON object), after the events up to `time`.
    mutating func focus(request: String, at time: Timestamp) throws(TraceError) {
        try writer.focus(request: request, at: time)
    }

    /// Writes the last incomplete frame and closes the file.
    mutating func finish() throws(TraceError) {
        defer { try? Syscall.close(fd) }
        try writer.finish()
    }

    /// Closes the file without writing more (after an error).
    func abandon() { try? Syscall.close(fd) }
}
