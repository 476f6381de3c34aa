// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import JSON
import Session
import Testing
import TouchCore
import TouchTesting
import Trace
import Wire
@testable import TouchDaemon

/// `touchd --replay`: the paced driver of the session core, against the
/// offline driver (`touchctl replay`) of the same recording.
@Suite(.serialized) struct PacedReplayTests {
    static func pinch() throws -> Recording {
        try TraceReader.read(text: SyntheticTraces.pinchOutEvents(), name: "pinch-out.events",
                             format: .evemu, description: DeviceFixtures.touchscreen())
    }

    /// What and how each gesture was, without times and touch ids.
    static func shape(kind: String?, state: String?, touches: Int64?) -> String {
        "\(kind ?? "?") \(state ?? "?") touches=\(touches ?? -1)"
    }

    /// `--loop`: every pass of a two-finger pinch gives the gestures one
    /// offline pass gives, and the gap between passes is waited at the
    /// replay's speed (a pass of the 0.41 s trace plus the 1 s gap, at 10x,
    /// cannot take less than 0.141 s).
    @Test func everyLoopPassGivesWhatOfflineReplayGivesAndTheGapIsWaited() throws {
        let recording = try Self.pinch()
        var offline: [String] = []
        ReplaySession(recordings: [recording]).run(recordsDebug: false) { o in
            guard case .engine(.gesture(let g)) = o else { return }
            offline.append(Self.shape(kind: g.kind.rawValue, state: g.state.rawValue, touches: Int64(g.touches)))
        }
        #expect(offline.first == "pinch began touches=2")

        let directory = TemporaryDirectory()
        let path = directory.path + "/pinch-out.events"
        try TraceWriter.render(recording, as: .evemu).write(toFile: path, atomically: true, encoding: .utf8)
        let speed = 10.0
        let daemon = try DaemonProcess(["--replay", path, "--loop", "--speed", "\(speed)", "--wait-for-subscribers", "1"])
        let socket = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try socket.readLine() ?? "") == "hello")
        try socket.request(#"{"op":"subscribe","id":1,"events":["gesture"]}"#, id: 1)

        var passes: [[String]] = [[]]
        var passStarts: [Date] = []
        var received = 0
        // Bounded: passes that never end a pinch must fail the test, not hang it.
        while passes.count <= 3, received < 3 * offline.count + 20, let line = try socket.readLine() {
            guard messageType(line) == "gesture", let json = try? JSONParser.parse(line) else { continue }
            received += 1
            if passes[passes.count - 1].isEmpty { passStarts.append(Date()) }
            let state = json["state"]?.stringValue
            passes[passes.count - 1].append(Self.shape(kind: json["kind"]?.stringValue, state: state, touches: json["touches"]?.int64Value))
            if json["kind"]?.stringValue == "pinch" && state == "ended" { passes.append([]) }
        }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
        for (i, pass) in passes.prefix(3).enumerated() {
            #expect(pass == offline, "pass \(i + 1)")
        }
        let first = recording.events.first!.event.time.microseconds, last = recording.events.last!.event.time.microseconds
        let passSeconds = Double(last - first + TouchSession.replayGapMicroseconds) / 1_000_000 / speed
        #expect(passStarts.count >= 3)
        for i in 1..<min(3, passStarts.count) {
            let elapsed = passStarts[i].timeIntervalSince(passStarts[i - 1])
            // Only a lower bound: a busy machine may take longer, never shorter.
            #expect(elapsed >= passSeconds * 0.95, "pass \(i + 1) began \(elapsed) s after pass \(i)")
        }
    }
}
