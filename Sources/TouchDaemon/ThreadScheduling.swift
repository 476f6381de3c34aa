// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import SystemCalls

/// Real-time scheduling of the two threads on the input path: the engine's
/// thread (reads the devices, runs the engine) and the publisher's event loop
/// (writes to the clients). docs/daemon.md, "Scheduling".
///
/// Under load from other processes the kernel's fair scheduler lets a woken
/// thread wait for the running one's slice: in the soak (40 readers and 10
/// misbehaving clients on 2 cores) `perf sched` counted 640 waits over 1 ms
/// in 3 minutes for these two threads at nice -8, none with `SCHED_FIFO`.
/// The priority stays low (default 10) so that the kernel's interrupt threads
/// (priority 50), which deliver the touches, are never held up by touchd.
package enum ThreadScheduling {
    /// The `SCHED_FIFO` priority used when the configuration names none.
    package static let defaultPriority = 10

    /// The highest priority Linux gives `SCHED_FIFO`.
    package static let maximumPriority = 99

    /// What a request made of the calling thread.
    package enum Outcome: Equatable, Sendable, CustomStringConvertible {
        /// The thread runs `SCHED_FIFO` at this priority.
        case realtime(priority: Int)
        /// The thread runs the normal policy (`SCHED_OTHER`), as asked.
        case normal
        /// The kernel refused (`errno`): the thread keeps the policy it had.
        case refused(priority: Int, errno: Int32)

        package var description: String {
            switch self {
            case .realtime(let p): return "SCHED_FIFO priority \(p)"
            case .normal: return "normal scheduling"
            case .refused(let p, let e):
                let reason = String(cString: strerror(e))
                return "SCHED_FIFO priority \(p) refused (\(reason)): it needs CAP_SYS_NICE or RLIMIT_RTPRIO >= \(p) "
                    + "(systemd: LimitRTPRIO=, and no RestrictRealtime=yes); normal scheduling kept"
            }
        }
    }

    /// Puts the calling thread into `SCHED_FIFO` at `priority` (1 to 99), or
    /// back to `SCHED_OTHER` for 0. Threads it starts do not inherit the
    /// real-time policy (`SCHED_RESET_ON_FORK`).
    package static func applyToCurrentThread(priority: Int) -> Outcome {
        precondition((0...maximumPriority).contains(priority), "priority out of range")
        let policy = priority == 0 ? SCHED_OTHER : SCHED_FIFO
        do {
            try Syscall.setScheduler(policy: policy | resetOnFork, priority: Int32(priority))
            return priority == 0 ? .normal : .realtime(priority: priority)
        } catch {
            return .refused(priority: priority, errno: error.errno)
        }
    }

    /// The calling thread's policy and priority as the kernel reports them.
    package static func currentThread() -> (policy: Int32, priority: Int) {
        // Cannot fail for the calling thread.
        let current = (try? Syscall.scheduler()) ?? (policy: SCHED_OTHER, priority: 0)
        return (current.policy & ~resetOnFork, Int(current.priority))
    }

    // linux/sched.h; not exported by Glibc's module.
    private static let resetOnFork: Int32 = 0x4000_0000
}
