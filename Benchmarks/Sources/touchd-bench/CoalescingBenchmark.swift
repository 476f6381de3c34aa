// SPDX-License-Identifier: MIT
import EngineMessages
import Foundation
import Gestures
import Glibc
import Publisher
import Synchronization
import SystemCalls
import TouchCore
import Wire

/// A client at its display's rate against one that takes every update
/// (`--only coalesce`; docs/protocol.md, "coalesce"). One subscriber to
/// touches and gestures; the synthetic 10-finger stream, encoded as the
/// daemon encodes it, published at 240 Hz in real time by this thread as the
/// engine's thread would, waking for held updates when they are due. Once
/// reading every update, once asking for 16 ms. Per run: the publishing
/// thread's CPU time per stream second (the `send`s and the waking of the
/// reader are in it), `publish` p50/p99, how often the client woke up and the
/// lines it got; while coalescing, the allocations of `publish` and `releaseHeld`.
@MainActor
func benchmarkCoalescing(frames: [TouchFrame]) async throws {
    var engine = Engine(configuration: .default(screens: [ScreenGeometry(width: 1920, height: 1080)]))
    engine.recordsDebug = false
    var outputs: [EngineOutput] = []
    var batches: [EventBatch] = []
    for (i, frame) in frames.enumerated() {
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        var batch = EventBatch()
        let time = Double(i) / 240
        for t in frame.touches {
            batch.append(stream: .touch, device: t.device.rawValue, touchType: t.type.rawValue, time: time,
                         touchID: t.id.rawValue, isUpdate: t.phase == .moved) { MessageEncoder.touch(t, into: &$0) }
        }
        for o in outputs {
            guard case .gesture(let g) = o else { continue }
            batch.append(
                stream: .gesture, kind: g.kind.rawValue, recognizer: g.recognizer, device: g.device.rawValue,
                touchType: g.touchType.rawValue, surface: g.surface?.rawValue, time: time,
                isUpdate: g.state == .changed) { MessageEncoder.gesture(g, into: &$0) }
        }
        batches.append(batch)
    }
    for interval in [0.0, 16.0] { try await runCoalescing(batches: batches, intervalMilliseconds: interval) }
}

/// Lines and wake-ups of one reading client.
final class ReaderCounts: Sendable {
    let lines = Atomic<Int>(0)
    let reads = Atomic<Int>(0)
}

@MainActor
private func runCoalescing(batches: [EventBatch], intervalMilliseconds: Double) async throws {
    let path = "/tmp/touchd-bench-\(getpid())-coalesce.sock"
    let publisher = try await Publisher.listen(
        socketPath: path, delegate: NoSurfaces(), hello: { HelloSnapshot(devices: [], screens: []) })
    let fd = connectUnixSocket(path: path)
    var request = #"{"op":"subscribe","id":1,"events":["gesture","touch"]}"# + "\n"
    if intervalMilliseconds > 0 { request += #"{"op":"coalesce","id":2,"intervalMs":\#(intervalMilliseconds)}"# + "\n" }
    _ = Array(request.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    let counts = ReaderCounts()
    let skip = intervalMilliseconds > 0 ? 3 : 2  // hello and the acks
    let reader = Thread {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var skipped = 0
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            var newlines = 0
            for i in 0..<n where chunk[i] == 0x0A { newlines += 1 }
            let s = Swift.min(newlines, skip - skipped)
            skipped += s
            if newlines - s > 0 {
                counts.lines.add(newlines - s, ordering: .relaxed)
                counts.reads.add(1, ordering: .relaxed)
            }
        }
    }
    reader.start()
    while await publisher.subscribedClientCount() < 1 { usleep(1000) }
    usleep(100_000)  // the answers reach the reader and the lane opens

    let start = nowNanoseconds() + 10_000_000
    func wall(_ eventSeconds: Double) -> UInt64 { start + UInt64(eventSeconds * 1e9) }
    var latency = Latency()
    var released = 0
    // What the input thread does: wait for the next frame or the held updates' deadline, whichever comes first.
    func step(_ batch: EventBatch, time: Double, into latency: inout Latency) {
        if let due = publisher.heldDeadline, due < time {
            sleepUntil(wall(due))
            publisher.releaseHeld(upTo: due)
            released += 1
        }
        sleepUntil(wall(time))
        let t0 = nowNanoseconds()
        publisher.publish(batch)
        latency.record(nowNanoseconds() - t0)
    }
    let cpu0 = threadCPUNanoseconds()
    for (i, batch) in batches.enumerated() { step(batch, time: Double(i) / 240, into: &latency) }
    let cpu = threadCPUNanoseconds() - cpu0
    let seconds = Double(batches.count) / 240
    if let due = publisher.heldDeadline {
        sleepUntil(wall(due))
        publisher.releaseHeld(upTo: due)
    }
    usleep(200_000)
    let lines = counts.lines.load(ordering: .relaxed), reads = counts.reads.load(ordering: .relaxed)
    let label = intervalMilliseconds > 0 ? "coalesce \(fixed(intervalMilliseconds, 0)) ms" : "coalesce off (every update)"
    report("\(label): publishing thread CPU per stream second",
           "\(fixed(Double(cpu) / 1e6 / seconds, 2)) ms (\(batches.count) frames at 240 Hz); publish \(latency.summary)")
    report("\(label): what the client got",
           "\(lines) lines in \(reads) reads (\(fixed(Double(reads) / seconds, 1)) wake-ups per second)\(intervalMilliseconds > 0 ? ", \(released) releases by deadline" : "")")
    if intervalMilliseconds > 0 {
        // Allocations once warm: the same stream again, counted around each call.
        var mallocs = 0
        let offset = seconds + 1
        for (i, batch) in batches.prefix(480).enumerated() {
            let time = offset + Double(i) / 240
            if let due = publisher.heldDeadline, due < time {
                sleepUntil(wall(due))
                mallocs += countAllocations { publisher.releaseHeld(upTo: due) }
            }
            sleepUntil(wall(time))
            mallocs += countAllocations { publisher.publish(batch) }
        }
        report("\(label): allocations per frame (publish and releaseHeld)", "\(fixed(Double(mallocs) / 480, 2)) (\(mallocs) in 480 frames)")
    }
    await publisher.shutdown()
    close(fd)
    unlink(path)
}

/// Sleeps until the monotonic time `ns` (returns at once when it has passed).
private func sleepUntil(_ ns: UInt64) {
    try? Syscall.sleep(until: timespec(tv_sec: Int(ns / 1_000_000_000), tv_nsec: Int(ns % 1_000_000_000)))
}
