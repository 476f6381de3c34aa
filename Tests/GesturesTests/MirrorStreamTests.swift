// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

extension Array where Element == EngineOutput {
    /// The pass-through mirror's events.
    var mirrorEvents: [MirrorTouchEvent] {
        compactMap { if case .mirror(let m) = $0 { return m } else { return nil } }
    }
    /// The mirror's events as `touch:phase`.
    var mirrorOutline: [String] { mirrorEvents.map { "\($0.touch.id.rawValue):\($0.phase.rawValue)" } }
}

/// What reaches a pass-through mirror, the app world's view of a contact (semantics §9).
@Suite("Pass-through mirror stream (semantics §9)")
struct MirrorStreamTests {
    static let device = DeviceID(0)

    func mirrored(_ configuration: GestureConfiguration) -> Engine {
        var e = Engine(configuration: configuration)
        e.mirroredDevices = [Self.device]
        return e
    }

    @Test("§9 a touch nothing can claim reaches the mirror in the frame it was read, then moves and lifts")
    func tapInTheMiddle() {
        var e = mirrored(.default(screens: [testScreen]))
        var script = GestureScript()
        tapScript(&script, x: 200, y: 150)
        let out = e.run(script)
        #expect(out.mirrorOutline == ["1:began", "1:moved", "1:ended"])
        #expect(out.mirrorEvents[0].time == script.time(0))
        #expect(out.mirrorEvents[0].touch.location == script.pixels(200, 150))
        #expect(out.mirrorEvents[2].time == script.time(80))
        #expect(e.isIdle)
    }

    @Test("§9 a swipe up from the bottom edge never reaches the mirror; the system gets it")
    func edgeSwipeIsWithheld() {
        var e = mirrored(.default(screens: [testScreen]))
        var script = GestureScript()
        bottomSwipe(&script, at: 0)
        let out = e.run(script)
        #expect(out.gestures.first?.recognizer == "edge-bottom")
        #expect(out.mirrorEvents.isEmpty)
        #expect(e.isIdle)
    }

    @Test("§9 a tap in the bottom edge zone is withheld, then delivered (first position, then where it is, then the lift) when the system swipe fails")
    func tapNearTheEdgeIsDeliveredOnFailure() {
        var e = mirrored(.default(screens: [testScreen]))
        var script = GestureScript()
        tapScript(&script, x: 200, y: 298)
        let out = e.run(script)
        #expect(out.mirrorOutline == ["1:began", "1:moved", "1:ended"])
        let events = out.mirrorEvents
        #expect(events.allSatisfy { $0.time == script.time(80) })
        #expect(events[0].touch.location == script.pixels(200, 298))
        #expect(events[1].touch.location == script.pixels(200.3, 298))
    }

    @Test("§9 a delivered touch that a claiming recognizer (drag) takes is cancelled on the mirror, never lifted")
    func claimCancels() {
        let drag = RecognizerConfiguration(name: "drag", kind: .drag(DragParameters()))
        var e = mirrored(oneSurface([drag]))
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, at: 300, x: 100.5, y: 100)
        script.move(1, to: (130, 100), start: 600, duration: 150)
        script.up(1, at: 800)
        let out = e.run(script)
        #expect(out.gestureOutline.first == "drag:began")
        let outline = out.mirrorOutline
        #expect(outline.first == "1:began")
        #expect(outline.last == "1:cancelled")
        #expect(!outline.contains("1:ended"))
        let dragBegan = out.gestures.first { $0.state == .began }!.time
        #expect(out.mirrorEvents.last!.time == dragBegan)
    }

    @Test("§9.5 a client recognizer asking to claim (claimsTouches) cancels its touches on the mirror when it begins; without it the mirror keeps them")
    func claimsTouchesCancels() {
        var claiming = RecognizerConfiguration(name: "pan", kind: .pan(PanParameters()))
        claiming.claimsTouches = true
        var e = mirrored(oneSurface([claiming]))
        var script = GestureScript()
        strokeScript(&script, x: 100, y: 100, dx: 30, dy: 0, duration: 200)
        let out = e.run(script)
        #expect(out.gestureOutline.first == "pan:began")
        #expect(out.mirrorOutline.first == "1:began")
        #expect(out.mirrorOutline.last == "1:cancelled")
        var plain = mirrored(oneSurface([RecognizerConfiguration(name: "pan", kind: .pan(PanParameters()))]))
        #expect(plain.run(script).mirrorOutline.last == "1:ended")
    }

    @Test("§9 deferral: the first swipe from a deferred edge goes to the mirror (hint shown), the second within the window does not")
    func deferral() {
        var e = mirrored(systemConfiguration([gameSurface(deferEdges: [.bottom])]))
        var script = GestureScript()
        bottomSwipe(&script, 1, at: 0)
        bottomSwipe(&script, 2, at: 400)
        let out = e.run(script)
        #expect(out.hints == [.bottom])
        #expect(out.mirrorOutline.filter { $0.hasPrefix("1:") }.first == "1:began")
        #expect(out.mirrorOutline.last == "1:ended")
        #expect(!out.mirrorOutline.contains { $0.hasPrefix("2:") })
        #expect(out.gestures.contains { $0.recognizer == "edge-bottom" && $0.state == .began })
    }

    @Test("§9 decisions are per contact: in one frame a contact in the edge zone is withheld while one in the middle goes through")
    func perContact() {
        var e = mirrored(.default(screens: [testScreen]))
        var script = GestureScript()
        script.down(1, at: 0, x: 200, y: 298)
        script.down(2, at: 0, x: 200, y: 150)
        script.up(1, at: 60)
        script.up(2, at: 60)
        let frames = script.frames
        var first: [EngineOutput] = []
        e.handle(frames[0], into: &first)
        #expect(first.mirrorOutline == ["2:began"])
    }

    @Test("§9 touches of a device without a mirror produce no mirror events")
    func unmirroredDevice() {
        var e = Engine(configuration: .default(screens: [testScreen]))
        var script = GestureScript()
        tapScript(&script, x: 200, y: 150)
        #expect(e.run(script).mirrorEvents.isEmpty)
    }

    @Test("§9 random streams: the mirror gives every contact began, moves, then one end, and changes no gesture", arguments: 0..<30)
    func randomStreams(seed: Int) {
        let script = PropertyTests.randomScript(seed: UInt64(seed))
        var plain = Engine(configuration: PropertyTests.richConfiguration())
        let without = plain.run(script, settleMS: 5000)
        var e = mirrored(PropertyTests.richConfiguration())
        let out = e.run(script, settleMS: 5000)
        var checker = EngineInvariantChecker()
        for o in out { checker.check(o) }
        checker.checkAllEnded(e)
        #expect(checker.violations == [])
        // The mirror only observes: recognizers and raw streams are the same with it.
        #expect(out.filter { if case .mirror = $0 { return false } else { return true } } == without)
        // Every contact that reached the mirror left it.
        let began = Set(out.mirrorEvents.filter { $0.phase == .began }.map(\.touch.id))
        let closed = Set(out.mirrorEvents.filter { $0.phase == .ended || $0.phase == .cancelled }.map(\.touch.id))
        #expect(began == closed)
    }
}
