// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Logging
import Session
import Synchronization
import SystemCalls
import UnixSignals
import Wire

/// touchd started by socket activation (`touchd.socket`) with a configuration
/// it rejects. Exiting would leave the connection that activated it pending:
/// systemd would start touchd again at once, and again, until the service's
/// start limit fails `touchd.socket` itself, and every client is refused until
/// an administrator restarts the socket unit, even after the file is fixed.
/// So touchd stays up instead: each client gets an `error` line naming the
/// configuration error and is closed, systemd's status says why, and a reload
/// (`systemctl reload touchd`, which checks the file first) or a restart with a
/// fixed file serves as usual (docs/deploy.md, "A bad configuration").
enum RejectedConfiguration {
    private final class Refusal: Sendable {
        let stop = Atomic<Bool>(false)
        let stopped = Atomic<Bool>(false)
    }

    /// Set once the services told systemd they are ready (SystemdService): ends
    /// the pings of a start that follows a refusal.
    static let servicesReady = Atomic<Bool>(false)

    /// The start after a fixed file is watched (systemd sent READY=1 for the
    /// refusing state), and the refusing thread is gone: a thread pings until
    /// the services are ready, for at most 90 s so that a start that hangs is
    /// still killed (a slow guest took over 2 s to start).
    static func keepWatchdogFedUntilReady(intervalMicroseconds: UInt64) {
        try? DetachedThread.start(name: "touchd-start-ping") {
            guard var watchdog = WatchdogSchedule(intervalMicroseconds: intervalMicroseconds, now: .now) else { return }
            let giveUp = ContinuousClock.now + .seconds(90)
            while !servicesReady.load(ordering: .acquiring) && ContinuousClock.now < giveUp {
                if watchdog.isDue(at: .now) { Systemd.pingWatchdog() }
                try? Syscall.sleep(milliseconds: 50)
            }
        }
    }

    /// The line each client gets before it is closed (an existing error code: no protocol change).
    static func refusalLine(_ error: ConfigurationError) -> [UInt8] {
        var w = JSONWriter(capacity: 256)
        MessageEncoder.error(RequestError(.internalError, "touchd's configuration is rejected, so it serves no client until it is fixed: \(error.description)"),
                             into: &w)
        w.newline()
        return w.bytes
    }

    /// The status line of this state: why clients are refused, and that the watchdog is fed.
    static func status(_ error: ConfigurationError) -> String {
        "configuration rejected: \(error.description); refusing clients until it is fixed (systemctl reload touchd); alive"
    }

    /// Refuses clients on `listener` until SIGHUP finds `path` usable (returns
    /// it with its daemon settings) or SIGTERM/SIGINT asks touchd to stop (nil).
    static func refuseClients(on listener: Int32, path: String, error: ConfigurationError,
                              logger: Logger) async -> (TouchdConfiguration, DaemonSettings)? {
        let signals = await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup)
        let refusal = Refusal()
        let line = refusalLine(error)
        logger.error("refusing clients on the socket passed by systemd until the configuration is fixed (systemctl reload touchd)")
        Systemd.notifyReady(status: status(error))
        // systemd watches from READY=1: this state is a steady one, so the
        // thread that does its work tells the watchdog it is alive.
        let interval = Systemd.watchdogInterval()
        if let interval { logger.info("watchdog enabled while refusing clients", metadata: ["intervalMicroseconds": "\(interval)"]) }
        do {
            try DetachedThread.start(name: "touchd-refuse") {
                defer { refusal.stopped.store(true, ordering: .releasing) }
                var watchdog = WatchdogSchedule(intervalMicroseconds: interval, now: .now)
                var p = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
                while !refusal.stop.load(ordering: .acquiring) {
                    var timeout: Int32 = 200
                    if watchdog != nil {
                        let now = ContinuousClock.now
                        if watchdog!.isDue(at: now) { Systemd.pingWatchdog() }
                        timeout = min(timeout, Int32(watchdog!.wait(at: now) / .milliseconds(1)) + 1)
                    }
                    guard (try? Syscall.poll(&p, timeoutMilliseconds: timeout)) ?? 0 > 0 else { continue }
                    guard case .done(let client)? = try? Syscall.accept(listener, flags: Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)) else { continue }
                    line.withUnsafeBytes { _ = try? Syscall.send(client, $0, flags: Int32(MSG_NOSIGNAL)) }
                    try? Syscall.close(client)
                }
            }
        } catch {
            logger.error("cannot start the thread that refuses clients: \(error)")
            refusal.stopped.store(true, ordering: .releasing)
        }
        var result: (TouchdConfiguration, DaemonSettings)?
        signalLoop: for await signal in signals {
            switch signal {
            case .sighup:
                do {
                    let c = try TouchdConfiguration.load(path: path)
                    result = (c, try DaemonSettings(c))
                    logger.notice("SIGHUP: the configuration is usable now; starting", metadata: ["file": "\(path)"])
                    // Still watched until the services' READY=1: the start is a reload for systemd.
                    Systemd.notifyReloading(status: "starting with the fixed configuration \(path)")
                    break signalLoop
                } catch {
                    for e in [error] + error.more {
                        logger.error("SIGHUP: configuration still rejected: \(e.description)", metadata: Daemon.metadata(e))
                    }
                    Systemd.notifyStatus(status(error))
                }
            default:
                Systemd.notifyStopping(status: "stopping (\(signal)) while refusing clients")
                break signalLoop
            }
        }
        refusal.stop.store(true, ordering: .releasing)
        // The listener goes to the publisher once the refusing thread has let go of it.
        while !refusal.stopped.load(ordering: .acquiring) { try? await Task.sleep(for: .milliseconds(20)) }
        if result != nil, let interval { keepWatchdogFedUntilReady(intervalMicroseconds: interval) }
        return result
    }
}
