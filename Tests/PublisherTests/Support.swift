// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import JSON
import NIOCore
import NIOEmbedded
import Synchronization
import Wire

@testable import Publisher

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let value = Mutex<Double>(0)
    var now: Double { value.withLock { $0 } }
    func advance(by seconds: Double) { value.withLock { $0 += seconds } }
}

/// Records delegate calls, keeps the surfaces it accepted (the delegate
/// owns them), answers the connection's refusals after its own checks, and
/// fails registrations of surfaces named "bad".
final class RecordingDelegate: PublisherDelegate {
    private let log = Mutex<[String]>([])
    private let surfaces = Mutex<Set<ClientSurfaceID>>([])
    var calls: [String] { log.withLock { $0 } }

    func register(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        log.withLock { $0.append("register \(surface.id) \(surface.recognizerNames) from \(client.id.rawValue)") }
        let id = ClientSurfaceID(client: client.id, local: surface.id)
        let (known, count) = surfaces.withLock { s in (s.contains(id), s.count(where: { $0.client == client.id })) }
        if known { throw ClientSurfaceError.alreadyRegistered(id).requestError }
        if count >= checks.maxSurfaces { throw ClientSurfaceError.tooMany(limit: checks.maxSurfaces).requestError }
        if let refusal = checks.refusal { throw refusal }
        if surface.id == "bad" { throw RequestError(.unknownRecognizer, "surface.recognizers[0].kind: unknown kind \"fly\"") }
        surfaces.withLock { _ = $0.insert(id) }
    }

    func update(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        log.withLock { $0.append("update \(surface.id) from \(client.id.rawValue)") }
        let id = ClientSurfaceID(client: client.id, local: surface.id)
        guard surfaces.withLock({ $0.contains(id) }) else { throw ClientSurfaceError.unknown(id, field: nil).requestError }
        if let refusal = checks.refusal { throw refusal }
    }

    func unregister(surface: String, from client: ClientInfo) async throws(RequestError) {
        log.withLock { $0.append("unregister \(surface) from \(client.id.rawValue)") }
        let id = ClientSurfaceID(client: client.id, local: surface)
        guard surfaces.withLock({ $0.remove(id) }) != nil else { throw ClientSurfaceError.unknown(id, field: nil).requestError }
    }

    func clientDisconnected(_ client: ClientInfo) async {
        let remaining = surfaces.withLock { s in
            let mine = s.filter { $0.client == client.id }
            s.subtract(mine)
            return mine.map(\.local).sorted()
        }
        log.withLock { $0.append("disconnected \(client.id.rawValue) \(remaining)") }
    }
}

let testHello = HelloSnapshot(devices: [], screens: [HelloScreen(index: 0, name: "default", width: 800, height: 480)])
let helloLine = #"{"type":"hello","protocol":1,"server":"touchd 0.1.0","devices":[],"screens":[{"id":0,"name":"default","width":800,"height":480}]}"#

/// The flusher of tests: keeps the outputs that have a backlog; ``flushAll()``
/// does what the flusher's thread does once their sockets have room.
final class ManualFlusher: BacklogFlushing {
    let waiting = Mutex<[ClientOutput]>([])

    func flush(_ output: ClientOutput) {
        waiting.withLock { list in
            if !list.contains(where: { $0 === output }) { list.append(output) }
        }
    }

    func forget(_ output: ClientOutput) {
        waiting.withLock { $0.removeAll { $0 === output } }
    }

    func flushAll() {
        for output in waiting.withLock({ $0 }) { _ = output.flushBacklog() }
        waiting.withLock { $0.removeAll { !$0.hasBacklog } }
    }
}

/// A connected pair of Unix stream sockets: a session's output writes to
/// `a` (a duplicate of it), the test reads `b` as the client would.
final class SocketPair {
    let a: CInt
    let b: CInt
    // Bytes of filler written to `a` by `fill()` and not read back yet.
    private var filler = 0

    init(sendBufferBytes: Int32? = nil) throws {
        var fds: [CInt] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &fds) == 0 else {
            throw TestFailure("socketpair: errno \(errno)")
        }
        a = fds[0]
        b = fds[1]
        if var size = sendBufferBytes {
            setsockopt(a, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    deinit {
        close(a)
        close(b)
    }

    /// Everything readable on `b` now, the filler left out.
    func drain() -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(b, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { break }
            var read = chunk[..<n]
            let skipped = min(filler, read.count)
            filler -= skipped
            read = read.dropFirst(skipped)
            out += read
        }
        return out
    }

    /// Writes filler to `a` until the socket takes no more: the client has
    /// stopped reading (``drain()`` reads it back and leaves it out).
    func fill() {
        let junk = [UInt8](repeating: 0x2e, count: 4096)
        while true {
            let n = junk.withUnsafeBytes { send(a, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            guard n > 0 else { return }
            filler += n
        }
    }
}

/// Sessions on EmbeddedChannels sharing one EmbeddedEventLoop and one hub:
/// the test drives reads and the clock. Each session's output writes to a
/// socket pair the test reads as the client; the flusher is the test's.
/// Closures waiting for the test's thread (see `EmbeddedPublisher.runHandedBack`).
final class HandedBack: Sendable {
    let work = Mutex<[@Sendable () -> Void]>([])
}

final class EmbeddedPublisher {
    let loop = EmbeddedEventLoop()
    let clock = ManualClock()
    let hub: ClientHub
    let delegate = RecordingDelegate()
    let flusher = ManualFlusher()
    /// Work that delegate calls (on Swift concurrency's threads) and outputs
    /// hand back to the loop: the embedded loop is not thread-safe, so it
    /// waits here for `runHandedBack()` on the test's thread (a delegate
    /// call's `execute` on the loop from another thread crashed a CI run).
    private let handedBack = HandedBack()
    /// Each session's socket pair, by its channel.
    private var pairs: [ObjectIdentifier: SocketPair] = [:]

    init(limits: PublisherLimits = PublisherLimits(), access: AccessPolicy = AccessPolicy()) {
        let clock = self.clock
        let configuration = PublisherConfiguration(limits: limits, access: access, clock: { clock.now })
        let handedBack = self.handedBack
        hub = ClientHub(
            eventLoop: loop, configuration: configuration, delegate: delegate, hello: { testHello }, flusher: flusher,
            hopToLoop: { work in handedBack.work.withLock { $0.append(work) } })
    }

    /// Runs what delegate calls and outputs have handed back so far, then the loop.
    func runHandedBack() {
        let work = handedBack.work.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        for w in work { w() }
        loop.run()
    }

    /// A connected client (its hello already read). Its output writes to
    /// `pair` when given (the test may read its other end itself), else to a
    /// socket pair of its own.
    func connect(credentials: PeerCredentials? = nil, readHello: Bool = true, pair given: SocketPair? = nil) throws -> EmbeddedChannel {
        let info = ClientInfo(id: hub.makeClientID(), credentials: credentials)
        let pair = try given ?? SocketPair()
        let channel = EmbeddedChannel(
            handlers: [
                ByteToMessageHandler(RequestFrameDecoder(maxLineBytes: hub.configuration.limits.maxRequestLineBytes)),
                ClientConnectionHandler(hub: hub, info: info, descriptor: pair.a),
            ], loop: loop)
        pairs[ObjectIdentifier(channel)] = pair
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/embedded")).wait()
        if readHello {
            let hello = try lines(channel)
            guard hello == [helloLine] else { throw TestFailure("expected hello, got \(hello)") }
        }
        return channel
    }

    func id(of channel: EmbeddedChannel) throws -> ClientID {
        try channel.pipeline.syncOperations.handler(type: ClientConnectionHandler.self).info.id
    }

    /// The session's output.
    func output(of channel: EmbeddedChannel) throws -> ClientOutput {
        guard let output = try channel.pipeline.syncOperations.handler(type: ClientConnectionHandler.self).output else {
            throw TestFailure("the session has no output")
        }
        return output
    }

    func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    func send(_ channel: EmbeddedChannel, bytes: [UInt8]) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// The client stops reading: its socket is filled until it takes no more.
    func stopReading(_ channel: EmbeddedChannel) throws {
        guard let pair = pairs[ObjectIdentifier(channel)] else { throw TestFailure("no socket pair of the test's") }
        pair.fill()
    }

    /// The client reads again: what it reads now (the filler left out), then
    /// the flusher writes the backlogs and the loop runs what that hands back.
    func resumeReading(_ channel: EmbeddedChannel) throws -> [String] {
        guard let pair = pairs[ObjectIdentifier(channel)] else { throw TestFailure("no socket pair of the test's") }
        let early = pair.drain()
        flusher.flushAll()
        runHandedBack()
        return Self.split(String(decoding: early, as: UTF8.self))
    }

    /// Everything written to the client so far, as lines: what NIO wrote (a
    /// refused connection's error), then what its output wrote.
    func lines(_ channel: EmbeddedChannel) throws -> [String] {
        var text = ""
        while let b = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: b) }
        if let pair = pairs[ObjectIdentifier(channel)] { text += String(decoding: pair.drain(), as: UTF8.self) }
        return Self.split(text)
    }

    static func split(_ text: String) -> [String] {
        var out = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if out.last == "" { out.removeLast() }
        return out
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}

/// A published event whose line is `{"type":TYPE,"n":N}`.
func event(
    _ n: Int, _ stream: EventStream, kind: String? = nil, recognizer: String? = nil, device: UInt32? = nil,
    touchType: String? = nil, surface: String? = nil, owner: ClientID? = nil, time: Double = 0
) -> PublishedEvent {
    PublishedEvent(
        stream: stream, kind: kind, recognizer: recognizer, device: device, touchType: touchType, surface: surface,
        owner: owner, time: time, line: Array(#"{"type":"\#(stream.rawValue)","n":\#(n)}"#.utf8))
}

/// The `n` of each event line, skipping other lines.
func numbers(_ lines: [String]) -> [Int] {
    lines.compactMap { line in
        guard let v = try? JSONParser.parse(line), let n = v["n"]?.int64Value else { return nil }
        return Int(n)
    }
}

// Events that carry their own lines (`PublishedEvent`) through the publisher's
// internals, as the batch the engine would have built of them: the tests
// below read better with a list of events than with a batch.

extension DirectWriter {
    /// Offers the events' batch to one output.
    mutating func offer(_ events: [PublishedEvent], to output: ClientOutput) {
        offer(EventBatch(events), to: output)
    }
}

extension SubscriptionFilter {
    /// Whether the event, as an event of a batch, passes.
    func matches(_ e: PublishedEvent) -> Bool {
        let batch = EventBatch([e])
        return matches(batch.attributes[0], names: batch.names)
    }
}

extension SubscriptionSet {
    /// Whether the event, as an event of a batch, is wanted.
    func wants(_ e: PublishedEvent) -> Bool {
        let batch = EventBatch([e])
        return wants(batch.attributes[0], names: batch.names)
    }
}

extension HeldLines {
    /// Holds the event's line (as an event of a batch).
    mutating func hold(_ e: PublishedEvent, line: UnsafeRawBufferPointer) {
        let batch = EventBatch([e])
        hold(batch.attributes[0], names: batch.names, line: line)
    }

    /// Writes the held lines less those the events in `runs` replace.
    func write(to out: inout ByteBuffer, supersededBy events: [PublishedEvent], runs: [Range<Int>]) {
        let batch = EventBatch(events)
        write(to: &out, supersededBy: batch.attributes, names: batch.names, runs: runs)
    }
}

extension ClientOutput {
    /// An output writing to a duplicate of `descriptor`, with no connection
    /// behind it: for tests of the writing alone (its backlog is `flusher`'s).
    static func standalone(
        id: ClientID, descriptor: CInt, rule: RecipientRule, flusher: ManualFlusher = ManualFlusher(),
        limits: PublisherLimits = PublisherLimits(), clock: @escaping @Sendable () -> Double = { 0 }
    ) throws -> ClientOutput {
        try ClientOutput(id: id, duplicating: descriptor, rule: rule, limits: limits, flusher: flusher, clock: clock,
                         drained: {}, failed: {})
    }

    /// Sets the client's frames (nil: none).
    func setFrames(_ frames: ClientFrames?) {
        state.withLock { $0.frames = frames }
    }

    /// Sets the coalescing interval (seconds, 0: off).
    func setCoalescing(interval: Double) {
        state.withLock { $0.interval = interval }
    }

    /// Bytes waiting in the backlog.
    var backlogBytes: Int { state.withLock { $0.backlog.byteCount } }
}
