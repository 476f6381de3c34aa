// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Arbitration (semantics §4)")
struct ArbitrationTests {
    func records(_ out: [EngineOutput], _ recognizer: String) -> [DebugRecord.Kind] {
        out.debugRecords.filter { $0.recognizer == recognizer }.map(\.kind)
    }

    @Test("§4 exclusion: pan beginning fails a possible tap; on lift only the pan ends")
    func exclusion() {
        var e = engine([tap, pan])
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 150)
        let out = e.run(script)
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        #expect(records(out, "s/tap").contains(.excluded(by: "s/pan")))
        #expect(records(out, "s/tap").contains(.transition(from: .possible, to: .failed)))
        // The failed tap never sees the lift: its only later transition is its reset.
        let tapTransitions = records(out, "s/tap").filter { if case .transition = $0 { return true } else { return false } }
        #expect(tapTransitions == [.transition(from: .possible, to: .failed), .transition(from: .failed, to: .possible)])
    }

    @Test("§4 simultaneous: tap and pan both fire when either allows it, and it is asked again at the tap's later state change")
    func simultaneous() {
        // Named `track` so that, in canonical order, the tap decides before the pan ends in the lift frame.
        let track = RecognizerConfiguration(name: "track", kind: .pan(PanParameters()), simultaneousWith: .names(["tap"]))
        var e = engine([tap, track])
        var script = GestureScript()
        // 2.5 mm: past the pan's 2 mm slop, within the tap's 3 mm limit; lifted quickly.
        strokeScript(&script, dx: 2.5, dy: 0, duration: 60)
        let out = e.run(script)
        #expect(out.gestureOutline == ["track:began", "track:changed", "tap:recognized", "track:ended"])
        let tapRecords = records(out, "s/tap")
        // Once when the pan began (tap still possible), once when the tap recognized (pan active).
        let asked = out.debugRecords.filter { $0.recognizer == "s/tap" && $0.kind == .simultaneous(with: "s/track") }
        #expect(tapRecords.contains(.simultaneous(with: "s/track")))
        #expect(asked.count == 2)
        #expect(asked.map(\.time) == [out.gestures[0].time, out.gestures.first { $0.recognizer == "tap" }!.time])
    }

    @Test("§4 simultaneous: the tap's side alone allowing it is enough (neither side can veto)")
    func simultaneousEitherSide() {
        var simultaneousTap = tap
        simultaneousTap.simultaneousWith = .all
        var e = engine([simultaneousTap, pan])
        var script = GestureScript()
        strokeScript(&script, dx: 2.5, dy: 0, duration: 60)
        #expect(Set(e.run(script).gestureOutline) == ["pan:began", "pan:changed", "tap:recognized", "pan:ended"])
    }

    @Test("§4 failure requirement: pan requiring the tap to fail is withheld, then delivered as began when the tap fails")
    func requirementReleased() {
        var waitingPan = pan
        waitingPan.requiresFailureOf = ["tap"]
        var e = engine([tap, waitingPan])
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 200)
        let out = e.run(script)
        #expect(out.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        let panRecords = records(out, "s/pan")
        #expect(panRecords.contains(.waiting(on: "s/tap")))
        #expect(panRecords.contains(.released(by: "s/tap")))
        // The pan began internally at 2 mm but was only delivered when the tap failed at 3 mm.
        let began = out.debugRecords.first { $0.recognizer == "s/pan" && $0.kind == .transition(from: .possible, to: .began) }
        let tapFailed = out.debugRecords.first { $0.recognizer == "s/tap" && $0.kind == .transition(from: .possible, to: .failed) }
        #expect(began != nil && tapFailed != nil && began!.time < tapFailed!.time)
        #expect(out.gestures.first?.time == tapFailed?.time)
        // It was already in `changed` when released, and still clients see `began` first.
        let changedAt = out.debugRecords.firstIndex { $0.recognizer == "s/pan" && $0.kind == .transition(from: .began, to: .changed) }
        let releasedAt = out.debugRecords.firstIndex { $0.recognizer == "s/pan" && $0.kind == .released(by: "s/tap") }
        #expect(changedAt != nil && releasedAt != nil && changedAt! < releasedAt!)
        #expect(out.gestures.first?.state == .began)
        #expect(out.gestures.first.map { $0.translation!.x >= 3 * 5 } == true)
    }

    @Test("§4 failure requirement: if the required tap recognizes, the pan never sends anything")
    func requirementDropped() {
        var waitingPan = pan
        waitingPan.requiresFailureOf = ["tap"]
        var e = engine([tap, waitingPan])
        var script = GestureScript()
        strokeScript(&script, dx: 2.5, dy: 0, duration: 60)
        let out = e.run(script)
        #expect(out.gestureSummary == ["tap:recognized"])
        #expect(records(out, "s/pan").contains(.dropped(by: "s/tap")))
        #expect(e.isIdle)
    }

    @Test("§4 one-directional: double-tap does not wait for the tap that requires it")
    func oneDirectional() {
        var waitingTap = tap
        waitingTap.requiresFailureOf = ["double-tap"]
        let doubleTap = RecognizerConfiguration(name: "double-tap", kind: .tap(TapParameters(taps: 2)))
        var e = engine([waitingTap, doubleTap])
        var script = GestureScript()
        tapScript(&script, at: 0)
        tapScript(&script, at: 150)
        let out = e.run(script)
        #expect(out.gestureSummary == ["double-tap:recognized"])
        #expect(out.gestures[0].time == script.time(230))

        var single = GestureScript()
        tapScript(&single, at: 5000)
        let one = e.run(single)
        #expect(one.gestureSummary == ["tap:recognized"])
        // Delivered when double-tap's interval ran out: 300 ms after the lift.
        #expect(one.gestures[0].time == single.time(5080 + 300))
    }

    @Test("§4 a cycle of failure requirements (not validated away) does not hang: the first in canonical order goes")
    func requirementCycle() {
        let a = RecognizerConfiguration(name: "a", kind: .longPress(LongPressParameters()), simultaneousWith: .all, requiresFailureOf: ["b"])
        let b = RecognizerConfiguration(name: "b", kind: .longPress(LongPressParameters(minDuration: 600)), simultaneousWith: .all, requiresFailureOf: ["a"])
        var e = engine([b, a])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.up(1, at: 900)
        let out = e.run(script)
        #expect(out.gestureSummary == ["a:began", "a:ended"])
        #expect(e.isIdle)
    }

    @Test("§4 canPrevent / canBePreventedBy: A excludes B only if A may prevent B and B may be prevented by A")
    func preventionOverrides() {
        var harmlessPan = pan
        harmlessPan.canPrevent = .none
        var e1 = engine([tap, harmlessPan])
        var s1 = GestureScript()
        strokeScript(&s1, dx: 2.5, dy: 0, duration: 60)
        #expect(Set(e1.run(s1).gestureOutline) == ["pan:began", "pan:changed", "tap:recognized", "pan:ended"])

        var stubbornTap = tap
        stubbornTap.canBePreventedBy = .names(["other"])
        var e2 = engine([stubbornTap, pan])
        var s2 = GestureScript()
        strokeScript(&s2, dx: 2.5, dy: 0, duration: 60)
        #expect(Set(e2.run(s2).gestureOutline) == ["pan:began", "pan:changed", "tap:recognized", "pan:ended"])

        var e3 = engine([tap, pan])
        var s3 = GestureScript()
        strokeScript(&s3, dx: 2.5, dy: 0, duration: 60)
        #expect(e3.run(s3).gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
    }

    @Test("§4 exclusion at every state change: a recognizer cannot begin while a non-simultaneous one is active")
    func activeExcludesLaterBegin() {
        let eager = RecognizerConfiguration(name: "eager", kind: .pan(PanParameters(slop: 1)))
        let late = RecognizerConfiguration(name: "late", kind: .pan(PanParameters(minTouches: 2, slop: 1)))
        var e = engine([eager, late])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, to: (110, 100), start: 0, duration: 80)
        script.down(2, at: 100, x: 140, y: 100)
        script.move(1, to: (130, 100), start: 100, duration: 80)
        script.move(2, to: (160, 100), start: 100, duration: 80)
        script.up(1, at: 200); script.up(2, at: 200)
        let out = e.run(script)
        #expect(out.gestureOutline == ["eager:began", "eager:changed", "eager:ended"])
        #expect(records(out, "s/late").contains(.excluded(by: "s/eager")))
    }

    @Test("§4 deterministic: the same input gives the same output whatever the declaration order")
    func declarationOrder() {
        let doubleTap = RecognizerConfiguration(name: "double-tap", kind: .tap(TapParameters(taps: 2)))
        let press = RecognizerConfiguration(name: "long-press", kind: .longPress(LongPressParameters()))
        let swipe = RecognizerConfiguration(name: "swipe", kind: .swipe(SwipeParameters()))
        var waitingTap = tap
        waitingTap.requiresFailureOf = ["double-tap"]
        let all = [waitingTap, doubleTap, press, pan, swipe]
        var script = GestureScript()
        strokeScript(&script, dx: 2.5, dy: 0, duration: 60)
        tapScript(&script, at: 500)
        tapScript(&script, at: 650)
        strokeScript(&script, at: 1500, dx: 0, dy: -30, duration: 100)
        script.down(1, at: 3000, x: 50, y: 50)
        script.up(1, at: 3800)
        var a = engine(all)
        var b = engine(all.reversed())
        let outA = a.run(script), outB = b.run(script)
        #expect(outA == outB)
        #expect(outA.gestureOutline == ["pan:began", "pan:changed", "pan:ended", "double-tap:recognized",
                                        "pan:began", "pan:changed", "pan:ended", "long-press:began", "long-press:ended"])
    }

    @Test("§3 shouldBegin false fails at the moment it would begin, which satisfies failure requirements on it")
    func shouldBeginGate() {
        var gatedPan = pan
        gatedPan.shouldBegin = false
        let press = RecognizerConfiguration(name: "press", kind: .longPress(LongPressParameters(allowableMovement: 50)),
                                            requiresFailureOf: ["pan"])
        var e = engine([gatedPan, press])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, to: (105, 100), start: 0, duration: 50)
        script.up(1, at: 700)
        let out = e.run(script)
        #expect(records(out, "s/pan").contains(.gated))
        #expect(out.gestureSummary == ["press:began", "press:ended"])
    }

    @Test("§3 a disabled recognizer sees nothing; disabling an active one cancels it; re-enabling readies it")
    func disabled() {
        var off = pan
        off.enabled = false
        var e = engine([off])
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 100)
        let out = e.run(script)
        #expect(out.gestures.isEmpty)
        #expect(records(out, "s/pan").contains(.refused(reason: "disabled")))

        var live = engine([pan])
        var stroke = GestureScript()
        strokeScript(&stroke, dx: 20, dy: 0, duration: 100)
        var outputs = live.run(stroke, within: 0...100)
        #expect(outputs.gestureOutline.last == "pan:changed")
        outputs = live.setRecognizerEnabled(false, name: "pan", surface: "s") ?? []
        #expect(outputs.gestureSummary == ["pan:cancelled"])
        #expect(live.state(of: "pan", surface: "s") == .cancelled)
        _ = live.run(stroke, within: 101...200)
        #expect(live.state(of: "pan", surface: "s") == .possible)
        #expect(live.setRecognizerEnabled(true, name: "pan", surface: "s") != nil)
        var again = GestureScript()
        strokeScript(&again, at: 1000, dx: 20, dy: 0, duration: 100)
        #expect(live.run(again).gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
    }

    @Test("§3 reset: after a terminal state and once its touches are gone, a recognizer is possible again and holds no stale touches")
    func reset() {
        var e = engine([tap, pan])
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 100, lift: false)
        script.down(2, at: 150, x: 300, y: 200)
        script.up(1, at: 200); script.up(2, at: 200)
        _ = e.run(script, within: 0...100)
        #expect(e.state(of: "tap", surface: "s") == .failed)   // its touch is still down
        #expect(e.state(of: "pan", surface: "s") == .changed)
        let during = e.run(script, within: 150...150)           // a failed tap does not take new touches mid-interaction
        #expect(during.debugRecords.contains { $0.recognizer == "s/tap" && $0.kind == .refused(reason: "already failed in this interaction") })
        _ = e.run(script, within: 200...200)
        #expect(e.state(of: "tap", surface: "s") == .possible)
        #expect(e.state(of: "pan", surface: "s") == .possible)
        #expect(e.isIdle)
        var next = GestureScript()
        tapScript(&next, 3, at: 1000)
        #expect(e.run(next).gestureSummary == ["tap:recognized"])
    }

    @Test("§3 touches cancelled upstream cancel the recognizers holding them")
    func upstreamCancel() {
        var e = engine([tap, RecognizerConfiguration(name: "drawer", kind: .pan(PanParameters()), simultaneousWith: .all)])
        var script = GestureScript()
        strokeScript(&script, dx: 20, dy: 0, duration: 100, lift: false)
        script.cancel(1, at: 150)
        let out = e.run(script)
        #expect(out.gestureOutline == ["drawer:began", "drawer:changed", "drawer:cancelled"])
        #expect(records(out, "s/drawer").contains(.cancelled(reason: "touch 1 cancelled upstream")))
        #expect(e.isIdle)
    }
}
