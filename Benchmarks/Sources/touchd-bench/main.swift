// SPDX-License-Identifier: MIT
import Glibc
import MallocInterposerSwift
import Gestures
import TouchCore
import Trace

// touchd host benchmarks: `make bench` (release). Prints a table of figures;
// docs/performance.md records them with the method and the machine.

// `touchd-bench ROOT [--only NAME]`: with --only, one benchmark runs once
// (for valgrind --tool=callgrind): real, pipeline-synthetic, touchcore-latency,
// touchcore-allocations, engine-default, engine-20, engine-200, engine-200-chain20, drag-session, encode, fan-out, coalesce, motion, client-path.
// --normal-scheduling: run in SCHED_OTHER instead of touchd's SCHED_FIFO 10.
// With --only engine-*: --short uses strokes of 2 frames (mostly touch-downs and
// lifts, for callgrind); --profile (engine-20) prints the time per frame index of a stroke.
let arguments = CommandLine.arguments
let root = arguments.count > 1 && !arguments[1].hasPrefix("--") ? arguments[1] : "."
let only: String? = arguments.firstIndex(of: "--only").flatMap { $0 + 1 < arguments.count ? arguments[$0 + 1] : nil }
/// Whether the benchmark `name` runs.
func selected(_ name: String) -> Bool { only == nil || only == name }
/// Timed repetitions: one under --only, so instruction counts are per pass.
let repetitions = only == nil ? 5 : 1
let sharedData = root + "/../shared/realdata"
if !allocationCountingWorks() {
    print("allocation counting does not work (a known allocation was not counted): run with LD_PRELOAD of libMallocInterposerSwift.so")
    exit(2)
}
/// The fan-out's driver (the input thread's role) and event loop run at
/// touchd's default `SCHED_FIFO` 10 (docs/daemon.md, "Scheduling") unless
/// --normal-scheduling; reader threads (the clients) stay in normal
/// scheduling. The CPU-bound engine loops run in normal scheduling: at
/// `SCHED_FIFO` the kernel's real-time throttling stops a thread that has
/// not slept for 0.95 s for 50 ms, which is all such a loop would measure.
let benchPriority: Int32 = arguments.contains("--normal-scheduling") ? 0 : 10
nonisolated(unsafe) var realtimeGranted = false
let fixtures = root + "/Tests/Fixtures/real"

func exists(_ path: String) -> Bool { access(path, R_OK) == 0 }
func readText(_ path: String) -> String? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&chunk, 1, chunk.count, f)
        if n <= 0 { break }
        bytes.append(contentsOf: chunk[0..<n])
    }
    return String(decoding: bytes, as: UTF8.self)
}


// 1. Trace parsing and the offline pipeline on the largest real recordings.
let largest = [
    "evemu-devices/tablets/Wacom Cintiq 13HD.events",
    "evemu-devices/tablets/Wacom Cintiq 22HDT Pen.events",
    "tslib/Atmel maXTouch Touchscreen.ts-verify-1.events",
]
for name in largest where selected("real") {
    let path = exists(sharedData + "/" + name) ? sharedData + "/" + name : fixtures + "/" + name
    guard exists(path), let recording = try? TraceReader.read(path: path) else {
        print("skipping \(name): not found")
        continue
    }
    let label = name.split(separator: "/").last.map(String.init) ?? name
    if let text = readText(path) {
        // The split evemu files need their description, as TraceReader.read(path:) paired it.
        let description = recording.devices[0].description
        let parse = bestTime(runs: repetitions) { _ = try? TraceReader.read(text: text, name: path, format: .evemu, description: description) }
        report("parse \(label)", "\(recording.events.count) events, \(fixed(Double(recording.events.count) / parse / 1e6, 2)) M events/s")
    }
    var frames = 0
    let seconds = bestTime(runs: repetitions) {
        var pipeline = TouchPipeline()
        for (i, d) in recording.devices.enumerated() { pipeline.addDevice(DeviceID(i), description: d.description) }
        frames = 0
        for e in recording.events where pipeline.process(e.event, from: e.device) != nil { frames += 1 }
        frames += pipeline.finish(at: recording.events.last?.event.time ?? .zero).count
    }
    report("pipeline \(label)", "\(recording.events.count) events, \(frames) frames, \(fixed(Double(recording.events.count) / seconds / 1e6, 2)) M events/s")
}

// 2. Synthetic 10-finger 480 Hz stream through TouchCore.
let stream = syntheticTenFingerStream(strokes: 200, frames: 480)
let panel = syntheticPanel()
if selected("pipeline-synthetic") {
    let tenFinger = bestTime(runs: repetitions) {
        var pipeline = TouchPipeline()
        pipeline.addDevice(DeviceID(0), description: panel)
        for e in stream { _ = pipeline.process(e, from: DeviceID(0)) }
    }
    report("pipeline synthetic 10 fingers 480 Hz", "\(stream.count) events, \(fixed(Double(stream.count) / tenFinger / 1e6, 2)) M events/s")
}

// Per-frame latency of TouchCore (events of one frame, SYN_REPORT included).
if selected("touchcore-latency") {
    var latency = Latency()
    var pipeline = TouchPipeline()
    pipeline.addDevice(DeviceID(0), description: panel)
    var start = nowNanoseconds()
    for e in stream {
        let frame = pipeline.process(e, from: DeviceID(0))
        if e.isSynReport {
            let end = nowNanoseconds()
            if frame != nil { latency.record(end - start) }
            start = nowNanoseconds()
        }
    }
    report("TouchCore per-frame latency, 10 touches", latency.summary)
}

// 3. Allocations per frame in steady state (after one warm-up stroke).
if selected("touchcore-allocations") {
    var pipeline = TouchPipeline()
    pipeline.addDevice(DeviceID(0), description: panel)
    let warm = stream.count / 200
    for e in stream[0..<warm] { _ = pipeline.process(e, from: DeviceID(0)) }
    var frames = 0
    let mallocs = countAllocations {
        for e in stream[warm...] where pipeline.process(e, from: DeviceID(0)) != nil { frames += 1 }
    }
    report("TouchCore allocations per frame (steady state)", "\(fixed(Double(mallocs) / Double(frames), 3)) (\(mallocs) mallocs in \(frames) frames)")
}

// 4. The gesture engine on the same 10-finger stream.
let engineRuns = [
    ("engine-default", "default configuration, 10 touches"),
    ("engine-20", "20 recognizers in play, 10 touches"),
    ("engine-200", "200 surfaces / 1000 recognizers registered, 10 touches"),
    ("engine-200-chain20", "200 surfaces / 1015 recognizers registered, 20 in play, 10 touches"),
]
if engineRuns.contains(where: { selected($0.0) }) {
    let frames = arguments.contains("--short") ? syntheticFrames(syntheticTenFingerStream(strokes: 100, frames: 2), panel: panel) : syntheticFrames(syntheticTenFingerStream(strokes: 40, frames: 480), panel: panel)
    for (name, label) in engineRuns where selected(name) {
        let configuration: GestureConfiguration
        switch name {
        case "engine-20": configuration = twentyRecognizerConfiguration()
        case "engine-200": configuration = manySurfacesConfiguration()
        case "engine-200-chain20": configuration = manySurfacesSameChainConfiguration()
        default: configuration = .default(screens: [ScreenGeometry(width: 1920, height: 1080)])
        }
        if only == "engine-20" && arguments.contains("--profile") && !arguments.contains("--short") {
            profileEngine(configuration: configuration, frames: frames, perStroke: 482)  // 481 frames down + the lift
        } else if only != nil {
            runEngineOnce(configuration: configuration, frames: frames)
        } else {
            benchmarkEngine(label, configuration: configuration, frames: frames)
        }
    }
}

// 4a. The input thread with a drag session active (semantics §12).
if selected("drag-session") {
    benchmarkDragSession()
}

// 4b. Encoding a frame for a client subscribed to touches and gestures.
if selected("encode") {
    benchmarkEncoding(frames: syntheticFrames(syntheticTenFingerStream(strokes: 20, frames: 480), panel: panel))
}

// 5. Fan-out: the engine's gesture events through the socket to 1, 10, 100 subscribers.
if selected("fan-out") {
    realtimeGranted = benchPriority > 0 && runRealtime(priority: benchPriority)
    print("fan-out scheduling: " + (realtimeGranted ? "driver and event loop at SCHED_FIFO \(benchPriority), as touchd runs its engine thread and event loop"
        : benchPriority > 0 ? "normal (SCHED_FIFO \(benchPriority) not permitted)" : "normal (--normal-scheduling)"))
    let fanOutFrames = syntheticFrames(syntheticTenFingerStream(strokes: 4, frames: 480), panel: panel)
    for n in [1, 10, 100] { try await benchmarkFanOut(subscribers: n, frames: fanOutFrames) }
}

// 6. A client at its display's rate (coalesce 16 ms) against one taking every update, at 240 Hz in real time.
if selected("coalesce") {
    try await benchmarkCoalescing(frames: syntheticFrames(syntheticTenFingerStream(strokes: 2, frames: 480), panel: panel))
}

// 6a. Resampling and prediction per touch (TouchMotion), with the cheapest and the costliest predictor.
if selected("motion") {
    benchmarkMotion(kind: .linear)
    benchmarkMotion(kind: .kalman)
}

// 7. What one client costs the input thread: touchd's TouchSessionActor and Publisher, frame by frame.
if selected("client-path") {
    try await benchmarkClientPath(events: syntheticTenFingerStream(strokes: 10, frames: 480), description: syntheticPanel())
}

print("")
print("| benchmark | result |")
print("|---|---|")
for r in Report.rows { print("| \(r.name) | \(r.value) |") }
