// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting
import Trace
@testable import Session

/// Collects what a session produces, frame by frame (semantics §1-§5 through the one core).
struct CollectingSink: SessionSink {
    var touches: [Touch] = []
    var gestures: [GestureEvent] = []
    var devices: [SessionDeviceEvent] = []

    mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine) {
        touches += frame.touches
        engineOutputs(outputs)
    }

    mutating func engineOutputs(_ outputs: [EngineOutput]) {
        for case .gesture(let g) in outputs { gestures.append(g) }
    }

    mutating func device(_ event: SessionDeviceEvent) { devices.append(event) }
}

@Suite struct TouchSessionTests {
    static func pinch() throws -> Recording {
        try TraceReader.read(text: SyntheticTraces.pinchOutEvents(), name: "pinch-out.events",
                             format: .evemu, description: DeviceFixtures.touchscreen())
    }

    /// A gesture as it compares across passes: what and how, not when or with which touch ids.
    static func shape(_ g: GestureEvent) -> String {
        "\(g.recognizer) \(g.kind.rawValue) \(g.state.rawValue) touches=\(g.touches)"
    }

    @Test("the synthetic pinch is a pinch offline")
    func pinchIsAPinch() throws {
        var outputs: [ReplayOutput] = []
        ReplaySession(recordings: [try Self.pinch()]).run(recordsDebug: false) { outputs.append($0) }
        let kinds = Set(outputs.compactMap { o -> String? in
            guard case .engine(.gesture(let g)) = o else { return nil }
            return g.kind.rawValue
        })
        #expect(kinds.contains("pinch"))
        #expect(!kinds.contains("swipe"))
    }

    /// `touchd --replay FILE --loop` runs the same feed: every pass must
    /// give what one offline pass gives (two fingers every time, not a
    /// one-finger pan and swipe from slot state left over from the last pass).
    @Test("every pass of a looping feed gives the touches and gestures of one offline pass")
    func loopingPassesMatchOnePass() throws {
        let recording = try Self.pinch()
        var once = CollectingSink()
        var single = ReplaySession(recordings: [recording]).makeSession(recordsDebug: false)
        ReplaySession.drive(&single, feed: ReplayFeed(recordings: [recording]), into: &once)
        #expect(once.gestures.contains { $0.kind.rawValue == "pinch" })

        var looped = CollectingSink()
        var session = ReplaySession(recordings: [recording]).makeSession(recordsDebug: false)
        ReplaySession.drive(&session, feed: ReplayFeed(recordings: [recording], loops: true), passes: 3, into: &looped)

        // Pass n starts one gap after pass n-1 ended.
        let first = recording.events.first!.event.time.microseconds
        let length = recording.events.last!.event.time.microseconds - first + TouchSession.replayGapMicroseconds
        func pass(_ t: Timestamp) -> Int { Int((t.microseconds - first) / length) }
        for p in 0..<3 {
            let gestures = looped.gestures.filter { pass($0.time) == p }.map(Self.shape)
            #expect(gestures == once.gestures.map(Self.shape), "pass \(p + 1)")
            let touches = looped.touches.filter { pass($0.time) == p }
            #expect(touches.count == once.touches.count, "pass \(p + 1)")
            #expect(touches.map(\.phase) == once.touches.map(\.phase), "pass \(p + 1)")
            #expect(Set(touches.map(\.id)).count == 2, "pass \(p + 1): two fingers")
        }
    }

    @Test("a feed shifts each later recording one gap after the previous one and numbers devices in order")
    func feedShiftsRecordings() throws {
        let recording = try Self.pinch()
        var feed = ReplayFeed(recordings: [recording, recording])
        #expect(feed.devices.map(\.id) == [DeviceID(rawValue: 0), DeviceID(rawValue: 1)])
        var group: [InputEvent] = []
        var firstOfSecond: Timestamp?
        var ends: [Timestamp] = []
        loop: while true {
            switch feed.next(into: &group) {
            case .events(let device):
                #expect(group.last?.isSynReport == true)
                if device == DeviceID(rawValue: 1), firstOfSecond == nil { firstOfSecond = group[0].time }
            case .recordingEnded(let t): ends.append(t)
            case .passBegins: Issue.record("not looping")
            case .screens: Issue.record("no screen change was recorded")
            case .finished: break loop
            }
        }
        #expect(ends.count == 2)
        #expect(firstOfSecond?.microseconds == ends[0].microseconds + TouchSession.replayGapMicroseconds)
    }

    @Test("removing a device cancels its touches and says so after them")
    func removalCancelsTouches() throws {
        let recording = try Self.pinch()
        var sink = CollectingSink()
        var session = TouchSession(recordsDebug: false)
        let id = DeviceID(rawValue: 0)
        session.addDevice(id, description: recording.devices[0].description, at: .zero, into: &sink)
        // The first frame only: two fingers down.
        let firstFrame = Array(recording.events.prefix { !$0.event.isSynReport }.map(\.event)) + [recording.events.first { $0.event.isSynReport }!.event]
        session.handle(firstFrame, from: id, into: &sink)
        #expect(session.pipeline.activeTouchCount == 2)
        session.removeDevice(id, at: Timestamp(microseconds: 2_000_000), into: &sink)
        #expect(sink.touches.filter { $0.phase == .cancelled }.count == 2)
        #expect(session.devices.isEmpty)
        guard case .removed(let info, _)? = sink.devices.last else {
            Issue.record("no removal reported")
            return
        }
        #expect(info.id == id)
    }

    @Test("an ignored device is reported and not put in service")
    func ignoredDevice() throws {
        let configuration = try TouchdConfiguration.parse(yaml: "devices:\n  - match: {name: \"Fixture*\"}\n    ignore: true\n", file: "test.yaml")
        var sink = CollectingSink()
        var session = TouchSession(configuration: configuration)
        let reason = session.addDevice(DeviceID(rawValue: 3), description: DeviceFixtures.touchscreen(), at: .zero, into: &sink)
        #expect(reason != nil)
        #expect(session.devices.isEmpty)
        guard case .ignored(let id, _, _)? = sink.devices.last else {
            Issue.record("no ignore reported")
            return
        }
        #expect(id.rawValue == 3)
    }
}
