// SPDX-License-Identifier: MIT
import Foundation
import Logging
import SystemCalls
import Testing
import TouchCore
@testable import TouchDaemon

/// The pass-through watchdog (semantics §9.7, "the panel is never dead"), on
/// pipes standing in for grabbed devices. The tests make the looks the
/// watchdog's thread would make each interval: no waiting.
@Suite struct PassThroughWatchdogTests {
    static let looksToStall = PassThroughWatchdog.stallLimitMilliseconds / PassThroughWatchdog.intervalMilliseconds

    static func readablePipe() throws -> (read: Int32, write: Int32) {
        let pipe = try Syscall.pipe(flags: O_CLOEXEC)
        try Syscall.writeAll(pipe.write, [UInt8(1)])
        return pipe
    }

    @Test("no progress with input waiting for the stall limit: the grabs are released and the input thread is told")
    func stallReleases() throws {
        let pipe = try Self.readablePipe()
        defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
        let watchdog = try PassThroughWatchdog(logger: Logger(label: "test"), startsThread: false)
        watchdog.watch(DeviceID(rawValue: 3), descriptor: pipe.read)
        for _ in 1..<Self.looksToStall { #expect(!watchdog.look()) }
        #expect(!watchdog.takeReleased())
        #expect(watchdog.look())
        #expect(watchdog.takeReleased())
        // Released once: nothing is grabbed any more.
        #expect(!watchdog.takeReleased())
        for _ in 0..<(2 * Self.looksToStall) { #expect(!watchdog.look()) }
    }

    @Test("an engine that makes progress, or has no input waiting, keeps its grabs")
    func progressOrIdleKeeps() throws {
        let pipe = try Self.readablePipe()
        let idle = try Syscall.pipe(flags: O_CLOEXEC)
        defer { for fd in [pipe.read, pipe.write, idle.read, idle.write] { try? Syscall.close(fd) } }
        let busy = try PassThroughWatchdog(logger: Logger(label: "test"), startsThread: false)
        let quiet = try PassThroughWatchdog(logger: Logger(label: "test"), startsThread: false)
        busy.watch(DeviceID(rawValue: 1), descriptor: pipe.read)
        quiet.watch(DeviceID(rawValue: 2), descriptor: idle.read)
        for _ in 0..<(3 * Self.looksToStall) {
            busy.noteProgress()
            #expect(!busy.look())
            #expect(!quiet.look())
        }
        #expect(!busy.takeReleased() && !quiet.takeReleased())
        // A forgotten device is not watched.
        busy.forget(DeviceID(rawValue: 1))
        for _ in 0..<(2 * Self.looksToStall) { #expect(!busy.look()) }
    }
}
