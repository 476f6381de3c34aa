// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

/// Builds synthetic ``TouchFrame``s from a script of fingers going down, moving and
/// lifting at given milliseconds and millimetres: the deterministic test driver for
/// the gesture engine (positions in pixels are millimetres times ``pixelsPerMillimetre``).
///
/// ```swift
/// var script = GestureScript()
/// script.down(1, at: 0, x: 50, y: 50)
/// script.move(1, from: (50, 50), to: (80, 50), start: 10, duration: 100)
/// script.up(1, at: 120)
/// ```
package struct GestureScript: Sendable {
    /// Device of every frame.
    package var device: DeviceID
    /// Screen of every touch.
    package var screen: Int
    /// Pixels per millimetre used to turn mm into screen pixels.
    package var pixelsPerMillimetre: Double
    /// Report rate used by the movement helpers, in Hz.
    package var rate: Double
    /// Millisecond origin: script times are offsets from it.
    package var origin: Timestamp

    private struct Finger: Sendable { var type: TouchType; var tool: Tool; var mm: Point; var down: Bool }
    private var fingers: [Int: Finger] = [:]
    private var events: [(time: Int64, touch: Touch)] = []

    /// Creates an empty script.
    package init(device: DeviceID = DeviceID(0), screen: Int = 0, pixelsPerMillimetre: Double = 5, rate: Double = 120,
                origin: Timestamp = Timestamp(seconds: 1, microseconds: 0)) {
        self.device = device
        self.screen = screen
        self.pixelsPerMillimetre = pixelsPerMillimetre
        self.rate = rate
        self.origin = origin
    }

    /// The time of a script millisecond.
    package func time(_ ms: Double) -> Timestamp { origin.adding(milliseconds: ms) }

    /// Pixels for a position in mm.
    package func pixels(_ x: Double, _ y: Double) -> Point { Point(x: x * pixelsPerMillimetre, y: y * pixelsPerMillimetre) }

    private mutating func record(_ finger: Int, phase: TouchPhase, at ms: Double, mm: Point, previous: Point?, inProximity: Bool = true) {
        guard let f = fingers[finger] else { return }
        let t = time(ms)
        let loc = pixels(mm.x, mm.y)
        let touch = Touch(
            id: TouchID(finger), device: device, phase: phase, type: f.type, tool: f.tool, time: t,
            location: loc, previousLocation: previous.map { pixels($0.x, $0.y) }, locationMM: mm, screen: screen,
            inProximity: inProximity)
        events.append((t.microseconds, touch))
    }

    /// A finger (or stylus, with `type: .stylus`) touches down at (x, y) mm.
    package mutating func down(_ finger: Int, at ms: Double, x: Double, y: Double, type: TouchType = .direct) {
        fingers[finger] = Finger(type: type, tool: type == .stylus ? .pen : .finger, mm: Point(x: x, y: y), down: true)
        record(finger, phase: .began, at: ms, mm: Point(x: x, y: y), previous: nil)
    }

    /// A finger that is down moves to (x, y) mm.
    package mutating func move(_ finger: Int, at ms: Double, x: Double, y: Double) {
        guard let f = fingers[finger] else { return }
        fingers[finger]!.mm = Point(x: x, y: y)
        record(finger, phase: f.down ? .moved : .hover, at: ms, mm: Point(x: x, y: y), previous: f.mm)
    }

    /// A finger moves in a straight line at ``rate``, reaching `to` at `start + duration` ms.
    package mutating func move(_ finger: Int, to: (Double, Double), start ms: Double, duration: Double) {
        guard let f = fingers[finger] else { return }
        let from = f.mm
        let steps = Swift.max(1, Int((duration * rate / 1000).rounded(.up)))
        for i in 1...steps {
            let a = Double(i) / Double(steps)
            move(finger, at: ms + duration * a, x: from.x + (to.0 - from.x) * a, y: from.y + (to.1 - from.y) * a)
        }
    }

    /// A finger lifts where it is.
    package mutating func up(_ finger: Int, at ms: Double) {
        guard let f = fingers[finger] else { return }
        record(finger, phase: .ended, at: ms, mm: f.mm, previous: f.mm)
        fingers[finger] = nil
    }

    /// A finger's touch is cancelled upstream (palm, device removed).
    package mutating func cancel(_ finger: Int, at ms: Double) {
        guard let f = fingers[finger] else { return }
        record(finger, phase: .cancelled, at: ms, mm: f.mm, previous: f.mm)
        fingers[finger] = nil
    }

    /// A stylus hovers at (x, y) mm (starting a hover if it was not in proximity).
    package mutating func hover(_ finger: Int, at ms: Double, x: Double, y: Double) {
        if fingers[finger] == nil {
            fingers[finger] = Finger(type: .stylus, tool: .pen, mm: Point(x: x, y: y), down: false)
        }
        let previous = fingers[finger]!.mm
        fingers[finger]!.mm = Point(x: x, y: y)
        record(finger, phase: .hover, at: ms, mm: Point(x: x, y: y), previous: previous)
    }

    /// A hovering stylus leaves proximity.
    package mutating func leave(_ finger: Int, at ms: Double) {
        guard let f = fingers[finger] else { return }
        record(finger, phase: .hover, at: ms, mm: f.mm, previous: f.mm, inProximity: false)
        fingers[finger] = nil
    }

    /// A hovering stylus touches down where it is.
    package mutating func touchDown(_ finger: Int, at ms: Double) {
        guard let f = fingers[finger] else { return }
        fingers[finger]!.down = true
        record(finger, phase: .began, at: ms, mm: f.mm, previous: nil)
    }

    /// The frames, in time order; events at the same microsecond share a frame, and a
    /// finger with several events in one frame keeps its last state (a `began` stays `began`).
    package var frames: [TouchFrame] {
        var order: [Int64] = []
        var byTime: [Int64: [Touch]] = [:]
        for (t, touch) in events {
            if byTime[t] == nil { order.append(t) }
            var list = byTime[t, default: []]
            if let i = list.firstIndex(where: { $0.id == touch.id }) {
                var merged = touch
                if list[i].phase == .began && (touch.phase == .moved) { merged.phase = .began }
                list[i] = merged
            } else {
                list.append(touch)
            }
            byTime[t] = list
        }
        return order.sorted().map { TouchFrame(device: device, time: Timestamp(microseconds: $0), touches: byTime[$0]!) }
    }

    /// The last time in the script.
    package var end: Timestamp { Timestamp(microseconds: events.map(\.time).max() ?? origin.microseconds) }
}

extension Engine {
    /// Feeds the frames of a script whose times are within `range` (script milliseconds), without settling:
    /// lets a test stop in the middle of a script, look, change something, and go on.
    package mutating func run(_ script: GestureScript, within range: ClosedRange<Double>) -> [EngineOutput] {
        var out: [EngineOutput] = []
        let lo = script.time(range.lowerBound), hi = script.time(range.upperBound)
        for frame in script.frames where frame.time >= lo && frame.time <= hi { handle(frame, into: &out) }
        return out
    }

    /// Feeds every frame of a script, then lets `settleMS` pass so every deadline fires.
    package mutating func run(_ script: GestureScript, settleMS: Double = 2000) -> [EngineOutput] {
        var out: [EngineOutput] = []
        for frame in script.frames { handle(frame, into: &out) }
        advance(to: script.end.adding(milliseconds: settleMS), into: &out)
        return out
    }
}

extension Array where Element == EngineOutput {
    /// The gesture events.
    package var gestures: [GestureEvent] {
        compactMap { if case .gesture(let g) = $0 { return g } else { return nil } }
    }
    /// The raw touch events.
    package var rawTouches: [RawTouchEvent] {
        compactMap { if case .touch(let t) = $0 { return t } else { return nil } }
    }
    /// The debug records.
    package var debugRecords: [DebugRecord] {
        compactMap { if case .debug(let d) = $0 { return d } else { return nil } }
    }
    /// `recognizer:state` for every gesture event, e.g. `["pan:began", "pan:changed", "pan:ended"]`.
    package var gestureSummary: [String] {
        gestures.map { "\($0.recognizer):\($0.state.rawValue)" }
    }
    /// The same without repeated `changed`s: `["pan:began", "pan:changed", "pan:ended"]`.
    package var gestureOutline: [String] {
        var out: [String] = []
        for s in gestureSummary where out.last != s { out.append(s) }
        return out
    }
    /// `surface:touch:phase` for every raw touch event.
    package var rawSummary: [String] {
        rawTouches.map { "\($0.surface):\($0.touch.id):\($0.phase.rawValue)" }
    }
    /// Raw touch phases without repeated `moved`s.
    package var rawOutline: [String] {
        var out: [String] = []
        for s in rawSummary where out.last != s { out.append(s) }
        return out
    }
}
