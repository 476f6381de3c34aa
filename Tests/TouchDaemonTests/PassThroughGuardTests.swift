// SPDX-License-Identifier: MIT
import Foundation
import Logging
import SystemCalls
import Testing
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// The pass-through guard's reading of touchd's silence (semantics §9.7):
/// a stopped or blocked touchd is acted on after a second, a starved one
/// (a thread runnable, waiting for a CPU) only after five. The guard runs
/// here as `touchd --pass-through-guard`; a Python process stands in for
/// touchd (it hands two pipe ends as the grabbed device and its mirror).
@Suite struct PassThroughGuardTests {
    @Test("the verdict: stopped or blocked acts after the silence limit, runnable only after the starved limit")
    func verdict() {
        let limit = PassThroughGuard.silenceLimitMilliseconds, starved = PassThroughGuard.starvedLimitMilliseconds
        let stopped = Array("TTT".utf8), blocked = Array("SSD".utf8), starving = Array("SRS".utf8)
        for states in [stopped, blocked, starving, nil] as [[UInt8]?] {
            #expect(PassThroughGuard.silenceVerdict(silentMilliseconds: limit - 1, threadStates: states) == .wait)
        }
        #expect(PassThroughGuard.silenceVerdict(silentMilliseconds: limit, threadStates: stopped) == .act)
        #expect(PassThroughGuard.silenceVerdict(silentMilliseconds: limit, threadStates: blocked) == .act)
        // Unreadable threads: as before the starved limit existed, the silence limit.
        #expect(PassThroughGuard.silenceVerdict(silentMilliseconds: limit, threadStates: nil) == .act)
        #expect(PassThroughGuard.silenceVerdict(silentMilliseconds: limit, threadStates: starving) == .wait)
        #expect(PassThroughGuard.silenceVerdict(silentMilliseconds: starved - 1, threadStates: starving) == .wait)
        #expect(PassThroughGuard.silenceVerdict(silentMilliseconds: starved, threadStates: starving) == .act)
    }

    @Test("a thread's state is the letter after the command's last parenthesis")
    func stateLetter() {
        #expect(PassThroughGuard.stateLetter(ofStat: Array("412 (touchd) S 1 412 412 0 -1".utf8)) == UInt8(ascii: "S"))
        #expect(PassThroughGuard.stateLetter(ofStat: Array("9 (a) b) (c) T 1 9".utf8)) == UInt8(ascii: "T"))
        #expect(PassThroughGuard.stateLetter(ofStat: Array("9 (touchd".utf8)) == nil)
        #expect(PassThroughGuard.stateLetter(ofStat: Array("9 (touchd)".utf8)) == nil)
    }

    @Test("a process's threads as /proc shows them: running, asleep, stopped; none for a process that is not there")
    func threadStatesOfRealProcesses() throws {
        // The thread reading its own process's states is running.
        let mine = try #require(PassThroughGuard.threadStates(ofProcess: getpid()))
        #expect(mine.contains(UInt8(ascii: "R")), "\(String(decoding: mine, as: UTF8.self))")
        let sleeper = Process()
        sleeper.executableURL = URL(fileURLWithPath: "/bin/sleep")
        sleeper.arguments = ["60"]
        try sleeper.run()
        defer { kill(sleeper.processIdentifier, SIGKILL); sleeper.waitUntilExit() }
        let pid = sleeper.processIdentifier
        try poll("the sleeper asleep") { PassThroughGuard.threadStates(ofProcess: pid) == [UInt8(ascii: "S")] }
        kill(pid, SIGSTOP)
        try poll("the sleeper stopped") { PassThroughGuard.threadStates(ofProcess: pid) == [UInt8(ascii: "T")] }
        kill(pid, SIGCONT)
        kill(pid, SIGKILL)
        sleeper.waitUntilExit()
        #expect(PassThroughGuard.threadStates(ofProcess: pid) == nil)
    }

    /// A guard and a stand-in touchd connected to it, holding one device.
    final class Rig {
        let directory = TemporaryDirectory()
        let guardian: DaemonProcess
        let standIn = Process()
        let standInInput = Pipe()
        let standInLog: String

        /// `then`: what the stand-in does after handing the device and one beat:
        /// `stop` (SIGSTOP itself), `spin` (a busy loop, never beating), `stalled`
        /// (says so, then waits for the guard's answer and prints it).
        init(then: String) throws {
            let socket = directory.path + "/guard.sock"
            guardian = try DaemonProcess(["--pass-through-guard", socket], waitForSocket: false)
            try guardian.waitForLog("listening on")
            standInLog = directory.path + "/stand-in.log"
            _ = FileManager.default.createFile(atPath: standInLog, contents: nil)
            let script = """
                import os, signal, socket, sys
                s = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
                s.connect(sys.argv[1])
                grabbed, mirror = os.pipe()
                socket.send_fds(s, [b"hand 0 10"], [grabbed, mirror])
                s.send(b"beat")
                print("handed", flush=True)
                then = sys.argv[2]
                if then == "stop":
                    os.kill(os.getpid(), signal.SIGSTOP)
                elif then == "spin":
                    while True:
                        pass
                elif then == "stalled":
                    s.send(b"stalled")
                    print("answer", s.recv(64).decode(), flush=True)
                    sys.stdin.read()
                """
            standIn.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
            standIn.arguments = ["-c", script, socket, then]
            standIn.standardOutput = FileHandle(forWritingAtPath: standInLog)
            standIn.standardInput = standInInput
            try standIn.run()
            try poll("the stand-in to hand its device") { standInOutput.contains("handed") }
            try guardian.waitForLog("holding device 0")
        }

        var standInOutput: String { (try? String(contentsOfFile: standInLog, encoding: .utf8)) ?? "" }

        deinit {
            kill(standIn.processIdentifier, SIGKILL)
            kill(standIn.processIdentifier, SIGCONT)
            standIn.waitUntilExit()
        }
    }

    @Test("touchd stopped (SIGSTOP): the guard acts after the silence limit, naming the stopped threads")
    func stoppedIsActedOn() throws {
        let rig = try Rig(then: "stop")
        try poll("the guard to act", seconds: 30) { rig.guardian.log.contains("given back to the compositor") }
        #expect(rig.guardian.log.contains("no heartbeat from touchd for"), "\(rig.guardian.log)")
        #expect(rig.guardian.log.contains("its threads T)"), "\(rig.guardian.log)")
        #expect(!rig.guardian.log.contains("starved"), "\(rig.guardian.log)")
    }

    @Test("touchd runnable but silent (starved of the CPU): the guard waits for the starved limit, then acts")
    func starvedWaitsLonger() throws {
        let rig = try Rig(then: "spin")
        try poll("the guard to see the starvation", seconds: 30) { rig.guardian.log.contains("starved of the CPU") }
        try poll("the guard to act", seconds: 30) { rig.guardian.log.contains("given back to the compositor") }
        // Acted on once the silence reached the starved limit (the line says how long it was), not at the first second.
        let line = try #require(rig.guardian.log.split(separator: "\n").first { $0.contains("given back") })
        #expect(line.contains("no heartbeat from touchd for") && line.contains("its threads R"), "\(rig.guardian.log)")
        let silent = line.split(separator: " ").drop { $0 != "for" }.dropFirst().first.flatMap { Int($0) }
        #expect((silent ?? 0) >= Int(PassThroughGuard.starvedLimitMilliseconds), "\(line)")
    }

    @Test("touchd says its engine stalled: the guard acts at once and answers `released`")
    func stalledIsActedOnAtOnce() throws {
        let rig = try Rig(then: "stalled")
        try poll("the stand-in to hear the answer") { rig.standInOutput.contains("answer") }
        #expect(rig.standInOutput.contains("answer released"), "\(rig.standInOutput)")
        #expect(rig.guardian.log.contains("made no progress for \(PassThroughWatchdog.guardStallMilliseconds) ms with input waiting"), "\(rig.guardian.log)")
    }
}
