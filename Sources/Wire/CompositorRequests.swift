// SPDX-License-Identifier: MIT
import JSON

/// What an agent in the user's session reports of the compositor reading touchd's pass-through
/// mirrors (the `compositor` request, docs/protocol.md): the program that has a mirror's event node
/// open and its version. touchd's `passThroughEnding: auto` decides from it whether a taken touch
/// ends with a cancel or a lift (docs/pass-through.md). No `name`: the compositor is unknown.
public struct CompositorReport: Hashable, Sendable {
    /// The program (`kwin_wayland`, `sway`, `gnome-shell`); nil: unknown.
    public var name: String?
    /// Its version (`5.27.5`, or a Debian package version such as `1.9-1`); nil: unknown.
    public var version: String?

    /// Creates a report.
    public init(name: String?, version: String? = nil) {
        self.name = name
        self.version = version
    }

    /// The compositor is unknown (an agent that went away, a report without `name`).
    public static let unknown = CompositorReport(name: nil)
}

extension FieldReader {
    /// `compositor`'s fields: `name` (optional: absent is unknown), `version` (optional, only with `name`).
    func compositorReport(_ fields: [String: JSONValue]) throws(RequestError) -> CompositorReport {
        let name = try optionalName(fields["name"], path: "name")
        let version = try optionalName(fields["version"], path: "version")
        if name == nil, version != nil { throw bad("version", "given without name") }
        return CompositorReport(name: name, version: version)
    }
}

extension RequestEnvelope {
    /// Writes `compositor`'s fields into an open object.
    static func writeCompositor(_ c: CompositorReport, into w: inout JSONWriter) {
        if let n = c.name { w.key("name"); w.string(n) }
        if let v = c.version { w.key("version"); w.string(v) }
    }
}
