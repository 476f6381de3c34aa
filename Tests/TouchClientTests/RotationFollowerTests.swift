// SPDX-License-Identifier: MIT
import Testing

@testable import TouchClient

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `touchctl rotate --follow-sensor`'s decisions, fed a `monitor-sensor` transcript.
@Suite struct RotationFollowerTests {
    static func transcript() throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/synthetic/monitor-sensor-rotation.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    @Test("monitor-sensor's lines give the orientations it reports, and nothing for the other lines")
    func linesGiveOrientations() throws {
        let reported = try Self.transcript().compactMap { SensorOrientation.reported(in: $0)?.rawValue }
        #expect(reported == ["normal", "right-up", "right-up", "undefined", "bottom-up", "left-up", "left-up", "normal"])
        #expect(SensorOrientation.reported(in: "    Light changed: 14.000000 (lux)") == nil)
        #expect(SensorOrientation.reported(in: "    Accelerometer orientation changed: sideways") == nil)
    }

    @Test("the transcript sends each new rotation once: right-up is 90, bottom-up 180, left-up 270; flat sends nothing")
    func transcriptSendsTheRightRotations() throws {
        var follower = RotationFollower()
        let sent = try Self.transcript().compactMap { follower.take(line: $0) }
        #expect(sent == [0, 90, 180, 270, 0])
    }

    @Test("while locked nothing is sent; unlocking sends the orientation the panel has by then")
    func lockHoldsTheRotation() throws {
        let lines = try Self.transcript()
        var follower = RotationFollower()
        var sent: [Int] = []
        for (i, line) in lines.enumerated() {
            if i == 8 { if let r = follower.setLocked(true) { sent.append(r) } }
            if let r = follower.take(line: line) { sent.append(r) }
            if i == 12 { if let r = follower.setLocked(false) { sent.append(r) } }
        }
        // Locked from right-up (sent) through bottom-up to left-up: left-up goes out on unlocking.
        #expect(sent == [0, 90, 270, 0])
        var locked = RotationFollower(locked: true)
        #expect(lines.compactMap { locked.take(line: $0) }.isEmpty)
        #expect(locked.setLocked(false) == 0)
        #expect(locked.setLocked(false) == nil)
    }

    @Test("after touchd restarts, the current rotation is sent again, unless locked")
    func reconnectionSendsAgain() {
        var follower = RotationFollower()
        #expect(follower.take(line: "    Accelerometer orientation changed: right-up") == 90)
        #expect(follower.reconnected() == 90)
        #expect(follower.setLocked(true) == nil)
        #expect(follower.reconnected() == nil)
        #expect(follower.setLocked(false) == 90)
    }
}
