// SPDX-License-Identifier: MIT
import JSON

extension RequestEnvelope {
    /// Writes the request as one JSON object (no newline), the inverse of
    /// ``RequestDecoder/decode(_:)-(JSONValue)``: absent optional fields are left out.
    public func write(into w: inout JSONWriter) {
        w.beginObject()
        w.key("op"); w.string(request.op)
        if let id { w.key("id"); id.write(into: &w) }
        switch request {
        case let .subscribe(s):
            w.key("events"); Self.writeStreams(s.events, into: &w)
            if !s.filter.isEmpty {
                w.key("filter")
                w.beginObject()
                if let v = s.filter.kinds { w.key("kinds"); Self.writeStrings(v, into: &w) }
                if let v = s.filter.recognizers { w.key("recognizers"); Self.writeStrings(v, into: &w) }
                if let v = s.filter.devices {
                    w.key("devices")
                    w.beginArray()
                    for d in v { w.int(d) }
                    w.endArray()
                }
                if let v = s.filter.touchTypes { w.key("touchTypes"); Self.writeStrings(v, into: &w) }
                if let v = s.filter.surfaces { w.key("surfaces"); Self.writeStrings(v, into: &w) }
                w.endObject()
            }
        case let .unsubscribe(events):
            if let events { w.key("events"); Self.writeStreams(events, into: &w) }
        case let .register(s), let .update(s):
            w.key("surface"); Self.writeSurface(s, into: &w)
        case let .unregister(surface):
            w.key("surface"); w.string(surface)
        case .ping:
            break
        case let .coalesce(ms):
            w.key("intervalMs"); Self.writeNumber(ms, into: &w)
        case let .screens(change):
            Self.writeScreenChange(change, into: &w)
        case let .focus(report):
            Self.writeFocus(report, into: &w)
        case let .compositor(report):
            Self.writeCompositor(report, into: &w)
        case let .drag(d):
            d.write(into: &w)
        case let .frames(f):
            Self.writeFrames(f, into: &w)
        }
        w.endObject()
    }

    /// The request as a JSON line's bytes (no newline).
    public var bytes: [UInt8] {
        var w = JSONWriter(capacity: 128)
        write(into: &w)
        return w.bytes
    }

    private static func writeStrings(_ list: [String], into w: inout JSONWriter) {
        w.beginArray()
        for s in list { w.string(s) }
        w.endArray()
    }

    private static func writeStreams(_ list: [EventStream], into w: inout JSONWriter) {
        w.beginArray()
        for s in list { w.string(s.rawValue) }
        w.endArray()
    }

    static func writeNumber(_ v: Double, into w: inout JSONWriter) {
        JSONValue.double(v).write(into: &w)
    }

    private static func writeScreenChange(_ c: ScreenChange, into w: inout JSONWriter) {
        if !c.screens.isEmpty {
            w.key("screens")
            w.beginArray()
            for u in c.screens {
                w.beginObject()
                w.key("name"); w.string(u.name)
                if let v = u.width { w.key("width"); w.int(v) }
                if let v = u.height { w.key("height"); w.int(v) }
                if let v = u.rotation { w.key("rotation"); w.int(v.rawValue) }
                if let v = u.sizeMM {
                    w.key("sizeMM")
                    w.beginObject()
                    w.key("width"); writeNumber(v.width, into: &w)
                    w.key("height"); writeNumber(v.height, into: &w)
                    w.endObject()
                }
                if let v = u.insets {
                    w.key("insets")
                    w.beginObject()
                    w.key("top"); writeNumber(v.top, into: &w)
                    w.key("right"); writeNumber(v.right, into: &w)
                    w.key("bottom"); writeNumber(v.bottom, into: &w)
                    w.key("left"); writeNumber(v.left, into: &w)
                    w.endObject()
                }
                if u.remove { w.key("remove"); w.bool(true) }
                w.endObject()
            }
            w.endArray()
        }
        if !c.devices.isEmpty {
            w.key("devices")
            w.beginArray()
            for d in c.devices {
                w.beginObject()
                if let v = d.device { w.key("device"); w.int(v) }
                if let v = d.name { w.key("name"); w.string(v) }
                w.key("screen")
                switch d.screen {
                case .index(let i): w.int(i)
                case .name(let n): w.string(n)
                }
                w.endObject()
            }
            w.endArray()
        }
    }

    private static func writeSurface(_ s: SurfaceDescription, into w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(s.id)
        w.key("rect")
        w.beginObject()
        w.key("x"); writeNumber(s.rect.x, into: &w)
        w.key("y"); writeNumber(s.rect.y, into: &w)
        w.key("width"); writeNumber(s.rect.width, into: &w)
        w.key("height"); writeNumber(s.rect.height, into: &w)
        w.endObject()
        if let v = s.z { w.key("z"); writeNumber(v, into: &w) }
        if let v = s.parent { w.key("parent"); w.string(v) }
        if let v = s.screen { w.key("screen"); w.int(v) }
        if let v = s.hidden { w.key("hidden"); w.bool(v) }
        if let v = s.enabled { w.key("enabled"); w.bool(v) }
        if let v = s.multipleTouch { w.key("multipleTouch"); w.bool(v) }
        if let v = s.exclusiveTouch { w.key("exclusiveTouch"); w.bool(v) }
        if let v = s.deferEdges { w.key("deferEdges"); writeStrings(v, into: &w) }
        if let v = s.delegateDeferralTo { w.key("delegateDeferralTo"); w.string(v) }
        if let v = s.fullScreen { w.key("fullScreen"); w.bool(v) }
        w.key("recognizers")
        w.beginArray()
        for r in s.recognizers { r.write(into: &w) }
        w.endArray()
        w.endObject()
    }
}
