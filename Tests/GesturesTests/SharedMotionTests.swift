// SPDX-License-Identifier: MIT
@testable import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Shared motion")
struct SharedMotionTests {
    /// Three fingers spreading and turning around (100, 100) mm while drifting right; a fourth joins
    /// mid-gesture and one lifts early, so the set of touches present changes twice.
    static func spreadAndTurn() -> GestureScript {
        var script = GestureScript()
        let centre = (x: 100.0, y: 100.0)
        let starts = [0.0, 2.1, 4.2]  // radians
        for (i, a) in starts.enumerated() {
            script.down(i + 1, at: 0, x: centre.x + 8 * Angles.cos(a), y: centre.y + 8 * Angles.cos(a - Angles.pi / 2))
        }
        var ms = 8.0
        for step in 1...40 {
            let k = Double(step)
            let r = 8 + 0.4 * k, turn = 0.02 * k, drift = 0.5 * k
            for (i, a) in starts.enumerated() where !(i == 2 && step > 30) {
                script.move(i + 1, at: ms, x: centre.x + drift + r * Angles.cos(a + turn),
                            y: centre.y + r * Angles.cos(a + turn - Angles.pi / 2))
            }
            if step == 12 { script.down(4, at: ms, x: centre.x + drift + 20, y: centre.y + 20) }
            if step > 12 { script.move(4, at: ms, x: centre.x + drift + 20 + 0.3 * k, y: centre.y + 20) }
            if step == 30 { script.up(3, at: ms + 4) }
            ms += 8
        }
        for f in [1, 2, 4] { script.up(f, at: ms) }
        return script
    }

    static let pinch = RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()), simultaneousWith: .all)
    static let rotate = RecognizerConfiguration(name: "rotate", kind: .rotate(RotateParameters()), simultaneousWith: .all)
    static let pan = RecognizerConfiguration(name: "pan", kind: .pan(PanParameters()), simultaneousWith: .all)
    /// Takes at most three touches once active: follows a different set from the others after the fourth joins.
    static let pinch3 = RecognizerConfiguration(name: "pinch-3", kind: .pinch(PinchParameters(maxTouches: 3)), simultaneousWith: .all)

    // Semantics section 4: recognizers allowed to recognize simultaneously each report their own
    // translation, scale and rotation, exactly as if they were alone on the touches.
    @Test("pinch, rotate and pan on the same touches give the events each gives alone, bit for bit")
    func sameEventsAsAlone() throws {
        let script = Self.spreadAndTurn()
        let all = [Self.pinch, Self.rotate, Self.pan, Self.pinch3]
        var together = engine(all)
        let shared = together.run(script).gestures
        for r in all {
            var alone = engine([r])
            let own = alone.run(script).gestures
            #expect(own.count > 3, "\(r.name) should begin and change")
            #expect(shared.filter { $0.recognizer == r.name } == own, "\(r.name)")
        }
        // The motion really moved: scale, rotation and translation all far from their rest values.
        let last = { (name: String) in shared.last { $0.recognizer == name && $0.state == .changed } }
        #expect(try #require(last("pinch")?.scale) > 1.5)
        #expect(try #require(last("rotate")?.rotation) > 0.3)
        #expect(try #require(last("pan")?.translation).x > 50)
    }

    @Test("recognizers following the same touches share one measurement; another set gets its own")
    func oneMeasurementPerSet() {
        var pinchCore = RecognizerCore(), rotateCore = RecognizerCore(), panCore = RecognizerCore(), pairCore = RecognizerCore()
        pinchCore.measuresScale = true
        rotateCore.measuresRotation = true
        let t0 = Timestamp(microseconds: 1_000_000), t1 = Timestamp(microseconds: 1_008_000)
        let starts = [Point(x: 90, y: 100), Point(x: 110, y: 100), Point(x: 100, y: 120)]
        for (i, p) in starts.enumerated() {
            let touch = Self.touch(i + 1, .began, at: t0, p)
            pinchCore.add(touch, key: i + 1); rotateCore.add(touch, key: i + 1); panCore.add(touch, key: i + 1)
            if i < 2 { pairCore.add(touch, key: i + 1) }
        }
        var motion = SharedMotion()
        for core in [pinchCore, rotateCore, panCore, pairCore] { _ = motion.step(for: core) }
        #expect(motion.count == 2)  // every touch new: three touches, then two
        pinchCore.integrateMotion(at: t0); rotateCore.integrateMotion(at: t0)
        panCore.integrateMotion(at: t0); pairCore.integrateMotion(at: t0)
        let moved = [Point(x: 84, y: 97), Point(x: 117, y: 104), Point(x: 98, y: 126)]
        for (i, p) in moved.enumerated() {
            let touch = Self.touch(i + 1, .moved, at: t1, p)
            _ = pinchCore.update(touch, key: i + 1, lifted: false)
            _ = rotateCore.update(touch, key: i + 1, lifted: false)
            _ = panCore.update(touch, key: i + 1, lifted: false)
            _ = pairCore.update(touch, key: i + 1, lifted: false)
        }
        motion.removeAll()
        let pinchStep = motion.step(for: pinchCore)
        let rotateStep = motion.step(for: rotateCore)
        let panStep = motion.step(for: panCore)
        let pairStep = motion.step(for: pairCore)
        #expect(motion.count == 2)
        #expect(pinchStep.measuredSpan && !pinchStep.measuredTurn)
        #expect(rotateStep.measuredSpan && rotateStep.measuredTurn)  // the set's entry, measured for both
        #expect(panStep == rotateStep)
        #expect(pairStep.present == 2 && pairStep != panStep)

        // Integrating the shared step gives what each core measures alone, bit for bit.
        let cores = [pinchCore, rotateCore, panCore, pairCore]
        let steps = [pinchStep, rotateStep, panStep, pairStep]
        for (core, step) in zip(cores, steps) {
            var viaShared = core, alone = core
            viaShared.integrate(step, at: t1)
            alone.integrateMotion(at: t1)
            #expect(viaShared.translationPX == alone.translationPX && viaShared.translationMM == alone.translationMM)
            #expect(viaShared.scale.bitPattern == alone.scale.bitPattern)
            #expect(viaShared.spanChangeMM.bitPattern == alone.spanChangeMM.bitPattern)
            #expect(viaShared.rotation.bitPattern == alone.rotation.bitPattern)
        }
        var turned = rotateCore
        turned.integrate(rotateStep, at: t1)
        #expect(turned.rotation > 0.05)  // the fingers turned clockwise on screen
        var spread = pinchCore
        spread.integrate(pinchStep, at: t1)
        #expect(spread.scale > 1.1 && spread.spanChangeMM > 1)
    }

    @Test("a set whose previous step was at another time is measured apart")
    func previousStepTimeSeparatesSets() {
        let t0 = Timestamp(microseconds: 0), t1 = Timestamp(microseconds: 8_000), t2 = Timestamp(microseconds: 16_000)
        var a = RecognizerCore(), b = RecognizerCore()
        let touch = Self.touch(1, .began, at: t0, Point(x: 10, y: 10))
        a.add(touch, key: 1); b.add(touch, key: 1)
        a.integrateMotion(at: t0)
        b.integrateMotion(at: t1)
        let moved = Self.touch(1, .moved, at: t2, Point(x: 14, y: 10))
        _ = a.update(moved, key: 1, lifted: false); _ = b.update(moved, key: 1, lifted: false)
        var motion = SharedMotion()
        _ = motion.step(for: a)
        _ = motion.step(for: b)
        #expect(motion.count == 2)
        #expect(motion.step(for: a).translationMM == Point(x: 4, y: 0))
        #expect(motion.count == 2)
    }

    @Test("a single touch is measured by its recognizer alone, with the same result")
    func singleTouchNotShared() {
        let t0 = Timestamp(microseconds: 0), t1 = Timestamp(microseconds: 8_000)
        var one = RecognizerCore(), two = RecognizerCore()
        for (key, p) in [(1, Point(x: 10, y: 10)), (2, Point(x: 30, y: 10))] {
            let touch = Self.touch(key, .began, at: t0, p)
            if key == 1 { one.add(touch, key: key) }
            two.add(touch, key: key)
        }
        one.integrateMotion(at: t0); two.integrateMotion(at: t0)
        let moved = Self.touch(1, .moved, at: t1, Point(x: 13, y: 6))
        _ = one.update(moved, key: 1, lifted: false); _ = two.update(moved, key: 1, lifted: false)
        var motion = SharedMotion()
        var alone = one
        alone.integrateMotion(at: t1)
        motion.integrate(&one, at: t1)
        #expect(motion.count == 0)
        #expect(one.translationMM == Point(x: 3, y: -4) && one.translationMM == alone.translationMM)
        motion.integrate(&two, at: t1)
        #expect(motion.count == 1)
        #expect(two.translationMM == Point(x: 1.5, y: -2))
    }

    static func touch(_ id: Int, _ phase: TouchPhase, at time: Timestamp, _ p: Point) -> Touch {
        Touch(id: TouchID(id), device: DeviceID(0), phase: phase, type: .direct, tool: .finger, time: time,
              location: p * 5, locationMM: p)
    }
}
