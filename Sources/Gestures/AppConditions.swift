// SPDX-License-Identifier: MIT
import TouchCore

// Gestures per app in touchd.yaml: the conditions shortcuts and edge swipes put on the focused
// app (TouchCore's AppCondition, read from their keys), the configuration's per-app rules
// (deferred edges), and the engine following the focus.
// Reference: docs/configuration.md, "Per-app conditions".

extension AppCondition {
    /// Reads `apps`, `notApps` and `fullScreen` from a mapping that has them among its keys; a
    /// malformed glob names the key.
    static func decode<K: CodingKey>(_ c: KeyedDecodingContainer<K>, apps: K, notApps: K, fullScreen: K) throws -> AppCondition {
        var condition = AppCondition()
        for (key, isApps) in [(apps, true), (notApps, false)] {
            guard let globs = try c.decodeIfPresent([String].self, forKey: key) else { continue }
            for g in globs {
                if let problem = globProblem(g) {
                    throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(g)' is not a glob on app ids: \(problem)")
                }
            }
            if isApps { condition.apps = globs } else { condition.notApps = globs }
        }
        condition.fullScreen = try c.decodeIfPresent(Bool.self, forKey: fullScreen)
        return condition
    }

    /// Writes the keys that are set.
    func encode<K: CodingKey>(into c: inout KeyedEncodingContainer<K>, apps: K, notApps: K, fullScreen: K) throws {
        if !self.apps.isEmpty { try c.encode(self.apps, forKey: apps) }
        if !self.notApps.isEmpty { try c.encode(self.notApps, forKey: notApps) }
        if let f = self.fullScreen { try c.encode(f, forKey: fullScreen) }
    }
}

/// One item of `appRules`: what the configuration gives the apps it matches, for apps that know
/// nothing of touchd: `{match: {appId: "org.krita.*", fullScreen: true}, deferEdges: [bottom]}`.
package struct AppRule: Hashable, Sendable, Codable {
    /// Which focused apps it applies to (`appId`, required; `fullScreen`, optional).
    package var match: AppCondition
    /// Screen edges whose system swipe is deferred while a matching app is focused, as for a
    /// surface that asks (semantics §6): its first swipe from the edge is the app's, a second one
    /// within the window the system's, and the hint is shown. The `deferral` policy of
    /// `systemGestures` still decides (`onlyFullScreen` asks the focused window).
    package var deferEdges: Set<SurfaceEdge>

    /// Creates a rule.
    package init(match: AppCondition, deferEdges: Set<SurfaceEdge> = []) {
        self.match = match
        self.deferEdges = deferEdges
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case match, deferEdges }
    enum MatchKeys: String, CodingKey, CaseIterable { case appId, fullScreen }

    /// Decodes `match` (required, with `appId` required) and `deferEdges`.
    package init(from decoder: any Decoder) throws {
        try rejectUnknownKeys(decoder, known: Set(CodingKeys.allCases.map(\.stringValue)), what: "appRules")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let m = try c.nestedContainer(keyedBy: MatchKeys.self, forKey: .match)
        let id = try m.decode(String.self, forKey: .appId)
        if let problem = AppCondition.globProblem(id) {
            throw DecodingError.dataCorruptedError(forKey: .appId, in: m, debugDescription: "'\(id)' is not a glob on app ids: \(problem)")
        }
        match = AppCondition(apps: [id], fullScreen: try m.decodeIfPresent(Bool.self, forKey: .fullScreen))
        deferEdges = try c.decodeIfPresent(Set<SurfaceEdge>.self, forKey: .deferEdges) ?? []
    }

    /// Encodes `match` and `deferEdges`.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        var m = c.nestedContainer(keyedBy: MatchKeys.self, forKey: .match)
        try m.encode(match.apps.first ?? "*", forKey: .appId)
        if let f = match.fullScreen { try m.encode(f, forKey: .fullScreen) }
        try c.encode(SurfaceEdge.allCases.filter { deferEdges.contains($0) }, forKey: .deferEdges)
    }
}

extension Engine {
    /// Sets the focused app (nil: unknown), as the user's session reports it. Shortcuts and edge
    /// swipes whose `apps`/`notApps`/`fullScreen` no longer hold are off, and `appRules`' deferred
    /// edges follow, for touches that begin from now on: while a touch is down the change waits
    /// until every touch has lifted, so a gesture that switches apps is not cancelled by its own
    /// effect. Returns what that caused.
    @discardableResult
    package mutating func setFocus(_ focus: FocusedApp?) -> [EngineOutput] {
        pendingFocus = .some(focus)
        guard activeContacts.count == 0 else { return [] }
        return applyPendingFocus()
    }

    /// Puts a waiting focus change in force.
    mutating func applyPendingFocus() -> [EngineOutput] {
        guard case .some(let f) = pendingFocus else { return [] }
        pendingFocus = nil
        guard f != focus else { return [] }
        focus = f
        return reconfigure()
    }

    /// The edges `appRules` defer for the focused app (empty when unknown or none match).
    var appDeferredEdges: Set<SurfaceEdge> {
        guard let focus else { return [] }
        var edges: Set<SurfaceEdge> = []
        for rule in configuration.appRules where rule.match.holds(for: focus) { edges.formUnion(rule.deferEdges) }
        return edges
    }
}
