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
    private var disconnectsInProgress = 0
    private var idleWaiters: [EventLoopPromise<Void>] = []
    private(set) var isShuttingDown = false
    // One bit (`EventStream.bit`) per stream that some session subscribes to.
    private let interest = Atomic<UInt8>(0)
    /// The outputs of the admitted sessions; read by the publishing thread
    /// (docs/architecture.md, "Threads").
    let outputs = Mutex<[ClientOutput]>([])
    /// Writes the backlogs of clients that are behind.
    let flusher: any BacklogFlushing

    /// How the end of a delegate call (run on Swift concurrency's threads)
    /// gets back onto the event loop: `eventLoop.execute`. Tests on an
    /// `EmbeddedEventLoop`, which must only be used from its own thread,
    /// pass a hop that collects the work for their thread to run.
    let hopToLoop: @Sendable (@escaping @Sendable () -> Void) -> Void

    init(
        eventLoop: EventLoop, configuration: PublisherConfiguration, delegate: any PublisherDelegate,
        hello: @escaping @Sendable () -> HelloSnapshot, flusher: any BacklogFlushing,
        hopToLoop: (@Sendable (@escaping @Sendable () -> Void) -> Void)? = nil
    ) {
        self.flusher = flusher
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

    /// A session counted by ``add(_:)`` is set up: its output is offered
    /// batches from now on.
    func admitted(_ s: ClientConnectionHandler) {
        eventLoop.assertInEventLoop()
        guard let output = s.output else { return }
        var list = outputs.withLock { $0 }
        list.append(output)
        replaceOutputs(with: list)
    }

    /// Puts a new output list in place. The list is built outside the lock and
    /// the old one released outside it: the publishing thread never waits
    /// for an allocation or a free made under the lock it takes every frame.
    private func replaceOutputs(with list: [ClientOutput]) {
        let old = outputs.withLock { current -> [ClientOutput] in
            let old = current
            current = list
            return old
        }
        _ = old
    }

    /// Forgets a closed session (or one refused after it was counted).
    func remove(_ s: ClientConnectionHandler) {
        eventLoop.assertInEventLoop()
        guard sessions.contains(where: { $0 === s }) else { return }
        sessions.removeAll(where: { $0 === s })
        if let output = s.output {
            var list = outputs.withLock { $0 }
            list.removeAll(where: { $0 === output })
            replaceOutputs(with: list)
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

    /// Writes a batch to every session, as the publishing thread does (tests).
    func route(_ events: [PublishedEvent]) {
        var writer = DirectWriter()
        writer.offer(EventBatch(events), to: outputs.withLock { $0 })
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
