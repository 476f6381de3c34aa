// SPDX-License-Identifier: MIT
import CSystemd
import Logging
import ServiceLifecycle
import Session
import Synchronization
import SystemCalls

#if canImport(Glibc)
import Glibc
#endif

/// Follows seat0's active session, its `LockedHint` and its class on logind's D-Bus interface
/// (`org.freedesktop.login1`, on the system bus) and hands each answer to the engine's owner,
/// whose session core decides what it means (``SessionLockPolicy``, semantics §13).
///
/// The bus is the system bus as sd-bus finds it: `DBUS_SYSTEM_BUS_ADDRESS` when set (a test's
/// private bus), else `/run/dbus/system_bus_socket`. The state is read again whenever logind
/// signals a change of the seat or of a session (`PropertiesChanged`) or logind itself comes or
/// goes (`NameOwnerChanged`); a lost bus is connected to again every 2 s.
///
/// sd-bus is not thread-safe: the bus lives on the follower's own thread, which blocks in
/// `sd_bus_wait` (at most 250 ms at a time, to see the stop request).
final class LogindFollower: Sendable {
    static let logind = "org.freedesktop.login1"
    static let seatPath = "/org/freedesktop/login1/seat/seat0"
    static let retryInterval: Duration = .seconds(2)

    let logger: Logger
    private let stopRequested = Atomic<Bool>(false)

    init(logger: Logger) {
        self.logger = logger
    }

    /// Starts the thread; reports arrive in order on the stream until ``stop()``.
    func start() -> AsyncStream<LoginReport> {
        let (stream, continuation) = AsyncStream<LoginReport>.makeStream()
        do {
            try DetachedThread.start(name: "touchd-logind") { [self] in
                follow { continuation.yield($0) }
                continuation.finish()
            }
        } catch {
            logger.error("cannot start the thread that follows logind (\(error)); shortcuts stay on")
            continuation.yield(.unavailable)
            continuation.finish()
        }
        return stream
    }

    /// Asks the thread to end (within 250 ms).
    func stop() { stopRequested.store(true, ordering: .relaxed) }

    private var stopping: Bool { stopRequested.load(ordering: .relaxed) }

    /// The thread's loop: connect, read, wait for signals; again after a loss.
    private func follow(_ report: (LoginReport) -> Void) {
        var answered = false
        var complained = false
        while !stopping {
            var bus: OpaquePointer?
            let r = sd_bus_open_system(&bus)
            if r < 0 || bus == nil {
                if !complained {
                    logger.warning("cannot connect to the system bus to follow the session's lock state: \(errnoText(r)); \(answered ? "keeping the last state" : "shortcuts stay on (docs/system-gestures.md, \"The locked session\")")")
                    complained = true
                }
                report(answered ? .lost : .unavailable)
                sleepUnlessStopping(Self.retryInterval)
                continue
            }
            let changed = UnsafeMutablePointer<Bool>.allocate(capacity: 1)
            changed.initialize(to: true)
            defer { changed.deallocate() }
            let matches = [
                "type='signal',sender='\(Self.logind)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path='\(Self.seatPath)'",
                "type='signal',sender='\(Self.logind)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',path_namespace='/org/freedesktop/login1/session'",
                "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(Self.logind)'",
            ]
            var matched = true
            for m in matches where sd_bus_add_match(bus, nil, m, { _, userdata, _ in
                userdata?.assumingMemoryBound(to: Bool.self).pointee = true
                return 0
            }, changed) < 0 {
                matched = false
            }
            if !matched {
                logger.warning("cannot watch logind's signals on the system bus; retrying")
            }
            var missing = false
            while matched && !stopping {
                if changed.pointee {
                    changed.pointee = false
                    switch readSeat(bus!) {
                    case .success(let seat):
                        if !answered || missing || complained {
                            logger.info("following the session's lock state on logind", metadata: ["seat": "seat0"])
                        }
                        answered = true; missing = false; complained = false
                        report(.seat(seat))
                    case .failure(let error):
                        if !missing {
                            logger.warning("logind does not answer for seat0: \(error); \(answered ? "keeping the last state" : "shortcuts stay on until it does")")
                            missing = true
                        }
                        report(answered ? .lost : .unavailable)
                    }
                }
                let p = sd_bus_process(bus, nil)
                if p < 0 { break }
                if p > 0 { continue }
                let w = sd_bus_wait(bus, 250_000)
                if w < 0 && w != -EINTR { break }
            }
            sd_bus_flush_close_unref(bus)
            if stopping { break }
            logger.warning("lost the system bus; keeping the last session state, connecting again")
            report(answered ? .lost : .unavailable)
            sleepUnlessStopping(Self.retryInterval)
        }
    }

    struct BusError: Error, CustomStringConvertible {
        var description: String
    }

    /// Reads `Seat.ActiveSession` of seat0, then that session's `LockedHint` and `Class`.
    private func readSeat(_ bus: OpaquePointer) -> Result<LoginSeat, BusError> {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        var r = sd_bus_get_property(bus, Self.logind, Self.seatPath, "org.freedesktop.login1.Seat", "ActiveSession", &error, &reply, "(so)")
        guard r >= 0, let reply else { return .failure(BusError(description: busErrorText(error, r))) }
        defer { sd_bus_message_unref(reply) }
        var id: UnsafePointer<CChar>?
        var path: UnsafePointer<CChar>?
        r = sd_bus_message_enter_container(reply, CChar(UInt8(ascii: "r")), "so")
        if r >= 0 { r = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "s")), &id) }
        if r >= 0 { r = sd_bus_message_read_basic(reply, CChar(UInt8(ascii: "o")), &path) }
        guard r >= 0, let id, let path else { return .failure(BusError(description: "ActiveSession: \(errnoText(r))")) }
        let sessionID = String(cString: id)
        let sessionPath = String(cString: path)
        guard !sessionID.isEmpty, sessionPath != "/" else { return .success(LoginSeat(activeSession: nil, locked: false)) }
        var locked: Int32 = 0
        r = sd_bus_get_property_trivial(bus, Self.logind, sessionPath, "org.freedesktop.login1.Session", "LockedHint",
                                        &error, CChar(UInt8(ascii: "b")), &locked)
        guard r >= 0 else { return .failure(BusError(description: "LockedHint of \(sessionPath): \(busErrorText(error, r))")) }
        // A greeter's session counts as locked (semantics §13); a logind that does not say is read as a user's.
        var sessionClass: String?
        var classText: UnsafeMutablePointer<CChar>?
        if sd_bus_get_property_string(bus, Self.logind, sessionPath, "org.freedesktop.login1.Session", "Class",
                                      &error, &classText) >= 0, let classText {
            sessionClass = String(cString: classText)
            free(classText)
        }
        sd_bus_error_free(&error)
        return .success(LoginSeat(activeSession: sessionID, locked: locked != 0, sessionClass: sessionClass))
    }

    private func busErrorText(_ error: sd_bus_error, _ r: Int32) -> String {
        if let message = error.message { return String(cString: message) }
        if let name = error.name { return String(cString: name) }
        return errnoText(r)
    }

    private func errnoText(_ r: Int32) -> String { String(cString: strerror(-r)) }

    private func sleepUnlessStopping(_ d: Duration) {
        var left = d
        while !stopping && left > .zero {
            let step = min(left, .milliseconds(250))
            try? Syscall.sleep(milliseconds: Int(step.components.seconds * 1000 + step.components.attoseconds / 1_000_000_000_000_000))
            left -= step
        }
    }
}

/// Runs the follower while the daemon runs: each report goes to the engine's owner in order.
struct LogindService: Service {
    let engine: TouchSessionActor
    let logger: Logger

    func run() async throws {
        let follower = LogindFollower(logger: logger)
        let reports = follower.start()
        await withGracefulShutdownHandler {
            for await report in reports.cancelOnGracefulShutdown() {
                await engine.observeLogin(report)
            }
        } onGracefulShutdown: {
            follower.stop()
        }
        follower.stop()
    }
}
