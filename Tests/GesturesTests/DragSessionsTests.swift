// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

/// Three clients on one 2000 x 1500 px screen (5 px/mm): `a` has a list on
/// the left half whose drag offers items and whose taps add items, `b` a map
/// on the right half that takes `text/plain`, `c` a strip at the bottom that
/// plays no part. Virtual time: frames, deadlines and answers at script times.
struct DragBench {
    var engine: Engine
    var drags = DragSessions()
    var script = GestureScript()
    var frames: [TouchFrame] = []
    var next = 0
    var now = Timestamp.zero
    /// Everything the sessions told anyone, in order.
    var events: [DragSessionEvent] = []
    var gestures: [GestureEvent] = []

    static let list = SurfaceID("a/list"), list2 = SurfaceID("a/list2"), map = SurfaceID("b/map"), strip = SurfaceID("c/strip")

    init(mapTypes: [String] = ["text/plain"], mapHidden: Bool = false) {
        let drag = RecognizerConfiguration(name: "drag", kind: .drag(DragParameters()))
        let press = RecognizerConfiguration(name: "press", kind: .longPress(LongPressParameters()))
        let tap = RecognizerConfiguration(name: "tap", kind: .tap(TapParameters()))
        let mapTap = RecognizerConfiguration(name: "tap", kind: .tap(TapParameters()))
        engine = Engine(configuration: GestureConfiguration(surfaces: [
            SurfaceConfiguration(id: Self.list, owner: "a", frame: ScreenRect(x: 0, y: 0, width: 1000, height: 700), recognizers: [drag, press, tap]),
            SurfaceConfiguration(id: Self.list2, owner: "a", frame: ScreenRect(x: 0, y: 700, width: 1000, height: 700), recognizers: [drag, tap]),
            SurfaceConfiguration(id: Self.map, owner: "b", frame: ScreenRect(x: 1000, y: 0, width: 1000, height: 1500),
                                 hidden: mapHidden, recognizers: [mapTap]),
            SurfaceConfiguration(id: Self.strip, owner: "c", frame: ScreenRect(x: 0, y: 1400, width: 2000, height: 100), z: 1),
        ], screens: [testScreen]))
        drags.setRoles(DragRoles(offersItems: true, addsItems: true), of: Self.list, owner: "a")
        drags.setRoles(DragRoles(offersItems: true, addsItems: true), of: Self.list2, owner: "a")
        drags.setRoles(DragRoles(dropTypes: mapTypes), of: Self.map, owner: "b")
    }

    /// Hold finger 1 still on the list for 600 ms, then move it on the list until 750 ms: the drag begins.
    mutating func lift(finger: Int = 1, at ms: Double = 0, y: Double = 100) {
        script.down(finger, at: ms, x: 50, y: y)
        script.move(finger, at: ms + 300, x: 50.3, y: y)
        script.move(finger, to: (100, y), start: ms + 600, duration: 150)
    }

    /// Runs frames and deadlines (engine's and sessions') up to script time `ms`.
    mutating func run(to ms: Double) {
        if frames.isEmpty { frames = script.frames }
        let end = script.time(ms)
        while true {
            let frameTime = next < frames.count && frames[next].time <= end ? frames[next].time : nil
            let limit = frameTime ?? end
            // Deadlines before the next frame, each at its own time.
            while let d = [engine.nextDeadline, drags.nextDeadline].compactMap({ $0 }).min(), d <= limit {
                var out: [EngineOutput] = []
                engine.advance(to: d, into: &out)
                follow(out)
                drags.advance(to: d, into: &events)
                collectReleasedTaps()
                now = d
            }
            guard let t = frameTime else { break }
            var out: [EngineOutput] = []
            engine.handle(frames[next], into: &out)
            now = t
            next += 1
            follow(out)
        }
        now = max(now, end)
    }

    /// What clients get: the engine's gestures but the taps held for an answer, and held taps released.
    mutating func follow(_ out: [EngineOutput]) {
        drags.observe(out, engine: engine, into: &events)
        for (n, o) in out.enumerated() where !drags.heldOutputs.contains(n) {
            if case .gesture(let g) = o { gestures.append(g) }
        }
        collectReleasedTaps()
    }

    mutating func collectReleasedTaps() {
        gestures += drags.releasedTaps
        drags.clearReleasedTaps()
    }

    /// The request a client was asked last.
    func lastRequest(for owner: String) -> Int? {
        for e in events.reversed() where e.owner == owner {
            switch e.kind {
            case .itemsRequested(let r), .addRequested(let r): return r
            default: continue
            }
        }
        return nil
    }

    mutating func offer(_ items: [DragItem], from owner: String) throws(DragRequestError) {
        guard let r = lastRequest(for: owner) else { throw DragRequestError(.unknownRequest, "never asked") }
        try drags.offerItems(items, request: r, from: owner, at: now, engine: engine, into: &events)
        collectReleasedTaps()
    }

    /// `kind` names of the events for one client, e.g. `["entered", "moved", "exited"]`, moves folded into one.
    func outline(_ owner: String) -> [String] {
        var names: [String] = []
        for e in events where e.owner == owner {
            let n: String
            switch e.kind {
            case .itemsRequested: n = "items-requested"
            case .addRequested: n = "add-requested"
            case .entered: n = "entered"
            case .moved: n = "moved"
            case .exited: n = "exited"
            case .perform(let op, _): n = "perform:\(op.rawValue)"
            case .ended(let outcome, let reason): n = "ended:\(outcome.rawValue):\(reason.rawValue)"
            }
            if n == "moved" && names.last == "moved" { continue }
            names.append(n)
        }
        return names
    }
}

let hello = DragItem([DragRepresentation(type: "text/plain", data: "hello"), DragRepresentation(type: "text/html", data: "<b>hello</b>")])

@Suite("Drag sessions across clients (semantics §12)")
struct DragSessionsTests {
    @Test("§12 the source is asked for items when its drag begins; the target under the touch is told entered, moved, exited, never the data")
    func enterMoveExit() throws {
        var b = DragBench()
        b.lift()
        b.script.move(1, to: (300, 100), start: 800, duration: 200)  // onto the map
        b.script.move(1, to: (100, 100), start: 1100, duration: 200)  // back onto the list
        b.script.up(1, at: 1400)
        b.run(to: 760)
        #expect(b.outline("a") == ["items-requested"])
        try b.offer([hello], from: "a")
        b.run(to: 2000)
        #expect(b.outline("b") == ["entered", "moved", "exited"])
        #expect(b.outline("a") == ["items-requested", "ended:cancelled:lifted"])
        #expect(b.outline("c").isEmpty)
        let entered = try #require(b.events.first { $0.owner == "b" })
        #expect(entered.kind == .entered(types: ["text/plain", "text/html"], items: 1))
        #expect(entered.surface == DragBench.map)
        #expect(entered.location!.x >= 1000)
        // The target learns types and counts, never the data.
        #expect(!b.events.contains { if case .perform = $0.kind { return true } else { return false } })
        #expect(b.events.filter(\.isUpdate).allSatisfy { $0.kind == .moved })
        // The drag itself went on as a drag for its owner.
        #expect(b.gestures.filter { $0.recognizer == "drag" }.last?.state == .ended)
    }

    @Test("§12 at the lift only the target under the touch with a last proposal of copy or move gets the data; every party learns the end once")
    func dropCopies() throws {
        var b = DragBench()
        b.lift()
        b.script.move(1, to: (300, 100), start: 800, duration: 200)
        b.script.up(1, at: 1200)
        b.run(to: 760)
        try b.offer([hello], from: "a")
        b.run(to: 900)
        let session = try #require(b.events.first { $0.owner == "b" }?.session)
        // A proposal changed: the last one counts.
        try b.drags.propose(.forbidden, session: session, from: "b")
        try b.drags.propose(.copy, session: session, from: "b")
        b.run(to: 2000)
        #expect(b.outline("b") == ["entered", "moved", "perform:copy", "ended:copy:lifted"])
        #expect(b.outline("a") == ["items-requested", "ended:copy:lifted"])
        let perform = try #require(b.events.first { if case .perform = $0.kind { return true } else { return false } })
        #expect(perform.kind == .perform(operation: .copy, items: [hello]))
        #expect(perform.owner == "b")
        // The source's outcome names the operation only: nothing of the target.
        let end = try #require(b.events.last { $0.owner == "a" })
        #expect(end.surface == DragBench.list)
        #expect(b.drags.openSessions.isEmpty && b.drags.nextDeadline == nil)
    }

    @Test("§12 a forbidden target, or one that never answers, ends cancelled: no data")
    func forbiddenCancels() throws {
        for proposal in [DropOperation.forbidden, .cancel, nil] {
            var b = DragBench()
            b.lift()
            b.script.move(1, to: (300, 100), start: 800, duration: 200)
            b.script.up(1, at: 1200)
            b.run(to: 760)
            try b.offer([hello], from: "a")
            b.run(to: 1100)
            if let p = proposal { try b.drags.propose(p, session: 1, from: "b") }
            b.run(to: 2000)
            #expect(b.outline("b") == ["entered", "moved", "ended:cancelled:lifted"])
            #expect(b.outline("a") == ["items-requested", "ended:cancelled:lifted"])
        }
    }

    @Test("§12 no items in time, or zero items: no session, the drag goes on as a drag")
    func noItems() throws {
        var late = DragBench()
        late.lift()
        late.script.move(1, to: (300, 100), start: 800, duration: 200)
        late.script.up(1, at: 1200)
        late.run(to: 2000)
        #expect(late.outline("a") == ["items-requested", "ended:cancelled:timed-out"])
        #expect(late.outline("b").isEmpty)
        let asked = try #require(late.events.first)
        let ended = try #require(late.events.last)
        #expect(ended.time.microseconds - asked.time.microseconds == DragSessions.answerTimeoutMicroseconds)
        #expect(late.gestures.filter { $0.recognizer == "drag" }.map(\.state).last == .ended)
        // An answer after the deadline is refused.
        #expect(throws: DragRequestError.self) { try late.offer([hello], from: "a") }

        var empty = DragBench()
        empty.lift()
        empty.script.move(1, to: (300, 100), start: 800, duration: 200)
        empty.script.up(1, at: 1200)
        empty.run(to: 760)
        try empty.offer([], from: "a")
        empty.run(to: 2000)
        #expect(empty.outline("a") == ["items-requested", "ended:cancelled:no-items"])
        #expect(empty.outline("b").isEmpty)
    }

    @Test("§12 whatever ends the touch ends the session: a cancelled touch (unplug, a system gesture's claim) tells every party once")
    func touchCancelled() throws {
        var b = DragBench()
        b.lift()
        b.script.move(1, to: (300, 100), start: 800, duration: 200)
        b.script.cancel(1, at: 1100)
        b.run(to: 760)
        try b.offer([hello], from: "a")
        b.run(to: 1050)
        try b.drags.propose(.move, session: 1, from: "b")
        b.run(to: 2000)
        #expect(b.outline("b") == ["entered", "moved", "ended:cancelled:touch-cancelled"])
        #expect(b.outline("a") == ["items-requested", "ended:cancelled:touch-cancelled"])
    }

    @Test("§12 the source disconnecting ends the session for the target; a target disconnecting leaves the session without a target")
    func disconnects() throws {
        var b = DragBench()
        b.lift()
        b.script.move(1, to: (300, 100), start: 800, duration: 200)
        b.script.up(1, at: 1200)
        b.run(to: 760)
        try b.offer([hello], from: "a")
        b.run(to: 1100)
        b.drags.ownerGone("a", at: b.now, into: &b.events)
        b.run(to: 2000)
        #expect(b.outline("b") == ["entered", "moved", "ended:cancelled:source-gone"])
        #expect(b.outline("a") == ["items-requested", "ended:cancelled:source-gone"])

        var t = DragBench()
        t.lift()
        t.script.move(1, to: (300, 100), start: 800, duration: 200)
        t.script.up(1, at: 1200)
        t.run(to: 760)
        try t.offer([hello], from: "a")
        t.run(to: 1100)
        try t.drags.propose(.copy, session: 1, from: "b")
        t.drags.ownerGone("b", at: t.now, into: &t.events)
        t.run(to: 2000)
        #expect(t.outline("b") == ["entered", "moved"])
        #expect(t.outline("a") == ["items-requested", "ended:cancelled:lifted"])
    }

    @Test("§12 a second finger's tap on a surface that adds items asks its owner; items join the session, the target sees the new count")
    func tapAddsItems() throws {
        var b = DragBench()
        b.lift()
        b.script.move(1, to: (300, 100), start: 800, duration: 200)
        // Finger 2 taps the list while finger 1 holds the drag over the map.
        b.script.down(2, at: 1100, x: 50, y: 200)
        b.script.up(2, at: 1160)
        b.script.up(1, at: 1500)
        b.run(to: 760)
        try b.offer([hello], from: "a")
        b.run(to: 1200)
        #expect(b.outline("a") == ["items-requested", "add-requested"])
        #expect(!b.gestures.contains { $0.recognizer == "tap" }, "the tap is held for the answer")
        #expect(b.drags.pendingTaps == 1)
        let second = DragItem([DragRepresentation(type: "text/plain", data: "world")])
        try b.offer([second], from: "a")
        try b.drags.propose(.copy, session: 1, from: "b")
        b.run(to: 2000)
        #expect(b.outline("b") == ["entered", "moved", "exited", "entered", "moved", "perform:copy", "ended:copy:lifted"])
        let reentered = b.events.filter { $0.owner == "b" }.compactMap { e -> Int? in
            if case .entered(_, let n) = e.kind { return n } else { return nil }
        }
        #expect(reentered == [1, 2])
        #expect(!b.gestures.contains { $0.recognizer == "tap" }, "items came: the tap added them and is no tap")
        #expect(b.drags.pendingTaps == 0)
        let perform = try #require(b.events.first { if case .perform = $0.kind { return true } else { return false } })
        #expect(perform.kind == .perform(operation: .copy, items: [hello, second]))
    }

    @Test("§12 a tap that adds nothing stays a tap and changes nothing; a tap with no session asks nobody")
    func tapAddsNothing() throws {
        var b = DragBench()
        b.script.down(2, at: 0, x: 50, y: 200)
        b.script.up(2, at: 60)
        b.lift(at: 1000)
        b.script.down(2, at: 1800, x: 50, y: 200)
        b.script.up(2, at: 1860)
        b.script.up(1, at: 2200)
        b.run(to: 1760)
        #expect(b.outline("a") == ["items-requested"])
        try b.offer([hello], from: "a")
        b.run(to: 1900)
        #expect(b.outline("a") == ["items-requested", "add-requested"])
        #expect(b.gestures.filter { $0.recognizer == "tap" }.count == 1, "the second tap is held for the answer")
        try b.offer([], from: "a")
        #expect(b.gestures.filter { $0.recognizer == "tap" }.count == 2, "no item: the tap goes on as a tap at once")
        #expect(b.gestures.last?.recognizer == "tap" && b.gestures.last?.time == b.script.time(1860))
        b.run(to: 3000)
        #expect(b.gestures.filter { $0.recognizer == "tap" }.count == 2)
        #expect(b.outline("a") == ["items-requested", "add-requested", "ended:cancelled:lifted"])
    }

    @Test("§12.5 a tap held for an answer that never comes goes on as a tap at the deadline; one whose session ends first, at the end")
    func heldTapReleased() throws {
        var b = DragBench()
        b.lift()
        b.script.down(2, at: 1100, x: 50, y: 200)
        b.script.up(2, at: 1160)
        b.script.up(1, at: 1600)
        b.run(to: 760)
        try b.offer([hello], from: "a")
        b.run(to: 1300)
        #expect(b.outline("a") == ["items-requested", "add-requested"])
        #expect(!b.gestures.contains { $0.recognizer == "tap" })
        // No answer: 250 ms after the tap it goes on as a tap, with its own time.
        b.run(to: 1500)
        let taps = b.gestures.filter { $0.recognizer == "tap" }
        #expect(taps.count == 1 && taps[0].time == b.script.time(1160))
        #expect(b.drags.pendingTaps == 0)
        #expect(throws: DragRequestError.self) { try b.offer([hello], from: "a") }

        var c = DragBench()
        c.lift()
        c.script.down(2, at: 1100, x: 50, y: 200)
        c.script.up(2, at: 1160)
        c.script.up(1, at: 1200)
        c.run(to: 760)
        try c.offer([hello], from: "a")
        c.run(to: 1250)
        // The drag lifted before the answer: the session ended and the tap goes on as a tap.
        #expect(c.outline("a").last == "ended:cancelled:lifted")
        #expect(c.gestures.filter { $0.recognizer == "tap" }.count == 1)

        // The tapped surface removed while its tap is held: no tap of a surface gone.
        var d = DragBench()
        d.lift()
        d.script.down(2, at: 1100, x: 50, y: 200)
        d.script.up(2, at: 1160)
        d.script.up(1, at: 1600)
        d.run(to: 760)
        try d.offer([hello], from: "a")
        d.run(to: 1200)
        #expect(d.drags.pendingTaps == 1)
        d.drags.surfaceRemoved(DragBench.list2)
        d.run(to: 2000)
        #expect(!d.gestures.contains { $0.recognizer == "tap" })
    }

    @Test("§12 the target is hit-tested like a touch: a hidden target, or one whose types do not match, is no target")
    func hitTesting() throws {
        for b0 in [DragBench(mapHidden: true), DragBench(mapTypes: ["image/*"])] {
            var b = b0
            b.lift()
            b.script.move(1, to: (300, 100), start: 800, duration: 200)
            b.script.up(1, at: 1200)
            b.run(to: 760)
            try b.offer([hello], from: "a")
            b.run(to: 2000)
            #expect(b.outline("b").isEmpty)
        }
        var wild = DragBench(mapTypes: ["TEXT/*"])
        wild.lift()
        wild.script.move(1, to: (300, 100), start: 800, duration: 200)
        wild.script.up(1, at: 1200)
        wild.run(to: 760)
        try wild.offer([hello], from: "a")
        wild.run(to: 2000)
        #expect(wild.outline("b").first == "entered")
    }

    @Test("§12 isolation: a client that is not the target cannot propose; a client cannot answer another's request; limits refuse without effect")
    func isolation() throws {
        var b = DragBench()
        b.lift()
        b.script.move(1, to: (300, 100), start: 800, duration: 200)
        b.script.up(1, at: 1200)
        b.run(to: 760)
        let r = try #require(b.lastRequest(for: "a"))
        #expect(throws: DragRequestError(.unknownRequest, "request: no pending drag request \(r) for this client")) {
            try b.drags.offerItems([hello], request: r, from: "c", at: b.now, engine: b.engine, into: &b.events)
        }
        let tooMany = Array(repeating: hello, count: DragSessions.maxItems + 1)
        #expect(throws: DragRequestError.self) { try b.offer(tooMany, from: "a") }
        let big = DragItem([DragRepresentation(type: "text/plain", data: String(repeating: "x", count: DragSessions.maxDataBytes + 1))])
        #expect(throws: DragRequestError.self) { try b.offer([big], from: "a") }
        #expect(throws: DragRequestError.self) { try b.offer([DragItem([])], from: "a") }
        try b.offer([hello], from: "a")  // still pending after the refusals
        b.run(to: 1000)
        // Before the touch is over it, the map's owner is no target; `c` never is.
        #expect(throws: DragRequestError.self) { try b.drags.propose(.copy, session: 1, from: "c") }
        #expect(throws: DragRequestError.self) { try b.drags.propose(.copy, session: 1, from: "a") }
        try b.drags.propose(.copy, session: 1, from: "b")
        b.run(to: 2000)
        // `c` saw nothing; only `b` got the data.
        #expect(b.outline("c").isEmpty)
        #expect(b.events.filter { if case .perform = $0.kind { return true } else { return false } }.map(\.owner) == ["b"])
        // The source was told only the operation.
        #expect(b.events.filter { $0.owner == "a" }.allSatisfy {
            if case .perform = $0.kind { return false }
            if case .entered = $0.kind { return false }
            return true
        })
    }

    @Test("§12 the rest stays interactive: a second drag opens a second session; each ends on its own")
    func twoSessions() throws {
        var b = DragBench()
        b.lift(finger: 1, y: 100)
        b.lift(finger: 2, at: 50, y: 200)
        b.script.move(1, to: (300, 100), start: 900, duration: 200)
        b.script.up(1, at: 1300)
        b.script.up(2, at: 1400)
        b.run(to: 820)
        let asked = b.events.compactMap { e -> Int? in if case .itemsRequested(let r) = e.kind { return r } else { return nil } }
        #expect(asked.count == 2)
        #expect(Set(b.events.map(\.session)) == [1, 2])
        for r in asked { try b.drags.offerItems([hello], request: r, from: "a", at: b.now, engine: b.engine, into: &b.events) }
        #expect(b.drags.openSessions.map(\.isActive) == [true, true])
        b.run(to: 1150)
        try b.drags.propose(.move, session: 1, from: "b")
        b.run(to: 3000)
        #expect(b.drags.openSessions.isEmpty)
        let ends = b.events.filter { $0.owner == "a" }.compactMap { e -> String? in
            if case .ended(let outcome, _) = e.kind { return "\(e.session):\(outcome.rawValue)" } else { return nil }
        }
        #expect(ends == ["1:move", "2:cancelled"])
    }
}
