// SPDX-License-Identifier: MIT
import NIOCore
import Wire

/// The limits the publisher enforces (docs/protocol.md lists them for clients).
package struct PublisherLimits: Hashable, Sendable {
    /// Longest request line in bytes, newline excluded. Longer lines get
    /// `line-too-long` and are skipped up to their newline.
    package var maxRequestLineBytes: Int = 65_536
    /// Simultaneous connections; one more gets `limit-exceeded` and is closed.
    package var maxConnections: Int = 256
    /// Surfaces one connection may register.
    package var maxSurfacesPerClient: Int = 64
    /// Recognizers one surface may have.
    package var maxRecognizersPerSurface: Int = 64
    /// Subscriptions one connection may hold.
    package var maxSubscriptionsPerClient: Int = 32
    /// Events waiting for one client before new ones are dropped (and an `overflow` follows).
    package var maxQueuedEvents: Int = 4096
    /// Bytes waiting for one client before new events are dropped. With
    /// `maxQueuedEvents`, this bounds what a client that stops reading pins
    /// until it is found stuck: 4096 lines of 190-300 bytes (touch, gesture,
    /// debug) are 0.8-1.2 MB, so both limits meet at typical line sizes.
    package var maxQueuedBytes: Int = 1 << 20
    /// A client whose queue keeps dropping events for longer than this (seconds) is disconnected.
    package var stuckTimeout: Double = 5
    /// Requests read but not yet answered; past this the server stops reading from the client.
    package var maxPendingRequests: Int = 16
    /// On shutdown, how long (seconds) clients get to receive `goodbye` before being closed.
    package var shutdownGrace: Double = 1

    /// The default limits.
    package init() {}
}

/// Everything the publisher needs besides the socket and the delegate.
package struct PublisherConfiguration: Sendable {
    /// Limits.
    package var limits: PublisherLimits
    /// Privileges by peer credentials.
    package var access: AccessPolicy
    /// Permission bits of the socket file (owner and group may connect by default).
    package var socketMode: UInt32
    /// Group id to give the socket file (nil: the daemon's group).
    package var socketGroup: UInt32?
    /// A monotonic clock in seconds, used only for the stuck-client timeout (tests inject one).
    package var clock: @Sendable () -> Double

    /// Creates a configuration.
    package init(
        limits: PublisherLimits = PublisherLimits(), access: AccessPolicy = AccessPolicy(),
        socketMode: UInt32 = 0o660, socketGroup: UInt32? = nil,
        clock: @escaping @Sendable () -> Double = { Double(NIODeadline.now().uptimeNanoseconds) / 1e9 }
    ) {
        self.limits = limits
        self.access = access
        self.socketMode = socketMode
        self.socketGroup = socketGroup
        self.clock = clock
    }
}

/// What `hello` reports; asked for at each connection since devices come and go.
package struct HelloSnapshot: Hashable, Sendable {
    /// Devices in service.
    package var devices: [HelloDevice]
    /// Configured screens.
    package var screens: [HelloScreen]
    /// The seat's session as the daemon follows it (nil: not said).
    package var session: LoginSessionStatus?

    /// Creates a snapshot.
    package init(devices: [HelloDevice], screens: [HelloScreen], session: LoginSessionStatus? = nil) {
        self.devices = devices
        self.screens = screens
        self.session = session
    }
}

/// The daemon's side of surface requests. The publisher validates requests,
/// enforces limits and ownership (a client only updates or unregisters its
/// own surfaces), and calls these one request at a time per client, in order.
/// Throwing sends an `error` with the thrown code and message; returning
/// sends an `ack`.
package protocol PublisherDelegate: Sendable {
    /// A client registers a surface. The delegate owns the clients'
    /// surfaces: it refuses an id the connection already has
    /// (`surface-exists`) or a connection at `checks.maxSurfaces`, then
    /// `checks.refusal`, then what its own rules refuse.
    func register(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError)
    /// A client replaces the description of one of its surfaces: an id the
    /// connection does not have is `unknown-surface`, then `checks.refusal`.
    func update(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError)
    /// A client removes one of its surfaces (an id it does not have is `unknown-surface`).
    func unregister(surface: String, from client: ClientInfo) async throws(RequestError)
    /// A connection closed: forget its surfaces (cancel their recognizers).
    /// Called once per client, after its last request finished.
    func clientDisconnected(_ client: ClientInfo) async
    /// A client the access policy lets change the screens sends a `screens`
    /// request (semantics §11).
    func changeScreens(_ change: ScreenChange, from client: ClientInfo) async throws(RequestError)
    /// A drag session request (semantics §12): a surface's roles (the
    /// publisher has checked that the surface is the client's), items
    /// answering a request, or a drop target's proposal.
    func drag(_ request: DragRequest, from client: ClientInfo) async throws(RequestError)
    /// A client reports the focused app (the `focus` request): the delegate decides whether it
    /// may (only a client in the seat's active session) and forgets the report when it goes.
    func reportFocus(_ report: FocusReport, from client: ClientInfo) async throws(RequestError)
    /// A client reports the compositor reading the pass-through mirrors (the `compositor`
    /// request): the delegate decides whether it may (only a client in the seat's active session)
    /// and forgets the report when it goes.
    func reportCompositor(_ report: CompositorReport, from client: ClientInfo) async throws(RequestError)
}

/// What the connection found about a `register` or `update` that does not
/// depend on the client's other surfaces, for the delegate that owns them.
package struct SurfaceChecks: Hashable, Sendable {
    /// The connection's limit of surfaces (`limits.maxSurfacesPerClient`).
    package var maxSurfaces: Int
    /// Why the connection refuses the surface (too many recognizers, a claim
    /// the client is not granted); answered after the delegate's checks of
    /// the surface's id, so a request gets the same error whoever checks.
    package var refusal: RequestError?

    /// Checks with a limit and, if any, a refusal.
    package init(maxSurfaces: Int, refusal: RequestError? = nil) {
        self.maxSurfaces = maxSurfaces
        self.refusal = refusal
    }
}

extension PublisherDelegate {
    /// Without a screen geometry to change: `not-permitted`.
    package func changeScreens(_ change: ScreenChange, from client: ClientInfo) async throws(RequestError) {
        throw RequestError(.notPermitted, "this server does not change screens")
    }

    /// Without per-app gestures: `unknown-op`, as an older server answers.
    package func reportFocus(_ report: FocusReport, from client: ClientInfo) async throws(RequestError) {
        throw RequestError(.unknownOp, "unknown op \"focus\"")
    }

    /// Without pass-through: `unknown-op`, as an older server answers.
    package func reportCompositor(_ report: CompositorReport, from client: ClientInfo) async throws(RequestError) {
        throw RequestError(.unknownOp, "unknown op \"compositor\"")
    }

    /// Without drag sessions: `unknown-op`, as an older server answers.
    package func drag(_ request: DragRequest, from client: ClientInfo) async throws(RequestError) {
        throw RequestError(.unknownOp, "unknown op \"\(request.op)\"")
    }
}
