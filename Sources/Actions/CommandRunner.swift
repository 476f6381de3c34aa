// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SystemCalls

/// Runs the agent's commands: at most `maxConcurrent` at once, up to `maxQueued` waiting, the
/// rest dropped; each stopped after `timeout` seconds (SIGTERM, then SIGKILL 2 s later). A
/// command that hangs or fails never holds up the next event: ``submit(_:label:)`` only queues.
/// Every start, exit status and drop is reported to `log`.
package actor CommandRunner {
    /// One finished command, as logged.
    package struct Outcome: Hashable, Sendable {
        /// The binding's label (`app-switcher (actions.yaml:3)`).
        package var label: String
        /// Exit status, or the signal that ended it as 128 + signal.
        package var status: Int32
        /// It was stopped for running over the timeout.
        package var timedOut: Bool
        /// Wall-clock run time in milliseconds.
        package var milliseconds: Double
    }

    private struct Pending {
        var firing: ActionFiring
        var label: String
    }

    private var limits: (concurrent: Int, queued: Int, timeout: Double)
    private var running = 0
    private var queue: [Pending] = []
    private let log: @Sendable (String) -> Void
    private let finished: (@Sendable (Outcome) -> Void)?
    /// Commands dropped because the queue was full.
    package private(set) var dropped = 0

    /// A runner with the limits of `configuration`; `log` gets one line per start, exit and drop;
    /// `finished` (tests) every outcome.
    package init(configuration: ActionsConfiguration, log: @escaping @Sendable (String) -> Void,
                finished: (@Sendable (Outcome) -> Void)? = nil) {
        limits = (configuration.maxConcurrent, configuration.maxQueued, configuration.timeout)
        self.log = log
        self.finished = finished
    }

    /// New limits (a reload); running commands are not touched.
    package func setLimits(_ configuration: ActionsConfiguration) {
        limits = (configuration.maxConcurrent, configuration.maxQueued, configuration.timeout)
        startWaiting()
    }

    /// Queues a command; returns at once.
    package func submit(_ firing: ActionFiring, label: String) {
        if running < limits.concurrent {
            start(Pending(firing: firing, label: label))
        } else if queue.count < limits.queued {
            queue.append(Pending(firing: firing, label: label))
        } else {
            dropped += 1
            log("\(label): dropped: \(running) commands running and \(queue.count) waiting (maxConcurrent, maxQueued)")
        }
    }

    /// Commands running now.
    package var runningCount: Int { running }

    private func startWaiting() {
        while running < limits.concurrent, !queue.isEmpty { start(queue.removeFirst()) }
    }

    private func start(_ p: Pending) {
        let argv = p.firing.command.arguments
        var env = ProcessInfo.processInfo.environment
        for (k, v) in p.firing.environment { env[k] = v }
        let pid: pid_t
        do {
            pid = try ChildProcess.spawn(argv, environment: env)
        } catch {
            log("\(p.label): cannot run \(argv[0]): \(error.description)")
            finished?(Outcome(label: p.label, status: 127, timedOut: false, milliseconds: 0))
            return
        }
        running += 1
        log("\(p.label): started \(argv.joined(separator: " ")) (pid \(pid))")
        let started = DispatchTime.now().uptimeNanoseconds
        let label = p.label, log = self.log
        let child = ChildState()
        let timeout = limits.timeout
        if timeout > 0 {
            DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
                guard child.signal(pid, SIGTERM, markTimedOut: true) else { return }
                DispatchQueue.global().asyncAfter(deadline: .now() + 2) { _ = child.signal(pid, SIGKILL, markTimedOut: false) }
            }
        }
        do {
            try DetachedThread.start(name: "touchctl-action") {
                let status = ChildProcess.wait(pid, state: child)
                let ms = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e6
                let outcome = Outcome(label: label, status: status.code, timedOut: child.timedOut, milliseconds: ms)
                let how = outcome.timedOut ? "stopped after the timeout" : (status.signal != nil ? "killed by signal \(status.signal!)" : "exited \(status.code)")
                log("\(label): \(how) after \(Int(ms.rounded())) ms")
                Task { await self.ended(outcome) }
            }
        } catch {
            // No thread to wait: the child is left to finish on its own (reaped by nobody until exit).
            log("\(label): cannot wait for pid \(pid): \(error)")
            running -= 1
        }
    }

    /// A command ended: its place goes to the next waiting one; `finished` hears of it once the
    /// count of running commands says so.
    private func ended(_ outcome: Outcome) {
        running -= 1
        finished?(outcome)
        startWaiting()
    }
}

/// A child's life as the timeout and its waiting thread see it: signals are sent only while it
/// has not been reaped, so a pid the kernel gave to another process is never signalled.
final class ChildState: Sendable {
    private struct Life {
        var reaped = false
        var stoppedForTimeout = false
    }
    private let life = Mutex(Life())

    /// Sends `sig` unless the child was reaped; true when sent.
    func signal(_ pid: pid_t, _ sig: Int32, markTimedOut: Bool) -> Bool {
        life.withLock { life in
            guard !life.reaped else { return false }
            if markTimedOut { life.stoppedForTimeout = true }
            // The child leads its own process group: a shell's children stop with it.
            try? Syscall.kill(-pid, sig)
            return true
        }
    }

    /// Marks the child reaped (under the lock, so no signal races the reaping).
    func reap(_ body: () -> Void) {
        life.withLock { life in
            body()
            life.reaped = true
        }
    }

    var timedOut: Bool { life.withLock { $0.stoppedForTimeout } }
}

/// posix_spawn with a clean signal state: the agent's threads block signals (libdispatch's do),
/// and a child inheriting that mask would ignore the SIGTERM of a timeout.
enum ChildProcess {
    struct SpawnError: Error, CustomStringConvertible {
        var errno: Int32
        var description: String { String(cString: strerror(errno)) }
    }

    /// Starts `argv` (looked up in PATH when the program has no `/`) with `environment`.
    static func spawn(_ argv: [String], environment: [String: String]) throws(SpawnError) -> pid_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETPGROUP))
        posix_spawnattr_setpgroup(&attributes, 0)
        var files = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&files)
        defer { posix_spawn_file_actions_destroy(&files) }
        posix_spawn_file_actions_addopen(&files, 0, "/dev/null", O_RDONLY, 0)
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for p in cArgs { free(p) }
            for p in cEnv { free(p) }
        }
        var pid: pid_t = 0
        let rc = posix_spawnp(&pid, argv[0], &files, &attributes, cArgs, cEnv)
        guard rc == 0 else { throw SpawnError(errno: rc) }
        return pid
    }

    /// Waits for the child to end and reaps it: its exit status, or 128 + the signal that ended it.
    static func wait(_ pid: pid_t, state: ChildState) -> (code: Int32, signal: Int32?) {
        // Wait without reaping first, so the timeout cannot signal a reused pid.
        try? Syscall.waitWithoutReaping(pid)
        var status: Int32 = 0
        state.reap { status = (try? Syscall.waitForExit(pid)) ?? 0 }
        // WIFEXITED / WTERMSIG, spelled out (the C macros are not imported).
        let signal = status & 0x7f
        if signal == 0 { return ((status >> 8) & 0xff, nil) }
        return (128 + signal, signal)
    }
}
