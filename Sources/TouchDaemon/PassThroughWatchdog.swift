// SPDX-License-Identifier: MIT
import Evdev
import Glibc
import Logging
import PassThroughMachine
import Synchronization
import SystemCalls
import TouchCore

/// Keeps a panel from going dead behind pass-through (semantics §9): when
/// the input thread stops making progress while a grabbed device has input
/// waiting, the watchdog's own thread releases every pass-through grab, so
/// the compositor reads the devices directly again, and says so in the log.
/// The input thread, when it runs again, stops pass-through for those
/// devices (``takeReleased()``) instead of grabbing them back.
///
/// Checked every ``intervalMilliseconds``: the input thread counts its rounds
/// (``noteProgress()``; an idle thread still completes one a second, its poll's
/// cap), and a stall is declared after ``stallLimitMilliseconds`` without a round while
/// `poll(2)` says a grabbed device is readable.
///
/// Unchecked: what the input thread and the guard share is atomic or behind
/// a mutex; `lastRounds` and `stalledFor` are touched by the watchdog's own
/// thread only (a test calls ``look()`` with no thread running).
final class PassThroughWatchdog: @unchecked Sendable {
    /// How long the engine may make no progress with input waiting, in milliseconds.
    static let stallLimitMilliseconds = 2000
    /// How often the watchdog looks, in milliseconds.
    static let intervalMilliseconds = 250
    /// How long the engine may make no progress with input waiting before the
    /// guard is told (`stalled`: it ends the mirrors' contacts and releases
    /// the grabs), in milliseconds.
    static let guardStallMilliseconds = 1000

    private let rounds = Atomic<UInt64>(0)
    private let released = Atomic<Bool>(false)
    /// Set with ``released`` when the guard, not this thread, released the grabs.
    private let releasedByGuard = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    /// Descriptors of the devices grabbed for pass-through.
    private let grabbed = Mutex<[DeviceID: Int32]>([:])
    private let logger: Logger
    /// The guard outside the process (``PassThroughGuard``), fed a heartbeat
    /// at each look that finds the engine not stalled; nil without one.
    let guardLink: PassThroughGuardLink?
    // What the looks have seen (the watchdog's thread, or a test calling ``look()``).
    private var lastRounds: UInt64 = 0
    private var stalledFor = 0

    /// Starts the watchdog's thread, which calls ``look()`` every ``intervalMilliseconds``
    /// (`startsThread` false: nobody does but the caller, as tests do).
    init(logger: Logger, guardLink: PassThroughGuardLink? = nil, startsThread: Bool = true) throws(SystemCallError) {
        self.logger = logger
        self.guardLink = guardLink
        guard startsThread else { return }
        try DetachedThread.start(name: "touchd-watchdog") { [self] in
            while !stopping.load(ordering: .relaxed) {
                try? Syscall.sleep(milliseconds: Self.intervalMilliseconds)
                _ = look()
            }
        }
    }

    /// Stops the thread at its next look.
    func stop() { stopping.store(true, ordering: .relaxed) }

    /// One round of the input thread (on that thread; one relaxed add).
    @inline(__always)
    func noteProgress() { rounds.add(1, ordering: .relaxed) }

    /// A device was grabbed for pass-through, open on `fd` (engine's thread).
    func watch(_ device: DeviceID, descriptor fd: Int32) { grabbed.withLock { $0[device] = fd } }

    /// A device is no longer grabbed for pass-through, or is closed (engine's thread, before its descriptor is closed).
    func forget(_ device: DeviceID) {
        let was = grabbed.withLock { $0.removeValue(forKey: device) }
        if was != nil { guardLink?.forget(device) }
    }

    /// A device is left to the next touchd (kept in systemd's store): no longer
    /// watched, and the guard keeps holding it (engine's thread).
    func leave(_ device: DeviceID) { _ = grabbed.withLock { $0.removeValue(forKey: device) } }

    /// Whether the watchdog released the grabs since the last call (engine's thread).
    func takeReleased() -> Bool { released.exchange(false, ordering: .acquiring) }

    /// Who released the grabs since the last call, nil when nobody did (engine's thread).
    func takeReleaser() -> PassThroughStateMachine.Releaser? {
        guard takeReleased() else { return nil }
        return releasedByGuard.exchange(false, ordering: .relaxed) ? .guard : .watchdog
    }

    /// One look, an interval after the previous one: a stall is declared
    /// (every grab released; true returned) after ``stallLimitMilliseconds`` of
    /// looks that saw no round of the input thread while a grabbed device
    /// had input waiting. Only one thread may look.
    func look() -> Bool {
        if let guardLink, guardLink.takeReleased() {
            let count = grabbed.withLock { g in
                defer { g.removeAll() }
                return g.count
            }
            releasedByGuard.store(true, ordering: .relaxed)
            released.store(true, ordering: .releasing)
            logger.critical("pass-through: the guard gave \(count) device(s) back to the compositor while touchd was stopped")
            return true
        }
        let now = rounds.load(ordering: .relaxed)
        if now != lastRounds {
            lastRounds = now
            stalledFor = 0
            guardLink?.beat()
            return false
        }
        let fds = grabbed.withLock { Array($0.values) }
        guard !fds.isEmpty, Self.anyReadable(fds) else {
            stalledFor = 0
            guardLink?.beat()
            return false
        }
        // Stalled with input waiting: no heartbeat; the guard is told, and acts, after a second.
        stalledFor += Self.intervalMilliseconds
        if stalledFor == Self.guardStallMilliseconds { guardLink?.stalled() }
        guard stalledFor >= Self.stallLimitMilliseconds else { return false }
        for fd in fds { EvdevDevice.releaseGrab(ofDescriptor: fd) }
        grabbed.withLock { $0.removeAll() }
        released.store(true, ordering: .releasing)
        logger.critical("pass-through: the engine made no progress for \(Self.stallLimitMilliseconds) ms with input waiting; \(fds.count) device(s) given back to the compositor")
        stalledFor = 0
        return true
    }

    private static func anyReadable(_ fds: [Int32]) -> Bool {
        var polls = fds.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        let ready = polls.withUnsafeMutableBufferPointer { (try? Syscall.poll($0, timeoutMilliseconds: 0)) ?? 0 }
        return ready > 0
    }
}
