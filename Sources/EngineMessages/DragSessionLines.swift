// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import Wire

extension MessageEncoder {
    /// Writes one `drag-session` message (no trailing newline): a drag
    /// session's decision as an observer sees it (the live view, `touchctl
    /// replay`), with the surfaces taking part and the items' count and types,
    /// never their data (docs/protocol.md, "Drag sessions seen from outside").
    package static func dragSessionRecord(_ r: DragSessionRecord, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", literal: "drag-session")
        switch r.kind {
        case .opened: w.field("event", literal: "opened")
        case .itemsAnswered: w.field("event", literal: "items")
        case .addAsked: w.field("event", literal: "add-asked")
        case .itemsAdded: w.field("event", literal: "added")
        case .tapReleased: w.field("event", literal: "tap-released")
        case .entered: w.field("event", literal: "entered")
        case .exited: w.field("event", literal: "exited")
        case .proposal: w.field("event", literal: "proposal")
        case .dropped: w.field("event", literal: "dropped")
        case .ended: w.field("event", literal: "ended")
        }
        w.field("time", seconds: r.time.microseconds)
        w.field("session", int: r.session)
        w.field("source", string: r.sourceSurface.rawValue)
        w.field("screen", int: r.screen)
        w.field("location", x: r.location.x, y: r.location.y, decimals: 2)
        w.field("itemCount", int: r.items)
        w.key("types")
        w.beginArray()
        for t in r.types { w.string(t) }
        w.endArray()
        switch r.kind {
        case .opened, .itemsAnswered, .itemsAdded:
            break
        case let .addAsked(_, surface, _), let .tapReleased(_, surface, _), let .entered(_, surface), let .exited(_, surface):
            w.field("surface", string: surface.rawValue)
        case let .proposal(_, surface, operation), let .dropped(_, surface, operation):
            w.field("surface", string: surface.rawValue)
            w.field("operation", string: operation.rawValue)
        case let .ended(outcome, reason):
            w.field("outcome", string: outcome.rawValue)
            w.field("reason", string: reason.rawValue)
        }
        if case let .tapReleased(_, _, reason) = r.kind { w.field("reason", string: reason) }
        w.endObject()
    }
}
