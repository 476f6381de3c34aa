// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import LiveInput
import Session
import TouchDaemon
import SystemCalls
import TouchCore
import Trace

/// `touchctl record`: live devices to a trace file, until interrupted.
struct RecordCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "record",
        abstract: "Record live touch devices to a trace, until interrupted (Ctrl-C) or for --duration seconds.",
        discussion: """
        Records every touch device by default, or the DEVICEs given (a node such as /dev/input/event5, \
        or a device name). Devices plugged in while recording are recorded too. The native format is \
        written frame by frame as it happens; evemu and libinput YAML are written when recording stops.
        """
    )

    @Argument(help: "Devices to record: nodes (/dev/input/eventN) or device names. Default: every touch device.")
    var devices: [String] = []

    @Option(name: .shortAndLong, help: "The trace file to write.")
    var output: String

    @Option(help: "Trace format: native, evemu (one device only), libinput-yaml.")
    var format: String = "native"

    @Option(help: "Stop after this many seconds.")
    var duration: Double?

    func validate() throws {
        guard TraceFormat(rawValue: format) != nil else {
            throw ValidationError("unknown format '\(format)' (expected native, evemu, libinput-yaml)")
        }
        if let duration, !(duration > 0) { throw ValidationError("--duration must be positive") }
    }

    func run() throws {
        let traceFormat = TraceFormat(rawValue: format)!
        let selected = devices
        let source: LiveDeviceSource
        do {
            // Recording takes every selected touch device as it is: no configuration, no grab.
            let asItIs = TouchdConfiguration()
            source = try LiveDeviceSource(decide: { candidate in
                guard selected.isEmpty || selected.contains(candidate.node) || selected.contains(candidate.description.name) else {
                    return .ignore(reason: "not selected")
                }
                return asItIs.deviceSettings(for: candidate)
            })
        } catch {
            printError("touchctl: " + error.description)
            throw ExitCode(69)
        }
        let fd: Int32
        do {
            fd = try Syscall.open(output, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
        } catch {
            printError("touchctl: \(output): cannot create the file (errno \(error.errno))")
            throw ExitCode(73)
        }
        defer { try? Syscall.close(fd) }
        StopSignals.install(waking: source.wakeup)

        var recorder = TraceRecorder(format: traceFormat, fileDescriptor: fd, file: output)
        let stopAt = duration.map { LiveClock.now().adding(milliseconds: $0 * 1000) }
        do {
            for event in try source.start() { try recorder.record(event, hotplug: false) }
            if recorder.deviceCount == 0 { printError("touchctl: no touch devices yet; waiting for one (Ctrl-C to stop)") }
            while !StopSignals.requested {
                let timeout = LiveClock.pollTimeout(until: stopAt, cap: 1000)
                if let stopAt, LiveClock.now() >= stopAt { break }
                for event in try source.waitAndRead(timeoutMilliseconds: timeout) { try recorder.record(event, hotplug: true) }
            }
            for event in source.closeAll() { try recorder.record(event, hotplug: true) }
            try recorder.finish()
        } catch {
            printError("touchctl: \(error)")
            throw ExitCode(74)
        }
        if StopSignals.requested { printError("touchctl: stopped by signal") }
        printError("touchctl: recorded \(recorder.eventCount) events of \(recorder.deviceCount) device(s) to \(output)")
    }
}

/// Turns what a live source reports into a trace: streamed frame by frame
/// (native) or collected and written at the end (evemu, libinput YAML).
struct TraceRecorder {
    let format: TraceFormat
    let fileDescriptor: Int32
    let file: String
    private var native: NativeTraceWriter?
    private var recording: Recording
    private(set) var eventCount = 0
    var deviceCount: Int { recording.devices.count }

    init(format: TraceFormat, fileDescriptor: Int32, file: String) {
        self.format = format
        self.fileDescriptor = fileDescriptor
        self.file = file
        recording = Recording(devices: [], events: [], format: format)
        if format == .native { native = NativeTraceWriter(fileDescriptor: fileDescriptor, name: file, flushEveryFrame: true) }
    }

    mutating func record(_ event: LiveInputEvent, hotplug: Bool) throws {
        switch event {
        case .deviceAdded(let id, var description, let info):
            description.udevProperties = info.udevProperties
            let device = RecordedDevice(description: description, node: info.node, initialState: info.stateAtOpen)
            // Source ids count up from 0 without reuse, so they index `recording.devices`.
            recording.devices.append(device)
            native?.addDevice(id, device, at: hotplug ? LiveClock.now() : nil)
            try native?.flush()
            printError("touchctl: recording \(info.node) (\(description.name)) as device \(id)")
        case .events(let id, let events):
            for e in events {
                let recorded = RecordedEvent(device: id, event: e)
                if native != nil { try native!.append(recorded) } else { recording.events.append(recorded) }
            }
            eventCount += events.count
        case .resynced(let id, let report):
            printError("touchctl: device \(id): the kernel dropped events at \(report.droppedAt); recording libevdev's sync events")
            for e in report.syncEvents {
                let recorded = RecordedEvent(device: id, event: e)
                if native != nil { try native!.append(recorded) } else { recording.events.append(recorded) }
            }
        case .deviceRemoved(let id, let time):
            try native?.removeDevice(id, at: time)
        case .deviceChanged(let id, let info):
            // The trace keeps the description of the add; later udev changes do not alter the events.
            printError("touchctl: device \(id) (\(info.node)): udev properties changed")
        case .deviceIgnored(let node, let reason):
            if reason != "not selected" { printError("touchctl: \(node): ignored: \(reason)") }
        case .openFailed(let node, let error):
            printError("touchctl: \(node): \(error.description)")
        case .woken:
            break
        }
    }

    mutating func finish() throws {
        if native != nil {
            try native!.finish()
            return
        }
        let text = try TraceWriter.render(recording, as: format)
        do {
            try Syscall.writeAll(fileDescriptor, Array(text.utf8))
        } catch {
            throw TraceError(.unwritable, file: file, "cannot write the trace (errno \(error.errno))")
        }
    }
}
