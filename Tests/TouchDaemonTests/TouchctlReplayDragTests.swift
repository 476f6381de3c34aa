// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// `touchctl replay --explain` shows drag sessions' decisions (semantics §8
/// for §12) for configuration surfaces that play a part, in the timeline's
/// style; `touchctl replay` prints them as `drag-session` lines, never the data.
@Suite struct TouchctlReplayDragTests {
    static let trace = PackagePaths.root + "/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.hold-then-drag.events"

    /// The trace's default screen is 1920 x 1080: the list top left, the shelf bottom left, the map on the right.
    static let configuration = """
        surfaces:
          - id: list
            frame: {x: 0, y: 0, width: 960, height: 540}
            recognizers: [{name: drag, kind: drag}]
            drag: {offersItems: true, items: [{representations: [{type: text/plain, data: Lyon}]}]}
          - id: shelf
            frame: {x: 0, y: 540, width: 960, height: 540}
            recognizers: [{name: tap, kind: tap}]
            drag: {addsItems: true, items: [{representations: [{type: text/plain, data: Paris}]}]}
          - id: map
            frame: {x: 960, y: 0, width: 960, height: 1080}
            drag: {dropTypes: [text/*], proposal: move}
        """

    static func touchctl(_ arguments: [String]) throws -> String {
        let directory = TemporaryDirectory()
        let config = directory.path + "/drag.yaml"
        try configuration.write(toFile: config, atomically: true, encoding: .utf8)
        let p = Process()
        p.executableURL = URL(fileURLWithPath: PackagePaths.touchctl)
        p.arguments = arguments + ["--config", config, trace]
        let out = Pipe()
        p.standardOutput = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        #expect(p.terminationStatus == 0)
        return String(decoding: data, as: UTF8.self)
    }

    @Test func explainShowsEverySessionDecisionInOrder() throws {
        let lines = try Self.touchctl(["replay", "--explain"]).split(separator: "\n").map(String.init)
        let session = lines.filter { $0.contains("=> session 1: ") }.map { $0.components(separatedBy: "=> session 1: ")[1] }
        #expect(session == [
            "drag began on list: asked config for items (request 1, 250 ms)",
            "config gave 1 item (text/plain): active",
            "target map of config entered with 1 item (text/plain); proposal cancel until it answers",
            "target map of config proposes move",
            "tap on shelf held: asked config for items to add (request 2, 250 ms)",
            "config added 1 item: now 2 items (text/plain); the tap is no tap",
            "target map of config exited",
            "target map of config entered with 2 items (text/plain); proposal cancel until it answers",
            "target map of config proposes move",
            "lifted over map of config: move, the data to it",
            "ended move (lifted)",
        ], "\(lines.joined(separator: "\n"))")
        #expect(!lines.contains { $0.contains("=> tap ") }, "the tap added an item: no tap")
    }

    @Test func replayPrintsSessionsWithoutTheirData() throws {
        let out = try Self.touchctl(["replay"])
        let sessions = out.split(separator: "\n").filter { $0.contains(#""type":"drag-session""#) }
        #expect(sessions.count == 11)
        #expect(sessions.last?.contains(#""event":"ended","#) == true && sessions.last?.contains(#""outcome":"move""#) == true)
        #expect(!out.contains("Lyon") && !out.contains("Paris"))
    }
}
