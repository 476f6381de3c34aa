// SPDX-License-Identifier: MIT
import Foundation
import Logging
import Session
import Testing
import TouchCore
import Trace
import Wire
@testable import TouchDaemon

/// `touchd --record` writes the screens changed at runtime (a `screens`
/// request, `touchctl rotate`) into the trace, and replay applies them at
/// their time: a session recorded with a rotation replays with it.
@Suite struct DaemonRecorderScreensTests {
    static let configuration = "screens:\n  - {name: main, width: 800, height: 480}\n"
    static let quarterTurn = ScreenChange(screens: [ScreenUpdate(name: "main", rotation: .degrees90)])

    /// The touches of an offline replay of `recording`.
    static func touches(_ recording: Recording) throws -> [Touch] {
        let c = try TouchdConfiguration.parse(yaml: configuration, file: "t.yaml")
        var touches: [Touch] = []
        ReplaySession(recordings: [recording], configuration: c).run(recordsDebug: false) { o in
            if case .touch(let t) = o { touches.append(t) }
        }
        return touches
    }

    @Test func aSessionRecordedWithARotationReplaysWithIt() async throws {
        // Nine taps: touches that begin after the turn are mapped on the turned screen.
        let original = try TraceReader.read(path: PackagePaths.fixture("Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        let split = original.events.count / 2
        // Where the turn comes: after a whole frame.
        let cut = try #require(original.events.indices.first { $0 >= split && original.events[$0].event.isSynReport }) + 1
        let directory = TemporaryDirectory()
        let path = directory.path + "/turned.trace"

        let engine = try TouchSessionActor(configuration: try TouchdConfiguration.parse(yaml: Self.configuration, file: "t.yaml"),
                                      board: HelloBoard(), logger: Logger(label: "test"), recordsDebug: false)
        await engine.startRecording(to: path)
        await engine.addDevice(DeviceID(rawValue: 0), description: original.devices[0].description, at: original.events[0].event.time)
        for e in original.events[..<cut] { await engine.handle([e.event], from: e.device) }
        try await engine.changeScreens(Self.quarterTurn, from: nil)
        for e in original.events[cut...] { await engine.handle([e.event], from: e.device) }
        await engine.finishRecording()

        let recorded = try TraceReader.read(path: path)
        #expect(recorded.screenChanges.count == 1)
        #expect(recorded.screenChanges.first?.time == original.events[cut - 1].event.time)
        #expect(recorded.events == original.events)

        // The replay turns where the recording did: touches before the cut as
        // without the turn, touches after it as on a turned screen.
        let replayed = try Self.touches(recorded)
        let unturned = try Self.touches(original)
        #expect(replayed.count == unturned.count)
        let differing = zip(replayed, unturned).filter { $0.location != $1.location }
        #expect(!differing.isEmpty, "the replay did not turn")
        let firstDifference = try #require(zip(replayed, unturned).first { $0.location != $1.location }?.0)
        #expect(firstDifference.time > original.events[cut - 1].event.time)

        // And it is what the daemon served: the same session core, turned at the same point.
        var session = TouchSession(configuration: try TouchdConfiguration.parse(yaml: Self.configuration, file: "t.yaml"), recordsDebug: false)
        var live: [Touch] = []
        var sink = ReplayOutputSink { o in if case .touch(let t) = o { live.append(t) } }
        session.addDevice(DeviceID(rawValue: 0), description: original.devices[0].description, at: original.events[0].event.time, into: &sink)
        for e in original.events[..<cut] { session.handle([e.event], from: e.device, into: &sink) }
        try session.changeScreens(Self.quarterTurn, into: &sink)
        for e in original.events[cut...] { session.handle([e.event], from: e.device, into: &sink) }
        session.finishTouches(at: original.events.last!.event.time, into: &sink)
        #expect(replayed.map(\.location) == live.map(\.location) && replayed.map(\.phase) == live.map(\.phase))
    }

    @Test func aBadScreensLineNamesItsLine() throws {
        let text = """
            {"type":"header","format":"touchd-trace","version":1}
            {"type":"screens","time":5,"request":"rotate"}

            """
        #expect { try TraceReader.read(text: text, name: "bad.trace") } throws: { error in
            "\(error)".contains("bad.trace:2") && "\(error)".contains("request")
        }
    }
}
