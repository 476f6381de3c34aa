// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

/// Gesture events carry what a client needs (semantics §4: "events must carry
/// everything a client needs"), even when measured after every touch lifted.
@Suite struct GestureEventTests {
    func tapEvent(type: TouchType, device: DeviceID) throws -> GestureEvent {
        var script = GestureScript(device: device)
        script.down(0, at: 0, x: 50, y: 50, type: type)
        script.up(0, at: 80)
        var engine = Engine(configuration: .default(screens: [ScreenGeometry(width: 1920, height: 1080)]))
        let taps = engine.run(script, settleMS: 1000).gestures.filter { $0.recognizer == "tap" }
        return try #require(taps.first)
    }

    @Test("§4 a stylus tap reports a stylus touch type and its device", arguments: [TouchType.stylus, .indirect, .direct])
    func discreteGestureKeepsTouchTypeAndDevice(_ type: TouchType) throws {
        let e = try tapEvent(type: type, device: DeviceID(3))
        #expect(e.touchType == type)
        #expect(e.device == DeviceID(3))
        #expect(e.state == .recognized && e.touches == 1)
    }
}
