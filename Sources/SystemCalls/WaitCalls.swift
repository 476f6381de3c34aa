// SPDX-License-Identifier: MIT
import Glibc

extension Syscall {
    /// `poll(2)`: waits until a descriptor of `fds` is ready or
    /// `timeoutMilliseconds` pass (-1: no limit, 0: do not wait), and returns
    /// how many are ready (0: the time passed). A wait a signal interrupts
    /// returns 0 as well: every caller computes its next wait from its own
    /// deadline, and retrying here for the time left would cost a clock read
    /// on every wait (a system call where the clock has no vDSO path).
    @inlinable
    package static func poll(_ fds: UnsafeMutableBufferPointer<pollfd>, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        let ready = Glibc.poll(fds.baseAddress, nfds_t(fds.count), timeoutMilliseconds)
        if ready >= 0 { return Int(ready) }
        let err = errno
        guard err == EINTR else { throw SystemCallError(call: "poll", errno: err) }
        return 0
    }

    /// ``poll(_:timeoutMilliseconds:)`` of one descriptor: 1 when it is ready, 0 when the time passed.
    @inlinable
    package static func poll(_ fd: inout pollfd, timeoutMilliseconds: Int32) throws(SystemCallError) -> Int {
        try withUnsafeMutablePointer(to: &fd) { pointer throws(SystemCallError) in
            try poll(UnsafeMutableBufferPointer(start: pointer, count: 1), timeoutMilliseconds: timeoutMilliseconds)
        }
    }

    /// `clock_gettime(2)` of `clock` (the clocks touchd reads always exist, so it cannot fail).
    @inlinable
    package static func clockTime(_ clock: clockid_t = CLOCK_MONOTONIC) -> timespec {
        var ts = timespec()
        _ = clock_gettime(clock, &ts)
        return ts
    }

    /// `CLOCK_MONOTONIC` in nanoseconds.
    @inlinable
    static func monotonicNanoseconds() -> Int64 {
        let ts = clockTime(CLOCK_MONOTONIC)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// `clock_nanosleep(2)` until `time` on `clock` (at once when it has
    /// passed); a signal does not end the sleep early.
    package static func sleep(until time: timespec, clock: clockid_t = CLOCK_MONOTONIC) throws(SystemCallError) {
        var deadline = time
        while true {
            // Returns the error number itself rather than setting errno.
            let err = clock_nanosleep(clock, TIMER_ABSTIME, &deadline, nil)
            if err == 0 { return }
            if err != EINTR { throw SystemCallError(call: "clock_nanosleep", errno: err) }
        }
    }

    /// Sleeps for `milliseconds` on `CLOCK_MONOTONIC`, signals or not.
    package static func sleep(milliseconds: Int) throws(SystemCallError) {
        let now = monotonicNanoseconds() + Int64(milliseconds) * 1_000_000
        try sleep(until: timespec(tv_sec: Int(now / 1_000_000_000), tv_nsec: Int(now % 1_000_000_000)))
    }

    // MARK: Scheduling

    /// `sched_setscheduler(2)` of the calling thread (pid 0: Linux schedules threads).
    package static func setScheduler(policy: Int32, priority: Int32) throws(SystemCallError) {
        var param = sched_param()
        param.sched_priority = priority
        try nothingOrErrno("sched_setscheduler") { sched_setscheduler(0, policy, &param) }
    }

    /// `sched_getscheduler(2)` and `sched_getparam(2)` of the calling thread.
    package static func scheduler() throws(SystemCallError) -> (policy: Int32, priority: Int32) {
        var param = sched_param()
        try nothingOrErrno("sched_getparam") { sched_getparam(0, &param) }
        let policy = try valueOrErrno("sched_getscheduler") { sched_getscheduler(0) }
        return (policy, param.sched_priority)
    }
}
