// SPDX-License-Identifier: MIT
import NIOCore
import Wire

/// One client connection: answers its requests in order, holds its
/// subscriptions and surfaces, and writes its outgoing queue as fast as the
/// socket takes it. Lives on the publisher's event loop; everything here runs there.
final class ClientConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = RequestFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// Where the connection is in its life.
    enum State {
        /// Connected, not yet counted.
        case idle
        /// Counted by the hub, serving requests and events.
        case active
        /// Refused (not permitted, or over the connection limit): told so, being closed.
        case rejected
        /// Was active; a new access policy no longer admits it: told so, being closed.
        case revoked
        /// Was active; found stuck while a batch was routed: closed once the
        /// routing is over, so that freeing its queue does not delay the others.
        case stuck
        /// Closed.
        case closed
    }

    private enum Work {
        case request(RequestEnvelope)
        case failure(RequestError)
    }

    let hub: ClientHub
    let info: ClientInfo
    /// The publishing thread's direct path to the socket, made once the
    /// session is admitted; nil without a descriptor (tests on an embedded
    /// loop) or when it could not be duplicated.
    private(set) var lane: DirectLane?
    // The connection's descriptor (NIO's), to duplicate for the lane.
    private let descriptor: CInt?
    /// Whether it gets other clients' surface touches (`seeAllTouches`); the hub updates it.
    private(set) var seesAllTouches: Bool
    private(set) var state = State.idle
    private(set) var subscriptions = SubscriptionSet()
    private(set) var surfaces: Set<String> = []
    private(set) var queue: OutgoingQueue
    private var context: ChannelHandlerContext?
    private var pending = CircularBuffer<Work>(initialCapacity: 4)
    private var inFlight = false
    private var readPending = false
    private var disconnectReported = false
    // The client shut down its write side: answer what was read, then close.
    private var inputClosed = false
    private var closingAfterInput = false
    /// `goodbye` is queued: nothing more is delivered, and the connection
    /// closes once the queue has reached the socket (or when the hub's
    /// shutdown grace ends).
    private var saidGoodbye = false
    private var closingAfterGoodbye = false
    // Event-loop writes not yet known to be in the socket: the lane stays
    // closed until they are (each flush that wrote adds one).
    private var unconfirmed = 0

    /// A session; `descriptor` is the connection's socket when the publisher
    /// accepted it (a lane is made on a duplicate of it).
    init(hub: ClientHub, info: ClientInfo, descriptor: CInt? = nil) {
        self.hub = hub
        self.info = info
        let limits = hub.configuration.limits
        let sees = hub.access.seeAllTouches.includes(info.credentials)
        self.seesAllTouches = sees
        self.queue = OutgoingQueue(maxEvents: limits.maxQueuedEvents, maxBytes: limits.maxQueuedBytes, stuckTimeout: limits.stuckTimeout)
        self.descriptor = descriptor
    }

    /// Who this client is to receive events as (its id, subscriptions and
    /// `seeAllTouches`).
    var rule: RecipientRule { RecipientRule(id: info.id, subscriptions: subscriptions, seesAllTouches: seesAllTouches) }

    /// Grants or withdraws `seeAllTouches` (a new access policy).
    func setSeesAllTouches(_ sees: Bool) {
        guard sees != seesAllTouches else { return }
        seesAllTouches = sees
        guard let lane else { return }
        lane.update(rule)
        reopenIfIdle()
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        lane?.shutDown()
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    private func start(context: ChannelHandlerContext) {
        guard state == .idle else { return }
        guard hub.access.admits(info.credentials) else {
            refuse(context, RequestError(.notPermitted, "\(peerName) may not connect (access.connect)"))
            return
        }
        guard hub.add(self) else {
            let limit = hub.configuration.limits.maxConnections
            refuse(context, RequestError(.limitExceeded, "too many connections (the limit is \(limit))"))
            return
        }
        state = .active
        // Admitted: now the lane (a refused connection never holds a second descriptor).
        if let descriptor {
            let lane = DirectLane(id: info.id, duplicating: descriptor, rule: rule)
            if lane.isUsable { self.lane = lane }
        }
        hub.admitted(self)
        let snapshot = hub.hello()
        var w = JSONWriter(capacity: 512)
        MessageEncoder.hello(devices: snapshot.devices, screens: snapshot.screens, session: snapshot.session, into: &w)
        w.newline()
        queue.appendControl(ByteBuffer(bytes: w.bytes))
        flushQueue()
    }

    private var peerName: String {
        info.credentials.map { "uid \($0.uid) gid \($0.gid)" } ?? "a peer without credentials"
    }

    /// A new access policy leaves this client out: it gets `not-permitted`
    /// after what is already queued for it, then the connection closes (at
    /// once if it is not keeping up). No event is delivered after this.
    func revokeAdmission() {
        guard let context, state == .active else { return }
        lane?.seal()
        respond(RequestError(.notPermitted, "\(peerName) may no longer connect (access.connect was reloaded)"))
        state = .revoked
        guard queue.isEmpty else {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Sends one error and closes once it is written; the session is never counted.
    private func refuse(_ context: ChannelHandlerContext, _ error: RequestError) {
        state = .rejected
        var w = JSONWriter(capacity: 128)
        MessageEncoder.error(error, into: &w)
        w.newline()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: w.bytes))).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A revoked or stuck session was counted too: it leaves like an active one.
        let wasActive = state == .active || state == .revoked || state == .stuck
        state = .closed
        // The client sees the end once both descriptors are closed.
        lane?.shutDown()
        pending.removeAll()
        queue.removeAll()
        // Report first so that the hub does not look idle in between.
        if wasActive, !inFlight { reportDisconnect() }
        if wasActive { hub.remove(self) }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard state == .active else { return }
        switch unwrapInboundIn(data) {
        case .tooLong:
            let limit = hub.configuration.limits.maxRequestLineBytes
            pending.append(.failure(RequestError(.lineTooLong, "a request line is longer than \(limit) bytes; it is skipped up to its newline")))
        case let .line(buffer):
            if buffer.readableBytesView.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            let decoded: Result<RequestEnvelope, RequestError> = buffer.withUnsafeReadableBytes { raw in
                do throws(RequestError) { return .success(try RequestDecoder.decode(raw)) } catch { return .failure(error) }
            }
            switch decoded {
            case let .success(envelope): pending.append(.request(envelope))
            case let .failure(error): pending.append(.failure(error))
            }
        }
        processPending()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The frame decoder has passed on every complete line before this.
        if let event = event as? ChannelEvent, event == .inputClosed {
            inputClosed = true
            closeIfInputDone()
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { flushQueue() }
        context.fireChannelWritabilityChanged()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        // Reset peers and the like: the connection is gone either way.
        context.close(promise: nil)
    }

    func read(context: ChannelHandlerContext) {
        if shouldPauseReading {
            readPending = true
        } else {
            context.read()
        }
    }

    // MARK: Requests

    private var shouldPauseReading: Bool {
        pending.count >= hub.configuration.limits.maxPendingRequests || queue.isFull
    }

    private func resumeReadingIfPossible() {
        guard readPending, !shouldPauseReading, let context else { return }
        readPending = false
        context.read()
    }

    private func processPending() {
        while !inFlight, state == .active, let work = pending.popFirst() {
            switch work {
            case let .failure(error): respond(error)
            case let .request(envelope): handle(envelope)
            }
        }
        resumeReadingIfPossible()
        closeIfInputDone()
    }

    /// After a half-close: once every request read is answered and the
    /// queue has drained into the socket, closes the connection.
    private func closeIfInputDone() {
        guard inputClosed, !closingAfterInput, state == .active, !inFlight, pending.isEmpty, queue.isEmpty, let context else { return }
        closingAfterInput = true
        lane?.seal()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }

    private func handle(_ envelope: RequestEnvelope) {
        let id = envelope.id
        let limits = hub.configuration.limits
        switch envelope.request {
        case let .subscribe(subscription):
            guard subscriptions.count < limits.maxSubscriptionsPerClient else {
                respond(RequestError(.limitExceeded, "at most \(limits.maxSubscriptionsPerClient) subscriptions per connection", id: id))
                return
            }
            subscriptions.add(subscription)
            lane?.update(rule)
            hub.subscriptionsChanged()
            acknowledge(id)
        case let .unsubscribe(events):
            subscriptions.remove(events)
            lane?.update(rule)
            hub.subscriptionsChanged()
            acknowledge(id)
        case .ping:
            acknowledge(id)
        case let .coalesce(milliseconds):
            // The lane closes: what it holds goes out before the answer.
            lane?.setCoalescing(interval: milliseconds / 1000)
            acknowledge(id)
        case let .register(surface):
            guard !surfaces.contains(surface.id) else {
                respond(RequestError(.surfaceExists, "surface \"\(surface.id)\" is already registered; use update", id: id))
                return
            }
            guard surfaces.count < limits.maxSurfacesPerClient else {
                respond(RequestError(.limitExceeded, "at most \(limits.maxSurfacesPerClient) surfaces per connection", id: id))
                return
            }
            guard checkRecognizerLimit(surface, id: id), checkClaims(surface, id: id) else { return }
            callDelegate(id: id, registers: surface.id) { delegate, client throws(RequestError) in
                try await delegate.register(surface: surface, from: client)
            }
        case let .update(surface):
            guard surfaces.contains(surface.id) else {
                respond(RequestError(.unknownSurface, "no surface \"\(surface.id)\" on this connection", id: id))
                return
            }
            guard checkRecognizerLimit(surface, id: id), checkClaims(surface, id: id) else { return }
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.update(surface: surface, from: client)
            }
        case let .screens(change):
            guard hub.access.changeScreens.includes(info.credentials) else {
                respond(RequestError(.notPermitted, "this client may not change the screens (access.changeScreens)", id: id))
                return
            }
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.changeScreens(change, from: client)
            }
        case let .unregister(surfaceID):
            guard surfaces.contains(surfaceID) else {
                respond(RequestError(.unknownSurface, "no surface \"\(surfaceID)\" on this connection", id: id))
                return
            }
            callDelegate(id: id, unregisters: surfaceID) { delegate, client throws(RequestError) in
                try await delegate.unregister(surface: surfaceID, from: client)
            }
        case let .drag(request):
            if case let .roles(surface, _) = request, !surfaces.contains(surface) {
                respond(RequestError(.unknownSurface, "no surface \"\(surface)\" on this connection", id: id))
                return
            }
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.drag(request, from: client)
            }
        }
    }

    private func checkRecognizerLimit(_ surface: SurfaceDescription, id: RequestID?) -> Bool {
        let limit = hub.configuration.limits.maxRecognizersPerSurface
        guard surface.recognizers.count <= limit else {
            respond(RequestError(.limitExceeded, "surface.recognizers: at most \(limit) recognizers per surface", id: id))
            return false
        }
        return true
    }

    /// A recognizer that claims its touches takes them from every other app
    /// (semantics §9.5): only peers the configuration's `access.claimTouches`
    /// grants may ask for it.
    private func checkClaims(_ surface: SurfaceDescription, id: RequestID?) -> Bool {
        for (i, r) in surface.recognizers.enumerated() where r["claimsTouches"]?.boolValue == true {
            guard hub.access.claimTouches.includes(info.credentials) else {
                respond(RequestError(
                    .notPermitted, "surface.recognizers[\(i)].claimsTouches: this client may not claim touches (access.claimTouches)", id: id))
                return false
            }
        }
        return true
    }

    /// Runs one delegate call; requests behind it wait until it finishes.
    private func callDelegate(
        id: RequestID?, registers added: String? = nil, unregisters removed: String? = nil,
        _ call: @escaping @Sendable (any PublisherDelegate, ClientInfo) async throws(RequestError) -> Void
    ) {
        inFlight = true
        let delegate = hub.delegate
        let client = info
        let bound = NIOLoopBound(self, eventLoop: hub.eventLoop)
        let hop = hub.hopToLoop
        Task {
            var failure: RequestError?
            do throws(RequestError) { try await call(delegate, client) } catch { failure = error }
            let outcome = failure
            hop { bound.value.finishDelegateCall(id: id, failure: outcome, added: added, removed: removed) }
        }
    }

    private func finishDelegateCall(id: RequestID?, failure: RequestError?, added: String?, removed: String?) {
        inFlight = false
        if failure == nil {
            if let added { surfaces.insert(added) }
            if let removed { surfaces.remove(removed) }
        }
        guard state == .active else {
            if state == .closed { reportDisconnect() }
            return
        }
        if var failure {
            failure.id = id
            respond(failure)
        } else {
            acknowledge(id)
        }
        processPending()
    }

    private func reportDisconnect() {
        guard !disconnectReported else { return }
        disconnectReported = true
        let delegate = hub.delegate
        let client = info
        let remaining = surfaces.sorted()
        hub.disconnectStarted()
        let hop = hub.hopToLoop
        let hub = NIOLoopBound(hub, eventLoop: hub.eventLoop)
        Task {
            await delegate.clientDisconnected(client, surfaces: remaining)
            hop { hub.value.disconnectFinished() }
        }
    }

    private func acknowledge(_ id: RequestID?) {
        var w = JSONWriter(capacity: 48)
        MessageEncoder.ack(id: id, into: &w)
        w.newline()
        queue.appendControl(ByteBuffer(bytes: w.bytes))
        flushQueue()
    }

    private func respond(_ error: RequestError) {
        var w = JSONWriter(capacity: 128)
        MessageEncoder.error(error, into: &w)
        w.newline()
        queue.appendControl(ByteBuffer(bytes: w.bytes))
        flushQueue()
    }

    // MARK: Events

    /// Delivers the runs of lines `runs` of a batch the publishing thread
    /// handed over for this client.
    func deliver(_ all: ByteBuffer, runs: [Range<Int>], ends: [Int], batch: [EventAttributes], now: Double) {
        guard state == .active, !saidGoodbye else { return }
        claimLane()
        for run in runs { deliver(all, lines: run, ends: ends, batch: batch, now: now) }
    }

    /// Stops the publishing thread's direct writes before this loop writes,
    /// and puts the rest of a line it left cut ahead of everything queued
    /// (never dropped: the stream would be corrupt).
    private func claimLane() {
        if let lane, let tail = lane.hold() { queue.prependControl(tail) }
    }

    /// Offers the lines `lines` of a routed batch (`all`, line `i` ending at
    /// `ends[i]`): written to the channel as one slice of the batch's buffer
    /// (flushed by `flushQueue`) while the socket keeps up; otherwise queued
    /// one by one, each copied out so that a queued line does not keep its
    /// whole batch alive. A client found stuck is closed.
    func deliver(_ all: ByteBuffer, lines: Range<Int>, ends: [Int], batch: [EventAttributes], now: Double) {
        guard state == .active, let context else { return }
        claimLane()
        let start = lines.lowerBound == 0 ? 0 : ends[lines.lowerBound - 1]
        if queue.isEmpty, queue.lost == 0, context.channel.isWritable {
            context.write(wrapOutboundOut(all.getSlice(at: start, length: ends[lines.upperBound - 1] - start)!), promise: nil)
            wroteSinceFlush = true
            return
        }
        var lineStart = start
        for i in lines {
            let line = ByteBuffer(bytes: all.viewBytes(at: lineStart, length: ends[i] - lineStart)!)
            lineStart = ends[i]
            switch queue.offer(line, time: batch[i].time, now: now) {
            case .queued, .dropped:
                continue
            case .stuck:
                // Closing frees the queued lines and the channel's pending
                // writes (thousands of buffers): done after this batch's
                // routing, not in the middle of it. Nothing is delivered meanwhile.
                state = .stuck
                lane?.seal()
                let channel = context.channel
                context.eventLoop.execute { channel.close(promise: nil) }
                return
            }
        }
    }

    // A slice was written to the channel since the last flush.
    private var wroteSinceFlush = false

    /// Moves queued lines to the channel while it accepts them (the
    /// publishing thread's direct writes stopped first, and the rest of a
    /// line it left cut written before them).
    func flushQueue() {
        guard let context, state == .active else { return }
        claimLane()
        var wrote = wroteSinceFlush
        wroteSinceFlush = false
        while context.channel.isWritable, let line = queue.pop() {
            context.write(wrapOutboundOut(line), promise: nil)
            wrote = true
        }
        if wrote, lane != nil {
            // Told once everything written so far is in the socket.
            unconfirmed += 1
            let promise = context.eventLoop.makePromise(of: Void.self)
            context.write(wrapOutboundOut(ByteBuffer()), promise: promise)
            let bound = NIOLoopBound(self, eventLoop: context.eventLoop)
            promise.futureResult.whenComplete { _ in bound.value.writesConfirmed() }
        }
        context.flush()
        if !wrote { reopenIfIdle() }
        resumeReadingIfPossible()
        closeIfInputDone()
        closeIfGoodbyeWritten()
    }

    private func writesConfirmed() {
        unconfirmed -= 1
        reopenIfIdle()
    }

    /// Lets the publishing thread write to this client again once nothing
    /// of it waits here: no queued line, no lost count to report, nothing
    /// unwritten in the channel.
    private func reopenIfIdle() {
        guard let lane, let context, state == .active, !closingAfterInput,
              queue.isEmpty, queue.lost == 0, unconfirmed == 0, context.channel.isWritable else { return }
        lane.reopen()
    }

    /// Queues `goodbye` after what is queued already, writes what the socket
    /// takes, and closes once all of it is written (the hub closes a client
    /// that does not read at the end of the shutdown grace).
    func sayGoodbye(_ reason: GoodbyeReason) {
        guard let context, state == .active else { return }
        lane?.seal()
        var w = JSONWriter(capacity: 48)
        MessageEncoder.goodbye(reason: reason, into: &w)
        w.newline()
        queue.appendControl(ByteBuffer(bytes: w.bytes))
        saidGoodbye = true
        flushQueue()
    }

    // After `goodbye`: what was queued before it is written first (a client
    // reading gets every event it was sent, then `goodbye`); one that does
    // not read is closed by the hub at the end of the shutdown grace.
    private func closeIfGoodbyeWritten() {
        guard saidGoodbye, !closingAfterGoodbye, queue.isEmpty, let context else { return }
        closingAfterGoodbye = true
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Closes the connection now.
    func close() {
        context?.close(promise: nil)
    }
}
