// SPDX-License-Identifier: MIT
import Session
import Logging
import Publisher
import ServiceLifecycle
import TouchCore
import UnixSignals
import Wire

/// The publisher's requests, carried out on the engine's owner.
struct DaemonDelegate: PublisherDelegate {
    let engine: TouchSessionActor
    let logger: Logger

    func register(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        try await engine.register(surface, from: client.id, checks: checks)
        logger.debug("surface registered", metadata: ["client": "\(client.id.rawValue)", "surface": "\(surface.id)"])
    }

    func update(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        try await engine.update(surface, from: client.id, checks: checks)
    }

    func unregister(surface: String, from client: ClientInfo) async throws(RequestError) {
        try await engine.unregister(surface, from: client.id)
    }

    func changeScreens(_ change: ScreenChange, from client: ClientInfo) async throws(RequestError) {
        try await engine.changeScreens(change, from: client.id)
    }

    func drag(_ request: DragRequest, from client: ClientInfo) async throws(RequestError) {
        try await engine.drag(request, from: client.id)
    }

    func reportFocus(_ report: FocusReport, from client: ClientInfo) async throws(RequestError) {
        let session = client.credentials.flatMap { FocusReporter.loginSession(ofProcess: $0.pid) }
        try await engine.reportFocus(report, from: client.id, loginSession: session)
    }

    func reportCompositor(_ report: CompositorReport, from client: ClientInfo) async throws(RequestError) {
        let session = client.credentials.flatMap { FocusReporter.loginSession(ofProcess: $0.pid) }
        try await engine.reportCompositor(report, from: client.id, loginSession: session)
    }

    func clientDisconnected(_ client: ClientInfo) async {
        await engine.focusReporterGone(client.id)
        await engine.compositorReporterGone(client.id)
        let surfaces = await engine.disconnect(client.id)
        logger.debug("client disconnected", metadata: ["client": "\(client.id.rawValue)", "surfaces": "\(surfaces)"])
    }
}

/// Serves the socket until shutdown, then says goodbye to every client and
/// closes (removing the socket file it created). Last to stop.
struct PublisherService: Service {
    let publisher: Publisher
    let logger: Logger

    func run() async throws {
        try? await gracefulShutdown()
        await publisher.shutdown(reason: .shutdown)
        logger.info("socket closed")
    }
}

/// Owns the engine's lifetime in the group: at shutdown, cancels the touches
/// still down so that clients see their gestures end before `goodbye`.
struct EngineService: Service {
    let engine: TouchSessionActor

    func run() async throws {
        try? await gracefulShutdown()
        let now = await engine.lastTime
        await engine.finishTouches(at: now)
        await engine.finishRecording()
    }
}

/// Tells systemd the daemon is ready, keeps its status line current
/// (devices, clients) and pings the watchdog at half its interval.
struct SystemdService: Service {
    let engine: TouchSessionActor
    let publisher: Publisher
    let logger: Logger

    func run() async throws {
        var status = await currentStatus()
        Systemd.notifyReady(status: status)
        RejectedConfiguration.servicesReady.store(true, ordering: .releasing)
        logger.info("ready", metadata: ["status": "\(status)"])
        let watchdog = Systemd.watchdogInterval()
        // Status is sampled once a second; the watchdog may need it more often.
        let tick: Duration = watchdog.map { .microseconds(min(Int64($0 / 2), 1_000_000)) } ?? .seconds(1)
        if let watchdog { logger.info("watchdog enabled", metadata: ["intervalMicroseconds": "\(watchdog)"]) }
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: tick) }
            } catch {
                break
            }
            if watchdog != nil { Systemd.pingWatchdog() }
            let now = await currentStatus()
            if now != status {
                status = now
                Systemd.notifyStatus(status)
            }
        }
        // SIGTERM's status (SignalService) stays; an end of replay has none.
        Systemd.notify("STOPPING=1")
    }

    func currentStatus() async -> String {
        await Self.status(engine: engine, publisher: publisher)
    }

    /// The serving state's status line: `2 devices, 5 clients`.
    static func status(engine: TouchSessionActor, publisher: Publisher?) async -> String {
        let devices = await engine.deviceCount
        let clients = await publisher?.clientCount() ?? 0
        return "\(devices) device\(devices == 1 ? "" : "s"), \(clients) client\(clients == 1 ? "" : "s")"
    }
}

/// SIGTERM and SIGINT stop the daemon gracefully (this service returns and
/// the group shuts down); SIGHUP reloads the configuration file.
struct SignalService: Service {
    let signals: UnixSignalsSequence
    let reload: @Sendable () async -> Void
    /// SIGUSR1: logs the delivery statistics since the previous report.
    var report: @Sendable () async -> Void = {}
    let logger: Logger

    func run() async throws {
        for await signal in signals.cancelOnGracefulShutdown() {
            switch signal {
            case .sighup:
                await reload()
            case .sigusr1:
                await report()
            case .sigterm, .sigint:
                logger.info("stopping", metadata: ["signal": "\(signal)"])
                // At once: what stopping does (pass-through handed over or given
                // back, goodbyes) is no longer the watchdog's business.
                Systemd.notifyStopping(status: "stopping (\(signal))")
                return
            default:
                continue
            }
        }
    }
}
