// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import Wire

// The engine's outputs as protocol lines: each made into its protocol value here, then written by
// Wire's encoder (the touch and gesture lines through its cursor, without allocating).

extension TouchMessage {
    /// A touch as its `touch` line carries it.
    @inlinable
    package init(_ t: Touch) {
        self.init(
            microseconds: t.time.microseconds, device: t.device.rawValue, id: t.id.rawValue, phase: t.phase.wire,
            touchType: t.type.wire, tool: t.tool.wire, screen: t.screen,
            location: WirePoint(x: t.location.x, y: t.location.y), locationMM: WirePoint(x: t.locationMM.x, y: t.locationMM.y),
            force: t.force, majorRadius: t.majorRadius, minorRadius: t.minorRadius, altitude: t.altitude, azimuth: t.azimuth,
            distance: t.distance, buttons: t.buttons.wire, serial: t.serial, inProximity: t.inProximity,
            isSynthetic: t.isSynthetic)
    }

    /// A raw touch of a surface's touch stream: the phase and time the surface sees (the phase may
    /// differ from the touch's own, e.g. `cancelled` when a recognizer took it).
    @inlinable
    package init(_ r: RawTouchEvent) {
        self.init(r.touch)
        phase = r.phase.wire
        microseconds = r.time.microseconds
    }
}

extension GestureMessage {
    /// A recognizer's action as its `gesture` line carries it.
    @inlinable
    package init(_ e: GestureEvent) {
        self.init(
            microseconds: e.time.microseconds, device: e.device.rawValue, surface: e.surface?.rawValue, owner: e.owner,
            recognizer: e.recognizer, kind: e.kind.wire, state: e.state.wire, touches: e.touches, touchType: e.touchType.wire,
            location: WirePoint(x: e.location.x, y: e.location.y), taps: e.taps, direction: e.direction?.wire,
            translation: e.translation.map { WirePoint(x: $0.x, y: $0.y) }, velocity: e.velocity.map { WirePoint(x: $0.x, y: $0.y) },
            scale: e.scale, scaleVelocity: e.scaleVelocity, rotation: e.rotation, rotationVelocity: e.rotationVelocity,
            edge: e.edge?.wire, purpose: e.purpose, isSystem: e.isSystem)
    }
}

extension MessageEncoder {
    /// Writes a touch's `touch` line (no trailing newline); `surface` is set for a surface's raw touch stream.
    @inlinable
    package static func touch(_ t: Touch, surface: String? = nil, into w: inout JSONWriter) {
        touch(TouchMessage(t), surface: surface, into: &w)
    }

    /// Writes a raw touch of a surface's touch stream as a `touch` line with its surface
    /// (``TouchMessage/init(_:)-(RawTouchEvent)``).
    @inlinable
    package static func rawTouch(_ r: RawTouchEvent, into w: inout JSONWriter) {
        touch(TouchMessage(r), surface: r.surface.rawValue, into: &w)
    }

    /// Writes a recognizer's action as a `gesture` line (no trailing newline).
    @inlinable
    package static func gesture(_ e: GestureEvent, into w: inout JSONWriter) {
        gesture(GestureMessage(e), into: &w)
    }

    /// Writes one `debug` record object (no trailing newline): `record` names
    /// the kind of record, the kind's details follow, and `text` is the
    /// record as one readable line.
    package static func debug(_ r: DebugRecord, into w: inout JSONWriter) {
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
            w.string("withheld-delivered"); w.field("phase", literal: phase.wire.protocolName)
        case .bug(let what):
            w.string("bug"); w.field("message", string: what)
        case .failing(let reason):
            w.string("failing"); w.field("reason", string: reason)
        case .edgeDeferral(let edge, let surface, let outcome):
            w.string("edge-deferral"); w.field("edge", literal: edge.wire.protocolName)
            w.key("surface"); w.string(surface.rawValue); w.field("outcome", string: outcome.rawValue)
        case .edgeHint(let edge, let windowEnd):
            w.string("edge-hint"); w.field("edge", literal: edge.wire.protocolName)
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
    package static func system(_ e: SystemEvent, surface: String? = nil, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", literal: "system")
        w.field("time", seconds: e.time.microseconds)
        switch e.kind {
        case .deferral(let d):
            w.field("event", string: "deferral")
            w.field("surface", string: surface ?? d.surface.rawValue)
            w.key("requested"); w.beginArray(); for edge in d.requested { w.string(edge.wire.rawValue) }; w.endArray()
            w.key("granted"); w.beginArray(); for edge in d.granted { w.string(edge.wire.rawValue) }; w.endArray()
        case .edgeHint(let edge, let screen, let windowEnd):
            w.field("event", string: "edge-hint")
            w.field("edge", literal: edge.wire.protocolName)
            w.field("screen", int: screen)
            w.field("windowEnd", seconds: windowEnd.microseconds)
        }
        w.endObject()
    }

    /// Writes one `drag` event object (no trailing newline), `surface` being
    /// the name the client knows its surface by (docs/protocol.md, "Drag sessions").
    package static func drag(_ e: DragSessionEvent, surface: String?, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", literal: "drag")
        switch e.kind {
        case .itemsRequested: w.field("event", literal: "items-requested")
        case .addRequested: w.field("event", literal: "add-requested")
        case .entered: w.field("event", literal: "entered")
        case .moved: w.field("event", literal: "moved")
        case .exited: w.field("event", literal: "exited")
        case .perform: w.field("event", literal: "perform")
        case .ended: w.field("event", literal: "ended")
        }
        w.field("time", seconds: e.time.microseconds)
        w.field("session", int: e.session)
        if let surface { w.field("surface", string: surface) }
        if let p = e.location { w.field("location", x: p.x, y: p.y, decimals: 2) }
        switch e.kind {
        case let .itemsRequested(request), let .addRequested(request):
            w.field("request", int: request)
        case let .entered(types, items):
            w.key("types")
            w.beginArray()
            for t in types { w.string(t) }
            w.endArray()
            w.field("itemCount", int: items)
        case .moved, .exited:
            break
        case let .perform(operation, items):
            w.field("operation", string: operation.wire.rawValue)
            w.key("items"); dragItems(items.map(\.wire), into: &w)
        case let .ended(outcome, reason):
            w.field("outcome", string: outcome.wire.rawValue)
            w.field("reason", string: reason.wire.rawValue)
        }
        w.endObject()
    }
}
