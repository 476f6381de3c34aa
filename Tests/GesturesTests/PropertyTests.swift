// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

/// SplitMix64: a small seeded generator, so every run sees the same streams.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Properties on seeded random touch streams")
struct PropertyTests {
    /// The default recognizers plus a drag, an edge pan, a hover and a nested surface with its own.
    static func richConfiguration(reversed: Bool = false) -> GestureConfiguration {
        var config = GestureConfiguration.default(screens: [testScreen])
        config.surfaces[0].recognizers += [
            RecognizerConfiguration(name: "drag", kind: .drag(DragParameters())),
            RecognizerConfiguration(name: "edge", kind: .edgePan(EdgePanParameters())),
            RecognizerConfiguration(name: "hover", kind: .hover(HoverParameters())),
        ]
        config.surfaces.append(SurfaceConfiguration(
            id: "panel", owner: "app", frame: ScreenRect(x: 500, y: 500, width: 600, height: 400), parent: "screen",
            recognizers: [
                RecognizerConfiguration(name: "tap", kind: .tap(TapParameters()), delaysTouchesBegan: true),
                RecognizerConfiguration(name: "scroll", kind: .pan(PanParameters(minTouches: 2)), requiresFailureOf: ["tap"]),
                RecognizerConfiguration(name: "press", kind: .longPress(LongPressParameters(maxTouches: 3)), simultaneousWith: .all),
            ]))
        if reversed {
            for i in config.surfaces.indices { config.surfaces[i].recognizers.reverse() }
            config.surfaces.reverse()
        }
        return config
    }

    /// A random stream: up to 4 fingers (sometimes a stylus) going down, wandering, lifting or being cancelled,
    /// with hovers in between, over about 3 seconds.
    static func randomScript(seed: UInt64) -> GestureScript {
        var g = SeededGenerator(seed: seed)
        var script = GestureScript(rate: [60.0, 120, 240][Int.random(in: 0..<3, using: &g)])
        var t = 0.0
        var down: [Int: (Double, Double)] = [:]
        var nextID = 1
        while t < 3000 {
            t += Double.random(in: 1...40, using: &g)
            let roll = Int.random(in: 0..<100, using: &g)
            if roll < 15 && down.count < 4 {
                let p = (Double.random(in: 0...400, using: &g), Double.random(in: 0...300, using: &g))
                script.down(nextID, at: t, x: p.0, y: p.1, type: Int.random(in: 0..<6, using: &g) == 0 ? .stylus : .direct)
                down[nextID] = p
                nextID += 1
            } else if roll < 25, let id = down.keys.sorted().first {
                if Int.random(in: 0..<8, using: &g) == 0 { script.cancel(id, at: t) } else { script.up(id, at: t) }
                down[id] = nil
            } else if roll < 28 && down.isEmpty {
                let id = nextID
                nextID += 1
                script.hover(id, at: t, x: 150, y: 150)
                script.hover(id, at: t + 5, x: 152, y: 151)
                script.leave(id, at: t + 10)
                t += 10
            } else {
                for id in down.keys.sorted() {
                    let (x, y) = down[id]!
                    let step = Int.random(in: 0..<4, using: &g) == 0 ? 6.0 : 0.8
                    let n = (min(400, max(0, x + Double.random(in: -step...step, using: &g))),
                             min(300, max(0, y + Double.random(in: -step...step, using: &g))))
                    script.move(id, at: t, x: n.0, y: n.1)
                    down[id] = n
                }
            }
        }
        t += 10
        for id in down.keys.sorted() { script.up(id, at: t) }
        return script
    }

    /// Checks each recognizer's actions follow the grammar `recognized` | `began changed* (ended|cancelled)`, repeated.
    static func grammarViolations(_ out: [EngineOutput]) -> [String] {
        var open: [String: GestureState] = [:]
        var problems: [String] = []
        var lastTime = Timestamp(microseconds: Int64.min)
        for o in out {
            let time: Timestamp
            switch o {
            case .gesture(let g): time = g.time
            case .touch(let t): time = t.time
            case .debug(let d): time = d.time
            case .system(let e): time = e.time
            case .mirror(let m): time = m.time
            }
            if time < lastTime { problems.append("time went back at \(time)") }
            lastTime = time
            guard case .gesture(let g) = o else { continue }
            let key = "\(g.surface?.rawValue ?? "-")/\(g.recognizer)"
            let previous = open[key]
            switch g.state {
            case .recognized:
                if !g.kind.isDiscrete || previous != nil { problems.append("\(key) recognized after \(String(describing: previous))") }
            case .began:
                if g.kind.isDiscrete || previous != nil { problems.append("\(key) began after \(String(describing: previous))") }
                open[key] = .began
            case .changed:
                if previous == nil { problems.append("\(key) changed before began") }
            case .ended, .cancelled:
                if previous == nil { problems.append("\(key) \(g.state) before began") }
                open[key] = nil
            }
        }
        for (key, _) in open { problems.append("\(key) never ended") }
        return problems
    }

    /// Per-surface raw streams: began, moved*, then exactly one of ended/cancelled, for every touch that began.
    static func rawViolations(_ out: [EngineOutput]) -> [String] {
        var open: Set<String> = []
        var problems: [String] = []
        for t in out.rawTouches {
            let key = "\(t.surface)/\(t.touch.id)"
            switch t.phase {
            case .began:
                if open.contains(key) { problems.append("\(key) began twice") }
                open.insert(key)
            case .moved:
                if !open.contains(key) { problems.append("\(key) moved while closed") }
            case .ended, .cancelled:
                if open.remove(key) == nil { problems.append("\(key) \(t.phase) while closed") }
            case .hover:
                problems.append("\(key) hover in the raw stream")
            }
        }
        for key in open { problems.append("\(key) never ended") }
        return problems
    }

    @Test("§3 random streams: every recognizer ends terminal and resets, actions are never out of order, raw streams close",
          arguments: 0..<40)
    func terminalAndOrdered(seed: Int) {
        let script = Self.randomScript(seed: UInt64(seed))
        var e = Engine(configuration: Self.richConfiguration())
        let out = e.run(script, settleMS: 5000)
        #expect(Self.grammarViolations(out) == [])
        #expect(Self.rawViolations(out) == [])
        #expect(e.isIdle)
        #expect(e.nextDeadline == nil)
        #expect(!out.debugRecords.contains { if case .bug = $0.kind { return true } else { return false } })
        for surface in e.configuration.surfaces {
            for r in surface.recognizers { #expect(e.state(of: r.name, surface: surface.id) == .possible) }
        }
    }

    @Test("§4 deterministic: replaying twice gives identical output; declaration order does not matter", arguments: 0..<20)
    func deterministic(seed: Int) {
        let script = Self.randomScript(seed: UInt64(1000 + seed))
        var a = Engine(configuration: Self.richConfiguration())
        var b = Engine(configuration: Self.richConfiguration())
        var c = Engine(configuration: Self.richConfiguration(reversed: true))
        let outA = a.run(script, settleMS: 5000)
        #expect(outA == b.run(script, settleMS: 5000))
        #expect(outA == c.run(script, settleMS: 5000))
    }

    @Test("§4 report rate: the same gestures sampled at 60 Hz and 240 Hz are recognized as the same kinds")
    func reportRate() {
        func script(rate: Double) -> GestureScript {
            var s = GestureScript(rate: rate)
            tapScript(&s, at: 0)
            tapScript(&s, at: 1000)
            tapScript(&s, at: 1150)
            strokeScript(&s, at: 2000, dx: 30, dy: 2, duration: 700)          // slow pan
            strokeScript(&s, at: 4000, x: 200, dx: 0, dy: -35, duration: 120) // flick up
            s.down(1, at: 6000, x: 100, y: 100)
            s.move(1, to: (100.4, 100.2), start: 6000, duration: 600)
            s.up(1, at: 6900)                                                   // long press
            s.down(1, at: 8000, x: 90, y: 100); s.down(2, at: 8000, x: 110, y: 100)
            s.move(1, to: (60, 100), start: 8000, duration: 300)
            s.move(2, to: (140, 100), start: 8000, duration: 300)
            s.up(1, at: 8320); s.up(2, at: 8320)                                // pinch
            return s
        }
        func kinds(_ out: [EngineOutput]) -> [String] {
            out.gestures.filter { $0.state == .began || $0.state == .recognized }.map { "\($0.recognizer):\($0.state.rawValue)" }
        }
        var slow = defaultEngine(), fast = defaultEngine()
        let a = kinds(slow.run(script(rate: 60))), b = kinds(fast.run(script(rate: 240)))
        #expect(a == b)
        #expect(a == ["tap:recognized", "double-tap:recognized", "pan:began", "pan:began", "swipe:recognized",
                      "long-press:began", "pinch:began"])
    }
}

extension PropertyTests {
    @Test("the random streams exercise many recognizers and arbitration paths (so the properties above mean something)")
    func coverage() {
        var kinds: Set<String> = []
        var decisions: Set<String> = []
        for seed in 0..<40 {
            var e = Engine(configuration: Self.richConfiguration())
            let out = e.run(Self.randomScript(seed: UInt64(seed)), settleMS: 5000)
            for g in out.gestures { kinds.insert("\(g.recognizer):\(g.state.rawValue)") }
            for d in out.debugRecords {
                switch d.kind {
                case .excluded: decisions.insert("excluded")
                case .simultaneous: decisions.insert("simultaneous")
                case .waiting: decisions.insert("waiting")
                case .released: decisions.insert("released")
                case .dropped: decisions.insert("dropped")
                case .cancelled: decisions.insert("cancelled")
                case .inPlay, .unhandled, .refused, .transition, .gated, .withheldDelivered, .bug: break
                case .failing, .edgeDeferral, .edgeHint, .withheldDiscarded: break
                }
            }
        }
        #expect(kinds.isSuperset(of: ["tap:recognized", "pan:began", "pan:ended", "hover:began", "hover:ended"]))
        #expect(decisions.isSuperset(of: ["excluded", "simultaneous", "waiting", "cancelled"]))
    }
}
