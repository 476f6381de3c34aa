// SPDX-License-Identifier: MIT
import NIOCore
import SystemCalls
import Wire

/// One client connection: reads and answers its requests in order and holds
/// its subscriptions (its surfaces are the delegate's). Every byte to the
/// client goes through its ``ClientOutput``, the socket's one writer; NIO's
/// channel only reads (and writes the one error of a refused connection,
/// which never gets an output). Lives on the publisher's event loop;
/// everything here runs there.
final class ClientConnectionHandler: ChannelDuplexHandler {
    typealias InboundIn = RequestFrame
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    let hub: ClientHub
    let info: ClientInfo
    /// The socket's writer, made once the session is admitted.
    private(set) var output: ClientOutput?
    // The connection's descriptor (NIO's), duplicated for the output.
    private let descriptor: CInt
    /// Whether it gets other clients' surface touches (`seeAllTouches`); the hub updates it.
    private(set) var seesAllTouches: Bool
    /// The connection's rules: counted or not, served or closing, the
    /// requests waiting and the one in flight.
    private(set) var machine = ClientConnectionStateMachine()
    private(set) var subscriptions = SubscriptionSet()
    private var context: ChannelHandlerContext?
    // A read NIO asked for while reading is paused.
    private var readPending = false

    /// A session on the connection's socket `descriptor` (NIO's; the output
    /// writes to a duplicate of it).
    init(hub: ClientHub, info: ClientInfo, descriptor: CInt) {
        self.hub = hub
        self.info = info
        let sees = hub.access.seeAllTouches.includes(info.credentials)
        self.seesAllTouches = sees
        self.descriptor = descriptor
    }

    /// Who this client is to receive events as (its id, subscriptions and
    /// `seeAllTouches`).
    var rule: RecipientRule { RecipientRule(id: info.id, subscriptions: subscriptions, seesAllTouches: seesAllTouches) }

    /// Grants or withdraws `seeAllTouches` (a new access policy).
    func setSeesAllTouches(_ sees: Bool) {
        guard sees != seesAllTouches else { return }
        seesAllTouches = sees
        output?.update(rule)
    }

    // MARK: Channel events

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
        if context.channel.isActive { start(context: context) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
        output?.shutDown()
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
        // The output is made first: a refused connection never holds a second descriptor.
        let output: ClientOutput?
        let refusal: RequestError?
        if let admissionRefusal = admissionRefusal() {
            (output, refusal) = (nil, admissionRefusal)
        } else {
            do {
                (output, refusal) = (try makeOutput(), nil)
            } catch {
                hub.remove(self)
                (output, refusal) = (nil, RequestError(.limitExceeded, "this connection cannot be served: no descriptor left for its writer (errno \(error.errno))"))
            }
        }
        switch machine.admission(refused: refusal) {
        case .serve: break
        case let .refuse(error):
            refuse(context, error)
            return
        case .none: return
        }
        self.output = output
        let snapshot = hub.hello()
        var w = JSONWriter(capacity: 512)
        MessageEncoder.hello(devices: snapshot.devices, screens: snapshot.screens, session: snapshot.session, into: &w)
        w.newline()
        // `hello` first: the publishing thread sees the output only from `admitted` on.
        output?.reply(ByteBuffer(bytes: w.bytes))
        hub.admitted(self)
    }

    /// The socket's writer: what it tells this connection (a backlog written
    /// whole, a client stuck or gone) comes back onto the event loop. It
    /// holds the handler weakly: the handler owns it.
    private func makeOutput() throws(SystemCallError) -> ClientOutput {
        let bound = NIOLoopBound(WeakHandler(self), eventLoop: hub.eventLoop)
        let hop = hub.hopToLoop
        return try ClientOutput(
            id: info.id, duplicating: descriptor, rule: rule, limits: hub.configuration.limits, flusher: hub.flusher,
            clock: hub.configuration.clock,
            drained: { hop { bound.value.handler?.backlogDrained() } },
            failed: { hop { bound.value.handler?.outputFailed() } })
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
        output?.seal()
        respond(RequestError(.notPermitted, "\(peerName) may no longer connect (access.connect was reloaded)"))
        guard machine.revoke() else { return }
        // Closed now either way: a client that is behind does not get the error.
        context.close(promise: nil)
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
        output?.shutDown()
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
        machine.pendingCount >= hub.configuration.limits.maxPendingRequests || output?.isFull == true
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
    /// backlog has drained into the socket, closes the connection.
    private func closeIfInputDone() {
        guard let context, machine.closeIfInputDone(drained: output?.isDrained ?? true) else { return }
        output?.seal()
        context.close(promise: nil)
    }

    /// The output wrote its backlog whole: reading may resume, and a
    /// connection waiting for that to close does.
    private func backlogDrained() {
        resumeReadingIfPossible()
        closeIfInputDone()
        closeIfGoodbyeWritten()
    }

    /// The client is stuck past its timeout, or its socket failed: the
    /// connection closes. Nothing is delivered meanwhile.
    private func outputFailed() {
        guard let context, machine.markStuck() else { return }
        context.close(promise: nil)
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
            hub.subscriptionsChanged()
            acknowledge(id, changingRule: true)
        case let .unsubscribe(events):
            subscriptions.remove(events)
            hub.subscriptionsChanged()
            acknowledge(id, changingRule: true)
        case .ping:
            acknowledge(id)
        case let .coalesce(milliseconds):
            // What is held goes out before the answer.
            output?.reply(Self.ack(id)) { $0.interval = milliseconds / 1000 }
        case let .frames(request):
            // The frames are served where this client's lines are written: its output.
            var frames = request.isOff ? nil : ClientFrames(request)
            output?.reply(Self.ack(id)) { swap(&$0.frames, &frames) }
            // The old server is released here, outside the lock.
            _ = frames
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

    private static func ack(_ id: RequestID?) -> ByteBuffer {
        var w = JSONWriter(capacity: 48)
        MessageEncoder.ack(id: id, into: &w)
        w.newline()
        return ByteBuffer(bytes: w.bytes)
    }

    /// Answers `ok`; with `changingRule`, the client's new routing rule takes
    /// effect with the answer (events it admits come after it).
    private func acknowledge(_ id: RequestID?, changingRule: Bool = false) {
        guard changingRule else {
            output?.reply(Self.ack(id))
            return
        }
        var replaced = rule
        output?.reply(Self.ack(id)) { $0.setRule(&replaced) }
        // The old rule is released here, outside the lock.
        _ = replaced
    }

    private func respond(_ error: RequestError) {
        var w = JSONWriter(capacity: 128)
        MessageEncoder.error(error, into: &w)
        w.newline()
        output?.reply(ByteBuffer(bytes: w.bytes))
    }

    /// Writes `goodbye` after what waits already, and closes once all of it
    /// is written (the hub closes a client that does not read at the end of
    /// the shutdown grace). No event is delivered after it.
    func sayGoodbye(_ reason: GoodbyeReason) {
        guard context != nil, machine.sayGoodbye() else { return }
        output?.seal()
        var w = JSONWriter(capacity: 48)
        MessageEncoder.goodbye(reason: reason, into: &w)
        w.newline()
        output?.reply(ByteBuffer(bytes: w.bytes))
        closeIfGoodbyeWritten()
    }

    // After `goodbye`: what was queued before it is written first (a client
    // reading gets every event it was sent, then `goodbye`); one that does
    // not read is closed by the hub at the end of the shutdown grace.
    private func closeIfGoodbyeWritten() {
        guard let context, machine.closeIfGoodbyeWritten(drained: output?.isDrained ?? true) else { return }
        context.close(promise: nil)
    }

    /// Closes the connection now.
    func close() {
        context?.close(promise: nil)
    }
}

/// A connection's handler, held weakly by what its output calls back.
private final class WeakHandler {
    weak var handler: ClientConnectionHandler?
    init(_ handler: ClientConnectionHandler) { self.handler = handler }
}
