// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import Testing
import TouchTesting

/// The engine invariants the fuzz harness (Fuzz/, fuzz-pipeline-engine) checks.
@Suite struct EngineInvariantCheckerTests {
    func gesture(_ name: String, _ kind: GestureKind, _ state: GestureState, at ms: Double = 0) -> EngineOutput {
        .gesture(GestureEvent(
            time: Timestamp(microseconds: Int64(ms * 1000)), device: DeviceID(0), surface: "s", owner: "app",
            recognizer: name, kind: kind, state: state, touches: 1, touchType: .direct, location: Point(x: 1, y: 1)))
    }

    func raw(_ phase: TouchPhase, touch id: Int) -> EngineOutput {
        let t = Touch(id: TouchID(id), device: DeviceID(0), phase: phase, type: .direct, tool: .finger, time: .zero, location: .zero)
        return .touch(RawTouchEvent(time: .zero, surface: "s", owner: "app", phase: phase, touch: t))
    }

    @Test func aRealisticRunHasNoViolation() {
        var script = GestureScript()
        tapScript(&script, 1, at: 0)
        strokeScript(&script, 2, at: 600, dx: 40, dy: 0, duration: 300)
        script.down(3, at: 1200, x: 50, y: 50)
        script.up(3, at: 2000)  // a long press
        var e = engine([tap, pan, RecognizerConfiguration(name: "hold", kind: .longPress(LongPressParameters()))])
        var checker = EngineInvariantChecker()
        for o in e.run(script) { checker.check(o) }
        checker.checkAllEnded(e)
        #expect(checker.violations == [])
        #expect(checker.actionCount >= 5)
    }

    @Test func illegalActionOrdersAreReported() {
        var checker = EngineInvariantChecker()
        for o in [gesture("pan", .pan, .changed), gesture("pan", .pan, .began), gesture("pan", .pan, .began),
                  gesture("pan", .pan, .recognized), gesture("tap", .tap, .began), gesture("pinch", .pinch, .ended)] {
            checker.check(o)
        }
        #expect(checker.violations == [
            "0.000000 s/app:pan (pan): changed before began",
            "0.000000 s/app:pan (pan): began twice",
            "0.000000 s/app:pan (pan): recognized for a continuous kind",
            "0.000000 s/app:pan (pan): recognized while active",
            "0.000000 s/app:tap (tap): began for a discrete kind",
            "0.000000 s/app:pinch (pinch): ended before began",
        ])
        #expect(checker.activeGestures == ["s/app:pan", "s/app:tap"])
    }

    @Test func rawTouchStreamsMustOpenAndClose() {
        var checker = EngineInvariantChecker()
        for o in [raw(.moved, touch: 1), raw(.began, touch: 2), raw(.began, touch: 2), raw(.ended, touch: 3), raw(.began, touch: 4), raw(.cancelled, touch: 4)] {
            checker.check(o)
        }
        #expect(checker.violations.map { $0.components(separatedBy: ": ").last! } == [
            "raw moved before began", "raw began twice", "raw ended before began",
        ])
        #expect(checker.openRawTouches == ["s 2"])
    }

    @Test func anEngineWithATouchDownIsNotDone() {
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        var e = engine([tap, pan])
        var checker = EngineInvariantChecker()
        for o in e.run(script, within: 0...0) { checker.check(o) }
        checker.checkAllEnded(e)
        #expect(checker.violations.contains("the engine is not idle after every touch ended and every deadline passed"))
        #expect(checker.openRawTouches.count == 1)
    }
}
