// SPDX-License-Identifier: MIT
import NIOCore
import Synchronization
import Wire

/// The sessions of one publisher and the routing of events to them. All
/// sessions live on one event loop, so a published batch costs one hop.
/// Mutable state is only touched on `eventLoop` (checked in debug builds).
final class ClientHub: @unchecked Sendable {
    let eventLoop: EventLoop
    let configuration: PublisherConfiguration
    let delegate: any PublisherDelegate
    let hello: @Sendable () -> HelloSnapshot
    /// The access policy in force: `configuration.access` until ``apply(_:)``.
    private(set) var access: AccessPolicy

    private var sessions: [ClientConnectionHandler] = []
    private var nextID: UInt64 = 1
    // The clients written to while routing a batch (reused).
    private var touched: [ClientConnectionHandler] = []
    /// Hop and routing times since the last ``takeStatistics()``.
    private(set) var statistics = DeliveryStatistics()
    private var disconnectsInProgress = 0
    private var idleWaiters: [EventLoopPromise<Void>] = []
    private(set) var isShuttingDown = false
    // One bit (`EventStream.bit`) per stream that some session subscribes to.
    private let interest = Atomic<UInt8>(0)
    /// The direct-write lanes of the counted sessions that have one; read by
    /// the publishing thread (docs/daemon.md, "Threads").
    let lanes = Mutex<[DirectLane]>([])
    // Counted sessions without a lane: every batch has to come through the loop for them.
    private let withoutLane = Atomic<Int>(0)

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
                s.setSeesAllTouches(policy.seeAllTouches.includes(s.info.credentials))
            } else {
                s.setSeesAllTouches(false)
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
    func add(_ s: ClientConnectionHandler) -> Bool {
        eventLoop.assertInEventLoop()
        guard !isShuttingDown, sessions.count < configuration.limits.maxConnections else { return false }
        sessions.append(s)
        return true
    }

    /// A session counted by ``add(_:)`` is set up: its lane (if it has one)
    /// is offered batches from now on; without one, batches come through the loop.
    func admitted(_ s: ClientConnectionHandler) {
        eventLoop.assertInEventLoop()
        if let lane = s.lane {
            var list = lanes.withLock { $0 }
            list.append(lane)
            replaceLanes(with: list)
        } else {
            withoutLane.add(1, ordering: .releasing)
        }
    }

    /// Puts a new lane list in place. The list is built outside the lock and
    /// the old one released outside it: the publishing thread never waits
    /// for an allocation or a free made under the lock it takes every frame.
    private func replaceLanes(with list: [DirectLane]) {
        let old = lanes.withLock { current -> [DirectLane] in
            let old = current
            current = list
            return old
        }
        _ = old
    }

    /// Whether some counted session has no lane (the publisher then hands
    /// every batch to the loop).
    var hasSessionsWithoutLane: Bool { withoutLane.load(ordering: .acquiring) > 0 }

    /// Forgets a closed session.
    func remove(_ s: ClientConnectionHandler) {
        eventLoop.assertInEventLoop()
        guard sessions.contains(where: { $0 === s }) else { return }
        sessions.removeAll(where: { $0 === s })
        if let lane = s.lane {
            var list = lanes.withLock { $0 }
            list.removeAll(where: { $0 === lane })
            replaceLanes(with: list)
        } else {
            withoutLane.subtract(1, ordering: .releasing)
        }
        subscriptionsChanged()
        wakeIdleWaiters()
    }

    /// Recomputes which streams some session subscribes to; called on the
    /// event loop whenever a session's subscriptions change or it goes.
    func subscriptionsChanged() {
        eventLoop.assertInEventLoop()
        var bits: UInt8 = 0
        for s in sessions {
            for stream in EventStream.allCases where s.subscriptions.includes(stream) { bits |= stream.bit }
        }
        interest.store(bits, ordering: .releasing)
    }

    /// Whether some session subscribes to `stream`; any thread.
    func wants(_ stream: EventStream) -> Bool {
        interest.load(ordering: .acquiring) & stream.bit != 0
    }

    /// Sessions counted now.
    var count: Int { sessions.count }

    /// The clients connected now, oldest first.
    var clients: [ClientInfo] { sessions.map(\.info) }

    /// Sessions holding at least one subscription.
    var subscribedCount: Int { sessions.reduce(0) { $0 + ($1.subscriptions.count > 0 ? 1 : 0) } }

    /// Routes a batch to every session without a lane (tests on an embedded
    /// loop; sessions whose descriptor could not be duplicated): the batch
    /// in one buffer, each client written slices of it.
    func route(_ events: [PublishedEvent], queuedAt queued: UInt64? = nil) {
        let batch = EventBatch(events)
        deliver(batch.attributes, names: batch.names, encoded: ByteBuffer(bytes: batch.bytes), ends: batch.ends, handovers: [], queuedAt: queued)
    }

    /// Delivers a batch the publishing thread encoded (`all`, line `i` ending
    /// at `ends[i]`; the events' attributes in `batch`, their names in
    /// `names`): to the sessions it handed over (their runs of lines,
    /// minus what it already wrote to their sockets) and to every session
    /// without a lane. Each run of consecutive lines a client wants is one
    /// write of a slice of `all`; queued lines are copied out.
    func deliver(
        _ batch: [EventAttributes], names: [String], encoded all: ByteBuffer, ends: [Int], handovers: [LaneHandover],
        queuedAt queued: UInt64?
    ) {
        eventLoop.assertInEventLoop()
        let started = NIODeadline.now().uptimeNanoseconds
        if let queued { statistics.hop.record(nanoseconds: started &- min(queued, started)) }
        defer { statistics.routing.record(nanoseconds: NIODeadline.now().uptimeNanoseconds &- started) }
        let now = configuration.clock()
        for handover in handovers {
            // Whatever happens to the session, the lane's count goes down.
            defer { handover.lane.handOverDone() }
            guard let s = sessions.first(where: { $0.lane === handover.lane }) else { continue }
            s.deliver(all, runs: handover.runs, ends: ends, batch: batch, now: now, motion: handover.motion)
            touched.append(s)
        }
        if hasSessionsWithoutLane {
            for s in sessions where s.lane == nil {
                var delivered = false
                var start = -1
                for (i, event) in batch.enumerated() {
                    if s.rule.wants(event, names: names) {
                        if start < 0 { start = i }
                        continue
                    }
                    if start >= 0 {
                        s.deliver(all, lines: start..<i, ends: ends, batch: batch, now: now)
                        delivered = true
                        start = -1
                    }
                }
                if start >= 0 {
                    s.deliver(all, lines: start..<batch.count, ends: ends, batch: batch, now: now)
                    delivered = true
                }
                if delivered { touched.append(s) }
            }
        }
        // Flushed once every client's writes are queued: flushing each client in
        // turn woke its reader while the loop still had the others to write
        // (on 2 cores the readers then competed with the writing loop).
        for s in touched { s.flushQueue() }
        touched.removeAll(keepingCapacity: true)
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
