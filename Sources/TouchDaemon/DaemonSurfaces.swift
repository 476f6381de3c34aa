// SPDX-License-Identifier: MIT
import Gestures
import JSON
import Publisher
import Wire

/// Turns a protocol `surface` object into the gesture engine's surface.
package enum SurfaceTranslation {
    /// The client's own id of each surface `d` names (itself, its parent,
    /// the surface it delegates deferral to), by engine id.
    package static func localNames(_ d: SurfaceDescription, client: ClientID) -> [SurfaceID: String] {
        var names: [SurfaceID: String] = [:]
        for local in [d.id, d.parent, d.delegateDeferralTo].compactMap({ $0 }) {
            names[ClientSurfaceID(client: client, local: local).engineID] = local
        }
        return names
    }

    /// The engine's surface for a client's description; errors name the field
    /// (`surface.recognizers[1].kind: unknown kind "tapp"`).
    package static func configuration(_ d: SurfaceDescription, client: ClientID) throws(RequestError) -> SurfaceConfiguration {
        var z = 0
        if let value = d.z {
            guard value.rounded() == value, abs(value) <= Double(Int32.max) else {
                throw .badField("surface.z", "expected an integer, got \(value)")
            }
            z = Int(value)
        }
        if let screen = d.screen, screen < 0 { throw .badField("surface.screen", "must not be negative") }
        var recognizers: [RecognizerConfiguration] = []
        var names = Set<String>()
        for (i, json) in d.recognizers.enumerated() {
            let r = try recognizer(json, path: "surface.recognizers[\(i)]")
            guard names.insert(r.name).inserted else {
                throw .badField("surface.recognizers[\(i)].name", "\"\(r.name)\" is declared twice")
            }
            recognizers.append(r)
        }
        var edges = Set<SurfaceEdge>()
        for (i, name) in (d.deferEdges ?? []).enumerated() {
            guard let edge = SurfaceEdge(rawValue: name) else {
                throw .badField("surface.deferEdges[\(i)]", "expected top, bottom, left or right, got \"\(name)\"")
            }
            edges.insert(edge)
        }
        return SurfaceConfiguration(
            id: ClientSurfaceID(client: client, local: d.id).engineID, owner: client.engineOwner,
            frame: ScreenRect(x: d.rect.x, y: d.rect.y, width: d.rect.width, height: d.rect.height),
            screen: d.screen ?? 0, z: z, parent: d.parent.map { ClientSurfaceID(client: client, local: $0).engineID },
            hidden: d.hidden ?? false, enabled: d.enabled ?? true, multipleTouch: d.multipleTouch ?? true,
            exclusiveTouch: d.exclusiveTouch ?? false, recognizers: recognizers, deferEdges: edges,
            delegateDeferralTo: d.delegateDeferralTo.map { ClientSurfaceID(client: client, local: $0).engineID },
            fullScreen: d.fullScreen ?? false)
    }

    /// Decodes one recognizer object as the gesture engine declares it
    /// (`RecognizerConfiguration`'s own rules, as for a configuration file),
    /// straight from the request's JSON.
    static func recognizer(_ json: JSONValue, path: String) throws(RequestError) -> RecognizerConfiguration {
        do {
            return try JSONValueDecoder().decode(RecognizerConfiguration.self, from: json)
        } catch let e as DecodingError {
            throw describe(e, json: json, path: path)
        } catch {
            throw .badField(path, "\(error)")
        }
    }

    static func describe(_ e: DecodingError, json: JSONValue, path: String) -> RequestError {
        func fieldPath(_ keys: [any CodingKey]) -> String {
            var s = path
            for k in keys {
                if let i = k.intValue { s += "[\(i)]" } else { s += "." + k.stringValue }
            }
            return s
        }
        switch e {
        case .dataCorrupted(let ctx):
            if ctx.codingPath.count == 1, ctx.codingPath[0].stringValue == "kind", let word = json["kind"]?.stringValue {
                return RequestError(.unknownRecognizer, "\(path).kind: unknown kind \"\(word)\" (known: \(GestureKind.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return .badField(fieldPath(ctx.codingPath), ctx.debugDescription)
        case .keyNotFound(let key, let ctx):
            return .badField(fieldPath(ctx.codingPath + [key]), "required")
        case .typeMismatch(let type, let ctx):
            return .badField(fieldPath(ctx.codingPath), "expected \(typeName(type))")
        case .valueNotFound(let type, let ctx):
            return .badField(fieldPath(ctx.codingPath), "expected \(typeName(type)), not null")
        @unknown default:
            return .badField(path, "\(e)")
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type: return "an integer"
        case is Double.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        case is [String: Any].Type: return "an object"
        default: return "\(type)".lowercased().contains("array") ? "a list" : "a value of type \(type)"
        }
    }

    /// The protocol error for a configuration the engine rejects, naming the
    /// client's field: a surface id naming none of the client's surfaces is
    /// `unknown-surface`, whether or not another client has a surface of that
    /// name (a client cannot learn of other clients' surfaces; docs/protocol.md,
    /// "Visibility and permissions"); failure requirements on unknown
    /// recognizers are `unknown-recognizer`; the rest `bad-field`.
    static func describe(_ e: GestureConfigurationError, client: ClientID, naming local: (SurfaceID) -> String?) -> RequestError {
        let field = "surface." + e.field
        // A surface of this client by its local id; any other by its engine id
        // (a surface the client cannot name is never one of another client's:
        // the engine only checks a client's surfaces against its own).
        let message = e.message(naming: { local($0) ?? $0.rawValue },
                                owner: { $0 == client.engineOwner ? nil : $0 })
        switch e.fault {
        case .unknownSurface(let unknown):
            return RequestError(.unknownSurface, "\(field): no surface \"\(local(unknown) ?? unknown.rawValue)\" on this connection")
        case .unknownRecognizer:
            return RequestError(.unknownRecognizer, "\(field): \(message)")
        case .text, .parentCycle, .notNested:
            return .badField(field, message)
        }
    }
}
