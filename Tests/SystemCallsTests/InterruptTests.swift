// SPDX-License-Identifier: MIT
import Dispatch
import Glibc
import Synchronization
import Testing
@testable import SystemCalls

// Counts SIGURG deliveries; the handler may touch nothing else.
private let interrupts = Atomic<Int>(0)

/// A blocked call that a signal interrupts is retried by the wrapper; the
/// same call made bare shows the signal really interrupted it (EINTR), so a
/// wrapper that stopped retrying would fail these tests.
@Suite(.serialized) struct InterruptTests {
    /// Installs a SIGURG handler without `SA_RESTART` (so the kernel ends the
    /// blocked call with EINTR), runs `body`, and puts the old handler back.
    /// SIGURG's default action is to ignore it: a late signal harms nothing.
    private static func withInterruptingSignal<R>(_ body: () throws -> R) rethrows -> R {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in interrupts.add(1, ordering: .relaxed) }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        precondition(sigaction(SIGURG, &action, &previous) == 0)
        defer { sigaction(SIGURG, &previous, nil) }
        return try body()
    }

    /// Runs `call` on a new thread, signals that thread every 5 ms for
    /// `signalling` milliseconds, then runs `release` and waits for `call`'s result.
    private static func interrupted<R: Sendable>(
        signalling milliseconds: Int, release: () -> Void, _ call: @escaping @Sendable () -> R
    ) throws -> (result: R, interrupts: Int) {
        let thread = Shared<UInt>(0)
        let result = Shared<R?>(nil)
        let done = DispatchSemaphore(value: 0)
        let before = interrupts.load(ordering: .relaxed)
        try DetachedThread.start(name: "interrupted") {
            // The thread inherits its starter's mask, and the test runner's
            // threads (libdispatch's) block most signals.
            var unblocked = sigset_t()
            sigemptyset(&unblocked)
            sigaddset(&unblocked, SIGURG)
            pthread_sigmask(SIG_UNBLOCK, &unblocked, nil)
            thread.value = UInt(pthread_self())
            result.value = call()
            done.signal()
        }
        while thread.value == 0 { sched_yield() }
        let target = pthread_t(thread.value)
        for _ in 0..<(milliseconds / 5) {
            if done.wait(timeout: .now() + .milliseconds(5)) == .success {
                done.signal()
                break
            }
            pthread_kill(target, SIGURG)
        }
        release()
        done.wait()
        return (result.value!, interrupts.load(ordering: .relaxed) - before)
    }

    @Test func readIsRetriedWhenASignalInterruptsIt() throws {
        try Self.withInterruptingSignal {
            let pipe = try Syscall.pipe()
            defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
            let (outcome, signals) = try Self.interrupted(signalling: 100, release: {
                _ = try? Syscall.writeAll(pipe.write, [42])
            }) { () -> Syscall.Outcome<Int>? in
                var byte: UInt8 = 0
                return withUnsafeMutableBytes(of: &byte) { try? Syscall.read(pipe.read, into: $0) }
            }
            #expect(signals > 0)
            #expect(outcome == .done(1))
        }
    }

    @Test func theBareReadDoesFailWithEINTRUnderTheSameSignal() throws {
        try Self.withInterruptingSignal {
            let pipe = try Syscall.pipe()
            defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
            let (failure, signals) = try Self.interrupted(signalling: 100, release: {
                _ = try? Syscall.writeAll(pipe.write, [42])
            }) { () -> Int32 in
                var byte: UInt8 = 0
                let n = withUnsafeMutableBytes(of: &byte) { Glibc.read(pipe.read, $0.baseAddress, 1) }
                return n < 0 ? errno : 0
            }
            #expect(signals > 0)
            #expect(failure == EINTR)
        }
    }

    @Test func anInterruptedPollReturnsNothingReadyInsteadOfFailing() throws {
        try Self.withInterruptingSignal {
            let pipe = try Syscall.pipe()
            defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
            let (result, signals) = try Self.interrupted(signalling: 150, release: {}) { () -> (ready: Int?, milliseconds: Int64) in
                var fd = pollfd(fd: pipe.read, events: Int16(POLLIN), revents: 0)
                let start = Syscall.monotonicNanoseconds()
                let ready = try? Syscall.poll(&fd, timeoutMilliseconds: 300)
                return (ready, (Syscall.monotonicNanoseconds() - start) / 1_000_000)
            }
            #expect(signals > 0)
            // Nothing ready, no error: the caller's own deadline decides the next wait.
            #expect(result.ready == 0)
        }
    }

    @Test func negatedInterruptsAreRetriedUntilAnotherResult() {
        var results: [Int32] = [-EINTR, -EINTR, -EAGAIN, 0]
        var calls = 0
        let rc = Syscall.retryingNegatedInterrupt {
            calls += 1
            return results.removeFirst()
        }
        #expect(rc == -EAGAIN)
        #expect(calls == 3)
    }
}
