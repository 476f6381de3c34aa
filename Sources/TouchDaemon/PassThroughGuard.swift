// SPDX-License-Identifier: MIT
import Evdev
import Glibc
import Logging
import SystemCalls
import TouchCore

/// Gives a pass-through device back, and ends its mirror's contacts, when
/// the whole touchd process stops (SIGSTOP, stuck in the kernel, swapping) or
/// dies (semantics §9.7; docs/pass-through.md, "The guard"). The in-process
/// watchdog cannot act then: something outside the process must.
///
/// `EVIOCGRAB` belongs to the open file description, and so does a uinput
/// device: touchd hands the guard a duplicate of each grabbed device's
/// descriptor and of its mirror's `/dev/uinput` descriptor (`SCM_RIGHTS` on a
/// `SOCK_SEQPACKET` Unix socket), and a heartbeat every
/// ``PassThroughWatchdog/intervalMilliseconds`` while its engine makes
/// progress (`stalled` instead when the engine has made none for a second
/// with input waiting). On `stalled`, after ``silenceLimitMilliseconds``
/// without a heartbeat while touchd is stopped or blocked (no thread of it
/// runnable: ``silenceVerdict(silentMilliseconds:threadStates:)``), after
/// ``starvedLimitMilliseconds`` while it is only starved of the CPU, or when touchd's
/// end of the socket closes, the guard ends every contact on each mirror
/// (an up after a second of stillness: neither a tap nor a fling), releases
/// each grab (`EVIOCGRAB` 0), closes its duplicates and tells touchd
/// (`released`), which, when it runs again, stops pass-through as after a
/// stall. The guard runs as `touchd --pass-through-guard SOCKET` in its own
/// unit (`touchd-guard.service`), so that `systemctl kill -s SIGSTOP touchd`,
/// which signals every process of touchd's cgroup, does not stop it.
///
/// Across a restart (docs/pass-through.md, "Across a restart"), systemd's
/// file descriptor store keeps duplicates of the same descriptors: a touchd
/// stopping with them kept says `restart` first, and the guard then waits up
/// to ``restartLimitMilliseconds`` for the next touchd to connect (it takes
/// the devices over and hands them again) before acting. When touchd is gone
/// (its socket closed: killed, crashed, or not back in time) the guard ends
/// the contacts, revokes each grabbed descriptor (`EVIOCREVOKE`, after
/// releasing its grab) and then destroys each mirror (`UI_DEV_DESTROY`): both act on the open file, so the
/// duplicates systemd keeps neither hold the grab nor keep a stale mirror (a
/// revoked descriptor reports `POLLERR`, on which systemd drops it), and the
/// next touchd finds them dead and starts afresh. When touchd is only silent
/// (stopped, hung), the guard releases the grabs (`EVIOCGRAB` 0) and leaves
/// the descriptors alive, for the touchd that resumes.
///
/// Messages (one per datagram, ASCII): `hand <device> <slots>` with two
/// descriptors (the grabbed device, the mirror), `forget <device>`, `beat`,
/// `stalled`, `restart`, `takeover` (a starting touchd about to take kept devices
/// over: once the guard answers `takeover`, it will not act on what it
/// held, so what touchd then finds alive stays alive); from the guard:
/// `released`, `takeover`.
package enum PassThroughGuard {
    /// Silence after which the guard acts on a touchd that is stopped or
    /// blocked, in milliseconds.
    package static let silenceLimitMilliseconds: Int64 = 1000
    /// Silence after which the guard acts on a touchd with a thread runnable
    /// (waiting for a CPU: a loaded machine, not a stopped process), in milliseconds.
    package static let starvedLimitMilliseconds: Int64 = 5000

    /// What the guard does about touchd's silence.
    enum SilenceVerdict: Equatable {
        /// Give the devices back now.
        case act
        /// Not yet: touchd is only starved of the CPU (a thread runnable), or not silent long enough.
        case wait
    }

    /// After `silentMilliseconds` without a heartbeat, with touchd's threads
    /// in `threadStates` (`/proc`'s state letters; nil when they cannot be
    /// read): act after ``silenceLimitMilliseconds`` unless a thread is
    /// runnable (`R`), which a stopped (`T`), blocked (`S`, `D`) or hung-on-a-lock
    /// process never is; then after ``starvedLimitMilliseconds``. A loaded
    /// machine that keeps touchd's watchdog off the CPU for a second is no
    /// reason to take pass-through away.
    static func silenceVerdict(silentMilliseconds: Int64, threadStates: [UInt8]?) -> SilenceVerdict {
        guard silentMilliseconds >= silenceLimitMilliseconds else { return .wait }
        guard let threadStates, threadStates.contains(UInt8(ascii: "R")) else { return .act }
        return silentMilliseconds >= starvedLimitMilliseconds ? .act : .wait
    }

    /// The state letter of a `/proc/<pid>/task/<tid>/stat` line: the field
    /// after the command's closing parenthesis (the command may hold any
    /// character, `)` included, so the last one counts).
    static func stateLetter(ofStat line: some Collection<UInt8>) -> UInt8? {
        let bytes = Array(line)
        guard let close = bytes.lastIndex(of: UInt8(ascii: ")")), close + 2 < bytes.count, bytes[close + 1] == UInt8(ascii: " ") else { return nil }
        return bytes[close + 2]
    }

    /// The state letters of every thread of process `pid`, nil when `/proc`
    /// does not show them (the process is gone, or hidden from the guard).
    static func threadStates(ofProcess pid: Int32) -> [UInt8]? {
        let directory = "/proc/\(pid)/task"
        guard let names = Syscall.directoryEntries(directory) else { return nil }
        var states: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 512)
        for name in names {
            guard name.first?.isNumber == true else { continue }
            guard let fd = try? Syscall.open("\(directory)/\(name)/stat", O_RDONLY | O_CLOEXEC) else { continue }
            let outcome = buffer.withUnsafeMutableBytes { try? Syscall.read(fd, into: $0) }
            try? Syscall.close(fd)
            if case .done(let n)? = outcome, let state = stateLetter(ofStat: buffer[0..<n]) { states.append(state) }
        }
        return states.isEmpty ? nil : states
    }
    /// How long the guard waits for the next touchd after one stopped with
    /// its devices kept for a restart, in milliseconds (the environment's
    /// `TOUCHD_GUARD_RESTART_LIMIT_MS` replaces it: tests in a slow guest).
    package static let restartLimitMilliseconds: Int64 = 3000

    static var restartLimit: Int64 {
        Syscall.environment("TOUCHD_GUARD_RESTART_LIMIT_MS").flatMap { Int64($0) }.map { max(0, $0) } ?? restartLimitMilliseconds
    }
    /// Where touchd looks for the guard unless `TOUCHD_GUARD_SOCKET` says otherwise.
    package static let defaultSocketPath = "/run/touchd-guard/guard.sock"

    struct Held {
        var grabbed: Int32
        var mirror: Int32
        var slots: Int
    }

    static func nowMilliseconds() -> Int64 {
        let ts = Syscall.clockTime(CLOCK_MONOTONIC)
        return Int64(ts.tv_sec) * 1000 + Int64(ts.tv_nsec) / 1_000_000
    }

    /// Runs the guard on `socketPath` until it is killed.
    ///
    /// - Throws: ``SystemCallError`` when the socket cannot be set up.
    package static func run(socketPath: String, logger: Logger) throws(SystemCallError) -> Never {
        let listener = try Syscall.socket(domain: AF_UNIX, type: Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        try? Syscall.unlink(socketPath)
        try Syscall.bind(listener, unixPath: socketPath)
        // touchd runs as its own user: it must be able to connect.
        try? Syscall.chmod(socketPath, mode: 0o666)
        try Syscall.listen(listener, backlog: 4)
        logger.notice("pass-through guard: listening on \(socketPath)")
        var connection: Int32 = -1
        var held: [UInt32: Held] = [:]
        var lastBeat = nowMilliseconds()
        // The connected touchd's process (SO_PEERCRED), whose threads tell stopped from starved.
        var peer: Int32?
        // The guard logged that it waits for a starved touchd (once per silence).
        var starvedNoted = false
        var buffer = [UInt8](repeating: 0, count: 256)
        // The connected touchd said it stops for a restart with its devices kept.
        var restartAnnounced = false
        // Since when the guard waits for the next touchd, nil when it does not.
        var awaitingSince: Int64?
        let restartLimitMilliseconds = restartLimit
        while true {
            var polls = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0), pollfd(fd: connection, events: Int16(POLLIN), revents: 0)]
            _ = try? polls.withUnsafeMutableBufferPointer { p throws(SystemCallError) in try Syscall.poll(p, timeoutMilliseconds: 100) }
            if polls[0].revents != 0, case .done(let fd)? = try? Syscall.accept(listener, flags: Int32(SOCK_CLOEXEC.rawValue)) {
                if connection >= 0 {
                    act(&held, reason: "a new touchd connected", logger: logger)
                    try? Syscall.close(connection)
                }
                if let since = awaitingSince {
                    // The next touchd took the devices over; it hands them again.
                    for h in held.values { try? Syscall.close(h.grabbed); try? Syscall.close(h.mirror) }
                    logger.notice("pass-through guard: touchd is back \(nowMilliseconds() - since) ms after it stopped for a restart; \(held.count) device(s) stay with it")
                    held.removeAll()
                    awaitingSince = nil
                }
                connection = fd
                peer = try? Syscall.peerProcessID(fd)
                restartAnnounced = false
                starvedNoted = false
                lastBeat = nowMilliseconds()
                logger.info("pass-through guard: touchd connected")
            }
            if connection >= 0, polls[1].revents != 0 {
                while true {
                    let (n, received) = Syscall.receive(connection, into: &buffer, maxDescriptors: 4)
                    if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) { break }
                    if n <= 0 {
                        if restartAnnounced && !held.isEmpty {
                            awaitingSince = nowMilliseconds()
                            logger.notice("pass-through guard: touchd stopped for a restart; waiting \(restartLimitMilliseconds) ms for it")
                        } else {
                            act(&held, reason: "touchd is gone", destroying: true, logger: logger)
                        }
                        try? Syscall.close(connection)
                        connection = -1
                        restartAnnounced = false
                        break
                    }
                    lastBeat = nowMilliseconds()
                    starvedNoted = false
                    let text = String(decoding: buffer[0..<Int(n)], as: UTF8.self)
                    let words = text.split(separator: " ")
                    switch words.first {
                    case "hand" where words.count == 3 && received.count == 2:
                        guard let id = UInt32(words[1]), let slots = Int(words[2]) else { received.forEach { try? Syscall.close($0) }; continue }
                        if let old = held.removeValue(forKey: id) { try? Syscall.close(old.grabbed); try? Syscall.close(old.mirror) }
                        held[id] = Held(grabbed: received[0], mirror: received[1], slots: slots)
                        logger.info("pass-through guard: holding device \(id) (\(slots) slots)")
                    case "forget" where words.count == 2:
                        if let id = UInt32(words[1]), let old = held.removeValue(forKey: id) { try? Syscall.close(old.grabbed); try? Syscall.close(old.mirror) }
                        received.forEach { try? Syscall.close($0) }
                    case "beat":
                        break
                    case "stalled":
                        act(&held, reason: "touchd's engine made no progress for \(PassThroughWatchdog.guardStallMilliseconds) ms with input waiting", logger: logger)
                        _ = Syscall.send(connection, Array("released".utf8), descriptors: [])
                    case "restart":
                        restartAnnounced = true
                    case "takeover":
                        // Accepting this connection ended any wait: nothing held is acted on any more.
                        _ = Syscall.send(connection, Array("takeover".utf8), descriptors: [])
                    default:
                        logger.warning("pass-through guard: unexpected message \(text) with \(received.count) descriptor(s)")
                        received.forEach { try? Syscall.close($0) }
                    }
                }
            }
            if let since = awaitingSince, nowMilliseconds() - since >= restartLimitMilliseconds {
                act(&held, reason: "touchd did not come back within \(restartLimitMilliseconds) ms of stopping for a restart", destroying: true, logger: logger)
                awaitingSince = nil
            }
            let silent = nowMilliseconds() - lastBeat
            if connection >= 0, !held.isEmpty, silent >= silenceLimitMilliseconds {
                let states = peer.flatMap(threadStates(ofProcess:))
                let seen = states.map { "its threads \(String(decoding: Set($0).sorted(), as: UTF8.self))" } ?? "its threads unreadable"
                switch silenceVerdict(silentMilliseconds: silent, threadStates: states) {
                case .act:
                    act(&held, reason: "no heartbeat from touchd for \(silent) ms (\(seen))", logger: logger)
                    _ = Syscall.send(connection, Array("released".utf8), descriptors: [])
                case .wait where !starvedNoted:
                    logger.notice("pass-through guard: no heartbeat from touchd for \(silent) ms but a thread of it is runnable (\(seen)): starved of the CPU, not stopped; waiting up to \(starvedLimitMilliseconds) ms")
                    starvedNoted = true
                case .wait:
                    break
                }
            }
        }
    }

    /// Ends every mirror's contacts, releases every grab, closes the
    /// duplicates. `destroying` (touchd is gone): each mirror is destroyed and
    /// each grabbed descriptor revoked, for every holder of a duplicate
    /// (systemd's file descriptor store) as well.
    static func act(_ held: inout [UInt32: Held], reason: String, destroying: Bool = false, logger: Logger) {
        guard !held.isEmpty else { return }
        let devices = held.sorted(by: { $0.key < $1.key })
        for (id, h) in devices {
            let ended = UinputDevice.endContacts(onDescriptor: h.mirror, slots: h.slots)
            if !ended { logger.error("pass-through guard: device \(id): cannot end its mirror's contacts (errno \(errno))") }
            EvdevDevice.releaseGrab(ofDescriptor: h.grabbed)
            // The touchscreen back before the mirror goes: in the other order cage and weston
            // read nothing from the touchscreen until touchd was back.
            if destroying { _ = EvdevDevice.revoke(ofDescriptor: h.grabbed) }
        }
        if destroying {
            // The compositor reads the endings before the mirrors go (PassThroughMirror.destroyDelayMilliseconds).
            try? Syscall.sleep(milliseconds: Int(PassThroughMirror.destroyDelayMilliseconds))
            for (_, h) in devices { UinputDevice.destroy(onDescriptor: h.mirror) }
        }
        for (_, h) in devices {
            try? Syscall.close(h.mirror)
            try? Syscall.close(h.grabbed)
        }
        logger.critical("pass-through guard: \(reason): \(held.count) device(s) given back to the compositor, their mirrors' contacts ended")
        held.removeAll()
    }
}

/// touchd's end of the ``PassThroughGuard`` socket: hands devices over,
/// beats, hears `released`. Sends are whole datagrams from any thread.
final class PassThroughGuardLink: Sendable {
    private let fd: Int32

    /// Connects to the guard at `socketPath`, else at `TOUCHD_GUARD_SOCKET` or
    /// ``PassThroughGuard/defaultSocketPath``; nil (logged) when there is none.
    init?(socketPath: String? = nil, logger: Logger) {
        let path = socketPath ?? Syscall.environment("TOUCHD_GUARD_SOCKET") ?? PassThroughGuard.defaultSocketPath
        do {
            let fd = try Syscall.socket(domain: AF_UNIX, type: Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            do {
                try Syscall.connect(fd, unixPath: path)
            } catch {
                try? Syscall.close(fd)
                throw error
            }
            self.fd = fd
            logger.notice("pass-through: the guard at \(path) will give the devices back if touchd stops")
        } catch {
            logger.warning("pass-through: no guard at \(path) (\(error)): if touchd stops as a whole, the devices stay grabbed until systemd's watchdog restarts it")
            return nil
        }
    }

    deinit { try? Syscall.close(fd) }

    /// Hands the guard a device: its grabbed descriptor and its mirror's.
    func hand(_ device: DeviceID, grabbed: Int32, mirror: Int32, slots: Int) {
        _ = Syscall.send(fd, Array("hand \(device.rawValue) \(slots)".utf8), descriptors: [grabbed, mirror])
    }

    /// The device is no longer passed through.
    func forget(_ device: DeviceID) {
        _ = Syscall.send(fd, Array("forget \(device.rawValue)".utf8), descriptors: [])
    }

    /// touchd stops with its devices kept for the next one (systemd's file
    /// descriptor store): the guard waits for it before giving them back.
    func expectRestart() {
        _ = Syscall.send(fd, Array("restart".utf8), descriptors: [])
    }

    /// Waits (up to `timeoutMilliseconds`) until the guard has heard this
    /// touchd: from then on it will not give back what a previous touchd
    /// left (it may have already: the descriptors are then dead, and the
    /// takeover finds them so). False when the guard did not answer.
    func awaitTakeover(timeoutMilliseconds: Int32 = 2000) -> Bool {
        _ = Syscall.send(fd, Array("takeover".utf8), descriptors: [])
        var buffer = [UInt8](repeating: 0, count: 64)
        var p = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
        guard (try? p.withUnsafeMutableBufferPointer { b throws(SystemCallError) in try Syscall.poll(b, timeoutMilliseconds: timeoutMilliseconds) }) ?? 0 > 0 else { return false }
        let (n, _) = Syscall.receive(fd, into: &buffer, maxDescriptors: 0)
        return n > 0 && String(decoding: buffer[0..<n], as: UTF8.self) == "takeover"
    }

    /// The engine made progress.
    func beat() {
        _ = Syscall.send(fd, Array("beat".utf8), descriptors: [])
    }

    /// The engine made no progress for ``PassThroughWatchdog/guardStallMilliseconds``
    /// with input waiting: the guard gives the devices back now.
    func stalled() {
        _ = Syscall.send(fd, Array("stalled".utf8), descriptors: [])
    }

    /// Whether the guard gave the devices back since the last call.
    func takeReleased() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 64)
        var released = false
        while true {
            let (n, _) = Syscall.receive(fd, into: &buffer, maxDescriptors: 0)
            guard n > 0 else { break }
            if String(decoding: buffer[0..<Int(n)], as: UTF8.self) == "released" { released = true }
        }
        return released
    }
}
