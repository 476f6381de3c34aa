// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

/// Semantics §6 and issue 4, "Deferral": surfaces asking the system to defer its edge gestures.
@Suite("Deferral of system edge gestures")
struct DeferralTests {
    /// `recognizer:state` of the began/recognized gestures, and the hints, for a compact view of who got a swipe.
    func winners(_ out: [EngineOutput]) -> [String] {
        out.compactMap { o -> String? in
            switch o {
            case .gesture(let g) where g.state == .began || g.state == .recognized: return g.recognizer
            case .system(let s): if case .edgeHint(let edge, _, _) = s.kind { return "hint:\(edge.rawValue)" } else { return nil }
            case .gesture, .touch, .debug, .mirror: return nil
            }
        }
    }

    @Test("§6 granted: the first swipe goes to the app at once with a hint; a second within the window to the system; after that a new cycle")
    func grantedDoubleSwipe() throws {
        var e = Engine(configuration: systemConfiguration([gameSurface()], SystemGestureConfiguration(deferralWindow: 2000)))
        #expect(e.deferral(of: "game") == DeferralDecision(surface: "game", owner: "game", requested: [.bottom], granted: [.bottom]))
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        let first = e.run(script, within: 0...500)
        // At once: the raw stream opens at touch-down, the pan is not held back, and the hint comes when the system would have begun.
        #expect(first.rawTouches.first.map { $0.phase == .began && $0.time == script.time(0) } == true)
        #expect(winners(first) == ["pan", "hint:bottom"])
        #expect(first.gestureOutline == ["pan:began", "pan:changed", "pan:ended"])
        #expect(first.rawOutline == ["game:1:began", "game:1:moved", "game:1:cancelled"])
        let hint = try #require(first.systemEvents.first)
        guard case .edgeHint(.bottom, 0, let windowEnd) = hint.kind else { Issue.record("not a hint: \(hint)"); return }
        #expect(windowEnd == hint.time.adding(milliseconds: 2000))
        #expect(first.debugLines.contains("1.000000 i1 t1 system:edge-bottom: bottom edge deferred by game: the app gets the touch first"))
        #expect(first.debugLines.contains { $0.hasSuffix("system:edge-bottom: bottom edge hint; a second swipe until \(windowEnd) goes to the system") })

        bottomSwipe(&script, at: 1000)
        let second = e.run(script, within: 900...1500)
        #expect(winners(second) == ["edge-bottom"])
        #expect(second.gestures.allSatisfy { $0.isSystem })
        #expect(second.rawTouches.isEmpty)
        #expect(second.debugLines.contains { $0.hasSuffix("bottom edge deferred by game, second swipe within the window: system first") })

        // The second swipe used the window: the third, even soon after, starts a new cycle.
        bottomSwipe(&script, at: 1500)
        let third = e.run(script, within: 1400...2500)
        #expect(winners(third) == ["pan", "hint:bottom"])
        bottomSwipe(&script, at: 6000)
        let fourth = e.run(script, within: 5900...7000)
        #expect(winners(fourth) == ["pan", "hint:bottom"])
        #expect(e.isIdle)
    }

    @Test("§6 after the window a swipe is a first swipe again: to the app, with a new hint")
    func windowExpires() {
        var e = Engine(configuration: systemConfiguration([gameSurface()], SystemGestureConfiguration(deferralWindow: 1000)))
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        bottomSwipe(&script, at: 1500)
        bottomSwipe(&script, at: 2000)
        #expect(winners(e.run(script)) == ["pan", "hint:bottom", "pan", "hint:bottom", "edge-bottom"])
    }

    @Test("§6 a deferred edge only defers swipes: a tap there is the app's with no hint; other edges keep their system swipe")
    func onlyThatEdge() {
        var e = Engine(configuration: systemConfiguration([gameSurface()]))
        var script = GestureScript()
        tapScript(&script, at: 0, x: 200, y: 298)
        strokeScript(&script, at: 1000, x: 200, y: 1, dx: 0, dy: 40, duration: 150)
        let out = e.run(script)
        #expect(winners(out) == ["tap", "edge-top"])
        // The tap's raw touch was not held back: the deferred system swipe only watches.
        #expect(out.rawTouches.first.map { $0.phase == .began && $0.time == script.time(0) } == true)
    }

    @Test("§6 refused by policy: the decision says requested vs granted, and the system swipe comes first")
    func refused() {
        var e = Engine(configuration: systemConfiguration([], SystemGestureConfiguration(deferral: [.bottom: .refuse])))
        let answer = e.upsertSurface(gameSurface(deferEdges: [.bottom, .left]))
        #expect(answer.deferralDecisions == [DeferralDecision(surface: "game", owner: "game", requested: [.left, .bottom], granted: [.left])])
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        bottomSwipe(&script, at: 500)
        let out = e.run(script)
        #expect(winners(out) == ["edge-bottom", "edge-bottom"])
        #expect(out.debugLines.contains { $0.hasSuffix("bottom edge deferral asked by game refused by policy: system first") })
        // A policy change is evaluated again and announced.
        let changed = e.setSystemGestures([SystemGestureConfiguration()])
        #expect(changed.deferralDecisions == [DeferralDecision(surface: "game", owner: "game", requested: [.left, .bottom], granted: [.left, .bottom])])
        #expect(e.setSystemGestures([SystemGestureConfiguration()]).deferralDecisions.isEmpty)
    }

    @Test("§6 onlyFullScreen: only surfaces marked fullScreen may defer")
    func onlyFullScreen() {
        var e = Engine(configuration: systemConfiguration([], SystemGestureConfiguration(deferral: [.bottom: .onlyFullScreen])))
        #expect(e.upsertSurface(gameSurface(fullScreen: false)).deferralDecisions.map(\.granted) == [[]])
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        #expect(winners(e.run(script, within: 0...1000)) == ["edge-bottom"])
        #expect(e.upsertSurface(gameSurface(fullScreen: true)).deferralDecisions.map(\.granted) == [[.bottom]])
        bottomSwipe(&script, at: 2000)
        #expect(winners(e.run(script, within: 1500...3000)) == ["pan", "hint:bottom"])
    }

    @Test("§6 which surface decides: the topmost under the start point with a preference, following delegation to a child")
    func delegation() {
        let shell = SurfaceConfiguration(id: "player", owner: "video", frame: fullFrame, recognizers: [pan], delegateDeferralTo: "video")
        let video = SurfaceConfiguration(id: "video", owner: "video", frame: ScreenRect(x: 0, y: 0, width: 2000, height: 750),
                                         parent: "player", deferEdges: [.bottom])
        // A toast on top at the bottom, with no preference: it does not decide.
        let toast = SurfaceConfiguration(id: "toast", owner: "shell", frame: ScreenRect(x: 0, y: 1400, width: 1000, height: 100), z: 5)
        var e = Engine(configuration: systemConfiguration([shell, video, toast]))
        #expect(throws: Never.self) { try e.configuration.validate() }
        var script = GestureScript()
        bottomSwipe(&script, at: 0, x: 100)   // starts on the toast, over the player
        let out = e.run(script)
        #expect(out.debugLines.contains { $0.hasSuffix("system:edge-bottom: bottom edge deferred by video: the app gets the touch first") })
        #expect(out.hints == [.bottom])
        // The touch is the toast's (it was hit); its raw stream was not held back.
        #expect(out.rawOutline.first == "toast:1:began")
        // The video stops deferring: the player has no preference of its own, so the system comes first.
        var video2 = video
        video2.deferEdges = []
        #expect(e.upsertSurface(video2).deferralDecisions == [DeferralDecision(surface: "video", owner: "video", requested: [], granted: [])])
        var again = GestureScript()
        bottomSwipe(&again, at: 5000, x: 300)
        #expect(winners(e.run(again)) == ["edge-bottom"])
    }

    @Test("§6 the request changes between two swipes: each swipe follows the request in force when its touch began")
    func changedBetweenSwipes() {
        var e = Engine(configuration: systemConfiguration([gameSurface()]))
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        #expect(winners(e.run(script, within: 0...500)) == ["pan", "hint:bottom"])
        let withdrawn = e.upsertSurface(gameSurface(deferEdges: []))
        #expect(withdrawn.deferralDecisions.map(\.requested) == [[]])
        #expect(e.deferral(of: "game") == nil)
        bottomSwipe(&script, at: 4000)
        #expect(winners(e.run(script, within: 3500...4500)) == ["edge-bottom"])
        e.upsertSurface(gameSurface(deferEdges: [.bottom]))
        bottomSwipe(&script, at: 8000)
        #expect(winners(e.run(script, within: 7500...8500)) == ["pan", "hint:bottom"])

        // Changed while a touch is down: that touch keeps the request it began with.
        var held = GestureScript()
        held.down(1, at: 12000, x: 200, y: 298)
        _ = e.run(held, within: 12000...12000)
        e.upsertSurface(gameSurface(deferEdges: []))
        held.move(1, to: (200, 240), start: 12000, duration: 200)
        held.up(1, at: 12210)
        #expect(winners(e.run(held, within: 12001...13000)) == ["pan", "hint:bottom"])
    }

    @Test("§6 upserting a deferring surface always answers it; unchanged surfaces are not announced again")
    func answers() {
        var e = Engine(configuration: systemConfiguration([gameSurface()]))
        #expect(e.upsertSurface(gameSurface()).deferralDecisions.count == 1)
        let other = SurfaceConfiguration(id: "other", owner: "app", frame: ScreenRect(x: 0, y: 0, width: 10, height: 10), z: 1)
        #expect(e.upsertSurface(other).deferralDecisions.isEmpty)
        #expect(e.removeSurface("game").deferralDecisions.isEmpty)
        #expect(e.deferral(of: "game") == nil)
    }

    /// A seeded random stream (PropertyTests) with edge swipes mixed in: two from the bottom 800 ms apart
    /// (a deferred edge's first and second swipe), one from the left, one from the top (not deferred).
    static func mixedScript(seed: Int) -> GestureScript {
        var script = PropertyTests.randomScript(seed: UInt64(500 + seed))
        let t = Double((seed * 37) % 400)
        let x = Double(50 + (seed * 53) % 300)
        strokeScript(&script, 90, at: t, x: x, y: 298, dx: 3, dy: -40, duration: 150)
        strokeScript(&script, 91, at: t + 800, x: x, y: 299, dx: -2, dy: -30, duration: 120)
        strokeScript(&script, 92, at: t + 1500, x: 1, y: Double(40 + (seed * 29) % 200), dx: 40, dy: 5, duration: 150)
        strokeScript(&script, 93, at: t + 2200, x: x, y: 2, dx: 0, dy: 40, duration: 150)
        return script
    }

    static func deferringConfiguration() -> GestureConfiguration {
        var config = PropertyTests.richConfiguration()
        config.surfaces[0].deferEdges = [.bottom, .left]
        return config
    }

    @Test("§3 properties hold with system swipes and a deferring surface in play: terminal, ordered, raw streams close, deterministic",
          arguments: 0..<30)
    func properties(seed: Int) {
        let script = Self.mixedScript(seed: seed)
        var e = Engine(configuration: Self.deferringConfiguration())
        let out = e.run(script, settleMS: 5000)
        #expect(PropertyTests.grammarViolations(out) == [])
        #expect(PropertyTests.rawViolations(out) == [])
        #expect(e.isIdle && e.nextDeadline == nil)
        #expect(!out.debugRecords.contains { if case .bug = $0.kind { return true } else { return false } })
        var again = Engine(configuration: Self.deferringConfiguration())
        #expect(again.run(script, settleMS: 5000) == out)
    }

    @Test("the mixed streams reach every system path: failing, beginning, deferred, hinted, second swipe, withheld and discarded")
    func propertyCoverage() {
        var seen: Set<String> = []
        for seed in 0..<30 {
            var e = Engine(configuration: Self.deferringConfiguration())
            let out = e.run(Self.mixedScript(seed: seed), settleMS: 5000)
            for g in out.gestures where g.isSystem { seen.insert("\(g.recognizer):\(g.state.rawValue)") }
            for d in out.debugRecords {
                switch d.kind {
                case .failing: seen.insert("failing")
                case .edgeDeferral(_, _, let outcome): seen.insert(outcome.rawValue)
                case .edgeHint: seen.insert("hint")
                case .withheldDelivered: seen.insert("withheld delivered")
                case .withheldDiscarded: seen.insert("withheld discarded")
                case .inPlay, .unhandled, .refused, .transition, .excluded, .simultaneous,
                     .waiting, .released, .dropped, .cancelled, .gated, .bug: break
                }
            }
        }
        #expect(seen.isSuperset(of: ["failing", "deferred", "hint", "second-swipe", "withheld delivered", "withheld discarded",
                                     "edge-bottom:began", "edge-top:began", "edge-top:ended"]))
    }
}
