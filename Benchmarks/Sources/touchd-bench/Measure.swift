// SPDX-License-Identifier: MIT
import Glibc
import Histogram
import MallocInterposerSwift
import Session
import TouchDaemon

/// Monotonic nanoseconds.
@inline(__always) func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Puts the calling thread at `SCHED_FIFO` `priority` as touchd does its
/// engine thread and event loop (docs/daemon.md, "Scheduling"); false when
/// the kernel refuses (no CAP_SYS_NICE or RLIMIT_RTPRIO).
func runRealtime(priority: Int32) -> Bool {
    ThreadScheduling.applyToCurrentThread(priority: Int(priority)) == .realtime(priority: Int(priority))
}

/// CPU time of the calling thread, in nanoseconds.
func threadCPUNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// One row of the results table.
struct Row {
    var name: String
    var value: String
}

/// Latency percentiles from an HDR histogram of nanoseconds.
struct Latency {
    var histogram = Histogram<UInt64>(highestTrackableValue: 1_000_000_000, numberOfSignificantValueDigits: .three)

    mutating func record(_ ns: UInt64) { histogram.record(ns) }

    var summary: String {
        func us(_ v: UInt64) -> String { fixed(Double(v) / 1000, 2) + " us" }
        return "p50 \(us(histogram.valueAtPercentile(50))), p99 \(us(histogram.valueAtPercentile(99))), max \(us(histogram.max)) (n=\(histogram.totalCount))"
    }
}

func fixed(_ v: Double, _ decimals: Int) -> String {
    var scale = 1.0
    for _ in 0..<decimals { scale *= 10 }
    let r = (v * scale).rounded() / scale
    var s = String(r)
    if let dot = s.firstIndex(of: ".") {
        let frac = s[s.index(after: dot)...]
        if frac.count < decimals { s += String(repeating: "0", count: decimals - frac.count) }
    } else if decimals > 0 {
        s += "." + String(repeating: "0", count: decimals)
    }
    return s
}

/// Counts malloc calls made by `body` (needs the interposer library loaded).
/// Whether ``countAllocations(_:)`` sees allocations at all: a known allocation
/// must be counted, or every "0 allocations" figure would mean nothing.
func allocationCountingWorks() -> Bool {
    countAllocations {
        let array = [Int](repeating: 7, count: 1000)
        withExtendedLifetime(array) {}
    } > 0
}

func countAllocations(_ body: () -> Void) -> Int {
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    body()
    MallocInterposerSwift.unhook()
    return MallocInterposerSwift.getStatistics().mallocCount
}

/// Best of `runs` wall-clock measurements of `body`, in seconds.
func bestTime(runs: Int, _ body: () -> Void) -> Double {
    var best = Double.infinity
    for _ in 0..<runs {
        let t0 = nowNanoseconds()
        body()
        let t1 = nowNanoseconds()
        best = Swift.min(best, Double(t1 - t0) / 1e9)
    }
    return best
}

/// The rows printed as the final table.
enum Report {
    nonisolated(unsafe) static var rows: [Row] = []
}

/// Prints a figure and keeps it for the table.
func report(_ name: String, _ value: String) {
    Report.rows.append(Row(name: name, value: value))
    print("\(name): \(value)")
}
