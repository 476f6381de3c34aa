// SPDX-License-Identifier: MIT
import Dispatch
import Synchronization
import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who writes a client's backlog once its socket has room.
protocol BacklogFlushing: Sendable {
    /// `output` has a backlog: write it when its socket can take more.
    func flush(_ output: ClientOutput)
    /// `output`'s session has ended: nothing of it is to be written.
    func forget(_ output: ClientOutput)
}

/// Writes the backlogs of clients that are behind, on a thread of its own
/// (`touchd-flush`): it waits in `poll` for room in their sockets and asks
/// each ``ClientOutput`` to write what waits. Neither the publishing thread
/// nor the event loop ever waits for a client; this thread only exists for
/// those that are behind, and sleeps while every client keeps up.
final class BacklogFlusher: BacklogFlushing {
    private struct Watched {
        var outputs: [ClientOutput] = []
        var stopped = false
    }
    private let watched = Mutex(Watched())
    // A pipe: writing its end wakes the thread's poll.
    private let wake: CInt
    private let wakeWriter: CInt
    private let done = DispatchSemaphore(value: 0)

    /// Starts the thread.
    init() throws(PublisherError) {
        let ends: (read: CInt, write: CInt)
        do {
            ends = try Syscall.pipe(flags: O_CLOEXEC | O_NONBLOCK)
        } catch {
            throw PublisherError("cannot create the flusher's wake-up pipe", errno: error.errno)
        }
        wake = ends.read
        wakeWriter = ends.write
        do {
            try DetachedThread.start(name: "touchd-flush") { [self] in
                run()
                done.signal()
            }
        } catch {
            try? Syscall.close(ends.read)
            try? Syscall.close(ends.write)
            throw PublisherError("cannot start the flusher's thread", errno: error.errno)
        }
    }

    func flush(_ output: ClientOutput) {
        let added = watched.withLock { w -> Bool in
            guard !w.stopped, !w.outputs.contains(where: { $0 === output }) else { return false }
            w.outputs.append(output)
            return true
        }
        if added { poke() }
    }

    func forget(_ output: ClientOutput) {
        watched.withLock { $0.outputs.removeAll { $0 === output } }
    }

    /// Stops the thread and waits for it (backlogs left are the sessions' to drop).
    func stop() {
        let first = watched.withLock { w -> Bool in
            defer { w.stopped = true }
            return !w.stopped
        }
        guard first else { return }
        poke()
        done.wait()
        try? Syscall.close(wake)
        try? Syscall.close(wakeWriter)
    }

    private func poke() {
        var one: UInt8 = 1
        _ = withUnsafeBytes(of: &one) { try? Syscall.write(wakeWriter, $0) }
    }

    private func run() {
        var fds: [pollfd] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let (outputs, stopped) = watched.withLock { ($0.outputs, $0.stopped) }
            if stopped { return }
            fds.removeAll(keepingCapacity: true)
            fds.append(pollfd(fd: wake, events: Int16(POLLIN), revents: 0))
            // Each output's descriptor, read under its lock (-1: ended; poll skips it).
            for o in outputs { fds.append(pollfd(fd: o.state.withLock { $0.fd }, events: Int16(POLLOUT), revents: 0)) }
            guard (try? fds.withUnsafeMutableBufferPointer({ fds throws(SystemCallError) in
                try Syscall.poll(fds, timeoutMilliseconds: -1)
            })) != nil else { return }
            if fds[0].revents != 0 {
                _ = buffer.withUnsafeMutableBytes { try? Syscall.read(wake, into: $0) }
            }
            for (k, o) in outputs.enumerated() where fds[k + 1].revents != 0 || fds[k + 1].fd < 0 {
                _ = o.flushBacklog()
            }
            // Kept while some of its backlog waits; an output that fell behind
            // again after this check is added again by its `flush`.
            watched.withLock { w in w.outputs.removeAll { !$0.hasBacklog } }
        }
    }
}
