// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

extension MessageEncoder {
    /// Writes one `drag` event object (no trailing newline), `surface` being
    /// the name the client knows its surface by (docs/protocol.md, "Drag sessions").
    public static func drag(_ e: DragSessionEvent, surface: String?, into w: inout JSONWriter) {
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
            w.field("operation", string: operation.rawValue)
            w.key("items"); dragItems(items, into: &w)
        case let .ended(outcome, reason):
            w.field("outcome", string: outcome.rawValue)
            w.field("reason", string: reason.rawValue)
        }
        w.endObject()
    }

    /// Items as `drag-items` and `perform` carry them.
    static func dragItems(_ items: [DragItem], into w: inout JSONWriter) {
        w.beginArray()
        for item in items {
            w.beginObject()
            w.key("representations")
            w.beginArray()
            for r in item.representations {
                w.beginObject()
                w.field("type", string: r.type)
                w.field("data", string: r.data)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endArray()
    }
}
