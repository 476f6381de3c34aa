// SPDX-License-Identifier: MIT
import Foundation
import Logging
import Publisher
import Testing
import Session
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Real-time scheduling of the input thread and the event loop
/// (docs/daemon.md, "Scheduling"). Granting SCHED_FIFO needs root or
/// RLIMIT_RTPRIO (make test runs as root); the refusal is produced by taking
/// CAP_SYS_NICE away with setpriv. Raising RLIMIT_RTPRIO needs
/// CAP_SYS_RESOURCE, which this machine's root lacks: that case runs in the
/// guest (DaemonLiveTests).
@Suite(.serialized) struct ThreadSchedulingTests {
    /// Runs `body` on a thread of its own (a test must not change the
    /// scheduling of a thread of the shared concurrency pool).
    static func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: T?
        let thread = Thread {
            result = body()
            done.signal()
        }
        thread.start()
        done.wait()
        return result!
    }

    @Test func aThreadGoesRealtimeAndBack() throws {
        try #require(getuid() == 0)
        let steps = Self.onOwnThread { () -> [String] in
            let before = ThreadScheduling.currentThread()
            let up = ThreadScheduling.applyToCurrentThread(priority: 7)
            let during = ThreadScheduling.currentThread()
            let down = ThreadScheduling.applyToCurrentThread(priority: 0)
            let after = ThreadScheduling.currentThread()
            return ["\(before.policy) \(before.priority)", "\(up)", "\(during.policy) \(during.priority)", "\(down)", "\(after.policy) \(after.priority)"]
        }
        #expect(steps == ["\(SCHED_OTHER) 0", "SCHED_FIFO priority 7", "\(SCHED_FIFO) 7", "normal scheduling", "\(SCHED_OTHER) 0"])
    }

    @Test func aRefusalNamesWhatItNeeds() {
        let text = ThreadScheduling.Outcome.refused(priority: 10, errno: EPERM).description
        #expect(text.hasPrefix("SCHED_FIFO priority 10 refused (Operation not permitted): it needs CAP_SYS_NICE or RLIMIT_RTPRIO >= 10"))
        #expect(text.hasSuffix("normal scheduling kept"))
    }

    static func inputPathThreads(_ daemon: DaemonProcess) -> [(policy: Int, priority: Int)] {
        let threads = daemon.threadScheduling()
        return threads.filter { $0.key == "touchd-engine" || $0.key.hasPrefix("NIO-ELT") }.sorted { $0.key < $1.key }.map(\.value)
    }

    static func policies(_ threads: [(policy: Int, priority: Int)]) -> [String] {
        threads.map { "\($0.policy)/\($0.priority)" }
    }

    @Test func theDaemonRunsItsInputPathAtFifo10ByDefaultAndNothingElse() throws {
        try #require(getuid() == 0)
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop"])
        try daemon.waitForLog("event loop thread: SCHED_FIFO priority 10")
        #expect(daemon.log.contains("engine thread: SCHED_FIFO priority 10"))
        #expect(Self.policies(Self.inputPathThreads(daemon)) == ["1/10", "1/10"])
        // The other threads (main, the concurrency pool) stay normal.
        let others = daemon.threadScheduling().filter { $0.key != "touchd-engine" && !$0.key.hasPrefix("NIO-ELT") }
        #expect(!others.isEmpty)
        #expect(others.allSatisfy { $0.value.policy == Int(SCHED_OTHER) })
        _ = try daemon.gestureSubscriber()
    }

    @Test func zeroKeepsNormalScheduling() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop", "--realtime-priority", "0"])
        try daemon.waitForLog("event loop thread: normal scheduling")
        #expect(Self.policies(Self.inputPathThreads(daemon)) == ["0/0", "0/0"])
    }

    @Test func withoutThePrivilegeItWarnsAndServes() throws {
        try #require(getuid() == 0)
        // Root without CAP_SYS_NICE and with RLIMIT_RTPRIO 0.
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop"], launcher: [
            "/usr/bin/prlimit", "--rtprio=0", "--", "/usr/bin/setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice"])
        try daemon.waitForLog("warning: event loop thread: SCHED_FIFO priority 10 refused (Operation not permitted)")
        #expect(daemon.log.contains("warning: engine thread: SCHED_FIFO priority 10 refused (Operation not permitted)"))
        #expect(Self.policies(Self.inputPathThreads(daemon)) == ["0/0", "0/0"])
        _ = try daemon.gestureSubscriber()
    }

    @Test func aReloadAppliesTheFilesPriorityUnlessTheCommandLineGaveOne() throws {
        try #require(getuid() == 0)
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        try "scheduling: {realtimePriority: 20}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop"])
        try daemon.waitForLog("event loop thread: SCHED_FIFO priority 20")
        #expect(Self.policies(Self.inputPathThreads(daemon)) == ["1/20", "1/20"])
        try "scheduling: {realtimePriority: 0}\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("event loop thread: normal scheduling")
        #expect(Self.policies(Self.inputPathThreads(daemon)) == ["0/0", "0/0"])
        // A rejected value keeps what is in force.
        try "scheduling: {realtimePriority: 100}\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("scheduling.realtimePriority")
        #expect(Self.policies(Self.inputPathThreads(daemon)) == ["0/0", "0/0"])

        // --realtime-priority outlives reloads.
        try "scheduling: {realtimePriority: 0}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let pinned = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop", "--realtime-priority", "3"])
        try pinned.waitForLog("event loop thread: SCHED_FIFO priority 3")
        pinned.signal(SIGHUP)
        try pinned.waitForLog("configuration reloaded")
        #expect(Self.policies(Self.inputPathThreads(pinned)) == ["1/3", "1/3"])
        #expect(!pinned.log.contains("normal scheduling"))
    }
}
