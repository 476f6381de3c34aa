import Foundation
import Logging
import SystemCalls
import Testing
import TouchCore
@testable import TouchDaemon

/// The pass-through watchdog (semantics §9, "the panel is never dead"), on pipes standing in for grabbed devices.
@Suite(.serialized) struct PassThroughWatchdogTests {
    static func readablePipe() throws -> (read: Int32, write: Int32) {
        let pipe = try Syscall.pipe(flags: O_CLOEXEC)
        try Syscall.writeAll(pipe.write, [UInt8(1)])
        return pipe
    }

    static func wait(milliseconds: Int, while condition: () -> Bool) {
        var waited = 0
        while condition() && waited < milliseconds {
            usleep(50_000)
            waited += 50
        }
    }

    @Test("no progress with input waiting: the grabs are released and the engine's thread is told")
    func stallReleases() throws {
        let pipe = try Self.readablePipe()
        defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
        let watchdog = try PassThroughWatchdog(logger: Logger(label: "test"))
        defer { watchdog.stop() }
        watchdog.watch(DeviceID(rawValue: 3), descriptor: pipe.read)
        var released = false
        Self.wait(milliseconds: 10_000) {
            released = watchdog.takeReleased()
            return !released
        }
        #expect(released)
    }

    @Test("an engine that makes progress, or has no input waiting, keeps its grabs")
    func progressOrIdleKeeps() throws {
        let pipe = try Self.readablePipe()
        let idle = try Syscall.pipe(flags: O_CLOEXEC)
        defer { for fd in [pipe.read, pipe.write, idle.read, idle.write] { try? Syscall.close(fd) } }
        let busy = try PassThroughWatchdog(logger: Logger(label: "test"))
        let quiet = try PassThroughWatchdog(logger: Logger(label: "test"))
        defer { busy.stop(); quiet.stop() }
        busy.watch(DeviceID(rawValue: 1), descriptor: pipe.read)
        quiet.watch(DeviceID(rawValue: 2), descriptor: idle.read)
        // Three stall limits long.
        for _ in 0..<(3 * PassThroughWatchdog.stallLimitMilliseconds / 100) {
            busy.noteProgress()
            usleep(100_000)
        }
        #expect(!busy.takeReleased())
        #expect(!quiet.takeReleased())
    }
}
