// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import Trace
import TouchTesting

/// Semantics §6 and issue 4, "System gestures": the system edge swipes and how they share touches with apps.
@Suite("System edge gestures")
struct SystemGestureTests {
    @Test("§6 a tap near the bottom edge still taps: the edge swipe is in play, fails on the lift, and the raw stream gets the touch")
    func tapNearEdge() {
        var e = defaultEngine()
        var script = GestureScript()
        tapScript(&script, x: 200, y: 298)
        let out = e.run(script)
        #expect(out.gestureSummary == ["tap:recognized"])
        #expect(!out.gestures.contains { $0.isSystem })
        #expect(out.debugLines.first == "1.000000 i1 t1: hit screen; in play: system:edge-bottom, screen/double-tap, screen/long-press, screen/pan, screen/pinch, screen/rotate, screen/swipe, screen/tap")
        #expect(out.debugLines.contains("1.080000 i1 system:edge-bottom: fails: lifted before travelling 6.0 mm inwards"))
        // Withheld while the system could still take it, delivered (began, moved) when it failed, then cancelled by the tap.
        #expect(out.rawOutline == ["screen:1:began", "screen:1:moved", "screen:1:cancelled"])
        #expect(out.rawTouches[0].time == script.time(80))
        #expect(out.rawTouches[0].touch.location == script.pixels(200, 298))
        #expect(e.isIdle)
    }

    @Test("§6 a swipe up from the bottom edge is the system's edge-swipe (home); the app's pan and raw stream never see the touch")
    func swipeUpFromBottom() throws {
        var e = defaultEngine()
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        let out = e.run(script)
        #expect(out.gestureOutline == ["edge-bottom:began", "edge-bottom:changed", "edge-bottom:ended"])
        let began = try #require(out.gestures.first)
        #expect(began.kind == .edgeSwipe && began.isSystem && began.owner == "system" && began.surface == nil)
        #expect(began.edge == .bottom && began.purpose == "home" && began.touches == 1)
        #expect(began.translation!.y <= -6 * 5 && began.velocity!.y < 0)
        let ended = try #require(out.gestures.last)
        #expect(abs(ended.translation!.y - -60 * 5) < 0.001 && ended.translation!.x == 0)
        #expect(out.rawTouches.isEmpty)
        #expect(out.debugLines.contains { $0.hasSuffix("screen/pan: waiting on system:edge-bottom to fail") })
        #expect(out.debugLines.contains { $0.hasSuffix("screen/pan: withheld actions dropped: system:edge-bottom recognized") })
        #expect(out.debugLines.contains { $0.hasSuffix("t1: withheld raw touch never delivered (taken by the system)") })
        #expect(e.isIdle)
    }

    @Test("§6 each edge has its purpose: top notifications, left back, right side-panel; configured purposes replace them")
    func purposes() {
        var e = defaultEngine()
        var script = GestureScript()
        strokeScript(&script, at: 0, x: 200, y: 1, dx: 0, dy: 40, duration: 150)
        strokeScript(&script, at: 1000, x: 2, y: 150, dx: 40, dy: 0, duration: 150)
        strokeScript(&script, at: 2000, x: 399, y: 150, dx: -40, dy: 0, duration: 150)
        let out = e.run(script)
        let began = out.gestures.filter { $0.state == .began }
        #expect(began.map(\.recognizer) == ["edge-top", "edge-left", "edge-right"])
        #expect(began.map(\.purpose) == ["notifications", "back", "side-panel"])
        #expect(began.map(\.edge) == [.top, .left, .right])

        var custom = Engine(configuration: systemConfiguration([], SystemGestureConfiguration(edges: [.left, .bottom], purposes: [.left: "back", .bottom: "overview"])))
        var swipe = GestureScript()
        bottomSwipe(&swipe, at: 0)
        strokeScript(&swipe, at: 1000, x: 200, y: 1, dx: 0, dy: 40, duration: 150)
        let customOut = custom.run(swipe)
        #expect(customOut.gestures.filter { $0.state == .began }.map(\.purpose) == ["overview"])
    }

    @Test("§6 a pinch with a finger in the edge zone stays a pinch: the edge swipe fails once the other finger is part of the pinch that began")
    func pinchKeepsItsEdgeFinger() throws {
        var e = defaultEngine()
        var script = GestureScript()
        script.down(1, at: 0, x: 200, y: 298)   // in the bottom zone, moves 13 mm inwards
        script.down(2, at: 0, x: 200, y: 250)   // above it: not the system's; moves towards it
        script.move(1, to: (200, 285), start: 0, duration: 200)
        script.move(2, to: (200, 275), start: 0, duration: 200)
        script.up(1, at: 210); script.up(2, at: 210)
        let out = e.run(script)
        #expect(!out.gestures.contains { $0.isSystem })
        let pinch = out.gestures.filter { $0.recognizer == "pinch" }
        #expect(pinch.first?.state == .began && pinch.last?.state == .ended)
        #expect(try #require(pinch.last?.scale) < 0.5)
        let reasons = out.debugRecords.compactMap { if case .failing(let r) = $0.kind { return r } else { return nil } }
        #expect(reasons.contains { $0.hasPrefix("another touch of the device is in a multi-finger gesture (screen/") })
        // Touch 2 was never the system's: its raw stream opened at once and closed when the pinch began.
        #expect(out.rawOutline.first == "screen:2:began")
    }

    @Test("§6 a one-finger edge swipe still begins beside a finger resting on the screen (the resting finger is in no gesture of its own)")
    func restingFingerDoesNotBlock() {
        var e = defaultEngine()
        var script = GestureScript()
        script.down(1, at: 0, x: 150, y: 150)   // resting, still
        script.down(2, at: 600, x: 200, y: 298)
        script.move(2, to: (200, 238), start: 600, duration: 200)
        script.up(2, at: 810); script.up(1, at: 900)
        let out = e.run(script)
        #expect(out.gestureOutline.contains("edge-bottom:began"))
        #expect(out.gestures.first { $0.recognizer == "edge-bottom" }?.touches == 1)
    }

    @Test("§6 fail fast: moving along the edge fails the system swipe; the app's pan gets its withheld began and moves, the raw stream began then moved")
    func alongEdge() throws {
        let quickPan = RecognizerConfiguration(name: "pan", kind: .pan(PanParameters(slop: 1)))
        var e = Engine(configuration: systemConfiguration([SurfaceConfiguration(id: "s", owner: "app", frame: fullFrame, recognizers: [quickPan])]))
        var script = GestureScript()
        strokeScript(&script, x: 200, y: 298, dx: 40, dy: 0, duration: 300)
        let out = e.run(script)
        let lines = out.debugLines
        let waiting = try #require(lines.firstIndex { $0.hasSuffix("s/pan: waiting on system:edge-bottom to fail") })
        let failing = try #require(lines.firstIndex { $0.hasSuffix("system:edge-bottom: fails: moved along the edge (more than 30.0 degrees from inwards)") })
        let released = try #require(lines.firstIndex { $0.hasSuffix("s/pan: released by system:edge-bottom failing") })
        #expect(waiting < failing && failing < released)
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        #expect(!out.gestures.contains { $0.isSystem })
        // The pan's began is delivered when the system fails, with the translation it already had (past its 1 mm slop).
        let began = try #require(out.gestures.first)
        #expect(began.translation!.x >= 1 * 5)
        // The raw stream: the withheld began and move at that moment, then cancelled because the pan began (§5).
        #expect(out.rawOutline == ["s:1:began", "s:1:moved", "s:1:cancelled"])
        #expect(out.rawTouches[0].time == began.time && out.rawTouches[1].time == began.time)
        #expect(out.rawTouches[0].touch.location == script.pixels(200, 298))
        #expect(out.rawTouches[1].touch.location.x > out.rawTouches[0].touch.location.x)
    }

    @Test("§6 fail fast: moving towards the edge, a second finger in the zone, or staying put past the time limit fail the system swipe")
    func failRules() {
        var e = defaultEngine()
        var script = GestureScript()
        strokeScript(&script, at: 0, x: 200, y: 296, dx: 1, dy: 3.5, duration: 100)           // out, towards the edge
        script.down(1, at: 1000, x: 200, y: 298); script.down(2, at: 1010, x: 230, y: 298)    // two fingers
        script.move(1, to: (200, 270), start: 1010, duration: 150); script.move(2, to: (230, 270), start: 1010, duration: 150)
        script.up(1, at: 1170); script.up(2, at: 1170)
        script.down(1, at: 3000, x: 100, y: 298)                                              // held, then up
        script.move(1, to: (100, 250), start: 3400, duration: 200)
        script.up(1, at: 3610)
        let out = e.run(script)
        let reasons = out.debugRecords.compactMap { if case .failing(let r) = $0.kind { return r } else { return nil } }
        #expect(reasons == ["moved towards the edge", "a second touch joined: not a one-finger edge swipe", "no inward swipe within 300.0 ms"])
        #expect(!out.gestures.contains { $0.isSystem })
        // All three strokes are the app's.
        #expect(out.gestures.filter { $0.recognizer == "pan" && $0.state == .began }.count == 3)
        let timeLimit = out.debugRecords.first { $0.kind == .failing(reason: "no inward swipe within 300.0 ms") }
        #expect(timeLimit?.time == script.time(3300))
    }

    @Test("§6 in a corner both edges are in play; the one the swipe goes away from wins and excludes the other")
    func corner() {
        var e = defaultEngine()
        var script = GestureScript()
        strokeScript(&script, x: 2, y: 298, dx: 0, dy: -40, duration: 150)
        let out = e.run(script)
        #expect(out.gestureOutline == ["edge-bottom:began", "edge-bottom:changed", "edge-bottom:ended"])
        #expect(out.debugLines.contains { $0.contains("in play: system:edge-bottom, system:edge-left, screen/") })
        #expect(out.debugLines.contains { $0.hasSuffix("system:edge-left: fails: moved along the edge (more than 30.0 degrees from inwards)") })
    }

    @Test("§6 a screen without system gestures, or with some edges switched off, has no system swipes there")
    func edgesOff() {
        var none = engine([pan])
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        #expect(none.run(script).gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        var some = Engine(configuration: systemConfiguration([SurfaceConfiguration(id: "s", owner: "app", frame: fullFrame, recognizers: [pan])],
                                                             SystemGestureConfiguration(edges: [.top])))
        let out = some.run(script)
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        #expect(out.rawOutline.first == "s:1:began" && out.rawTouches[0].time == script.time(0))
    }

    @Test("§6 edge zone, travel and angle are configurable: a 10 mm zone takes a touch 8 mm in; a 20 mm travel needs 20 mm")
    func thresholds() throws {
        var e = Engine(configuration: systemConfiguration([], SystemGestureConfiguration(edgeZone: 10, minTravel: 20, maxAngle: 45)))
        var script = GestureScript()
        strokeScript(&script, x: 200, y: 292, dx: 30, dy: -40, duration: 150)  // 37 degrees from straight up
        let out = e.run(script)
        let began = try #require(out.gestures.first)
        #expect(began.recognizer == "edge-bottom" && began.state == .began)
        #expect(began.translation!.y <= -20 * 5 && began.translation!.y > -25 * 5)
    }

    @Test("§6 system edge swipes follow each screen: screen 1 has its own, named edge-bottom-1")
    func secondScreen() {
        var e = Engine(configuration: .default(screens: [testScreen, testScreen]))
        var script = GestureScript(screen: 1)
        bottomSwipe(&script, at: 0)
        let out = e.run(script)
        #expect(out.gestureOutline == ["edge-bottom-1:began", "edge-bottom-1:changed", "edge-bottom-1:ended"])
        #expect(out.debugLines.first?.hasSuffix("in play: system:edge-bottom-1, screen-1/double-tap, screen-1/long-press, screen-1/pan, screen-1/pinch, screen-1/rotate, screen-1/swipe, screen-1/tap") == true)
    }
}

/// The synthetic trace `Tests/Fixtures/synthetic/edge-swipes.touchd` (expected behaviour in the README next to it),
/// through the touch pipeline and the built-in configuration, at the fallback density and at the panel's own.
extension SystemGestureTests {
    static let fixture: String = {
        var parts = "\(#filePath)".split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/GesturesTests/SystemGestureTests.swift
        return parts.joined(separator: "/") + "/Tests/Fixtures/synthetic/edge-swipes.touchd"
    }()

    @Test("§6 edge-swipes.touchd: swipe up = edge-bottom (home) only; tap near the edge = tap; along the edge = pan and swipe",
          arguments: [nil, 8.0])
    func syntheticTrace(pixelsPerMillimetre: Double?) throws {
        let recording = try TraceReader.read(path: Self.fixture)
        #expect(recording.devices.count == 1 && recording.warnings.isEmpty)
        var pipeline = TouchPipeline()
        pipeline.addDevice(DeviceID(0), description: recording.devices[0].description)
        var e = Engine(configuration: .default(screens: [ScreenGeometry(width: 1920, height: 1080, pixelsPerMillimetre: pixelsPerMillimetre)]))
        var out: [EngineOutput] = []
        for r in recording.events {
            if let frame = pipeline.process(r.event, from: r.device) { e.handle(frame, into: &out) }
        }
        out += e.advance(to: Timestamp(seconds: 10, microseconds: 0))
        func during(_ from: Int64, _ to: Int64) -> [EngineOutput] {
            out.filter { o in
                let t: Timestamp
                switch o {
                case .gesture(let g): t = g.time
                case .touch(let r): t = r.time
                case .debug(let d): t = d.time
                case .system(let s): t = s.time
                case .mirror(let m): t = m.time
                }
                return t.microseconds >= from && t.microseconds < to
            }
        }
        let swipe = during(1_000_000, 3_000_000), tap = during(3_000_000, 5_000_000), along = during(5_000_000, 7_000_000)
        #expect(swipe.gestureOutline == ["edge-bottom:began", "edge-bottom:changed", "edge-bottom:ended"])
        #expect(swipe.gestures.allSatisfy { $0.isSystem && $0.purpose == "home" && $0.edge == .bottom })
        #expect(swipe.rawTouches.isEmpty)
        #expect(tap.gestureSummary == ["tap:recognized"])
        #expect(tap.gestures.first?.time == Timestamp(microseconds: 3_380_000))
        #expect(tap.rawTouches.first?.time == Timestamp(microseconds: 3_080_000))
        #expect(tap.rawOutline == ["screen:2:began", "screen:2:moved", "screen:2:cancelled"])
        #expect(along.gestures.filter { $0.state == .began || $0.state == .recognized }.map(\.recognizer) == ["pan", "swipe"])
        #expect(along.gestures.last?.recognizer == "pan" && along.gestures.last?.state == .ended)
        #expect(along.rawOutline == ["screen:3:began", "screen:3:moved", "screen:3:cancelled"])
        #expect(!along.gestures.contains { $0.isSystem } && !tap.gestures.contains { $0.isSystem })
        #expect(e.isIdle)
    }
}
