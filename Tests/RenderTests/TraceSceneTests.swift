// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import Session
import Testing

@testable import Render

private func t(_ ms: Int64) -> Timestamp { Timestamp(microseconds: ms * 1000) }

private func touch(_ id: Int, _ phase: TouchPhase, at ms: Int64, x: Double = 0, inProximity: Bool = true) -> ReplayOutput {
    .touch(Touch(id: TouchID(id), device: DeviceID(0), phase: phase, type: phase == .hover ? .stylus : .direct,
                 tool: phase == .hover ? .pen : .finger, time: t(ms), location: Point(x: x, y: 0), inProximity: inProximity))
}

private func debug(_ ms: Int64, _ recognizer: String?, _ kind: DebugRecord.Kind) -> ReplayOutput {
    .engine(.debug(DebugRecord(time: t(ms), interaction: 1, touch: nil, recognizer: recognizer, kind: kind)))
}

@Suite struct TraceSceneTests {
    @Test func aReusedTouchIDStartsANewTrack() {
        var c = SceneCollector()
        for o in [touch(1, .began, at: 0), touch(1, .moved, at: 10, x: 5), touch(1, .ended, at: 20, x: 5),
                  touch(1, .began, at: 30), touch(1, .cancelled, at: 40), touch(2, .hover, at: 50),
                  touch(2, .hover, at: 60, inProximity: false), touch(3, .began, at: 70)] {
            c.add(o)
        }
        c.finish()
        #expect(c.tracks.map(\.id.rawValue) == [1, 1, 2, 3])
        #expect(c.tracks.map(\.end) == [.ended, .cancelled, .proximityOut, .open])
        #expect(c.tracks.map(\.samples.count) == [3, 2, 2, 1])
        #expect(c.tracks.map(\.hasContact) == [true, true, false, true])
        #expect(c.first == t(0) && c.last == t(70))
    }

    @Test func lanesFollowTransitionsAndGoIdleOnReset() {
        var c = SceneCollector()
        c.add(touch(1, .began, at: 0))
        c.add(debug(0, nil, .inPlay(surface: "screen", recognizers: ["screen/tap", "screen/pan"])))
        c.add(debug(50, "screen/tap", .transition(from: .possible, to: .recognized)))
        c.add(debug(50, "screen/tap", .waiting(on: "screen/double-tap")))
        c.add(debug(300, "screen/tap", .transition(from: .recognized, to: .possible)))
        c.add(debug(60, "screen/pan", .excluded(by: "screen/tap")))
        c.add(debug(60, "screen/pan", .transition(from: .possible, to: .failed)))
        c.add(debug(400, nil, .inPlay(surface: "screen", recognizers: ["screen/tap"])))
        c.add(touch(1, .ended, at: 500))
        c.add(debug(0, "screen/unused", .refused(reason: "type")))
        c.finish()
        let tap = c.lanes[0].lane
        #expect(tap.recognizer == "screen/tap")
        #expect(tap.intervals == [
            .init(state: .possible, start: t(0), end: t(50)),
            .init(state: .recognized, start: t(50), end: t(300)),
            .init(state: .possible, start: t(400), end: t(500)),
        ])
        #expect(tap.decisions.map(\.kind) == ["waiting"])
        #expect(tap.decisions.first?.other == "screen/double-tap")
        let pan = c.lanes[1].lane
        #expect(pan.intervals.map(\.state) == [.possible, .failed])
        #expect(pan.intervals.last?.end == t(500))
        #expect(pan.decisions.first?.kind == "excluded")
        // A recognizer that only refused a touch saw none: it gets no lane in a scene.
        #expect(c.lanes.filter(\.sawTouches).map(\.lane.recognizer) == ["screen/tap", "screen/pan"])
    }

    @Test func edgeZonesUseTheScreenDensity() {
        var g = GestureConfiguration(screens: [ScreenGeometry(width: 1000, height: 500, pixelsPerMillimetre: 4)])
        g.systemGestures = [SystemGestureConfiguration(screen: 0, edges: [.left, .bottom], edgeZone: 5)]
        let zones = TraceScene.edgeZones(g)
        #expect(zones.map(\.edge) == [.left, .bottom])
        #expect(zones[0].rect == ScreenRect(x: 0, y: 0, width: 20, height: 500))
        #expect(zones[1].rect == ScreenRect(x: 0, y: 480, width: 1000, height: 20))
        #expect(zones[1].purpose == "home")
        g.screens[0].pixelsPerMillimetre = nil
        #expect(TraceScene.edgeZones(g)[0].rect.width == 5 * ScreenGeometry.fallbackPixelsPerMillimetre)
    }

    @Test func tickStepsAreOneTwoOrFiveTimesAPowerOfTen() {
        #expect(Timeline.tickStep(forDuration: 8) == 1)
        #expect(Timeline.tickStep(forDuration: 566) == 100)
        #expect(Timeline.tickStep(forDuration: 1800) == 200)
        #expect(Timeline.tickStep(forDuration: 4304) == 500)
        #expect(Timeline.tickStep(forDuration: 100_000) == 10_000)
    }
}
