import Gestures
import TouchCore

extension MessageEncoder {
    /// Writes one `gesture` event object (no trailing newline).
    ///
    /// Kind-specific fields: `taps` (tap), `direction` (swipe), `translation`
    /// and `velocity` in px and px/s (pan, edge-pan, drag), `scale` and
    /// `velocity` in scale/s (pinch), `rotation` in radians and `velocity` in
    /// rad/s (rotate), `edge` (edge-pan).
    public static func gesture(_ e: GestureEvent, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("gesture")
        w.key("time"); w.number(e.time.seconds, decimals: 6)
        w.key("device"); w.int(e.device.rawValue)
        w.key("surface")
        if let s = e.surface { w.string(s.rawValue) } else { w.null() }
        w.key("owner"); w.string(e.owner)
        w.key("recognizer"); w.string(e.recognizer)
        w.key("kind"); w.string(e.kind.rawValue)
        w.key("state"); w.string(e.state.rawValue)
        w.key("touches"); w.int(e.touches)
        w.key("touchType"); w.string(e.touchType.rawValue)
        w.key("location"); w.point(x: e.location.x, y: e.location.y, decimals: 2)
        if let v = e.taps { w.key("taps"); w.int(v) }
        if let v = e.direction { w.key("direction"); w.string(v.rawValue) }
        if let v = e.translation { w.key("translation"); w.point(x: v.x, y: v.y, decimals: 2) }
        if let v = e.velocity { w.key("velocity"); w.point(x: v.x, y: v.y, decimals: 1) }
        if let v = e.scale { w.key("scale"); w.number(v, decimals: 4) }
        if let v = e.scaleVelocity { w.key("velocity"); w.number(v, decimals: 4) }
        if let v = e.rotation { w.key("rotation"); w.number(v, decimals: 4) }
        if let v = e.rotationVelocity { w.key("velocity"); w.number(v, decimals: 4) }
        if let v = e.edge { w.key("edge"); w.string(v.rawValue) }
        if let v = e.purpose { w.key("purpose"); w.string(v) }
        if e.isSystem { w.key("system"); w.bool(true) }
        w.endObject()
    }

    /// Writes one `debug` record object (no trailing newline): `record` names
    /// the kind of record, the kind's details follow, and `text` is the
    /// record as one readable line.
    public static func debug(_ r: DebugRecord, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("debug")
        w.key("time"); w.number(r.time.seconds, decimals: 6)
        if let i = r.interaction { w.key("interaction"); w.int(i) }
        if let t = r.touch { w.key("touch"); w.int(t.rawValue) }
        if let n = r.recognizer { w.key("recognizer"); w.string(n) }
        w.key("record")
        switch r.kind {
        case .inPlay(let surface, let recognizers):
            w.string("in-play")
            w.key("surface")
            if let surface { w.string(surface.rawValue) } else { w.null() }
            w.key("recognizers")
            w.beginArray()
            for n in recognizers { w.string(n) }
            w.endArray()
        case .unhandled(let reason):
            w.string("unhandled"); w.key("reason"); w.string(reason)
        case .refused(let reason):
            w.string("refused"); w.key("reason"); w.string(reason)
        case .transition(let from, let to):
            w.string("transition"); w.key("from"); w.string(from.rawValue); w.key("to"); w.string(to.rawValue)
        case .excluded(let by):
            w.string("excluded"); w.key("by"); w.string(by)
        case .simultaneous(let with):
            w.string("simultaneous"); w.key("with"); w.string(with)
        case .waiting(let on):
            w.string("waiting"); w.key("on"); w.string(on)
        case .released(let by):
            w.string("released"); w.key("by"); w.string(by)
        case .dropped(let by):
            w.string("dropped"); w.key("by"); w.string(by)
        case .cancelled(let reason):
            w.string("cancelled"); w.key("reason"); w.string(reason)
        case .gated:
            w.string("gated")
        case .withheldDelivered(let phase):
            w.string("withheld-delivered"); w.key("phase"); w.string(phase.rawValue)
        case .bug(let what):
            w.string("bug"); w.key("message"); w.string(what)
        case .failing(let reason):
            w.string("failing"); w.key("reason"); w.string(reason)
        case .edgeDeferral(let edge, let surface, let outcome):
            w.string("edge-deferral"); w.key("edge"); w.string(edge.rawValue)
            w.key("surface"); w.string(surface.rawValue); w.key("outcome"); w.string(outcome.rawValue)
        case .edgeHint(let edge, let windowEnd):
            w.string("edge-hint"); w.key("edge"); w.string(edge.rawValue)
            w.key("windowEnd"); w.number(windowEnd.seconds, decimals: 6)
        case .withheldDiscarded:
            w.string("withheld-discarded")
        }
        w.key("text"); w.string(r.description)
        w.endObject()
    }

    /// Writes one `system` event object (no trailing newline): a deferral
    /// decision (`"event":"deferral"`) or an edge hint (`"event":"edge-hint"`);
    /// `surface` replaces the decision's surface id (a client's own name for it).
    public static func system(_ e: SystemEvent, surface: String? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("system")
        w.key("time"); w.number(e.time.seconds, decimals: 6)
        switch e.kind {
        case .deferral(let d):
            w.key("event"); w.string("deferral")
            w.key("surface"); w.string(surface ?? d.surface.rawValue)
            w.key("requested"); w.beginArray(); for edge in d.requested { w.string(edge.rawValue) }; w.endArray()
            w.key("granted"); w.beginArray(); for edge in d.granted { w.string(edge.rawValue) }; w.endArray()
        case .edgeHint(let edge, let screen, let windowEnd):
            w.key("event"); w.string("edge-hint")
            w.key("edge"); w.string(edge.rawValue)
            w.key("screen"); w.int(screen)
            w.key("windowEnd"); w.number(windowEnd.seconds, decimals: 6)
        }
        w.endObject()
    }

    /// Writes a raw touch of a surface's touch stream: a `touch` event with
    /// the phase the surface sees (which may differ from the touch's own, e.g.
    /// `cancelled` when a recognizer took it) and the surface it belongs to.
    public static func rawTouch(_ r: RawTouchEvent, into w: inout JSONWriter) {
        var t = r.touch
        t.phase = r.phase
        t.time = r.time
        touch(t, surface: r.surface.rawValue, into: &w)
    }
}
