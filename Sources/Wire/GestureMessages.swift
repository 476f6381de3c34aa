// SPDX-License-Identifier: MIT
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
        var room = gestureRoom &+ JSONCursor.stringRoom(e.owner) &+ JSONCursor.stringRoom(e.recognizer)
        if let s = e.surface { room &+= JSONCursor.stringRoom(s.rawValue) }
        if let p = e.purpose { room &+= 11 &+ JSONCursor.stringRoom(p) }
        w.value(room: room) { c in
            c.raw(#"{"type":"gesture","time":"#)
            c.seconds(microseconds: e.time.microseconds)
            c.raw(#","device":"#)
            c.int(e.device.rawValue)
            c.raw(#","surface":"#)
            if let s = e.surface { c.string(s.rawValue) } else { c.raw("null") }
            c.raw(#","owner":"#)
            c.string(e.owner)
            c.raw(#","recognizer":"#)
            c.string(e.recognizer)
            c.raw(#","kind":"#)
            c.quoted(e.kind.protocolName)
            c.raw(#","state":"#)
            c.quoted(e.state.protocolName)
            c.raw(#","touches":"#)
            c.int(e.touches)
            c.raw(#","touchType":"#)
            c.quoted(e.touchType.protocolName)
            c.raw(#","location":"#)
            c.point(x: e.location.x, y: e.location.y, TwoDecimals.self)
            if let v = e.taps { c.raw(#","taps":"#); c.int(v) }
            if let v = e.direction { c.raw(#","direction":"#); c.quoted(v.protocolName) }
            if let v = e.translation { c.raw(#","translation":"#); c.point(x: v.x, y: v.y, TwoDecimals.self) }
            if let v = e.velocity { c.raw(#","velocity":"#); c.point(x: v.x, y: v.y, OneDecimal.self) }
            if let v = e.scale { c.raw(#","scale":"#); c.number(v, FourDecimals.self) }
            if let v = e.scaleVelocity { c.raw(#","velocity":"#); c.number(v, FourDecimals.self) }
            if let v = e.rotation { c.raw(#","rotation":"#); c.number(v, FourDecimals.self) }
            if let v = e.rotationVelocity { c.raw(#","velocity":"#); c.number(v, FourDecimals.self) }
            if let v = e.edge { c.raw(#","edge":"#); c.quoted(v.protocolName) }
            if let p = e.purpose { c.raw(#","purpose":"#); c.string(p) }
            if e.isSystem { c.raw(#","system":true"#) }
            c.raw("}")
        }
    }

    /// The most a gesture line takes without its strings (`surface`, `owner`,
    /// `recognizer`, `purpose`): the keys and punctuation (about 330 bytes
    /// with every optional key), 11 numbers (at most 32 bytes each), 3
    /// integers (21), 4 enum names (at most 14 each): under 800.
    static var gestureRoom: Int { 1024 }

    /// Writes one `debug` record object (no trailing newline): `record` names
    /// the kind of record, the kind's details follow, and `text` is the
    /// record as one readable line.
    public static func debug(_ r: DebugRecord, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", literal: "debug")
        w.field("time", seconds: r.time.microseconds)
        if let i = r.interaction { w.field("interaction", int: i) }
        if let t = r.touch { w.field("touch", int: t.rawValue) }
        if let n = r.recognizer { w.field("recognizer", string: n) }
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
            w.string("unhandled"); w.field("reason", string: reason)
        case .refused(let reason):
            w.string("refused"); w.field("reason", string: reason)
        case .transition(let from, let to):
            w.string("transition"); w.key("from"); w.string(from.rawValue); w.field("to", string: to.rawValue)
        case .excluded(let by):
            w.string("excluded"); w.field("by", string: by)
        case .simultaneous(let with):
            w.string("simultaneous"); w.field("with", string: with)
        case .waiting(let on):
            w.string("waiting"); w.field("on", string: on)
        case .released(let by):
            w.string("released"); w.field("by", string: by)
        case .dropped(let by):
            w.string("dropped"); w.field("by", string: by)
        case .cancelled(let reason):
            w.string("cancelled"); w.field("reason", string: reason)
        case .gated:
            w.string("gated")
        case .withheldDelivered(let phase):
            w.string("withheld-delivered"); w.field("phase", string: phase.rawValue)
        case .bug(let what):
            w.string("bug"); w.field("message", string: what)
        case .failing(let reason):
            w.string("failing"); w.field("reason", string: reason)
        case .edgeDeferral(let edge, let surface, let outcome):
            w.string("edge-deferral"); w.field("edge", string: edge.rawValue)
            w.key("surface"); w.string(surface.rawValue); w.field("outcome", string: outcome.rawValue)
        case .edgeHint(let edge, let windowEnd):
            w.string("edge-hint"); w.field("edge", string: edge.rawValue)
            w.field("windowEnd", seconds: windowEnd.microseconds)
        case .withheldDiscarded:
            w.string("withheld-discarded")
        }
        w.field("text", string: r.description)
        w.endObject()
    }

    /// Writes one `system` event object (no trailing newline): a deferral
    /// decision (`"event":"deferral"`) or an edge hint (`"event":"edge-hint"`);
    /// `surface` replaces the decision's surface id (a client's own name for it).
    public static func system(_ e: SystemEvent, surface: String? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", literal: "system")
        w.field("time", seconds: e.time.microseconds)
        switch e.kind {
        case .deferral(let d):
            w.field("event", string: "deferral")
            w.field("surface", string: surface ?? d.surface.rawValue)
            w.key("requested"); w.beginArray(); for edge in d.requested { w.string(edge.rawValue) }; w.endArray()
            w.key("granted"); w.beginArray(); for edge in d.granted { w.string(edge.rawValue) }; w.endArray()
        case .edgeHint(let edge, let screen, let windowEnd):
            w.field("event", string: "edge-hint")
            w.field("edge", string: edge.rawValue)
            w.field("screen", int: screen)
            w.field("windowEnd", seconds: windowEnd.microseconds)
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
