// SPDX-License-Identifier: MIT
import Foundation
import Logging
import Publisher
import Session
import Testing
import TouchCore
import Trace
import Wire
@testable import TouchDaemon

/// The `focus` request on the engine's owner: who may report, what is forgotten, what is recorded.
@Suite struct TouchSessionActorFocusTests {
    static func actor() throws -> TouchSessionActor {
        try TouchSessionActor(configuration: TouchdConfiguration.parse(
            yaml: "shortcuts:\n  - {name: s, kind: swipe, minTouches: 3, maxTouches: 3, apps: [a]}\n", file: "t.yaml"),
            board: HelloBoard(), logger: Logger(label: "test"), recordsDebug: false)
    }

    static func refused(_ body: () async throws -> Void) async -> RequestError? {
        do {
            try await body()
            return nil
        } catch let e as RequestError {
            return e
        } catch {
            return nil
        }
    }

    @Test("only the seat's active session may report; with no session on the seat, only a client in none")
    func whoMayReport() async throws {
        let engine = try Self.actor()
        let a = FocusReport(appID: "a", title: "A")
        // Not following logind: only a client in no session (the panel's own processes).
        let other = await Self.refused { try await engine.reportFocus(a, from: ClientID(rawValue: 1), loginSession: "c7") }
        #expect(other?.code == .notPermitted, "\(String(describing: other))")
        #expect(await engine.engine.focus == nil)
        try await engine.reportFocus(a, from: ClientID(rawValue: 2), loginSession: nil)
        #expect(await engine.engine.focus?.appID == "a")

        await engine.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: false)))
        let outside = await Self.refused { try await engine.reportFocus(a, from: ClientID(rawValue: 2), loginSession: nil) }
        #expect(outside?.code == .notPermitted)
        let wrong = await Self.refused { try await engine.reportFocus(a, from: ClientID(rawValue: 3), loginSession: "c2") }
        #expect(wrong?.code == .notPermitted && wrong?.message.contains("c1") == true, "\(String(describing: wrong))")
        try await engine.reportFocus(FocusReport(appID: "b"), from: ClientID(rawValue: 4), loginSession: "c1")
        #expect(await engine.engine.focus?.appID == "b")
    }

    @Test("the focus is forgotten when its reporter disconnects or its session stops being the active one; another client's going changes nothing")
    func forgotten() async throws {
        let engine = try Self.actor()
        await engine.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: false)))
        try await engine.reportFocus(FocusReport(appID: "a"), from: ClientID(rawValue: 1), loginSession: "c1")
        await engine.focusReporterGone(ClientID(rawValue: 9))
        #expect(await engine.engine.focus?.appID == "a")
        await engine.focusReporterGone(ClientID(rawValue: 1))
        #expect(await engine.engine.focus == nil)

        try await engine.reportFocus(FocusReport(appID: "a"), from: ClientID(rawValue: 2), loginSession: "c1")
        await engine.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: true)))
        #expect(await engine.engine.focus?.appID == "a", "locking keeps the session active")
        await engine.observeLogin(.seat(LoginSeat(activeSession: "c2", locked: false)))
        #expect(await engine.engine.focus == nil, "another user's session came: the report is dropped")
    }

    @Test("touchd --record writes each focus change as a focus line, and the replay applies it")
    func recorded() async throws {
        let directory = TemporaryDirectory()
        let path = directory.path + "/focus.trace"
        let original = try TraceReader.read(path: LockedSessionTests.swipe)
        let engine = try Self.actor()
        await engine.startRecording(to: path)
        await engine.addDevice(DeviceID(rawValue: 0), description: original.devices[0].description, at: original.events[0].event.time)
        try await engine.reportFocus(FocusReport(appID: "a", title: "A", fullScreen: true), from: ClientID(rawValue: 1), loginSession: nil)
        for e in original.events { await engine.handle([e.event], from: e.device) }
        await engine.focusReporterGone(ClientID(rawValue: 1))
        await engine.finishRecording()
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.contains(#"{"type":"focus","time":"#) && text.contains(#""request":{"op":"focus","appId":"a","title":"A","fullScreen":true}"#), "\(text.prefix(600))")
        let recorded = try TraceReader.read(path: path)
        #expect(recorded.screenChanges.map { $0.request["appId"]?.stringValue } == ["a", nil])
        var swipes = 0
        let c = try TouchdConfiguration.parse(yaml: "shortcuts:\n  - {name: s, kind: swipe, minTouches: 3, maxTouches: 3, apps: [a]}\n", file: "t.yaml")
        ReplaySession(recordings: [recorded], configuration: c).run(recordsDebug: false) { o in
            if case .engine(.gesture(let g)) = o, g.recognizer == "s" { swipes += 1 }
        }
        #expect(swipes > 0, "the replay knew the focus was app a")
        var without = 0
        ReplaySession(recordings: [original], configuration: c).run(recordsDebug: false) { o in
            if case .engine(.gesture(let g)) = o, g.recognizer == "s" { without += 1 }
        }
        #expect(without == 0, "without the focus lines the shortcut limited to app a is off")
    }
}
