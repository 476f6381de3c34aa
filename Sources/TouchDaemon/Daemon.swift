// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Quirks
import Session
import Logging
import Publisher
import ServiceLifecycle
import TouchCore
import Trace
import UnixSignals

/// What `touchd` was asked to do (its command line).
package struct DaemonOptions: Sendable {
    /// The configuration file (`--config`); nil: built-in defaults.
    package var configPath: String?
    /// The socket path (`--socket`); nil: the file's `socket.path`, else ``DaemonSettings/defaultSocketPath``.
    package var socketPath: String?
    /// A trace to serve as a virtual device (`--replay`); nil: the real devices.
    package var replayPath: String?
    /// How the trace is replayed.
    package var pacing: ReplayPacing
    /// Whether the engine explains itself on the `debug` stream.
    package var debugRecords: Bool
    /// Where to record the input as a native trace (`--record`); nil: no recording.
    package var recordPath: String?
    /// `SCHED_FIFO` priority of the input path's threads (`--realtime-priority`);
    /// nil: the file's `scheduling.realtimePriority`, else ``ThreadScheduling/defaultPriority``.
    package var realtimePriority: Int?
    /// Whether seat0's session is followed on logind (`--login-state`): the system is quiet
    /// while it is locked (semantics §13).
    package var followsLogin: Bool

    /// Creates options.
    package init(configPath: String? = nil, socketPath: String? = nil, replayPath: String? = nil,
                pacing: ReplayPacing = ReplayPacing(), debugRecords: Bool = true, recordPath: String? = nil,
                realtimePriority: Int? = nil, followsLogin: Bool = false) {
        self.followsLogin = followsLogin
        self.recordPath = recordPath
        self.realtimePriority = realtimePriority
        self.configPath = configPath
        self.socketPath = socketPath
        self.replayPath = replayPath
        self.pacing = pacing
        self.debugRecords = debugRecords
    }
}

/// A reason the daemon could not start, with the exit status to use
/// (sysexits.h numbers, which systemd shows by name).
package struct DaemonStartError: Error, Sendable, CustomStringConvertible {
    /// The exit status.
    package var status: Int32
    /// What went wrong.
    package var message: String
    /// Creates an error.
    package init(status: Int32, _ message: String) {
        self.status = status
        self.message = message
    }
    package var description: String { message }
}

/// touchd: the input, the engine's owner and the publisher as one group of
/// services, with systemd integration, graceful shutdown and reload.
package enum Daemon {
    /// Runs until SIGTERM or SIGINT (or the end of a replay with
    /// ``ReplayPacing/exitWhenDone``).
    package static func run(_ options: DaemonOptions, logger: Logger) async throws(DaemonStartError) {
        // Signals are trapped before the socket exists: a client that sees the
        // socket may signal the daemon at once.
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup, .sigusr1)

        // Read once: sd_listen_fds unsets LISTEN_FDS for the process's children.
        let passed = Systemd.passedDescriptors()
        let passedSocket = passed.sockets.first
        var configuration = TouchdConfiguration()
        var settings = DaemonSettings()
        Systemd.notifyStatus("starting")
        if let path = options.configPath {
            do {
                configuration = try TouchdConfiguration.load(path: path)
                settings = try DaemonSettings(configuration)
            } catch {
                // Every error, each on its own line with its key, before the one that stops the daemon.
                for e in error.more { logger.error("configuration: \(e.description)", metadata: Self.metadata(e)) }
                let message = "configuration rejected: \(error.description)" + (error.more.isEmpty ? "" : " (and \(error.more.count) more, above)")
                // Socket-activated: exiting would have systemd start touchd again for the
                // pending client until touchd.socket fails (RejectedConfiguration).
                guard let listener = passedSocket else {
                    throw DaemonStartError(status: 78, message)
                }
                logger.critical("\(message)", metadata: Self.metadata(error))
                guard let fixed = await RejectedConfiguration.refuseClients(on: listener, path: path, error: error, logger: logger) else {
                    logger.info("stopped")
                    return
                }
                (configuration, settings) = fixed
            }
            logger.info("configuration loaded", metadata: ["file": "\(path)"])
        }
        // A replayed trace comes from another machine: as in touchctl, no quirks apply to it.
        let readsQuirks = options.replayPath == nil
        if readsQuirks { configuration.quirks = installedQuirks(logger: logger) }

        let board = HelloBoard()
        let engine = try TouchSessionActor(configuration: configuration, board: board, logger: logger, recordsDebug: options.debugRecords)
        // Quiet until logind answers (semantics §13): the follower starts with the other services.
        if options.followsLogin { await engine.observeLogin(.connecting) }
        if let path = options.recordPath { await engine.startRecording(to: path) }
        let recording: Recording?
        let live: LiveInputService?
        if let replayPath = options.replayPath {
            do {
                recording = try TraceReader.read(path: replayPath)
            } catch {
                throw DaemonStartError(status: 66, "cannot replay \(replayPath): \(error)")
            }
            for w in recording!.warnings { logger.warning("\(w.description)") }
            // The devices as every replay path adds them, with the feed's ids and start time.
            let feed = ReplayFeed(recordings: [recording!])
            for (id, d) in feed.devices { await engine.addRecordedDevice(id, d, at: feed.startTime) }
            live = nil
        } else {
            recording = nil
            // Devices are open before the socket listens, so READY=1 means both.
            let service = try LiveInputService(engine: engine, logger: logger, stored: passed.stored)
            try await service.start()
            live = service
        }

        let publisher = try await listen(options: options, settings: settings, passedSocket: passedSocket, engine: engine, board: board, logger: logger)
        await engine.attach({ batch in publisher.publish(batch) }, wants: { publisher.wants($0) },
                            heldDeadline: { publisher.heldDeadline }, release: { publisher.releaseHeld(upTo: $0) })
        let priorityOverride = options.realtimePriority
        await schedule(priority: priorityOverride ?? settings.realtimePriority, engine: engine, publisher: publisher, logger: logger)

        let configPath = options.configPath
        let reload: @Sendable () async -> Void = {
            await Self.reload(path: configPath, engine: engine, publisher: publisher, live: live, priorityOverride: priorityOverride,
                              readsQuirks: readsQuirks, logger: logger)
        }
        let replay = live == nil ? PacedReplay(recording: recording!, engine: engine, publisher: publisher, pacing: options.pacing, logger: logger) : nil
        let input: any Service = live ?? replay!
        var sessionServices: [ServiceGroupConfiguration.ServiceConfiguration] = []
        if options.followsLogin {
            sessionServices.append(.init(service: LogindService(engine: engine, logger: logger), successTerminationBehavior: .ignore))
        }
        // Shutdown runs in reverse: signals, input, systemd, engine (touches cancelled), publisher (goodbye).
        let group = ServiceGroup(configuration: ServiceGroupConfiguration(
            services: [
                .init(service: PublisherService(publisher: publisher, logger: logger)),
                .init(service: EngineService(engine: engine)),
                .init(service: SystemdService(engine: engine, publisher: publisher, logger: logger)),
            ] + sessionServices + [
                .init(service: input, successTerminationBehavior: .gracefullyShutdownGroup),
                .init(service: SignalService(signals: signals, reload: reload, report: {
                    guard let s = await publisher.takeStatistics() else { return }
                    var line = "delivery statistics: \(s)"
                    if let replay {
                        let late = await engine.perform { replay.takeLateness($0) }
                        // At --speed 0 (as fast as possible) no frame is ever due.
                        line += "; replay lateness " + (late.count > 0 ? late.summary : "none")
                    }
                    logger.notice("\(line)")
                }, logger: logger),
                      successTerminationBehavior: .gracefullyShutdownGroup),
            ],
            logger: logger))
        do {
            try await group.run()
        } catch {
            await publisher.shutdown()
            throw DaemonStartError(status: 70, "stopped on an error: \(error)")
        }
        logger.info("stopped")
    }

    /// Listens on the socket systemd passed, else on a new socket file.
    static func listen(options: DaemonOptions, settings: DaemonSettings, passedSocket: Int32?, engine: TouchSessionActor, board: HelloBoard,
                       logger: Logger) async throws(DaemonStartError) -> Publisher {
        let configuration = PublisherConfiguration(
            access: settings.accessPolicy,
            socketMode: settings.socketMode, socketGroup: settings.socketGroup)
        let delegate = DaemonDelegate(engine: engine, logger: logger)
        let hello: @Sendable () -> HelloSnapshot = { board.read() }
        if let fd = passedSocket {
            do {
                let p = try await Publisher.listen(descriptor: fd, configuration: configuration, delegate: delegate, hello: hello)
                logger.info("listening on the socket passed by systemd", metadata: ["fd": "\(fd)"])
                return p
            } catch {
                throw DaemonStartError(status: 71, "cannot serve the socket passed by systemd (fd \(fd)): \(error)")
            }
        }
        let path = options.socketPath ?? settings.socketPath ?? DaemonSettings.defaultSocketPath
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? ""
        if !directory.isEmpty && !FileManager.default.fileExists(atPath: directory) {
            try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o755])
        }
        do {
            let p = try await Publisher.listen(socketPath: path, configuration: configuration, delegate: delegate, hello: hello)
            logger.info("listening", metadata: ["socket": "\(path)"])
            return p
        } catch {
            throw DaemonStartError(status: 71, "cannot listen on \(path): \(error)")
        }
    }

    /// Puts the input thread and the publisher's event loop at `priority`
    /// (``ThreadScheduling``) and logs what the kernel granted: a refusal is
    /// a warning, never a failure (the daemon serves with normal scheduling).
    /// Returns the input thread's outcome and the event loop's.
    @discardableResult
    static func schedule(priority: Int, engine: TouchSessionActor, publisher: Publisher?, logger: Logger) async
        -> (engine: ThreadScheduling.Outcome, eventLoop: ThreadScheduling.Outcome?) {
        let onEngine = await engine.perform { _ in ThreadScheduling.applyToCurrentThread(priority: priority) }
        let onLoop = await publisher?.onEventLoop { ThreadScheduling.applyToCurrentThread(priority: priority) }
        for (thread, outcome) in [("engine", onEngine), ("event loop", onLoop)] {
            guard let outcome else { continue }
            switch outcome {
            case .refused: logger.warning("\(thread) thread: \(outcome)")
            default: logger.info("\(thread) thread: \(outcome)")
            }
        }
        return (onEngine, onLoop)
    }

    /// SIGHUP: reads the configuration file again; a file that does not load
    /// leaves the configuration in force. A good one is applied to the
    /// engine and, in the same engine job, every live device is decided
    /// again by it (``LiveInputService/decideAgain(on:)``), then its `access` keys to the publisher (clients that
    /// `access.connect` no longer admits are closed), then its
    /// `scheduling.realtimePriority` to the threads (unless
    /// `--realtime-priority` gave one). The `socket` keys stay as they were
    /// at start. `readsQuirks`: libinput's installed quirks are read again too.
    static func reload(path: String?, engine: TouchSessionActor, publisher: Publisher?, live: LiveInputService? = nil, priorityOverride: Int? = nil,
                       readsQuirks: Bool = true, logger: Logger) async {
        guard let path else {
            logger.notice("SIGHUP: no configuration file to reload (started without --config)")
            return
        }
        Systemd.notifyReloading(status: "reloading \(path)")
        do {
            var c = try TouchdConfiguration.load(path: path)
            if readsQuirks { c.quirks = installedQuirks(logger: logger) }
            let settings = try DaemonSettings(c)
            // One engine job: no input is read between the session's reload and the devices decided again.
            let reloading = c
            let reloaded: Result<Void, ConfigurationError> = await engine.perform { engine in
                do throws(ConfigurationError) {
                    try engine.reload(reloading)
                } catch {
                    return .failure(error)
                }
                live?.decideAgain(on: engine)
                return .success(())
            }
            try reloaded.get()
            let closed = await publisher?.updateAccess(settings.accessPolicy) ?? 0
            if closed > 0 {
                logger.notice("access.connect no longer admits \(closed) connected client(s): closed them")
            }
            if priorityOverride == nil {
                await schedule(priority: settings.realtimePriority, engine: engine, publisher: publisher, logger: logger)
            }
            logger.info("configuration reloaded", metadata: ["file": "\(path)"])
        } catch {
            var e = error
            if e.file.isEmpty { e.file = path }
            for m in [e] + e.more {
                var m = m
                if m.file.isEmpty { m.file = path }
                logger.error("configuration reload rejected, keeping the previous configuration: \(m.description)", metadata: metadata(m))
            }
        }
        // The serving state's status again (SystemdService sends it only when it changes).
        Systemd.notifyReady(status: await SystemdService.status(engine: engine, publisher: publisher))
    }

    /// The file, line and key of a configuration error as log fields; no empty `key` for an error of the whole file.
    static func metadata(_ e: ConfigurationError) -> Logger.Metadata {
        var m: Logger.Metadata = ["file": "\(e.file)"]
        if let line = e.line { m["line"] = "\(line)" }
        if !e.path.isEmpty { m["key"] = "\(e.path)" }
        return m
    }
}

/// libinput's installed quirks (docs/udev.md, "libinput quirks"); a malformed file
/// disables them all, as in libinput, with an error naming the file and line.
func installedQuirks(logger: Logger) -> QuirksDatabase {
    do {
        let database = try QuirksLoader.loadInstalled()
        if !database.sections.isEmpty {
            logger.info("libinput quirks loaded", metadata: ["sections": "\(database.sections.count)"])
        }
        return database
    } catch {
        logger.warning("libinput quirks not used: \(error.description)")
        return QuirksDatabase()
    }
}
