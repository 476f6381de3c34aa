// SPDX-License-Identifier: MIT
import Gestures
import JSON
import Session
import Testing
import TouchCore
import Trace
import Wire

/// Gestures per app through the session core and the trace: focus changes recorded as `focus`
/// lines replay as they were decided live (docs/trace-format.md, docs/configuration.md).
@Suite("Gestures per app: focus in the session core and in traces")
struct TouchSessionFocusTests {
    static let root: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/SessionTests/TouchSessionFocusTests.swift
        return parts.joined(separator: "/")
    }()
    static let threeFingerSwipe = root + "/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.3-finger-swipe-right.events"
    static let edgeSwipes = root + "/Tests/Fixtures/synthetic/edge-swipes.touchd"

    /// `recording`'s events from `from` to `to` (µs) played once at each of `starts`, one device,
    /// with `focus` requests at their times; written as a native trace and read back, so the
    /// replay goes through the `focus` lines.
    static func trace(_ recording: Recording, from: Int64 = 0, to: Int64 = .max, starts: [Int64],
                      focus: [(Int64, String)]) throws -> Recording {
        let slice = recording.events.filter { $0.event.time.microseconds >= from && $0.event.time.microseconds < to }
        let first = try #require(slice.first).event.time.microseconds
        var events: [RecordedEvent] = []
        for start in starts {
            for var e in slice {
                e.event.time = Timestamp(microseconds: e.event.time.microseconds - first + start)
                events.append(e)
            }
        }
        let changes = try focus.map { (time, request) in
            RecordedScreenChange(time: Timestamp(microseconds: time), request: try JSONParser.parse(Array(request.utf8)))
        }
        let built = Recording(devices: recording.devices, events: events, format: .native, screenChanges: changes)
        let text = try TraceWriter.render(built, as: .native)
        #expect(text.contains(#"{"type":"focus","#), "\(text.prefix(400))")
        let read = try TraceReader.read(text: text, name: "focus.touchd")
        #expect(read.screenChanges.count == focus.count)
        return read
    }

    static func gestures(_ recording: Recording, _ yaml: String) throws -> [GestureEvent] {
        var found: [GestureEvent] = []
        let config = try TouchdConfiguration.parse(yaml: yaml, file: "touchd.yaml")
        ReplaySession(recordings: [recording], configuration: config).run { out in
            if case .engine(.gesture(let g)) = out { found.append(g) }
        }
        return found
    }

    @Test("the same three-finger swipe types its keys over app A and nothing over app B, live as in replay")
    func shortcutPerApp() throws {
        let yaml = """
        shortcuts:
          - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, keys: [KEY_LEFTMETA, KEY_TAB], apps: ["org.example.a*"]}
        """
        let trace = try Self.trace(TraceReader.read(path: Self.threeFingerSwipe), starts: [1_000_000, 5_000_000, 9_000_000],
                                   focus: [(500_000, #"{"op":"focus","appId":"org.example.alpha","title":"A"}"#),
                                           (4_000_000, #"{"op":"focus","appId":"org.example.beta","title":"B"}"#),
                                           (8_000_000, #"{"op":"focus"}"#)])
        let config = try TouchdConfiguration.parse(yaml: yaml, file: "touchd.yaml")
        let bindings = ShortcutKeyBindings(config.gestures)
        let events = try Self.gestures(trace, yaml)
        let typed = events.filter { bindings.keys(for: $0) != nil }.map(\.time.microseconds)
        #expect(!typed.isEmpty && typed.allSatisfy { $0 < 4_000_000 }, "keys typed at \(typed)")
        #expect(!events.contains { $0.recognizer == "app-switcher" && $0.time.microseconds >= 4_000_000 },
                "over app B and with the focus unknown the shortcut is off")
        // Over B the app gets the swipe instead (the built-in screen's recognizers).
        #expect(events.contains { !$0.isSystem && $0.time.microseconds >= 5_000_000 && $0.time.microseconds < 8_000_000 })
    }

    @Test("the bottom edge is deferred for app B only: over A the first swipe is home; over B it is B's with a hint, a second one home")
    func deferredEdgePerApp() throws {
        let yaml = """
        screens:
          - {name: panel, width: 1920, height: 1080, sizeMM: {width: 240, height: 135}}
        appRules:
          - {match: {appId: org.example.b}, deferEdges: [bottom]}
        """
        // Stroke 1 of edge-swipes.touchd (up from the bottom edge, 1.0 to 1.208 s): over A at 1 s;
        // over B at 5 s and, within the deferral window, again at 6 s.
        let trace = try Self.trace(TraceReader.read(path: Self.edgeSwipes), from: 1_000_000, to: 2_000_000,
                                   starts: [1_000_000, 5_000_000, 6_000_000],
                                   focus: [(500_000, #"{"op":"focus","appId":"org.example.a"}"#),
                                           (4_000_000, #"{"op":"focus","appId":"org.example.b","fullScreen":true}"#)])
        var hints: [Int64] = []
        var events: [GestureEvent] = []
        let config = try TouchdConfiguration.parse(yaml: yaml, file: "touchd.yaml")
        ReplaySession(recordings: [trace], configuration: config).run { out in
            if case .engine(.gesture(let g)) = out { events.append(g) }
            if case .engine(.system(let s)) = out, case .edgeHint = s.kind { hints.append(s.time.microseconds) }
        }
        func home(_ from: Int64, _ to: Int64) -> Bool {
            events.contains { $0.recognizer == "edge-bottom" && $0.state == .began && $0.time.microseconds >= from && $0.time.microseconds < to }
        }
        #expect(home(1_000_000, 2_000_000), "over A the first swipe is the system's")
        #expect(!home(5_000_000, 6_000_000), "over B the first swipe is the app's")
        #expect(events.contains { $0.recognizer == "pan" && $0.state == .began && $0.time.microseconds >= 5_000_000 && $0.time.microseconds < 6_000_000 })
        #expect(hints.count == 1 && hints.allSatisfy { $0 >= 5_000_000 && $0 < 6_000_000 }, "hints at \(hints)")
        #expect(home(6_000_000, 7_000_000), "the second swipe within the window is the system's")
    }

    @Test("the edge's deferral policy still decides: onlyFullScreen grants app B's rule only while its window is full-screen")
    func policyDecidesForApps() throws {
        let yaml = """
        screens:
          - {name: panel, width: 1920, height: 1080, sizeMM: {width: 240, height: 135}}
        systemGestures:
          - {screen: 0, deferral: {bottom: onlyFullScreen}}
        appRules:
          - {match: {appId: org.example.b}, deferEdges: [bottom]}
        """
        // Over B windowed at 1 s: refused, the swipe is home; over B full-screen at 5 s: deferred.
        let trace = try Self.trace(TraceReader.read(path: Self.edgeSwipes), from: 1_000_000, to: 2_000_000,
                                   starts: [1_000_000, 5_000_000],
                                   focus: [(500_000, #"{"op":"focus","appId":"org.example.b"}"#),
                                           (4_000_000, #"{"op":"focus","appId":"org.example.b","fullScreen":true}"#)])
        let events = try Self.gestures(trace, yaml)
        let homes = events.filter { $0.recognizer == "edge-bottom" && $0.state == .began }.map(\.time.microseconds)
        #expect(homes.count == 1 && homes.allSatisfy { $0 < 2_000_000 }, "home began at \(homes)")
    }

    @Test("a focus change while touches are down waits for them to lift: a gesture is not cancelled by its own effect")
    func focusWaitsForLift() throws {
        var e = Engine(configuration: .default(screens: [ScreenGeometry(width: 1920, height: 1080)]))
        _ = e.setFocus(FocusedApp(appID: "a"))
        #expect(e.focus?.appID == "a")
        let down = TouchFrame(device: DeviceID(0), time: Timestamp(microseconds: 1000), touches: [
            Touch(id: TouchID(1), device: DeviceID(0), phase: .began, type: .direct, tool: .finger,
                  time: Timestamp(microseconds: 1000), location: Point(x: 500, y: 500)),
        ])
        _ = e.handle(down)
        _ = e.setFocus(FocusedApp(appID: "b"))
        #expect(e.focus?.appID == "a", "applied only once the touch lifts")
        var up = down
        up.time = Timestamp(microseconds: 2000)
        up.touches[0].phase = .ended
        up.touches[0].time = up.time
        _ = e.handle(up)
        #expect(e.focus?.appID == "b")
    }

    @Test("bad conditions name the key and its line: an unknown key, a malformed glob, appRules without appId")
    func badConditions() throws {
        for (yaml, fragment) in [
            ("shortcuts:\n  - {name: s, kind: swipe, notApp: [x]}\n", "notApp"),
            ("shortcuts:\n  - {name: s, kind: swipe,\n     apps: [\"org.[a-\"]}\n", "touchd.yaml:3: shortcuts[0].apps"),
            ("systemGestures:\n  - {screen: 0, notApps: [\"\"]}\n", "systemGestures[0].notApps"),
            ("systemGestures:\n  - {screen: 0, fullScreen: maybe}\n", "systemGestures[0].fullScreen"),
            ("appRules:\n  - {deferEdges: [bottom]}\n", "appRules[0]"),
            ("appRules:\n  - {match: {appId: \"[]x\"}, deferEdges: [bottom]}\n", "touchd.yaml:2: appRules[0].match.appId: '[]x' is not a glob"),
            ("appRules:\n  - {match: {appId: x}, deferEdges: [middle]}\n", "appRules[0].deferEdges"),
        ] {
            do {
                _ = try TouchdConfiguration.parse(yaml: yaml, file: "touchd.yaml")
                Issue.record("accepted: \(yaml)")
            } catch {
                #expect(error.description.contains(fragment), "\(error.description)")
            }
        }
        let c = try TouchdConfiguration.parse(yaml: """
        shortcuts:
          - {name: s, kind: swipe, apps: ["org.*"], notApps: [org.game], fullScreen: false}
        systemGestures:
          - {screen: 0, notApps: ["*.krita"]}
        appRules:
          - {match: {appId: "org.krita*", fullScreen: true}, deferEdges: [bottom, left]}
        """, file: "touchd.yaml")
        #expect(c.gestures.shortcuts[0].condition == AppCondition(apps: ["org.*"], notApps: ["org.game"], fullScreen: false))
        #expect(c.gestures.systemGestures[0].condition.notApps == ["*.krita"])
        #expect(c.gestures.appRules == [AppRule(match: AppCondition(apps: ["org.krita*"], fullScreen: true), deferEdges: [.bottom, .left])])
    }
}
