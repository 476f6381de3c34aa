// SPDX-License-Identifier: MIT
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

/// Sessions on EmbeddedChannels sharing one EmbeddedEventLoop and one hub:
/// the test drives reads, writability and the clock.
/// Closures waiting for the test's thread (see `EmbeddedPublisher.runHandedBack`).
final class HandedBack: Sendable {
    let work = Mutex<[@Sendable () -> Void]>([])
}

final class EmbeddedPublisher {
    let loop = EmbeddedEventLoop()
    let clock = ManualClock()
    let hub: ClientHub
    let delegate = RecordingDelegate()
    /// Work that delegate calls (on Swift concurrency's threads) hand back to
    /// the loop: the embedded loop is not thread-safe, so it waits here for
    /// `runHandedBack()` on the test's thread (a delegate call's `execute`
    /// on the loop from another thread crashed a CI run).
    private let handedBack = HandedBack()

    init(limits: PublisherLimits = PublisherLimits(), access: AccessPolicy = AccessPolicy()) {
        let clock = self.clock
        let configuration = PublisherConfiguration(limits: limits, access: access, clock: { clock.now })
        let handedBack = self.handedBack
        hub = ClientHub(
            eventLoop: loop, configuration: configuration, delegate: delegate, hello: { testHello },
            hopToLoop: { work in handedBack.work.withLock { $0.append(work) } })
    }

    /// Runs what delegate calls have handed back so far, then the loop.
    func runHandedBack() {
        let work = handedBack.work.withLock { pending in
            defer { pending.removeAll() }
            return pending
        }
        for w in work { w() }
        loop.run()
    }

    /// A connected client (its hello already read).
    /// With `descriptor`, the session gets a lane writing to a duplicate of it.
    func connect(credentials: PeerCredentials? = nil, readHello: Bool = true, descriptor: CInt? = nil) throws -> EmbeddedChannel {
        let info = ClientInfo(id: hub.makeClientID(), credentials: credentials)
        let channel = EmbeddedChannel(
            handlers: [
                ByteToMessageHandler(RequestFrameDecoder(maxLineBytes: hub.configuration.limits.maxRequestLineBytes)),
                ClientConnectionHandler(hub: hub, info: info, descriptor: descriptor),
            ], loop: loop)
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

    func send(_ channel: EmbeddedChannel, _ text: String) throws {
        try channel.writeInbound(ByteBuffer(string: text))
    }

    func send(_ channel: EmbeddedChannel, bytes: [UInt8]) throws {
        try channel.writeInbound(ByteBuffer(bytes: bytes))
    }

    /// The writes made to the client so far, each as its text.
    func writes(_ channel: EmbeddedChannel) throws -> [String] {
        var out: [String] = []
        while let b = try channel.readOutbound(as: ByteBuffer.self) { out.append(String(buffer: b)) }
        return out
    }

    /// Everything written to the client so far, as lines.
    func lines(_ channel: EmbeddedChannel) throws -> [String] {
        var text = ""
        while let b = try channel.readOutbound(as: ByteBuffer.self) { text += String(buffer: b) }
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
    /// Offers the events' batch to one lane.
    mutating func offer(_ events: [PublishedEvent], to lane: DirectLane) -> LaneHandover? {
        offer(EventBatch(events), to: lane)
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

extension ClientHub {
    /// Delivers the events' batch, encoded by the publishing thread into `all`.
    func deliver(_ events: [PublishedEvent], encoded all: ByteBuffer, ends: [Int], handovers: [LaneHandover], queuedAt queued: UInt64?) {
        let batch = EventBatch(events)
        deliver(batch.attributes, names: batch.names, encoded: all, ends: ends, handovers: handovers, queuedAt: queued)
    }
}
