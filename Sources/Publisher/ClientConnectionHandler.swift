// SPDX-License-Identifier: MIT
import NIOCore
import Wire

/// One client connection: answers its requests in order, holds its
/// subscriptions (its surfaces are the delegate's), and writes its outgoing queue as fast as the
/// socket takes it. Lives on the publisher's event loop; everything here runs there.
final class ClientConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = RequestFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

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
    /// The connection's rules: counted or not, served or closing, the
    /// requests waiting and the one in flight.
    private(set) var machine = ClientConnectionStateMachine()
    private(set) var subscriptions = SubscriptionSet()
    private(set) var queue: OutgoingQueue
    private var context: ChannelHandlerContext?
    // A read NIO asked for while reading is paused.
    private var readPending = false
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
        switch machine.activate() {
        case .decideAdmission: break
        case .none: return
        }
        switch machine.admission(refused: admissionRefusal()) {
        case .serve: break
        case let .refuse(error):
            refuse(context, error)
            return
        case .none: return
        }
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

    /// Why the client may not be counted (nil: it is counted now).
    private func admissionRefusal() -> RequestError? {
        guard hub.access.admits(info.credentials) else {
            return RequestError(.notPermitted, "\(peerName) may not connect (access.connect)")
        }
        guard hub.add(self) else {
            let limit = hub.configuration.limits.maxConnections
            return RequestError(.limitExceeded, "too many connections (the limit is \(limit))")
        }
        return nil
    }

    private var peerName: String {
        info.credentials.map { "uid \($0.uid) gid \($0.gid)" } ?? "a peer without credentials"
    }

    /// A new access policy leaves this client out: it gets `not-permitted`
    /// after what is already queued for it, then the connection closes (at
    /// once if it is not keeping up). No event is delivered after this.
    func revokeAdmission() {
        guard let context, machine.isActive else { return }
        lane?.seal()
        respond(RequestError(.notPermitted, "\(peerName) may no longer connect (access.connect was reloaded)"))
        guard machine.revoke() else { return }
        guard queue.isEmpty else {
            context.close(promise: nil)
            return
        }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Sends one error and closes once it is written; the session is never counted.
    private func refuse(_ context: ChannelHandlerContext, _ error: RequestError) {
        var w = JSONWriter(capacity: 128)
        MessageEncoder.error(error, into: &w)
        w.newline()
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer(bytes: w.bytes))).whenComplete { _ in channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A revoked or stuck session was counted too: it leaves like an active one.
        let action = machine.channelInactive()
        // The client sees the end once both descriptors are closed.
        lane?.shutDown()
        queue.removeAll()
        // Report first so that the hub does not look idle in between.
        if action.reportDisconnect { reportDisconnect() }
        if action.wasCounted { hub.remove(self) }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard machine.isActive else { return }
        switch unwrapInboundIn(data) {
        case .tooLong:
            let limit = hub.configuration.limits.maxRequestLineBytes
            machine.read(.failure(RequestError(.lineTooLong, "a request line is longer than \(limit) bytes; it is skipped up to its newline")))
        case let .line(buffer):
            if buffer.readableBytesView.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return }
            let decoded: Result<RequestEnvelope, RequestError> = buffer.withUnsafeReadableBytes { raw in
                do throws(RequestError) { return .success(try RequestDecoder.decode(raw)) } catch { return .failure(error) }
            }
            switch decoded {
            case let .success(envelope): machine.read(.request(envelope))
            case let .failure(error): machine.read(.failure(error))
            }
        }
        processPending()
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        // The frame decoder has passed on every complete line before this.
        if let event = event as? ChannelEvent, event == .inputClosed {
            machine.inputClosed()
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
        machine.pendingCount >= hub.configuration.limits.maxPendingRequests || queue.isFull
    }

    private func resumeReadingIfPossible() {
        guard readPending, !shouldPauseReading, let context else { return }
        readPending = false
        context.read()
    }

    private func processPending() {
        while let work = machine.nextRequest() {
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
        guard let context, machine.closeIfInputDone(drained: queue.isEmpty) else { return }
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
        case let .frames(request):
            // The frames are served where this client's lines are routed: its lane.
            guard let lane else {
                respond(RequestError(.internalError, "frames: this connection cannot be served frames (no descriptor for its lane)", id: id))
                return
            }
            lane.setFrames(request.isOff ? nil : LaneFrames(request))
            acknowledge(id)
        case let .register(surface):
            let checks = surfaceChecks(surface)
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.register(surface: surface, from: client, checks: checks)
            }
        case let .update(surface):
            let checks = surfaceChecks(surface)
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.update(surface: surface, from: client, checks: checks)
            }
        case let .screens(change):
            guard hub.access.changeScreens.includes(info.credentials) else {
                respond(RequestError(.notPermitted, "this client may not change the screens (access.changeScreens)", id: id))
                return
            }
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.changeScreens(change, from: client)
            }
        case let .focus(report):
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.reportFocus(report, from: client)
            }
        case let .compositor(report):
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.reportCompositor(report, from: client)
            }
        case let .unregister(surfaceID):
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.unregister(surface: surfaceID, from: client)
            }
        case let .drag(request):
            callDelegate(id: id) { delegate, client throws(RequestError) in
                try await delegate.drag(request, from: client)
            }
        }
    }

    /// What the connection's limits and access policy say of a surface
    /// (the delegate, which owns the surfaces, checks its id first): at most
    /// `maxRecognizersPerSurface` recognizers, and a recognizer that claims
    /// its touches takes them from every other app (semantics §9.5), so only
    /// peers the configuration's `access.claimTouches` grants may ask for it.
    private func surfaceChecks(_ surface: SurfaceDescription) -> SurfaceChecks {
        let limits = hub.configuration.limits
        var checks = SurfaceChecks(maxSurfaces: limits.maxSurfacesPerClient)
        if surface.recognizers.count > limits.maxRecognizersPerSurface {
            checks.refusal = RequestError(.limitExceeded, "surface.recognizers: at most \(limits.maxRecognizersPerSurface) recognizers per surface")
            return checks
        }
        for (i, r) in surface.recognizers.enumerated() where r["claimsTouches"]?.boolValue == true {
            guard hub.access.claimTouches.includes(info.credentials) else {
                checks.refusal = RequestError(
                    .notPermitted, "surface.recognizers[\(i)].claimsTouches: this client may not claim touches (access.claimTouches)")
                return checks
            }
        }
        return checks
    }

    /// Runs one delegate call; requests behind it wait until it finishes.
    private func callDelegate(
        id: RequestID?,
        _ call: @escaping @Sendable (any PublisherDelegate, ClientInfo) async throws(RequestError) -> Void
    ) {
        machine.delegateCallStarted()
        let delegate = hub.delegate
        let client = info
        let bound = NIOLoopBound(self, eventLoop: hub.eventLoop)
        let hop = hub.hopToLoop
        Task {
            var failure: RequestError?
            do throws(RequestError) { try await call(delegate, client) } catch { failure = error }
            let outcome = failure
            hop { bound.value.finishDelegateCall(id: id, failure: outcome) }
        }
    }

    private func finishDelegateCall(id: RequestID?, failure: RequestError?) {
        switch machine.delegateCallFinished() {
        case .answer: break
        case .reportDisconnect:
            reportDisconnect()
            return
        case .none:
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
        let delegate = hub.delegate
        let client = info
        hub.disconnectStarted()
        let hop = hub.hopToLoop
        let hub = NIOLoopBound(hub, eventLoop: hub.eventLoop)
        Task {
            await delegate.clientDisconnected(client)
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
    func deliver(
        _ all: ByteBuffer, runs: [Range<Int>], ends: [Int], batch: [EventAttributes], now: Double,
        motion: (lines: ByteBuffer, ends: [Int])? = nil
    ) {
        guard machine.acceptsEvents else { return }
        claimLane()
        for run in runs { deliver(all, lines: run, ends: ends, batch: batch, now: now) }
        guard let motion, !motion.ends.isEmpty else { return }
        // The `motion` lines after the reports that completed them, stamped
        // with the batch's last time (for `overflow`).
        let time = batch.last?.time ?? 0
        let stamps = [EventAttributes](
            repeating: EventAttributes(stream: .touch, kind: .none, recognizer: .none, device: nil, touchType: .none, surface: .none,
                                       owner: nil, time: time, touchID: nil, isUpdate: false),
            count: motion.ends.count)
        deliver(motion.lines, lines: 0..<motion.ends.count, ends: motion.ends, batch: stamps, now: now)
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
        guard machine.isActive, let context else { return }
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
                guard machine.markStuck() else { return }
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
        guard let context, machine.isActive else { return }
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
        guard let lane, let context, machine.mayReopenLane,
              queue.isEmpty, queue.lost == 0, unconfirmed == 0, context.channel.isWritable else { return }
        lane.reopen()
    }

    /// Queues `goodbye` after what is queued already, writes what the socket
    /// takes, and closes once all of it is written (the hub closes a client
    /// that does not read at the end of the shutdown grace).
    func sayGoodbye(_ reason: GoodbyeReason) {
        guard context != nil, machine.sayGoodbye() else { return }
        lane?.seal()
        var w = JSONWriter(capacity: 48)
        MessageEncoder.goodbye(reason: reason, into: &w)
        w.newline()
        queue.appendControl(ByteBuffer(bytes: w.bytes))
        flushQueue()
    }

    // After `goodbye`: what was queued before it is written first (a client
    // reading gets every event it was sent, then `goodbye`); one that does
    // not read is closed by the hub at the end of the shutdown grace.
    private func closeIfGoodbyeWritten() {
        guard let context, machine.closeIfGoodbyeWritten(drained: queue.isEmpty) else { return }
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(ByteBuffer())).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Closes the connection now.
    func close() {
        context?.close(promise: nil)
    }
}
