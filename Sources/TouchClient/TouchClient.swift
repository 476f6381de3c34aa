// SPDX-License-Identifier: MIT
import JSON
import NIOCore
import NIOPosix
import Wire

/// How a ``TouchClient`` retries after losing its connection.
public struct ReconnectPolicy: Hashable, Sendable {
    /// Delay before the first retry.
    public var initialDelay: Duration
    /// Longest delay between retries.
    public var maxDelay: Duration
    /// Growth of the delay after each failed retry.
    public var multiplier: Double
    /// Retries before giving up (nil: forever).
    public var maxAttempts: Int?

    /// Creates a policy (defaults: 100 ms doubling up to 5 s, forever).
    public init(initialDelay: Duration = .milliseconds(100), maxDelay: Duration = .seconds(5), multiplier: Double = 2, maxAttempts: Int? = nil) {
        self.initialDelay = initialDelay
        self.maxDelay = maxDelay
        self.multiplier = multiplier
        self.maxAttempts = maxAttempts
    }

    /// The delay before retry number `attempt` (1-based).
    public func delay(attempt: Int) -> Duration {
        var d = initialDelay
        for _ in 1..<max(attempt, 1) {
            d = d * multiplier
            if d >= maxDelay { return maxDelay }
        }
        return min(d, maxDelay)
    }
}

/// Why a request of a ``TouchClient`` failed without an answer from the server.
public struct TouchClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// A client of the touchd socket: requests with ids answered by `ack` or
/// `error`, an ordered stream of events, and reconnection with backoff that
/// restores the subscriptions, surfaces and drag roles of the lost connection.
public actor TouchClient {
    /// The socket path.
    public nonisolated let socketPath: String
    /// Reconnection policy (nil: no reconnection).
    public nonisolated let reconnect: ReconnectPolicy?
    /// Everything the server sends, in order; finishes after ``close()`` or when reconnection gives up.
    public nonisolated let events: AsyncStream<TouchEvent>

    private let eventSink: AsyncStream<TouchEvent>.Continuation
    private var outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>?
    private var waiting: [Int64: CheckedContinuation<Void, any Error>] = [:]
    private var nextID: Int64 = 1
    private var subscriptions: [Subscription] = []
    private var surfaces: [SurfaceDescription] = []
    /// The drag roles said of surfaces, in the order first said (restored after the surfaces).
    private var dragRoles: [(surface: String, roles: WireDragRoles)] = []
    private var coalescing = 0.0
    private var framing = FramesRequest.off
    private var runner: Task<Void, Never>?
    private var closed = false
    // Callers of connect() waiting until the connection is being served (its writer is set).
    private var connectWaiters: [CheckedContinuation<Void, Never>] = []

    /// Creates a client; call ``connect()`` to start.
    public init(socketPath: String, reconnect: ReconnectPolicy? = ReconnectPolicy()) {
        self.socketPath = socketPath
        self.reconnect = reconnect
        (events, eventSink) = AsyncStream.makeStream(of: TouchEvent.self, bufferingPolicy: .unbounded)
    }

    /// Connects; throws if the first connection fails. Later losses are
    /// handled by reconnection (see ``TouchEvent/disconnected``).
    public func connect() async throws {
        guard runner == nil, !closed else { return }
        let channel = try await open()
        runner = Task { await self.run(first: channel) }
        // The writer is set once the runner serves the channel: requests sent
        // before that would find no connection.
        if outbound == nil && !closed {
            await withCheckedContinuation { connectWaiters.append($0) }
        }
    }

    private func wakeConnectWaiters() {
        let waiters = connectWaiters
        connectWaiters.removeAll()
        for w in waiters { w.resume() }
    }

    /// Closes the connection and finishes ``events``.
    public func close() async {
        closed = true
        outbound?.finish()
        outbound = nil
        failWaiting(TouchClientError("the client was closed"))
        let runner = self.runner
        runner?.cancel()
        await runner?.value
        eventSink.finish()
    }

    /// Subscribes to streams (kept and restored after a reconnection).
    public func subscribe(_ streams: [EventStream], filter: SubscriptionFilter = SubscriptionFilter()) async throws {
        let s = Subscription(events: streams, filter: filter)
        try await send(.subscribe(s))
        subscriptions.append(s)
    }

    /// Unsubscribes from streams (nil: from everything).
    public func unsubscribe(_ streams: [EventStream]? = nil) async throws {
        try await send(.unsubscribe(events: streams))
        var set = subscriptions
        if let streams {
            for k in set.indices { set[k].events.removeAll(where: streams.contains) }
            set.removeAll(where: { $0.events.isEmpty })
        } else {
            set.removeAll()
        }
        subscriptions = set
    }

    /// Registers a surface (kept and restored after a reconnection).
    public func register(_ surface: SurfaceDescription) async throws {
        try await send(.register(surface))
        surfaces.append(surface)
    }

    /// Replaces a surface's description.
    public func update(_ surface: SurfaceDescription) async throws {
        try await send(.update(surface))
        if let k = surfaces.firstIndex(where: { $0.id == surface.id }) { surfaces[k] = surface }
    }

    /// Removes a surface.
    public func unregister(_ surfaceID: String) async throws {
        try await send(.unregister(surface: surfaceID))
        surfaces.removeAll(where: { $0.id == surfaceID })
        dragRoles.removeAll(where: { $0.surface == surfaceID })
    }

    /// Asks for continuous updates (touch moves and hovers, gesture
    /// `changed`) at most once per `milliseconds` (the latest of each touch
    /// and gesture; 0 turns it off, at most 100): for a client that draws at
    /// its display's rate. Beginnings, ends and everything else still come at
    /// once. Kept and restored after a reconnection (docs/protocol.md, "coalesce").
    public func coalesce(milliseconds: Double) async throws {
        try await send(.coalesce(intervalMilliseconds: milliseconds))
        coalescing = milliseconds
    }

    /// States the display's frames: a frame every `periodMilliseconds` (1 to
    /// 1000), one of them presented at `time` (seconds, on the clock of the
    /// events' `time`). The server then sends a ``TouchEvent/motion(_:)``
    /// line per touch this client receives and per frame: the touch's
    /// position at the frame's time less 5 ms, interpolated between its
    /// reports, and a predicted position `predictionHorizonMilliseconds`
    /// past its newest report when given (cut to the touch's kind's
    /// recommended horizon). `periodMilliseconds` 0 stops them. The touch
    /// lines still come as before. Kept and restored after a reconnection
    /// (docs/protocol.md, "frames").
    public func frames(periodMilliseconds: Double, time: Double, predictionHorizonMilliseconds: Double? = nil) async throws {
        let request = FramesRequest(periodMilliseconds: periodMilliseconds, time: time,
                                    predictionHorizonMilliseconds: predictionHorizonMilliseconds)
        try await send(.frames(request))
        framing = request
    }

    /// Says what one of this client's surfaces does in drag sessions
    /// (semantics §12): its drags offer items, its taps add items, it takes
    /// drops of some types. Kept and restored after a reconnection, after the surfaces.
    public func setDragRoles(_ roles: WireDragRoles, of surfaceID: String) async throws {
        try await send(.drag(.roles(surface: surfaceID, roles)))
        if let k = dragRoles.firstIndex(where: { $0.surface == surfaceID }) {
            dragRoles[k].roles = roles
        } else {
            dragRoles.append((surfaceID, roles))
        }
    }

    /// Answers a drag event `items-requested` or `add-requested` (its
    /// `request`) with items; none lets the drag, or the tap, go on without them.
    public func offerDragItems(_ items: [WireDragItem], request: Int) async throws {
        try await send(.drag(.items(request: request, items)))
    }

    /// As the target under a session's touch, says what a drop would do (the last one counts at the lift).
    public func proposeDrop(_ operation: WireDropOperation, session: Int) async throws {
        try await send(.drag(.proposal(session: session, operation)))
    }

    /// Round trip to the server.
    public func ping() async throws {
        try await send(.ping)
    }

    /// Sends a request and waits for its `ack`; an `error` answer is thrown as ``RequestError``.
    public func send(_ request: Request) async throws {
        guard let outbound else { throw TouchClientError("not connected to \(socketPath)") }
        let id = nextID
        nextID += 1
        var line = RequestEnvelope(id: .int(id), request: request).bytes
        line.append(UInt8(ascii: "\n"))
        try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
            waiting[id] = c
            Task { await self.write(line, to: outbound, id: id) }
        }
    }

    private func write(_ line: [UInt8], to outbound: NIOAsyncChannelOutboundWriter<ByteBuffer>, id: Int64) async {
        do {
            try await outbound.write(ByteBuffer(bytes: line))
        } catch {
            waiting.removeValue(forKey: id)?.resume(throwing: TouchClientError("connection lost: \(error)"))
        }
    }

    private func open() async throws -> NIOAsyncChannel<ByteBuffer, ByteBuffer> {
        try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(unixDomainSocketPath: socketPath) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(ServerLineDecoder()))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
    }

    private func run(first: NIOAsyncChannel<ByteBuffer, ByteBuffer>) async {
        var channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>? = first
        var restoring = false
        var attempt = 0
        while !closed {
            if let current = channel {
                attempt = 0
                await serve(current, restore: restoring)
                wakeConnectWaiters()
                channel = nil
                outbound = nil
                failWaiting(TouchClientError("connection to \(socketPath) lost"))
                if closed { break }
                eventSink.yield(.disconnected)
                restoring = true
            }
            guard let policy = reconnect else { break }
            attempt += 1
            if let max = policy.maxAttempts, attempt > max { break }
            do {
                try await Task.sleep(for: policy.delay(attempt: attempt))
            } catch {
                break
            }
            channel = try? await open()
        }
        wakeConnectWaiters()
        eventSink.finish()
    }

    private func serve(_ channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>, restore: Bool) async {
        try? await channel.executeThenClose { inbound, outbound in
            self.outbound = outbound
            self.wakeConnectWaiters()
            if restore { Task { await self.restoreState() } }
            for try await line in inbound {
                self.receive(line)
                if closed { break }
            }
        }
    }

    private func restoreState() async {
        let subs = subscriptions
        let surfs = surfaces
        let roles = dragRoles
        let interval = coalescing
        let framing = self.framing
        do {
            if interval > 0 { try await send(.coalesce(intervalMilliseconds: interval)) }
            if !framing.isOff { try await send(.frames(framing)) }
            for s in subs { try await send(.subscribe(s)) }
            for s in surfs { try await send(.register(s)) }
            for r in roles { try await send(.drag(.roles(surface: r.surface, r.roles))) }
            eventSink.yield(.reconnected)
        } catch {
            // The connection broke again; the next reconnection restores again.
        }
    }

    private func receive(_ line: ByteBuffer) {
        guard let json = try? line.withUnsafeReadableBytes({ raw in try JSONParser.parse(raw) }) else {
            eventSink.yield(.error(RequestError(.badJSON, "the server sent a line that is not JSON")))
            return
        }
        let message = ServerMessage(json: json, line: line)
        switch message.type {
        case "ack":
            if case let .int(id)? = message.id, let c = waiting.removeValue(forKey: id) {
                c.resume()
                return
            }
        case "error":
            if case let .int(id)? = message.id, let c = waiting.removeValue(forKey: id) {
                c.resume(throwing: RequestError(message))
                return
            }
        default:
            break
        }
        eventSink.yield(TouchEvent(message))
    }

    private func failWaiting(_ error: TouchClientError) {
        let all = waiting
        waiting.removeAll()
        for c in all.values { c.resume(throwing: error) }
    }
}

/// Splits server output into lines; server lines are bounded but may be long
/// (a `hello` with many devices), so the limit is generous.
struct ServerLineDecoder: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    static let maxLineBytes = 16 << 20

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let newline = buffer.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else {
            if buffer.readableBytes > Self.maxLineBytes { throw TouchClientError("the server sent a line longer than 16 MiB") }
            return .needMoreData
        }
        let length = newline - buffer.readerIndex
        let line = buffer.readSlice(length: length)!
        buffer.moveReaderIndex(forwardBy: 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}
