// SPDX-License-Identifier: MIT
import JSON

/// A request about drag sessions across clients (semantics §12,
/// docs/protocol.md "Drag sessions").
public enum DragRequest: Hashable, Sendable {
    /// `drag-surface`: what one of the client's surfaces does in drag sessions.
    case roles(surface: String, WireDragRoles)
    /// `drag-items`: the answer to an `items-requested` or `add-requested` event.
    case items(request: Int, [WireDragItem])
    /// `drop-proposal`: what the target under a session's touch would do with the items.
    case proposal(session: Int, WireDropOperation)

    /// The `op` string.
    public var op: String {
        switch self {
        case .roles: return "drag-surface"
        case .items: return "drag-items"
        case .proposal: return "drop-proposal"
        }
    }

    /// The longest MIME type accepted, in bytes.
    public static let maxTypeBytes = 256
    /// Drop types a surface lists at most.
    public static let maxDropTypes = 32
    /// Items a `drag-items` request carries at most (the engine's limit for a session; EngineMessagesTests checks they agree).
    public static let maxItems = 64
    /// Representations an item has at most.
    public static let maxRepresentations = 8

    /// Decodes the fields of a drag request whose `op` is `op`; nil when `op` is not one.
    static func decode(op: String, _ fields: [String: JSONValue], _ d: FieldReader) throws(RequestError) -> DragRequest? {
        switch op {
        case "drag-surface":
            var roles = WireDragRoles()
            let surface = try d.name(fields["surface"], path: "surface")
            roles.offersItems = try d.bool(fields["offersItems"], path: "offersItems") ?? false
            roles.addsItems = try d.bool(fields["addsItems"], path: "addsItems") ?? false
            roles.compact = try d.bool(fields["compact"], path: "compact") ?? false
            if let list = try d.array(fields["dropTypes"], path: "dropTypes") {
                guard list.count <= maxDropTypes else {
                    throw RequestError(.limitExceeded, "dropTypes: at most \(maxDropTypes) types", id: d.id)
                }
                for (k, e) in list.enumerated() { roles.dropTypes.append(try mimeType(e, path: "dropTypes[\(k)]", d, pattern: true)) }
            }
            return .roles(surface: surface, roles)
        case "drag-items":
            let request = try counter(fields["request"], path: "request", d)
            guard let list = try d.array(fields["items"], path: "items") else { throw d.bad("items", "missing") }
            guard list.count <= maxItems else {
                throw RequestError(.limitExceeded, "items: at most \(maxItems) items", id: d.id)
            }
            var items: [WireDragItem] = []
            for (k, e) in list.enumerated() {
                let path = "items[\(k)]"
                guard case .object = e else { throw d.bad(path, "expected an object, not \(e.kindDescription)") }
                guard let reps = try d.array(e["representations"], path: path + ".representations"), !reps.isEmpty else {
                    throw d.bad(path + ".representations", "expected a non-empty array")
                }
                guard reps.count <= maxRepresentations else {
                    throw RequestError(.limitExceeded, "\(path).representations: at most \(maxRepresentations)", id: d.id)
                }
                var item = WireDragItem([])
                for (j, r) in reps.enumerated() {
                    let rpath = "\(path).representations[\(j)]"
                    guard case .object = r else { throw d.bad(rpath, "expected an object, not \(r.kindDescription)") }
                    let type = try mimeType(r["type"], path: rpath + ".type", d, pattern: false)
                    guard let v = d.present(r["data"]) else { throw d.bad(rpath + ".data", "missing") }
                    guard case let .string(data) = v else { throw d.bad(rpath + ".data", "expected a string, not \(v.kindDescription)") }
                    item.representations.append(WireDragRepresentation(type: type, data: data))
                }
                items.append(item)
            }
            return .items(request: request, items)
        case "drop-proposal":
            let session = try counter(fields["session"], path: "session", d)
            let name = try d.name(fields["operation"], path: "operation")
            guard let operation = WireDropOperation(rawValue: name) else {
                throw d.bad("operation", "expected copy, move, forbidden or cancel, not \"\(name)\"")
            }
            return .proposal(session: session, operation)
        default:
            return nil
        }
    }

    static func counter(_ v: JSONValue?, path: String, _ d: FieldReader) throws(RequestError) -> Int {
        guard let v = d.present(v) else { throw d.bad(path, "missing") }
        guard let n = v.int64Value, n >= 1, n <= Int64(Int32.max) else { throw d.bad(path, "expected a positive integer") }
        return Int(n)
    }

    /// A MIME type: `type/subtype`, printable ASCII without spaces; with `pattern`, `type/*` and `*/*` too.
    static func mimeType(_ v: JSONValue?, path: String, _ d: FieldReader, pattern: Bool) throws(RequestError) -> String {
        guard let v = d.present(v) else { throw d.bad(path, "missing") }
        guard case let .string(s) = v else { throw d.bad(path, "expected a string, not \(v.kindDescription)") }
        guard s.utf8.count <= maxTypeBytes else { throw RequestError(.limitExceeded, "\(path): longer than \(maxTypeBytes) bytes", id: d.id) }
        let parts = s.split(separator: "/", omittingEmptySubsequences: false)
        let printable = s.utf8.allSatisfy { $0 > 32 && $0 < 127 }
        guard printable, parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
              pattern || (parts[0] != "*" && parts[1] != "*"), parts[0] != "*" || parts[1] == "*" else {
            throw d.bad(path, "expected a MIME type such as \"text/plain\"\(pattern ? " or \"text/*\"" : ""), not \"\(s)\"")
        }
        return s
    }

    /// Writes the request's fields (after `op` and `id`).
    func write(into w: inout JSONWriter) {
        switch self {
        case let .roles(surface, roles):
            w.key("surface"); w.string(surface)
            if roles.offersItems { w.key("offersItems"); w.bool(true) }
            if roles.addsItems { w.key("addsItems"); w.bool(true) }
            if roles.compact { w.key("compact"); w.bool(true) }
            if !roles.dropTypes.isEmpty {
                w.key("dropTypes")
                w.beginArray()
                for t in roles.dropTypes { w.string(t) }
                w.endArray()
            }
        case let .items(request, items):
            w.key("request"); w.int(request)
            w.key("items"); MessageEncoder.dragItems(items, into: &w)
        case let .proposal(session, operation):
            w.key("session"); w.int(session)
            w.key("operation"); w.string(operation.rawValue)
        }
    }
}
