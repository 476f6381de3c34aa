// SPDX-License-Identifier: MIT
import JSON

/// Decodes request lines into typed ``Request`` values.
///
/// Unknown fields are ignored (additive versioning); a JSON `null` counts as
/// an absent optional field. Every failure is a ``RequestError`` carrying the
/// request's id when one could be read, and for `bad-field` the field path
/// (`surface.rect.width: expected a number`). An id, name or filter entry
/// longer than ``maxNameBytes`` is `limit-exceeded`, with its path too
/// (`surface.id: longer than 256 bytes`): the protocol's limits table lists it.
public enum RequestDecoder {
    /// The longest surface id, recognizer name or filter entry accepted, in bytes.
    public static let maxNameBytes = 256
    /// The longest coalescing interval a client may ask for, in milliseconds (10 updates a second).
    public static let maxCoalescingMilliseconds = 100.0

    /// Decodes one line (without its newline).
    public static func decode(_ line: UnsafeRawBufferPointer) throws(RequestError) -> RequestEnvelope {
        let value: JSONValue
        do {
            value = try JSONParser.parse(line)
        } catch {
            switch error.reason {
            case .invalidUTF8: throw RequestError(.badUTF8, "the line is not valid UTF-8 (byte \(error.offset + 1))")
            case .syntax: throw RequestError(.badJSON, "not JSON: \(error.description)")
            }
        }
        return try decode(value)
    }

    /// Decodes one line given as bytes.
    public static func decode(_ line: [UInt8]) throws(RequestError) -> RequestEnvelope {
        let result: Result<RequestEnvelope, RequestError> = line.withUnsafeBytes { raw in
            do throws(RequestError) { return .success(try decode(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Decodes one line given as a string.
    public static func decode(_ line: String) throws(RequestError) -> RequestEnvelope {
        try decode(Array(line.utf8))
    }

    /// Decodes an already parsed request object.
    public static func decode(_ value: JSONValue) throws(RequestError) -> RequestEnvelope {
        guard case let .object(fields) = value else {
            throw RequestError(.badJSON, "a request must be a JSON object, not \(value.kindDescription)")
        }
        let id: RequestID?
        switch fields["id"] {
        case nil, .null?: id = nil
        case let .int(v)?: id = .int(v)
        case let .double(v)?: id = .double(v)
        case let .string(v)?: id = .string(v)
        case let other?: throw RequestError.badField("id", "expected a number or a string, not \(other.kindDescription)")
        }
        let d = FieldReader(id: id)
        guard let opValue = fields["op"], !opValue.isNull else { throw RequestError(.unknownOp, "the request has no \"op\"", id: id) }
        guard case let .string(op) = opValue else { throw d.bad("op", "expected a string, not \(opValue.kindDescription)") }
        let request: Request
        switch op {
        case "subscribe":
            let events = try d.streams(fields["events"], path: "events", required: true) ?? []
            let filter = try d.filter(fields["filter"])
            request = .subscribe(Subscription(events: events, filter: filter))
        case "unsubscribe":
            request = .unsubscribe(events: try d.streams(fields["events"], path: "events", required: false))
        case "register":
            request = .register(try d.surface(fields["surface"]))
        case "update":
            request = .update(try d.surface(fields["surface"]))
        case "unregister":
            request = .unregister(surface: try d.name(fields["surface"], path: "surface"))
        case "ping":
            request = .ping
        case "coalesce":
            request = .coalesce(intervalMilliseconds: try d.coalescingInterval(fields["intervalMs"]))
        case "screens":
            request = .screens(try d.screenChange(fields))
        case "focus":
            request = .focus(try d.focusReport(fields))
        case "frames":
            request = .frames(try d.framesRequest(fields))
        case "compositor":
            request = .compositor(try d.compositorReport(fields))
        default:
            guard let drag = try DragRequest.decode(op: op, fields, d) else {
                throw RequestError(.unknownOp, "unknown op \"\(op)\"", id: id)
            }
            request = .drag(drag)
        }
        return RequestEnvelope(id: id, request: request)
    }
}

/// Reads typed fields, producing `bad-field` errors with paths.
struct FieldReader {
    let id: RequestID?

    func bad(_ path: String, _ problem: String) -> RequestError {
        RequestError.badField(path, problem, id: id)
    }

    func present(_ v: JSONValue?) -> JSONValue? {
        if let v, !v.isNull { return v }
        return nil
    }

    func name(_ v: JSONValue?, path: String) throws(RequestError) -> String {
        guard let v = present(v) else { throw bad(path, "missing") }
        guard case let .string(s) = v else { throw bad(path, "expected a string, not \(v.kindDescription)") }
        guard !s.isEmpty else { throw bad(path, "must not be empty") }
        guard s.utf8.count <= RequestDecoder.maxNameBytes else {
            throw RequestError(.limitExceeded, "\(path): longer than \(RequestDecoder.maxNameBytes) bytes", id: id)
        }
        return s
    }

    func optionalName(_ v: JSONValue?, path: String) throws(RequestError) -> String? {
        guard present(v) != nil else { return nil }
        return try name(v, path: path)
    }

    func number(_ v: JSONValue?, path: String) throws(RequestError) -> Double? {
        guard let v = present(v) else { return nil }
        guard let d = v.doubleValue else { throw bad(path, "expected a number, not \(v.kindDescription)") }
        return d
    }

    /// `coalesce`'s `intervalMs`: required, from 0 (off) to ``RequestDecoder/maxCoalescingMilliseconds``.
    func coalescingInterval(_ v: JSONValue?) throws(RequestError) -> Double {
        let ms = try requiredNumber(v, path: "intervalMs")
        let limit = RequestDecoder.maxCoalescingMilliseconds
        guard ms >= 0, ms <= limit else {
            var w = JSONWriter(capacity: 32)
            // As the client wrote it (an integer stays one).
            (v ?? .double(ms)).write(into: &w)
            throw bad("intervalMs", "expected a number of milliseconds from 0 to \(Int(limit)), not \(String(decoding: w.bytes, as: UTF8.self))")
        }
        return ms
    }

    func requiredNumber(_ v: JSONValue?, path: String) throws(RequestError) -> Double {
        guard let d = try number(v, path: path) else { throw bad(path, "missing") }
        return d
    }

    func bool(_ v: JSONValue?, path: String) throws(RequestError) -> Bool? {
        guard let v = present(v) else { return nil }
        guard case let .bool(b) = v else { throw bad(path, "expected true or false, not \(v.kindDescription)") }
        return b
    }

    func array(_ v: JSONValue?, path: String) throws(RequestError) -> [JSONValue]? {
        guard let v = present(v) else { return nil }
        guard case let .array(a) = v else { throw bad(path, "expected an array, not \(v.kindDescription)") }
        return a
    }

    func names(_ v: JSONValue?, path: String, allowEmpty: Bool) throws(RequestError) -> [String]? {
        guard let a = try array(v, path: path) else { return nil }
        guard allowEmpty || !a.isEmpty else { throw bad(path, "expected a non-empty array") }
        var out: [String] = []
        out.reserveCapacity(a.count)
        for (k, e) in a.enumerated() { out.append(try name(e, path: "\(path)[\(k)]")) }
        return out
    }

    func streams(_ v: JSONValue?, path: String, required: Bool) throws(RequestError) -> [EventStream]? {
        guard let a = try array(v, path: path) else {
            if required { throw bad(path, "missing") }
            return nil
        }
        guard !a.isEmpty else { throw bad(path, "expected a non-empty array") }
        var out: [EventStream] = []
        for (k, e) in a.enumerated() {
            guard case let .string(s) = e else { throw bad("\(path)[\(k)]", "expected a string, not \(e.kindDescription)") }
            guard let stream = EventStream(rawValue: s) else {
                throw bad("\(path)[\(k)]", "unknown stream \"\(s)\" (expected gesture, touch, system, device or debug)")
            }
            if !out.contains(stream) { out.append(stream) }
        }
        return out
    }

    func filter(_ v: JSONValue?) throws(RequestError) -> SubscriptionFilter {
        guard let v = present(v) else { return SubscriptionFilter() }
        guard case .object = v else { throw bad("filter", "expected an object, not \(v.kindDescription)") }
        var f = SubscriptionFilter()
        f.kinds = try names(v["kinds"], path: "filter.kinds", allowEmpty: false)
        f.recognizers = try names(v["recognizers"], path: "filter.recognizers", allowEmpty: false)
        f.touchTypes = try names(v["touchTypes"], path: "filter.touchTypes", allowEmpty: false)
        f.surfaces = try names(v["surfaces"], path: "filter.surfaces", allowEmpty: false)
        if let a = try array(v["devices"], path: "filter.devices") {
            guard !a.isEmpty else { throw bad("filter.devices", "expected a non-empty array") }
            var ids: [UInt32] = []
            for (k, e) in a.enumerated() {
                guard let n = e.int64Value, n >= 0, n <= Int64(UInt32.max) else {
                    throw bad("filter.devices[\(k)]", "expected a device id (an integer from 0 to \(UInt32.max))")
                }
                ids.append(UInt32(n))
            }
            f.devices = ids
        }
        return f
    }

    /// `screens`' `screens` and `devices` lists; at least one entry in all.
    func screenChange(_ fields: [String: JSONValue]) throws(RequestError) -> ScreenChange {
        var change = ScreenChange()
        for (k, e) in (try array(fields["screens"], path: "screens") ?? []).enumerated() {
            change.screens.append(try screenUpdate(e, path: "screens[\(k)]"))
        }
        for (k, e) in (try array(fields["devices"], path: "devices") ?? []).enumerated() {
            let path = "devices[\(k)]"
            guard case .object = e else { throw bad(path, "expected an object, not \(e.kindDescription)") }
            var a = DeviceScreenAssignment(screen: try screenSelector(e["screen"], path: path + ".screen"))
            if let v = present(e["device"]) {
                guard let n = v.int64Value, n >= 0, n <= Int64(UInt32.max) else { throw bad(path + ".device", "expected a device id") }
                a.device = UInt32(n)
            }
            a.name = try optionalName(e["name"], path: path + ".name")
            guard a.device != nil || a.name != nil else { throw bad(path, "needs \"device\" or \"name\"") }
            change.devices.append(a)
        }
        guard !change.screens.isEmpty || !change.devices.isEmpty else {
            throw bad("screens", "expected at least one entry in \"screens\" or \"devices\"")
        }
        return change
    }

    func screenSelector(_ v: JSONValue?, path: String) throws(RequestError) -> ScreenSelector {
        guard let v = present(v) else { throw bad(path, "missing") }
        if case .string = v { return .name(try name(v, path: path)) }
        guard let n = v.int64Value, n >= 0, n <= Int64(Int32.max) else {
            throw bad(path, "expected a screen index or name, not \(v.kindDescription)")
        }
        return .index(Int(n))
    }

    func pixels(_ v: JSONValue?, path: String) throws(RequestError) -> Int? {
        guard let v = present(v) else { return nil }
        guard let n = v.int64Value, n >= 1, n <= 65_536 else { throw bad(path, "expected 1 to 65536 pixels") }
        return Int(n)
    }

    func screenUpdate(_ e: JSONValue, path: String) throws(RequestError) -> ScreenUpdate {
        guard case .object = e else { throw bad(path, "expected an object, not \(e.kindDescription)") }
        var u = ScreenUpdate(name: try name(e["name"], path: path + ".name"))
        u.remove = try bool(e["remove"], path: path + ".remove") ?? false
        u.width = try pixels(e["width"], path: path + ".width")
        u.height = try pixels(e["height"], path: path + ".height")
        if let v = present(e["rotation"]) {
            guard let n = v.int64Value, let r = WireRotation(rawValue: Int(n)) else {
                throw bad(path + ".rotation", "expected 0, 90, 180 or 270")
            }
            u.rotation = r
        }
        if let v = present(e["sizeMM"]) {
            guard case .object = v else { throw bad(path + ".sizeMM", "expected an object, not \(v.kindDescription)") }
            let w = try requiredNumber(v["width"], path: path + ".sizeMM.width")
            let h = try requiredNumber(v["height"], path: path + ".sizeMM.height")
            guard w > 0, w.isFinite else { throw bad(path + ".sizeMM.width", "must be positive") }
            guard h > 0, h.isFinite else { throw bad(path + ".sizeMM.height", "must be positive") }
            u.sizeMM = WireSize(width: w, height: h)
        }
        if let v = present(e["insets"]) {
            guard case .object = v else { throw bad(path + ".insets", "expected an object, not \(v.kindDescription)") }
            var insets = WireInsets()
            func edge(_ key: String) throws(RequestError) -> Double {
                let x = try number(v[key], path: "\(path).insets.\(key)") ?? 0
                guard x >= 0, x <= 65_536 else { throw bad("\(path).insets.\(key)", "expected 0 to 65536 pixels") }
                return x
            }
            insets.top = try edge("top")
            insets.right = try edge("right")
            insets.bottom = try edge("bottom")
            insets.left = try edge("left")
            u.insets = insets
        }
        return u
    }

    func surface(_ v: JSONValue?) throws(RequestError) -> SurfaceDescription {
        guard let v = present(v) else { throw bad("surface", "missing") }
        guard case .object = v else { throw bad("surface", "expected an object, not \(v.kindDescription)") }
        let id = try name(v["id"], path: "surface.id")
        guard let r = present(v["rect"]) else { throw bad("surface.rect", "missing") }
        guard case .object = r else { throw bad("surface.rect", "expected an object, not \(r.kindDescription)") }
        let rect = SurfaceRect(
            x: try requiredNumber(r["x"], path: "surface.rect.x"),
            y: try requiredNumber(r["y"], path: "surface.rect.y"),
            width: try requiredNumber(r["width"], path: "surface.rect.width"),
            height: try requiredNumber(r["height"], path: "surface.rect.height"))
        guard rect.width >= 0 else { throw bad("surface.rect.width", "must not be negative") }
        guard rect.height >= 0 else { throw bad("surface.rect.height", "must not be negative") }
        var s = SurfaceDescription(id: id, rect: rect)
        s.z = try number(v["z"], path: "surface.z")
        s.parent = try optionalName(v["parent"], path: "surface.parent")
        if s.parent == id { throw bad("surface.parent", "a surface cannot be its own parent") }
        if let screen = present(v["screen"]) {
            guard let n = screen.int64Value, n >= 0, n <= Int64(Int32.max) else {
                throw bad("surface.screen", "expected a screen index (a non-negative integer)")
            }
            s.screen = Int(n)
        }
        s.hidden = try bool(v["hidden"], path: "surface.hidden")
        s.enabled = try bool(v["enabled"], path: "surface.enabled")
        s.multipleTouch = try bool(v["multipleTouch"], path: "surface.multipleTouch")
        s.exclusiveTouch = try bool(v["exclusiveTouch"], path: "surface.exclusiveTouch")
        s.fullScreen = try bool(v["fullScreen"], path: "surface.fullScreen")
        s.deferEdges = try names(v["deferEdges"], path: "surface.deferEdges", allowEmpty: true)
        s.delegateDeferralTo = try optionalName(v["delegateDeferralTo"], path: "surface.delegateDeferralTo")
        if let list = try array(v["recognizers"], path: "surface.recognizers") {
            var seen = Set<String>()
            for (k, e) in list.enumerated() {
                let path = "surface.recognizers[\(k)]"
                guard case .object = e else { throw bad(path, "expected an object, not \(e.kindDescription)") }
                let recognizerName = try name(e["name"], path: path + ".name")
                _ = try name(e["kind"], path: path + ".kind")
                guard seen.insert(recognizerName).inserted else {
                    throw bad(path + ".name", "duplicate recognizer name \"\(recognizerName)\"")
                }
            }
            s.recognizers = list
        }
        return s
    }
}
