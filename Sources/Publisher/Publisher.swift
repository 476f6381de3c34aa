// SPDX-License-Identifier: MIT
import NIOCore
import NIOPosix
import Synchronization
import SystemCalls
import Wire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The Unix socket server of protocol v1.
///
/// Clients connect, get `hello`, send requests, and receive the events their
/// subscriptions and surfaces entitle them to. The engine hands events over
/// with ``publish(_:)``, which never waits for a client. All connections are
/// served by one event loop thread owned by the publisher.
package final class Publisher: Sendable {
    let hub: ClientHub
    private let acceptor: SocketAcceptor
    private let group: MultiThreadedEventLoopGroup
    private let flusher: BacklogFlusher
    private let socketPath: String?
    private let stopped = Atomic<Bool>(false)
    /// The publishing thread's reused encoding and its direct-write figures.
    private let writer = Mutex(PublishingState())
    /// ``heldDeadline`` as the bits of a `Double` (infinity: nothing held).
    private let heldDeadlineBits = Atomic<UInt64>(Double.infinity.bitPattern)

    private struct PublishingState {
        var writer = DirectWriter()
        var direct = DeliveryStatistics.Distribution()
        var batches = 0
    }

    /// One batch in this many is timed for the statistics (a power of two):
    /// reading the clock twice per frame is a system call where the clock
    /// source has no vDSO path (a guest on the HPET: docs/performance.md).
    static let timedOneIn = 16

    private init(hub: ClientHub, acceptor: SocketAcceptor, group: MultiThreadedEventLoopGroup, flusher: BacklogFlusher, socketPath: String?) {
        self.hub = hub
        self.acceptor = acceptor
        self.group = group
        self.flusher = flusher
        self.socketPath = socketPath
    }

    /// Listens on a new socket file at `socketPath` (its directory must exist;
    /// a stale socket file is replaced, a live one or another file is an error),
    /// with the configured mode and group.
    package static func listen(
        socketPath: String, configuration: PublisherConfiguration = PublisherConfiguration(),
        delegate: any PublisherDelegate, hello: @escaping @Sendable () -> HelloSnapshot
    ) async throws -> Publisher {
        try UnixSocketFile.prepare(path: socketPath)
        // Bound and listening under a temporary name, with its mode and group
        // set, then renamed into place: a client that finds the socket file
        // can always connect, and never sees it with looser permissions.
        let staging = socketPath + ".\(Syscall.processID()).new"
        UnixSocketFile.remove(path: staging)
        let listener = try SocketAcceptor.listeningSocket(path: staging, backlog: 128)
        do {
            try UnixSocketFile.applyPermissions(path: staging, mode: configuration.socketMode, group: configuration.socketGroup)
            do {
                try Syscall.rename(staging, to: socketPath)
            } catch {
                throw PublisherError("cannot move the socket into place at \(socketPath)", errno: error.errno)
            }
        } catch {
            try? Syscall.close(listener)
            UnixSocketFile.remove(path: staging)
            throw error
        }
        return try await start(listener: listener, configuration: configuration, delegate: delegate, hello: hello, socketPath: socketPath)
    }

    /// Serves an already bound and listening stream socket, e.g. one passed
    /// by systemd socket activation (the socket file and its permissions are
    /// systemd's business; the file is left in place on shutdown).
    package static func listen(
        descriptor: CInt, configuration: PublisherConfiguration = PublisherConfiguration(),
        delegate: any PublisherDelegate, hello: @escaping @Sendable () -> HelloSnapshot
    ) async throws -> Publisher {
        try SocketAcceptor.adopt(descriptor: descriptor)
        return try await start(listener: descriptor, configuration: configuration, delegate: delegate, hello: hello, socketPath: nil)
    }

    private static func start(
        listener: CInt, configuration: PublisherConfiguration, delegate: any PublisherDelegate,
        hello: @escaping @Sendable () -> HelloSnapshot, socketPath: String?
    ) async throws -> Publisher {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        var flusher: BacklogFlusher?
        do {
            let started = try BacklogFlusher()
            flusher = started
            let hub = ClientHub(eventLoop: group.next(), configuration: configuration, delegate: delegate, hello: hello, flusher: started)
            let acceptor = try SocketAcceptor(listener: listener) { fd in
                _ = clientBootstrap(hub, descriptor: fd).withConnectedSocket(fd)
            }
            return Publisher(hub: hub, acceptor: acceptor, group: group, flusher: started, socketPath: socketPath)
        } catch {
            flusher?.stop()
            try? Syscall.close(listener)
            if let socketPath { UnixSocketFile.remove(path: socketPath) }
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// How an accepted connection becomes a session: its peer credentials
    /// are read, then the request decoder and the session handler (whose
    /// output writes to a duplicate of its descriptor) are added.
    private static func clientBootstrap(_ hub: ClientHub, descriptor: CInt) -> ClientBootstrap {
        ClientBootstrap(group: hub.eventLoop)
            .channelOption(.writeBufferWaterMark, value: .init(low: 32 * 1024, high: 64 * 1024))
            .channelOption(.maxMessagesPerRead, value: 4)
            // A client that shuts down its write side still gets the answers to what it sent.
            .channelOption(.allowRemoteHalfClosure, value: true)
            .channelInitializer { channel in
                PeerCredentialsQuery.read(channel).flatMapThrowing { credentials in
                    let info = ClientInfo(id: hub.makeClientID(), credentials: credentials)
                    try channel.pipeline.syncOperations.addHandler(
                        ByteToMessageHandler(RequestFrameDecoder(maxLineBytes: hub.configuration.limits.maxRequestLineBytes)))
                    try channel.pipeline.syncOperations.addHandler(ClientConnectionHandler(hub: hub, info: info, descriptor: descriptor))
                }
            }
    }

    /// The socket file path, when listening on one created by the publisher.
    package var path: String? { socketPath }

    /// Hands a batch of events to the clients. Non-blocking: the batch is
    /// encoded already (one buffer); each client that is keeping up gets its
    /// lines written to its socket from the calling thread (one non-blocking
    /// `send`), and the lines of a client that is behind (or whose socket
    /// took only part of them) wait in its backlog for the flusher; slow
    /// clients lose events (and get `overflow`) instead of slowing anyone.
    package func publish(_ batch: EventBatch) {
        guard !batch.isEmpty, !stopped.load(ordering: .acquiring) else { return }
        let outputs = hub.outputs.withLock { $0 }
        writer.withLock { p in
            p.batches &+= 1
            let timed = p.batches & (Self.timedOneIn - 1) == 0
            let started = timed ? NIODeadline.now().uptimeNanoseconds : 0
            p.writer.offer(batch, to: outputs)
            heldDeadlineBits.store(p.writer.earliestHeld.bitPattern, ordering: .releasing)
            if timed { p.direct.record(nanoseconds: NIODeadline.now().uptimeNanoseconds &- started) }
        }
    }

    /// The earliest event time (seconds) at which updates held for a
    /// coalescing client are to go out without waiting for another frame
    /// (`coalesce`, docs/protocol.md); nil when nothing is held. The engine's
    /// owner wakes up for it and calls ``releaseHeld(upTo:)``. One atomic load.
    package var heldDeadline: Double? {
        let d = Double(bitPattern: heldDeadlineBits.load(ordering: .acquiring))
        return d.isFinite ? d : nil
    }

    /// Sends the held updates whose deadline has come by `time` (event time,
    /// seconds, on the clock of the events). Called from the publishing
    /// thread; does nothing before ``heldDeadline``.
    package func releaseHeld(upTo time: Double) {
        guard let due = heldDeadline, due <= time + DirectWriter.timeTolerance,
              !stopped.load(ordering: .acquiring) else { return }
        let outputs = hub.outputs.withLock { $0 }
        writer.withLock { p in
            p.writer.release(outputs, upTo: time)
            heldDeadlineBits.store(p.writer.earliestHeld.bitPattern, ordering: .releasing)
        }
    }

    /// Hands events that carry their own lines to the clients, as one
    /// batch (see the `EventBatch` variant).
    package func publish(_ events: [PublishedEvent]) {
        guard !events.isEmpty else { return }
        publish(EventBatch(events))
    }

    /// How batches went since the previous call (or the start): the time
    /// each took on the publishing thread, and how many some client was
    /// behind for; nil once the publisher has shut down. Resets the figures.
    package func takeStatistics() async -> DeliveryStatistics? {
        guard !stopped.load(ordering: .acquiring) else { return nil }
        var s = DeliveryStatistics()
        // Swapped for a fresh one made outside the lock: the publishing
        // thread never waits for an allocation made under the lock it takes.
        var taken = DeliveryStatistics.Distribution()
        let (batches, queued) = writer.withLock { p in
            swap(&p.direct, &taken)
            defer { p.batches = 0 }
            return (p.batches, p.writer.takeQueued())
        }
        s.direct = taken
        s.batches = batches
        s.queued = queued
        return s
    }

    /// Whether any client subscribes to `stream` now: the engine's owner
    /// skips encoding events nobody would receive (one atomic load, no lock).
    /// Events a client's own surfaces produce go to it whatever this says.
    package func wants(_ stream: EventStream) -> Bool {
        hub.wants(stream)
    }

    /// Puts a new access policy in force, e.g. after a configuration
    /// reload: new connections are checked against it; connected clients it
    /// no longer admits get `not-permitted` and are closed; `seeAllTouches`
    /// is granted or withdrawn at once for every client. Returns the number
    /// of clients closed.
    @discardableResult
    package func updateAccess(_ policy: AccessPolicy) async -> Int {
        guard !stopped.load(ordering: .acquiring) else { return 0 }
        let hub = self.hub
        return (try? await hub.eventLoop.submit { hub.apply(policy) }.get()) ?? 0
    }

    /// Runs `body` on the event loop's thread and returns its result (nil
    /// once the publisher has shut down): for what has to be done by that
    /// thread itself, such as setting its scheduling policy.
    package func onEventLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T? {
        guard !stopped.load(ordering: .acquiring) else { return nil }
        return try? await hub.eventLoop.submit(body).get()
    }

    /// The access policy in force.
    package func access() async -> AccessPolicy {
        let hub = self.hub
        return (try? await hub.eventLoop.submit { hub.access }.get()) ?? hub.configuration.access
    }

    /// The number of connected clients.
    package func clientCount() async -> Int {
        guard !stopped.load(ordering: .acquiring) else { return 0 }
        let hub = self.hub
        return (try? await hub.eventLoop.submit { hub.count }.get()) ?? 0
    }

    /// The number of connected clients holding at least one subscription.
    /// Counted on the event loop: events published after this returns reach
    /// the subscriptions it counted.
    package func subscribedClientCount() async -> Int {
        guard !stopped.load(ordering: .acquiring) else { return 0 }
        let hub = self.hub
        return (try? await hub.eventLoop.submit { hub.subscribedCount }.get()) ?? 0
    }

    /// The connected clients, oldest first.
    package func clients() async -> [ClientInfo] {
        guard !stopped.load(ordering: .acquiring) else { return [] }
        let hub = self.hub
        return (try? await hub.eventLoop.submit { hub.clients }.get()) ?? []
    }

    /// Says `goodbye` to every client, closes all connections and the
    /// listening socket, waits for `clientDisconnected` calls to return, and
    /// stops the event loop. Removes the socket file it created.
    package func shutdown(reason: GoodbyeReason = .shutdown) async {
        let first = !stopped.exchange(true, ordering: .acquiringAndReleasing)
        guard first else { return }
        let hub = self.hub
        acceptor.stop()
        let idle = hub.eventLoop.flatSubmit {
            hub.beginShutdown(reason: reason)
            return hub.whenIdle()
        }
        try? await idle.get()
        flusher.stop()
        if let socketPath { UnixSocketFile.remove(path: socketPath) }
        try? await group.shutdownGracefully()
    }
}
