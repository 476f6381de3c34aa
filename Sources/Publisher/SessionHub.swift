import NIOCore
import Synchronization
import Wire

/// The sessions of one publisher and the routing of events to them. All
/// sessions live on one event loop, so a published batch costs one hop.
/// Mutable state is only touched on `eventLoop` (checked in debug builds).
final class SessionHub: @unchecked Sendable {
    let eventLoop: EventLoop
    let configuration: PublisherConfiguration
    let delegate: any PublisherDelegate
    let hello: @Sendable () -> HelloSnapshot
    /// The access policy in force: `configuration.access` until ``apply(_:)``.
    private(set) var access: AccessPolicy

    private var sessions: [SessionHandler] = []
    private var nextID: UInt64 = 1
    // End offset of each line of the batch being routed, and the clients written to (reused).
    private var lineEnds: [Int] = []
    private var touched: [SessionHandler] = []
    /// Hop and routing times since the last ``takeStatistics()``.
    private(set) var statistics = DeliveryStatistics()
    private var disconnectsInProgress = 0
    private var idleWaiters: [EventLoopPromise<Void>] = []
    private(set) var isShuttingDown = false
    // One bit (`bit(_:)`) per stream that some session subscribes to.
    private let interest = Atomic<UInt8>(0)

    /// How the end of a delegate call (run on Swift concurrency's threads)
    /// gets back onto the event loop: `eventLoop.execute`. Tests on an
    /// `EmbeddedEventLoop`, which must only be used from its own thread,
    /// pass a hop that collects the work for their thread to run.
    let hopToLoop: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(
        eventLoop: EventLoop, configuration: PublisherConfiguration, delegate: any PublisherDelegate,
        hello: @escaping @Sendable () -> HelloSnapshot,
        hopToLoop: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
    ) {
        self.eventLoop = eventLoop
        self.configuration = configuration
        self.delegate = delegate
        self.hello = hello
        self.access = configuration.access
        self.hopToLoop = hopToLoop ?? { [eventLoop] work in eventLoop.execute(work) }
    }

    /// Puts a new access policy in force: later connections are checked
    /// against it, connected clients it no longer admits are told
    /// `not-permitted` and closed, and `seeAllTouches` follows it for every
    /// client. Returns the number of clients closed.
    func apply(_ policy: AccessPolicy) -> Int {
        eventLoop.assertInEventLoop()
        access = policy
        var revoked = 0
        for s in sessions {
            if policy.admits(s.info.credentials) {
                s.seesAllTouches = policy.seeAllTouches.includes(s.info.credentials)
            } else {
                s.seesAllTouches = false
                revoked += 1
            }
        }
        // Closing may end a session at once (and remove it), so after the walk.
        for s in sessions where !policy.admits(s.info.credentials) { s.revokeAdmission() }
        return revoked
    }

    /// A fresh client id.
    func makeClientID() -> ClientID {
        eventLoop.assertInEventLoop()
        defer { nextID += 1 }
        return ClientID(rawValue: nextID)
    }

    /// Counts a new session; false when the connection limit is reached or the hub shuts down.
    func add(_ s: SessionHandler) -> Bool {
        eventLoop.assertInEventLoop()
        guard !isShuttingDown, sessions.count < configuration.limits.maxConnections else { return false }
        sessions.append(s)
        return true
    }

    /// Forgets a closed session.
    func remove(_ s: SessionHandler) {
        eventLoop.assertInEventLoop()
        sessions.removeAll(where: { $0 === s })
        subscriptionsChanged()
        wakeIdleWaiters()
    }

    /// Recomputes which streams some session subscribes to; called on the
    /// event loop whenever a session's subscriptions change or it goes.
    func subscriptionsChanged() {
        eventLoop.assertInEventLoop()
        var bits: UInt8 = 0
        for s in sessions {
            for stream in EventStream.allCases where s.subscriptions.includes(stream) { bits |= Self.bit(stream) }
        }
        interest.store(bits, ordering: .releasing)
    }

    /// Whether some session subscribes to `stream`; any thread.
    func wants(_ stream: EventStream) -> Bool {
        interest.load(ordering: .acquiring) & Self.bit(stream) != 0
    }

    private static func bit(_ stream: EventStream) -> UInt8 {
        switch stream {
        case .gesture: 1 << 0
        case .touch: 1 << 1
        case .system: 1 << 2
        case .device: 1 << 3
        case .debug: 1 << 4
        }
    }

    /// Sessions counted now.
    var count: Int { sessions.count }

    /// The clients connected now, oldest first.
    var clients: [ClientInfo] { sessions.map(\.info) }

    /// Sessions holding at least one subscription.
    var subscribedCount: Int { sessions.reduce(0) { $0 + ($1.subscriptions.count > 0 ? 1 : 0) } }

    /// Routes a batch: one buffer per event shared by every recipient, then
    /// one flush per recipient.
    func route(_ batch: [PublishedEvent], queuedAt queued: UInt64? = nil) {
        eventLoop.assertInEventLoop()
        let started = NIODeadline.now().uptimeNanoseconds
        if let queued { statistics.hop.record(nanoseconds: started &- min(queued, started)) }
        defer { statistics.routing.record(nanoseconds: NIODeadline.now().uptimeNanoseconds &- started) }
        guard !sessions.isEmpty else { return }
        let now = configuration.clock()
        // The whole batch in one buffer: what a client gets are slices of it (no
        // copy, no allocation per line), and each run of consecutive lines it
        // wants is one write (usually the whole batch: one write per client).
        var size = 0
        for event in batch { size += event.line.count + 1 }
        var all = ByteBuffer()
        all.reserveCapacity(size)
        lineEnds.removeAll(keepingCapacity: true)
        for event in batch {
            all.writeBytes(event.line)
            all.writeInteger(UInt8(ascii: "\n"))
            lineEnds.append(all.writerIndex)
        }
        for s in sessions {
            var delivered = false
            var start = -1
            for (i, event) in batch.enumerated() {
                if Self.isRecipient(s, of: event) {
                    if start < 0 { start = i }
                    continue
                }
                if start >= 0 {
                    s.deliver(all, lines: start..<i, ends: lineEnds, batch: batch, now: now)
                    delivered = true
                    start = -1
                }
            }
            if start >= 0 {
                s.deliver(all, lines: start..<batch.count, ends: lineEnds, batch: batch, now: now)
                delivered = true
            }
            if delivered { touched.append(s) }
        }
        // Flushed once every client's writes are queued: flushing each client in
        // turn woke its reader while the loop still had the others to write
        // (on 2 cores the readers then competed with the writing loop).
        for s in touched { s.flushQueue() }
        touched.removeAll(keepingCapacity: true)
    }

    /// Who gets an event: events of a client's surfaces go to that client
    /// (gestures whatever it subscribes to; touches when it subscribes to
    /// them) and, for touches, to clients granted `seeAllTouches` that
    /// subscribe; every other event to whoever subscribes.
    private static func isRecipient(_ s: SessionHandler, of event: PublishedEvent) -> Bool {
        guard let owner = event.owner else { return s.subscriptions.wants(event) }
        if s.info.id == owner { return event.stream == .gesture || s.subscriptions.wants(event) }
        return event.stream == .touch && s.seesAllTouches && s.subscriptions.wants(event)
    }

    /// The statistics since the last call, and a fresh start.
    func takeStatistics() -> DeliveryStatistics {
        eventLoop.assertInEventLoop()
        defer { statistics = DeliveryStatistics() }
        return statistics
    }

    func disconnectStarted() {
        disconnectsInProgress += 1
    }

    func disconnectFinished() {
        disconnectsInProgress -= 1
        wakeIdleWaiters()
    }

    private func wakeIdleWaiters() {
        guard disconnectsInProgress == 0, sessions.isEmpty, !idleWaiters.isEmpty else { return }
        let waiters = idleWaiters
        idleWaiters.removeAll()
        for w in waiters { w.succeed(()) }
    }

    /// Succeeds once no session is left and every `clientDisconnected` call has returned.
    func whenIdle() -> EventLoopFuture<Void> {
        eventLoop.assertInEventLoop()
        if sessions.isEmpty, disconnectsInProgress == 0 { return eventLoop.makeSucceededVoidFuture() }
        let p = eventLoop.makePromise(of: Void.self)
        idleWaiters.append(p)
        return p.futureResult
    }

    /// Stops accepting sessions, says goodbye to every client, and closes
    /// those still open after the grace period.
    func beginShutdown(reason: GoodbyeReason) {
        eventLoop.assertInEventLoop()
        guard !isShuttingDown else { return }
        isShuttingDown = true
        for s in sessions { s.sayGoodbye(reason) }
        let grace = TimeAmount.nanoseconds(Int64(configuration.limits.shutdownGrace * 1e9))
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        eventLoop.scheduleTask(in: grace) {
            for s in bound.value.sessions { s.close() }
        }
    }
}
