// SPDX-License-Identifier: MIT
import EngineMessages
import Foundation
import Gestures
import JSON
import Logging
import Session
import Synchronization
import Testing
import TouchCore
import TouchTesting
import Trace
import Wire
@testable import TouchDaemon

/// The same recording through every driver of the session core that runs on
/// the host gives the same touch and gesture lines, to the letter: offline
/// replay (`touchctl replay`), the daemon's engine owner fed frame by frame
/// (the live daemon's path without a kernel), and `touchd --replay` (the
/// paced driver) read by a client. The guest runs the live drivers against
/// offline replay (`LiveTouchSessionTests`, `DaemonLiveTests`).
@Suite(.serialized) struct DriverAgreementTests {
    static func recordings() throws -> [(name: String, recording: Recording, path: String?)] {
        let pinch = try TraceReader.read(text: SyntheticTraces.pinchOutEvents(), name: "pinch-out.events",
                                         format: .evemu, description: DeviceFixtures.touchscreen())
        return [
            ("pinch-out", pinch, nil),
            ("atmel 4-finger drag", try TraceReader.read(path: PackagePaths.drag4), PackagePaths.drag4),
        ]
    }

    static func offline(_ recording: Recording) -> [String] {
        var lines: [String] = []
        ReplaySession(recordings: [recording]).run(recordsDebug: false) { out in
            var w = JSONWriter()
            switch out {
            case .touch(let t): MessageEncoder.touch(t, into: &w)
            case .engine(.gesture(let g)): MessageEncoder.gesture(g, into: &w)
            case .engine, .drag: return
            }
            lines.append(w.string)
        }
        return lines
    }

    static func engineOwner(_ recording: Recording) async throws -> [String] {
        let collected = Mutex<[String]>([])
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(),
                                      logger: Logger(label: "test"), recordsDebug: false)
        await engine.attach { batch in
            collected.withLock { lines in
                for e in batch.eventsWithLines where e.stream == .touch || e.stream == .gesture {
                    lines.append(String(decoding: e.line, as: UTF8.self))
                }
            }
        }
        let feed = ReplayFeed(recordings: [recording])
        for (id, d) in feed.devices { await engine.addDevice(id, description: d.description, at: feed.startTime) }
        var group: [InputEvent] = []
        var steps = feed
        loop: while true {
            switch steps.next(into: &group) {
            case .events(let device): await engine.handle(group, from: device)
            case .recordingEnded(let time): await engine.finishTouches(at: time)
            case .screens(let request, _): await engine.applyRecordedScreenChange(request)
            case .passBegins, .finished: break loop
            }
        }
        while let deadline = await engine.nextDeadline { await engine.advance(to: deadline) }
        return collected.withLock { $0 }
    }

    static func paced(_ recording: Recording, path: String?) throws -> [String] {
        let directory = TemporaryDirectory()
        let trace = path ?? directory.path + "/trace.events"
        if path == nil { try TraceWriter.render(recording, as: .evemu).write(toFile: trace, atomically: true, encoding: .utf8) }
        let daemon = try DaemonProcess(["--replay", trace, "--speed", "0", "--wait-for-subscribers", "1", "--exit-after-replay"])
        let socket = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try socket.readLine() ?? "") == "hello")
        try socket.request(#"{"op":"subscribe","id":1,"events":["touch","gesture"]}"#, id: 1)
        let lines = try socket.lines { messageType($0) == "goodbye" }.filter { messageType($0) == "touch" || messageType($0) == "gesture" }
        #expect(try daemon.waitForExit() == 0)
        return lines
    }

    @Test func everyHostDriverGivesTheSameLines() async throws {
        for (name, recording, path) in try Self.recordings() {
            let offline = Self.offline(recording)
            #expect(offline.contains { $0.contains(#""type":"gesture""#) }, "\(name)")
            let owner = try await Self.engineOwner(recording)
            #expect(owner == offline, "\(name): the daemon's engine owner")
            let paced = try Self.paced(recording, path: path)
            #expect(paced == offline, "\(name): touchd --replay")
        }
    }
}
