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

    @Test("with a guard: a heartbeat at each look while the engine makes progress; none while it is stalled, and `stalled` once, a second into the stall")
    func guardHearsBeatsThenStalled() throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/guard.sock"
        let listener = try Syscall.socket(domain: AF_UNIX, type: Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
        defer { try? Syscall.close(listener) }
        try Syscall.bind(listener, unixPath: path)
        try Syscall.listen(listener, backlog: 1)
        let link = try #require(PassThroughGuardLink(socketPath: path, logger: Logger(label: "test")))
        guard case .done(let guardSide) = try Syscall.accept(listener, flags: Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)) else {
            Issue.record("no connection")
            return
        }
        defer { try? Syscall.close(guardSide) }
        func heard() -> [String] {
            var buffer = [UInt8](repeating: 0, count: 64)
            var messages: [String] = []
            while true {
                let (n, _) = Syscall.receive(guardSide, into: &buffer, maxDescriptors: 0)
                guard n > 0 else { return messages }
                messages.append(String(decoding: buffer[0..<n], as: UTF8.self))
            }
        }
        let pipe = try Self.readablePipe()
        defer { try? Syscall.close(pipe.read); try? Syscall.close(pipe.write) }
        let watchdog = try PassThroughWatchdog(logger: Logger(label: "test"), guardLink: link, startsThread: false)
        watchdog.watch(DeviceID(rawValue: 1), descriptor: pipe.read)
        watchdog.noteProgress()
        #expect(!watchdog.look())
        #expect(heard() == ["beat"])
        let looksToTell = PassThroughWatchdog.guardStallMilliseconds / PassThroughWatchdog.intervalMilliseconds
        for _ in 1..<looksToTell { #expect(!watchdog.look()) }
        #expect(heard().isEmpty)
        #expect(!watchdog.look())
        #expect(heard() == ["stalled"])
        // Told once: the rest of the stall up to the watchdog's own limit says nothing more.
        for _ in looksToTell..<(Self.looksToStall - 1) { #expect(!watchdog.look()) }
        #expect(heard().isEmpty)
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
