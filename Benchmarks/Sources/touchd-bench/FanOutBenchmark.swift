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

/// A delegate for a publisher with no client surfaces.
struct NoSurfaces: PublisherDelegate {
    func register(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        throw RequestError(.notPermitted, "benchmark")
    }
    func update(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        throw RequestError(.notPermitted, "benchmark")
    }
    func unregister(surface: String, from client: ClientInfo) async throws(RequestError) {
        throw RequestError(.notPermitted, "benchmark")
    }
    func clientDisconnected(_ client: ClientInfo) async {}
}

/// What the subscribers have received (after their hello and ack), and when.
///
/// Readers block in `recv` and stamp the time they got the bytes; the
/// driver blocks on a semaphore until the last expected line has arrived.
/// Neither side spins, so on a small machine the measurement does not take
/// the CPU from the event loop and the readers it measures.
final class Receipts: @unchecked Sendable {
    let lines = Atomic<Int>(0)
    /// Reader threads still reading.
    let readers = Atomic<Int>(0)
    /// Lines after which the driver wants to be woken.
    let target = Atomic<Int>(Int.max)
    /// Monotonic time of the latest receipt, in nanoseconds.
    let lastReceipt = Atomic<UInt64>(0)
    private let semaphore: UnsafeMutablePointer<sem_t>

    init() {
        semaphore = .allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
    }

    deinit {
        sem_destroy(semaphore)
        semaphore.deallocate()
    }

    /// A reader got `count` lines at `time`.
    func received(_ count: Int, at time: UInt64) {
        var seen = lastReceipt.load(ordering: .relaxed)
        while seen < time {
            let (exchanged, current) = lastReceipt.compareExchange(expected: seen, desired: time, ordering: .relaxed)
            if exchanged { break }
            seen = current
        }
        let total = lines.add(count, ordering: .sequentiallyConsistent).newValue
        let wanted = target.load(ordering: .sequentiallyConsistent)
        // Exactly one reader crosses the target: it wakes the driver.
        if total >= wanted && total - count < wanted { sem_post(semaphore) }
    }

    /// Blocks until `expected` lines have arrived in all.
    /// Store-then-load on this side and add-then-load on the readers' side are
    /// sequentially consistent: with release/acquire the driver's load of the
    /// count could pass its store of the target (x86 reorders a store with a
    /// later load), a reader would then see the old target and not post, and
    /// the driver would sleep for ever (it did, once in a few runs).
    ///
    /// Lines that never come (a reader that lost some, a write cut short)
    /// would leave the driver asleep for ever: after 10 s without reaching
    /// the count the benchmark stops with what it got (`what` names the
    /// measurement) instead of hanging.
    func wait(for expected: Int, _ what: String) {
        target.store(expected, ordering: .sequentiallyConsistent)
        var limit = timespec()
        clock_gettime(CLOCK_REALTIME, &limit)
        limit.tv_sec += 10
        // A wake-up meant for an earlier target may still be pending: check the count after each.
        while lines.load(ordering: .sequentiallyConsistent) < expected {
            if sem_timedwait(semaphore, &limit) != 0 && errno == ETIMEDOUT
                && lines.load(ordering: .sequentiallyConsistent) < expected {
                let got = lines.load(ordering: .sequentiallyConsistent)
                benchFailed("\(what): \(got) of \(expected) lines arrived; none for 10 s, stopping")
            }
        }
    }
}

/// A subscriber on its own thread: connects, subscribes to gestures, then
/// counts lines, blocking in `recv` like a real client.
func startSubscriber(path: String, receipts: Receipts) -> Int32 {
    let fd = connectUnixSocket(path: path)
    let request = Array(#"{"op":"subscribe","id":1,"events":["gesture"]}"#.utf8) + [0x0A]
    _ = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, 0) }
    // The first two lines are the hello and the ack of the subscription.
    startReader(fd: fd, skipping: 2, receipts: receipts)
    return fd
}

/// A stream socket connected to the Unix socket at `path` (the benchmark stops if it cannot connect).
func connectUnixSocket(path: String) -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        raw.copyBytes(from: bytes)
        raw[bytes.count] = 0
    }
    let r = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    precondition(r == 0, "connect failed: errno \(errno)")
    return fd
}

/// Counts the lines arriving on `fd` on a thread of its own, blocking in `recv`.
func startReader(fd: Int32, skipping: Int, receipts: Receipts) {
    receipts.readers.add(1, ordering: .sequentiallyConsistent)
    let thread = Thread {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var skipped = 0
        defer { receipts.readers.subtract(1, ordering: .sequentiallyConsistent) }
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return }
            let time = nowNanoseconds()
            var newlines = 0
            for i in 0..<n where chunk[i] == 0x0A { newlines += 1 }
            let skip = Swift.min(newlines, skipping - skipped)
            skipped += skip
            if newlines - skip > 0 { receipts.received(newlines - skip, at: time) }
        }
    }
    thread.start()
}

/// Time from a frame entering the engine to the last of `subscribers` having
/// the frame's gesture events: engine, encoding, publishing, socket, reader
/// (the time the last reader's `recv` returned, stamped by that reader).
/// The driver (the engine's role) runs on the main thread, and the event
/// loop at the same scheduling as touchd's (``benchPriority``).
@MainActor
func benchmarkFanOut(subscribers: Int, frames: [TouchFrame]) async throws {
    let path = "/tmp/touchd-bench-\(getpid())-\(subscribers).sock"
    let publisher = try await Publisher.listen(
        socketPath: path, delegate: NoSurfaces(), hello: { HelloSnapshot(devices: [], screens: []) })
    if realtimeGranted {
        let priority = benchPriority
        _ = await publisher.onEventLoop { runRealtime(priority: priority) }
    }
    let receipts = Receipts()
    var fds: [Int32] = []
    for _ in 0..<subscribers { fds.append(startSubscriber(path: path, receipts: receipts)) }
    while await publisher.subscribedClientCount() < subscribers { usleep(1000) }
    usleep(100_000)  // the acks reach the readers

    var engine = Engine(configuration: .default(screens: [ScreenGeometry(width: 1920, height: 1080)]))
    engine.recordsDebug = false
    var outputs: [EngineOutput] = []
    var batch = EventBatch()
    var latency = Latency()
    var expected = 0
    for frame in frames {
        let t0 = nowNanoseconds()
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        gestureBatch(outputs, into: &batch)
        guard !batch.isEmpty else { continue }
        publisher.publish(batch)
        expected += batch.count * subscribers
        receipts.wait(for: expected, "fan-out to \(subscribers)")
        latency.record(receipts.lastReceipt.load(ordering: .acquiring) - t0)
    }
    report("fan-out to \(subscribers) subscriber\(subscribers == 1 ? "" : "s"): frame in to last subscriber", latency.summary)
    // Allocations of `publish` itself, on 200 more frames (untimed: counting
    // hooks malloc around each call). The readers are blocked in `recv`
    // meanwhile and allocate nothing; the engine and the encoding are outside.
    var mallocs = 0, published = 0
    for frame in frames.prefix(200) {
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        gestureBatch(outputs, into: &batch)
        guard !batch.isEmpty else { continue }
        mallocs += countAllocations { publisher.publish(batch) }
        published += 1
        expected += batch.count * subscribers
        receipts.wait(for: expected, "fan-out to \(subscribers), allocations")
    }
    report("fan-out to \(subscribers): allocations per publish", "\(fixed(Double(mallocs) / Double(max(published, 1)), 2)) (\(mallocs) in \(published) frames)")
    // Where the time went inside the publisher (what touchd logs on SIGUSR1).
    if let inside = await publisher.takeStatistics() { print("  inside the publisher: \(inside)") }
    await publisher.shutdown()
    closeAfterReaders(fds, receipts)
    unlink(path)
    socketFloor(readers: subscribers, frames: frames)
}

/// The floor under the fan-out figure: the same gesture lines written by one
/// thread straight to `readers` connected Unix sockets (one `write` each, no
/// engine, no event loop, no thread hop), read by the same reader threads.
/// What is left is the kernel waking the readers on this machine's cores.
func socketFloor(readers: Int, frames: [TouchFrame]) {
    let receipts = Receipts()
    var writers: [Int32] = []
    for _ in 0..<readers {
        var pair: [Int32] = [0, 0]
        precondition(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0, "socketpair failed: errno \(errno)")
        writers.append(pair[0])
        startReader(fd: pair[1], skipping: 0, receipts: receipts)
    }
    usleep(100_000)  // the reader threads are blocked in recv
    var engine = Engine(configuration: .default(screens: [ScreenGeometry(width: 1920, height: 1080)]))
    engine.recordsDebug = false
    var outputs: [EngineOutput] = []
    var bytes: [UInt8] = []
    var latency = Latency()
    var expected = 0
    for frame in frames {
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        bytes.removeAll(keepingCapacity: true)
        var lines = 0
        for o in outputs {
            guard case .gesture(let g) = o else { continue }
            bytes += MessageEncoder.line { MessageEncoder.gesture(g, into: &$0) }
            bytes.append(0x0A)
            lines += 1
        }
        guard lines > 0 else { continue }
        let t0 = nowNanoseconds()
        for fd in writers { writeAll(fd, bytes) }
        expected += lines * readers
        receipts.wait(for: expected, "socket floor, \(readers) readers")
        latency.record(receipts.lastReceipt.load(ordering: .acquiring) - t0)
    }
    report("socket floor, \(readers) reader\(readers == 1 ? "" : "s"): write to last reader", latency.summary)
    closeAfterReaders(writers, receipts)
}

/// Ends the readers' sockets and closes them once every reader thread has
/// returned: a reader still about to call `recv` on a closed descriptor
/// number would read from whatever socket the next `socket()` gets that
/// number (the next measurement's), and its lines would be lost there.
func closeAfterReaders(_ fds: [Int32], _ receipts: Receipts) {
    for fd in fds { shutdown(fd, Int32(SHUT_RDWR)) }
    var waited = 0
    while receipts.readers.load(ordering: .sequentiallyConsistent) > 0 && waited < 10_000 {
        usleep(1000)
        waited += 1
    }
    for fd in fds { close(fd) }
}

/// Stops the benchmark with `message` on standard error and status 1.
func benchFailed(_ message: String) -> Never {
    FileHandle.standardError.write(Data(("touchd-bench: " + message + "\n").utf8))
    exit(1)
}

/// Writes all of `bytes` to a blocking socket (a `write` a signal interrupts may take only part).
func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
    do {
        try Syscall.writeAll(fd, bytes)
    } catch {
        benchFailed("socket floor: \(error)")
    }
}

/// The gesture events of `outputs`, encoded as the daemon publishes them (one buffer per frame).
func gestureBatch(_ outputs: [EngineOutput], into batch: inout EventBatch) {
    batch.removeAll()
    for o in outputs {
        guard case .gesture(let g) = o else { continue }
        batch.append(
            stream: .gesture, kind: g.kind.rawValue, recognizer: g.recognizer, device: g.device.rawValue,
            touchType: g.touchType.rawValue, surface: g.surface?.rawValue, time: g.time.seconds) { MessageEncoder.gesture(g, into: &$0) }
    }
}

/// Encoding a frame as the daemon does for a client subscribed to touches and
/// gestures (`--only encode`): every touch of the frame and every gesture the
/// engine reported, written into one reused ``EventBatch``. Time per frame
/// (the engine outside the timing) and allocations per frame once warm.
func benchmarkEncoding(frames: [TouchFrame]) {
    var engine = Engine(configuration: .default(screens: [ScreenGeometry(width: 1920, height: 1080)]))
    engine.recordsDebug = false
    var outputs: [EngineOutput] = []
    var perFrame: [[EngineOutput]] = []
    for frame in frames {
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        perFrame.append(outputs)
    }
    var batch = EventBatch()
    func encode(_ i: Int) {
        batch.removeAll()
        for t in frames[i].touches {
            batch.append(stream: .touch, device: t.device.rawValue, touchType: t.type.rawValue,
                         time: t.time.seconds) { MessageEncoder.touch(t, into: &$0) }
        }
        for o in perFrame[i] {
            guard case .gesture(let g) = o else { continue }
            batch.append(
                stream: .gesture, kind: g.kind.rawValue, recognizer: g.recognizer, device: g.device.rawValue,
                touchType: g.touchType.rawValue, surface: g.surface?.rawValue, time: g.time.seconds) { MessageEncoder.gesture(g, into: &$0) }
        }
    }
    var lines = 0, bytes = 0
    for i in frames.indices { encode(i); lines += batch.count; bytes += batch.bytes.count }
    var latency = Latency()
    for i in frames.indices {
        let t0 = nowNanoseconds()
        encode(i)
        latency.record(nowNanoseconds() - t0)
    }
    report("encode a frame (touches + gestures)", "\(fixed(Double(lines) / Double(frames.count), 1)) lines, \(bytes / frames.count) bytes per frame; \(latency.summary)")
    let mallocs = countAllocations { for i in frames.indices { encode(i) } }
    report("encode a frame: allocations per frame", fixed(Double(mallocs) / Double(frames.count), 2))
}
