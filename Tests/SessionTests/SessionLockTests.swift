// SPDX-License-Identifier: MIT
import Gestures
import JSON
import Session
import Testing
import TouchCore
import Wire

/// Semantics §13: the session core's lock policy, and the session quieting the engine.
@Suite("The locked session: policy and session core")
struct SessionLockTests {
    @Test("§13 locked or a greeter: quiet; unlocked or no session at all: not; logind never reached: unknown, not quiet; lost after an answer: the last answer stands")
    func policy() {
        var p = SessionLockPolicy()
        #expect(p.status == .unknown)
        #expect(p.observe(.unavailable) == nil)
        #expect(p.observe(.seat(LoginSeat(activeSession: "c1", locked: false))) == LoginSessionStatus(state: .unlocked, session: "c1", quiet: false))
        #expect(p.observe(.seat(LoginSeat(activeSession: "c1", locked: false))) == nil)
        #expect(p.observe(.seat(LoginSeat(activeSession: "c1", locked: true))) == LoginSessionStatus(state: .locked, session: "c1", quiet: true))
        // Losing the bus never unlocks.
        #expect(p.observe(.lost) == nil)
        #expect(p.status.quiet && p.status.state == .locked)
        // No session at all: nobody to protect, touchd acts; a greeter counts as locked.
        #expect(p.observe(.seat(LoginSeat(activeSession: nil, locked: false))) == LoginSessionStatus(state: .none, quiet: false))
        #expect(p.observe(.seat(LoginSeat(activeSession: "g1", locked: false, sessionClass: "greeter")))
            == LoginSessionStatus(state: .greeter, session: "g1", quiet: true))
        #expect(p.observe(.seat(LoginSeat(activeSession: "l1", locked: false, sessionClass: "lock-screen")))?.quiet == true)
        #expect(p.observe(.seat(LoginSeat(activeSession: "c1", locked: false, sessionClass: "user")))?.quiet == false)
        #expect(p.status.explanation.contains("unlocked"))
        #expect(p.observe(.seat(LoginSeat(activeSession: "c2", locked: false)))?.session == "c2")
        #expect(p.observe(.unavailable) == .unknown)
        // Starting: quiet until the first answer; no logind then: not quiet.
        var starting = SessionLockPolicy()
        #expect(starting.observe(.connecting) == LoginSessionStatus(state: .unknown, quiet: true))
        #expect(starting.observe(.unavailable) == .unknown)
    }

    struct Collect: SessionSink {
        var outputs: [EngineOutput] = []
        var statuses: [LoginSessionStatus] = []
        mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine) { self.outputs += outputs }
        mutating func engineOutputs(_ outputs: [EngineOutput]) { self.outputs += outputs }
        mutating func device(_ event: SessionDeviceEvent) {}
        mutating func sessionChanged(_ status: LoginSessionStatus, at time: Timestamp) { statuses.append(status) }
    }

    @Test("§13 the session core quiets the engine when logind says locked, and tells the sink once per change")
    func sessionQuietsTheEngine() throws {
        var session = TouchSession(configuration: try TouchdConfiguration.parse(
            yaml: "shortcuts:\n  - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3}\n", file: "touchd.yaml"))
        var sink = Collect()
        session.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: true)), into: &sink)
        #expect(session.engine.sessionQuiet)
        session.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: true)), into: &sink)
        session.observeLogin(.lost, into: &sink)
        #expect(session.engine.sessionQuiet)
        session.observeLogin(.seat(LoginSeat(activeSession: "c1", locked: false)), into: &sink)
        #expect(!session.engine.sessionQuiet)
        #expect(sink.statuses.map(\.state) == [.locked, .unlocked])
    }

    @Test("whenLocked in touchd.yaml: on shortcuts (true/false), on system gestures (true or a list of edges); bad values name the key")
    func configuration() throws {
        let c = try TouchdConfiguration.parse(yaml: """
        shortcuts:
          - {name: unlock, kind: swipe, minTouches: 4, maxTouches: 4, whenLocked: true}
          - {name: switcher, kind: swipe, minTouches: 3, maxTouches: 3}
        systemGestures:
          - {screen: 0, whenLocked: [bottom]}
        """, file: "touchd.yaml")
        #expect(c.gestures.shortcuts.map(\.whenLocked) == [true, false])
        #expect(c.gestures.systemGestures[0].whenLocked == [.bottom])
        let all = try TouchdConfiguration.parse(yaml: "systemGestures:\n  - {whenLocked: true}\n", file: "touchd.yaml")
        #expect(all.gestures.systemGestures[0].whenLocked == Set(SurfaceEdge.allCases))
        for (yaml, fragment) in [
            ("systemGestures:\n  - {whenLocked: [middle]}\n", "'middle' is not an edge"),
            ("shortcuts:\n  - {name: a, kind: tap, whenLocked: sometimes}\n", "whenLocked"),
        ] {
            do {
                _ = try TouchdConfiguration.parse(yaml: yaml, file: "touchd.yaml")
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.description.contains(fragment), "\(error.description)")
            }
        }
    }

    @Test("the session message and hello's session field, as clients read them back")
    func wire() throws {
        let status = LoginSessionStatus(state: .locked, session: "c1", quiet: true)
        let line = String(decoding: MessageEncoder.line { MessageEncoder.session(status, time: 1.5, into: &$0) }, as: UTF8.self)
        #expect(line == #"{"type":"session","time":1.5,"state":"locked","session":"c1","quiet":true}"#)
        let parsed = try JSONParser.parse(Array(line.utf8))
        #expect(LoginSessionStatus(json: parsed) == status)
        let hello = String(decoding: MessageEncoder.line { MessageEncoder.hello(devices: [], screens: [], session: .unknown, into: &$0) }, as: UTF8.self)
        #expect(hello.hasSuffix(#""screens":[],"session":{"state":"unknown","quiet":false}}"#), "\(hello)")
    }
}

/// The secondary click's configuration and placement (docs/shortcuts.md, "Secondary click").
@Suite("Shortcut clicks")
struct ShortcutClickTests {
    @Test("click: right on a long press; the binding fires at its start on its screen; a bad button names the key")
    func configuration() throws {
        let c = try TouchdConfiguration.parse(yaml: """
        screens:
          - {name: a, width: 800, height: 480}
          - {name: b, width: 1000, height: 500}
        shortcuts:
          - {name: context-menu, kind: long-press, click: right, screen: 1}
        """, file: "touchd.yaml")
        let bindings = ShortcutKeyBindings(c.gestures)
        #expect(bindings.isEmpty, "a click binds no key: no keyboard")
        #expect(bindings.clickScreens == [1])
        var event = GestureEvent(time: .zero, device: DeviceID(0), surface: nil, owner: "system", recognizer: "context-menu",
                                 kind: .longPress, state: .began, touches: 1, touchType: .direct,
                                 location: Point(x: 250, y: 400), isSystem: true)
        #expect(bindings.click(for: event) == ShortcutKeyBindings.Click(button: .right, screen: 1, moment: .start))
        let at = try #require(ShortcutKeyBindings.pointerPosition(of: event, screenWidth: 1000, screenHeight: 500))
        #expect(at.x == 0.25 && at.y == 0.8)
        event.state = .ended
        #expect(bindings.click(for: event) == nil)
        event.isSystem = false
        event.state = .began
        #expect(bindings.click(for: event) == nil, "only the system's gestures click")
        do {
            _ = try TouchdConfiguration.parse(yaml: "shortcuts:\n  - {name: m, kind: long-press, click: double}\n", file: "touchd.yaml")
            Issue.record("accepted click: double")
        } catch {
            #expect(error.description.contains("click"), "\(error.description)")
        }
    }
}
