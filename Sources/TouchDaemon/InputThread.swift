// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import LiveInput
import Synchronization
import SystemCalls

/// What the input thread does between jobs when it reads the input itself
/// (live devices): wait for input, a job or the engine's next deadline, and
/// hand what came to the engine without leaving the thread.
protocol InputThreadSource: AnyObject {
    /// One round: waits (polling the thread's ``InputThread/wakeup`` too, so
    /// that a job interrupts the wait), then applies what came. Runs on the
    /// engine's thread, isolated to the engine. Returns false when the input
    /// is finished and must be detached.
    func runRound() -> Bool
}

/// The thread that owns the daemon's engine (``TouchSessionActor``'s executor).
///
/// Live input is read on this thread too: a read of the devices goes through
/// the pipeline and the engine, and its encoded events leave for the
/// publisher's event loop, without changing threads on the way. Other callers
/// (client requests from the event loop, reloads, replay) reach the engine as
/// jobs: queued here, and the thread woken through ``wakeup`` when it waits.
///
/// Jobs run in the order they were enqueued, one at a time, between input
/// rounds; while input is attached, a round never blocks a job for longer
/// than one `poll(2)` wake-up.
///
/// Unchecked: the job queue is guarded by a mutex, and everything else is
/// only touched on the thread itself.
final class InputThread: SerialExecutor, @unchecked Sendable {
    /// Interrupts the thread's wait; live input polls it along with its devices.
    let wakeup: LiveWakeup

    private struct Queue {
        var jobs: [UnownedJob] = []
        // True when a wake-up has been written since the thread last took the jobs.
        var signalled = false
    }

    private let queue = Mutex(Queue())
    private let stopping = Atomic<Bool>(false)
    // `pthread_self()` of the thread, 0 before it runs.
    private let owner = Atomic<UInt>(0)
    // Only used on the thread.
    private var running: [UnownedJob] = []
    private var input: (any InputThreadSource)?
    private var inputFinished: (@Sendable () -> Void)?

    /// Starts the thread, named `name`.
    init(name: String) throws(LiveInputError) {
        wakeup = try LiveWakeup()
        running.reserveCapacity(16)
        do {
            try DetachedThread.start(name: name) { [self] in main() }
        } catch {
            throw LiveInputError(subject: name, message: "cannot start the thread", errno: error.errno)
        }
    }

    /// Makes the thread return once the jobs queued now have run. The
    /// engine's owner calls this when it goes away.
    func stop() {
        stopping.store(true, ordering: .releasing)
        wakeup.wake()
    }

    // MARK: SerialExecutor

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let wake = queue.withLock { q in
            q.jobs.append(job)
            defer { q.signalled = true }
            return !q.signalled
        }
        if wake { wakeup.wake() }
    }

    /// Whether the caller runs on this thread.
    var isCurrent: Bool { owner.load(ordering: .acquiring) == UInt(bitPattern: Int(bitPattern: pthread_self())) }

    func checkIsolated() {
        precondition(isCurrent, "not on the input thread")
    }

    func isIsolatingCurrentContext() -> Bool? {
        isCurrent
    }

    // MARK: The thread

    /// Attaches live input; call on the thread (from a job). `finished` is
    /// called on the thread when the input's round returns false.
    func attach(_ input: any InputThreadSource, finished: @escaping @Sendable () -> Void) {
        precondition(isCurrent)
        self.input = input
        inputFinished = finished
    }

    private func main() {
        owner.store(UInt(bitPattern: Int(bitPattern: pthread_self())), ordering: .releasing)
        while true {
            runJobs()
            if stopping.load(ordering: .acquiring) {
                runJobs()
                break
            }
            if let input {
                if !input.runRound() {
                    self.input = nil
                    inputFinished?()
                    inputFinished = nil
                }
            } else {
                waitForWakeup()
            }
        }
    }

    /// Runs the jobs queued now, in order.
    private func runJobs() {
        queue.withLock { q in
            swap(&q.jobs, &running)
            q.signalled = false
        }
        guard !running.isEmpty else { return }
        let executor = asUnownedSerialExecutor()
        for job in running { job.runSynchronously(on: executor) }
        running.removeAll(keepingCapacity: true)
    }

    private func waitForWakeup() {
        var fd = pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)
        _ = try? Syscall.poll(&fd, timeoutMilliseconds: -1)
        _ = wakeup.drain()
    }
}
