// SPDX-License-Identifier: MIT
import Logging
import Publisher
import Session
import Testing
import TouchCore
import Wire
@testable import TouchDaemon

/// The `compositor` request on the engine's owner: who may report, what `passThroughEnding: auto`
/// picks from it, and when the report is forgotten.
@Suite struct TouchSessionActorCompositorTests {
    static func actor() throws -> TouchSessionActor {
        try TouchSessionActor(configuration: TouchdConfiguration.parse(yaml: "", file: "t.yaml"),
                              board: HelloBoard(), logger: Logger(label: "test"), recordsDebug: false)
    }

    static let kwin = CompositorReport(name: "kwin_wayland", version: "5.27.5")

    @Test("only the seat's active session may report, and a refusal names the request; auto cancels once KWin is reported")
    func whoMayReport() async throws {
        let engine = try Self.actor()
        await engine.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: false)))
        #expect(await engine.mirrorEnding(for: .auto) == MirrorEndingChoice(ending: .lift, reason: "auto: compositor unknown"))
        let wrong = await TouchSessionActorFocusTests.refused {
            try await engine.reportCompositor(Self.kwin, from: ClientID(rawValue: 1), loginSession: "c2")
        }
        #expect(wrong?.code == .notPermitted, "\(String(describing: wrong))")
        #expect(wrong?.message.hasPrefix("compositor:") == true && wrong?.message.contains("c1") == true, "\(String(describing: wrong))")
        let outside = await TouchSessionActorFocusTests.refused {
            try await engine.reportCompositor(Self.kwin, from: ClientID(rawValue: 1), loginSession: nil)
        }
        #expect(outside?.code == .notPermitted)
        #expect(await engine.mirrorEnding(for: .auto).ending == .lift, "a refused report changes nothing")

        try await engine.reportCompositor(Self.kwin, from: ClientID(rawValue: 2), loginSession: "c1")
        #expect(await engine.mirrorEnding(for: .auto).text == "cancel (auto: kwin_wayland 5.27.5 passes cancels)")
        #expect(await engine.mirrorEnding(for: .lift).ending == .lift, "an explicit ending stays")
        try await engine.reportCompositor(CompositorReport(name: "gnome-shell", version: "43.9"), from: ClientID(rawValue: 2), loginSession: "c1")
        #expect(await engine.mirrorEnding(for: .auto).text == "lift (auto: gnome-shell 43.9 drops cancels)")
        try await engine.reportCompositor(.unknown, from: ClientID(rawValue: 2), loginSession: "c1")
        #expect(await engine.mirrorEnding(for: .auto).reason == "auto: compositor unknown")
    }

    @Test("the report is forgotten when its client goes or its session stops being the active one; another client's going changes nothing")
    func forgotten() async throws {
        let engine = try Self.actor()
        await engine.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: false)))
        try await engine.reportCompositor(Self.kwin, from: ClientID(rawValue: 1), loginSession: "c1")
        await engine.compositorReporterGone(ClientID(rawValue: 9))
        #expect(await engine.mirrorEnding(for: .auto).ending == .cancel)
        await engine.compositorReporterGone(ClientID(rawValue: 1))
        #expect(await engine.mirrorEnding(for: .auto).ending == .lift)

        try await engine.reportCompositor(Self.kwin, from: ClientID(rawValue: 2), loginSession: "c1")
        await engine.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: true)))
        #expect(await engine.mirrorEnding(for: .auto).ending == .cancel, "locking keeps the session active")
        await engine.observeLogin(.seat(LoginSeat(activeSession: "c2", locked: false)))
        #expect(await engine.mirrorEnding(for: .auto).ending == .lift, "another session's compositor reads the devices now")
    }

    @Test("with no session on the seat (logind not followed), only a client in none may report")
    func noSession() async throws {
        let engine = try Self.actor()
        let inSession = await TouchSessionActorFocusTests.refused {
            try await engine.reportCompositor(Self.kwin, from: ClientID(rawValue: 1), loginSession: "c7")
        }
        #expect(inSession?.code == .notPermitted)
        try await engine.reportCompositor(Self.kwin, from: ClientID(rawValue: 2), loginSession: nil)
        #expect(await engine.mirrorEnding(for: .auto).ending == .cancel)
    }
}
