// SPDX-License-Identifier: MIT
import Gestures
import Glibc
import Logging
import Publisher
import Synchronization
import TouchCore
import Session
import TouchDaemon

/// What one client costs the daemon's engine thread (`--only client-path`):
/// the synthetic 10-finger stream fed frame by frame through touchd's own
/// ``TouchSessionActor`` (pipeline, engine, encoding, routing) attached to a
/// ``Publisher`` as the daemon attaches it, measured with the engine
/// thread's CPU clock (`CLOCK_THREAD_CPUTIME_ID`) around each frame. The
/// `send` and the waking of the reader are in the figure, the reader's own
/// work is not. After each frame the thread waits (outside the measurement)
/// until the client has read everything, as the daemon waits for the next
/// frame from the device. The last quarter of the frames is not timed but
/// counts the allocations of the input thread's work on a frame.
///
/// Three setups: no client; a client subscribed to touches and gestures
/// with a filter no event passes (everything is encoded and routed, nothing
/// sent); a client reading every update. The differences are what encoding
/// and routing, and the `send`, cost per frame (docs/performance.md, "What a
/// client costs the input thread").
func benchmarkClientPath(events: [InputEvent], description: DeviceDescription) async throws {
    // `--setup NAME` runs one setup alone (for a profiler).
    if let k = arguments.firstIndex(of: "--setup"), k + 1 < arguments.count {
        guard let setup = ClientSetup.allCases.first(where: { "\($0)" == arguments[k + 1] }) else {
            benchFailed("--setup: one of \(ClientSetup.allCases.map { "\($0)" }.joined(separator: ", "))")
        }
        _ = try await runClientPath(setup, events: events, description: description)
        return
    }
    var means: [Double] = []
    for setup in ClientSetup.allCases {
        means.append(try await runClientPath(setup, events: events, description: description))
    }
    report("client path: encoding and routing (filtered out - no client)", fixed((means[1] - means[0]) / 1000, 2) + " us per frame")
    report("client path: the send (every update - filtered out)", fixed((means[2] - means[1]) / 1000, 2) + " us per frame")
    report("client path: serving at frames (served at frames - every update)", fixed((means[3] - means[2]) / 1000, 2) + " us per frame")
}

/// The client of one run of ``benchmarkClientPath(events:description:)``.
enum ClientSetup: CaseIterable {
    case none, filteredOut, everyUpdate, servedAtFrames

    var label: String {
        switch self {
        case .none: return "no client"
        case .filteredOut: return "a client whose filter passes nothing"
        case .everyUpdate: return "a client reading every update"
        case .servedAtFrames: return "a client reading every update, served at 60 Hz frames predicting 8 ms"
        }
    }

    var request: String? {
        switch self {
        case .none: return nil
        case .filteredOut: return #"{"op":"subscribe","id":1,"events":["gesture","touch"],"filter":{"devices":[4000000000]}}"#
        case .everyUpdate: return #"{"op":"subscribe","id":1,"events":["gesture","touch"]}"#
        case .servedAtFrames:
            return #"{"op":"subscribe","id":1,"events":["gesture","touch"]}"# + "\n"
                + #"{"op":"frames","id":2,"periodMs":16.667,"time":0,"predict":{"horizonMs":8}}"#
        }
    }

    /// Lines before the events: hello and an answer per request.
    var answers: Int {
        switch self {
        case .none, .filteredOut, .everyUpdate: return 2
        case .servedAtFrames: return 3
        }
    }
}

/// Lines handed to the publisher.
final class LineCounter: Sendable {
    let lines = Atomic<Int>(0)
}

/// One setup; returns the mean CPU time per frame in nanoseconds.
private func runClientPath(_ setup: ClientSetup, events: [InputEvent], description: DeviceDescription) async throws -> Double {
    let path = "/tmp/touchd-bench-\(getpid())-client-path.sock"
    let publisher = try await Publisher.listen(
        socketPath: path, delegate: NoSurfaces(), hello: { HelloSnapshot(devices: [], screens: []) })
    let receipts = Receipts()
    var fd: Int32 = -1
    if let request = setup.request {
        fd = connectUnixSocket(path: path)
        let bytes = Array(request.utf8) + [0x0A]
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
        startReader(fd: fd, skipping: setup.answers, receipts: receipts)
        while await publisher.subscribedClientCount() < 1 { usleep(1000) }
        usleep(100_000)  // the ack reaches the reader
    }
    let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(), logger: Logger(label: "bench"))
    // Lines the client is to receive: what the publisher was handed, when the client takes everything.
    let published = LineCounter()
    // Served at frames, the client also gets `motion` lines: it has read at least what was published.
    let counts = setup == .everyUpdate || setup == .servedAtFrames
    await engine.attach({ batch in
        if counts { published.lines.add(batch.count, ordering: .relaxed) }
        publisher.publish(batch)
    }, wants: { publisher.wants($0) })
    // The device's frames, each ending with its SYN_REPORT.
    var frames: [[InputEvent]] = []
    var current: [InputEvent] = []
    for e in events {
        current.append(e)
        if e.type == .syn && e.code == EventCode.synReport { frames.append(current); current.removeAll() }
    }
    let id = DeviceID(1)
    let start = events.first?.time ?? Timestamp.zero
    let frameList = frames
    let what = "client path, \(setup.label)"
    // The first quarter of the frames warms the buffers up; the next half is
    // timed; the last quarter counts allocations (counting hooks malloc).
    let timed = frames.count / 4..<frames.count * 3 / 4
    let (latency, total, mallocs) = await engine.perform { e -> (Latency, UInt64, Int) in
        e.addDevice(id, description: description, at: start)
        var latency = Latency()
        var total: UInt64 = 0
        var mallocs = 0
        // The client does not take the device's announcement: counted from here.
        let base = receipts.lines.load(ordering: .acquiring) - published.lines.load(ordering: .relaxed)
        for (k, frame) in frameList.enumerated() {
            if k >= timed.upperBound {
                mallocs += countAllocations { e.handle(frame, from: id) }
            } else {
                let t0 = threadCPUNanoseconds()
                e.handle(frame, from: id)
                let t1 = threadCPUNanoseconds()
                if timed.contains(k) {
                    latency.record(t1 - t0)
                    total += t1 - t0
                }
            }
            if counts {
                receipts.wait(for: base + published.lines.load(ordering: .relaxed), what)
            }
        }
        return (latency, total, mallocs)
    }
    let mean = Double(total) / Double(timed.count)
    let counted = frames.count - timed.upperBound
    report("client path, \(setup.label): engine thread CPU per frame",
           "mean \(fixed(mean / 1000, 2)) us; \(latency.summary); allocations per frame \(fixed(Double(mallocs) / Double(counted), 2))")
    await publisher.shutdown()
    if fd >= 0 { close(fd) }
    unlink(path)
    return mean
}
