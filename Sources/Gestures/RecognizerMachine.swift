// SPDX-License-Identifier: MIT
import TouchCore

/// One recognizer of any kind, dispatched without existential boxes (the per-frame
/// path stays free of allocation: the machines hold only scalars, their touches live
/// in the ``RecognizerCore`` next to them).
enum RecognizerMachine: Sendable {
    case tap(TapRecognizer)
    case longPress(LongPressRecognizer)
    case pan(PanRecognizer)
    case swipe(SwipeRecognizer)
    case pinch(PinchRecognizer)
    case rotate(RotateRecognizer)
    case edgePan(EdgePanRecognizer)
    case hover(HoverRecognizer)
    case drag(DragRecognizer)
    case edgeSwipe(EdgeSwipeRecognizer)

    init(_ kind: RecognizerConfiguration.Kind, context: RecognizerContext) {
        switch kind {
        case .tap(let p): self = .tap(TapRecognizer(parameters: p))
        case .longPress(let p): self = .longPress(LongPressRecognizer(parameters: p))
        case .pan(let p): self = .pan(PanRecognizer(parameters: p))
        case .swipe(let p): self = .swipe(SwipeRecognizer(parameters: p))
        case .pinch(let p): self = .pinch(PinchRecognizer(parameters: p))
        case .rotate(let p): self = .rotate(RotateRecognizer(parameters: p))
        case .edgePan(let p): self = .edgePan(EdgePanRecognizer(parameters: p, context: context))
        case .hover(let p): self = .hover(HoverRecognizer(parameters: p))
        case .drag(let p): self = .drag(DragRecognizer(parameters: p))
        case .edgeSwipe(let p): self = .edgeSwipe(EdgeSwipeRecognizer(parameters: p, context: context))
        }
    }

    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool {
        switch self {
        case .tap(let m): return m.accepts(touch, core: core)
        case .longPress(let m): return m.accepts(touch, core: core)
        case .pan(let m): return m.accepts(touch, core: core)
        case .swipe(let m): return m.accepts(touch, core: core)
        case .pinch(let m): return m.accepts(touch, core: core)
        case .rotate(let m): return m.accepts(touch, core: core)
        case .edgePan(let m): return m.accepts(touch, core: core)
        case .hover(let m): return m.accepts(touch, core: core)
        case .drag(let m): return m.accepts(touch, core: core)
        case .edgeSwipe(let m): return m.accepts(touch, core: core)
        }
    }

    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch self {
        case .tap(var m): let s = m.touchesChanged(&core, at: time); self = .tap(m); return s
        case .longPress(var m): let s = m.touchesChanged(&core, at: time); self = .longPress(m); return s
        case .pan(var m): let s = m.touchesChanged(&core, at: time); self = .pan(m); return s
        case .swipe(var m): let s = m.touchesChanged(&core, at: time); self = .swipe(m); return s
        case .pinch(var m): let s = m.touchesChanged(&core, at: time); self = .pinch(m); return s
        case .rotate(var m): let s = m.touchesChanged(&core, at: time); self = .rotate(m); return s
        case .edgePan(var m): let s = m.touchesChanged(&core, at: time); self = .edgePan(m); return s
        case .hover(var m): let s = m.touchesChanged(&core, at: time); self = .hover(m); return s
        case .drag(var m): let s = m.touchesChanged(&core, at: time); self = .drag(m); return s
        case .edgeSwipe(var m): let s = m.touchesChanged(&core, at: time); self = .edgeSwipe(m); return s
        }
    }

    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep {
        switch self {
        case .tap(var m): let s = m.deadlinePassed(&core, at: time); self = .tap(m); return s
        case .longPress(var m): let s = m.deadlinePassed(&core, at: time); self = .longPress(m); return s
        case .pan(var m): let s = m.deadlinePassed(&core, at: time); self = .pan(m); return s
        case .swipe(var m): let s = m.deadlinePassed(&core, at: time); self = .swipe(m); return s
        case .pinch(var m): let s = m.deadlinePassed(&core, at: time); self = .pinch(m); return s
        case .rotate(var m): let s = m.deadlinePassed(&core, at: time); self = .rotate(m); return s
        case .edgePan(var m): let s = m.deadlinePassed(&core, at: time); self = .edgePan(m); return s
        case .hover(var m): let s = m.deadlinePassed(&core, at: time); self = .hover(m); return s
        case .drag(var m): let s = m.deadlinePassed(&core, at: time); self = .drag(m); return s
        case .edgeSwipe(var m): let s = m.deadlinePassed(&core, at: time); self = .edgeSwipe(m); return s
        }
    }

    func measurement(_ core: RecognizerCore) -> GestureMeasurement {
        switch self {
        case .tap(let m): return m.measurement(core)
        case .longPress(let m): return m.measurement(core)
        case .pan(let m): return m.measurement(core)
        case .swipe(let m): return m.measurement(core)
        case .pinch(let m): return m.measurement(core)
        case .rotate(let m): return m.measurement(core)
        case .edgePan(let m): return m.measurement(core)
        case .hover(let m): return m.measurement(core)
        case .drag(let m): return m.measurement(core)
        case .edgeSwipe(let m): return m.measurement(core)
        }
    }

    /// Why it failed, for machines that say (the system edge swipe: begin late, fail fast).
    var failureReason: String? {
        switch self {
        case .edgeSwipe(let m): return m.failureReason
        case .tap, .longPress, .pan, .swipe, .pinch, .rotate, .edgePan, .hover, .drag: return nil
        }
    }

    mutating func reset() {
        switch self {
        case .tap(var m): m.reset(); self = .tap(m)
        case .longPress(var m): m.reset(); self = .longPress(m)
        case .pan(var m): m.reset(); self = .pan(m)
        case .swipe(var m): m.reset(); self = .swipe(m)
        case .pinch(var m): m.reset(); self = .pinch(m)
        case .rotate(var m): m.reset(); self = .rotate(m)
        case .edgePan(var m): m.reset(); self = .edgePan(m)
        case .hover(var m): m.reset(); self = .hover(m)
        case .drag(var m): m.reset(); self = .drag(m)
        case .edgeSwipe(var m): m.reset(); self = .edgeSwipe(m)
        }
    }
}
