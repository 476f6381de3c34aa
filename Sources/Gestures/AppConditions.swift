// SPDX-License-Identifier: MIT
import TouchCore

// Gestures per app: the focused app as the user's session reports it, the conditions shortcuts
// and edge swipes put on it, and the configuration's per-app rules (deferred edges).
// Reference: docs/configuration.md, "Per-app conditions".

/// The focused window's app, as a follower in the user's session reports it (the `focus` request).
public struct FocusedApp: Hashable, Sendable {
    /// The app's id: Wayland's `app_id`, X11's `WM_CLASS` class.
    public var appID: String
    /// The window's title (for the log and the trace; conditions do not read it).
    public var title: String
    /// Whether the window is full-screen.
    public var fullScreen: Bool

    /// Creates a focused app.
    public init(appID: String, title: String = "", fullScreen: Bool = false) {
        self.appID = appID
        self.title = title
        self.fullScreen = fullScreen
    }
}

/// Which focused apps a shortcut or an edge swipe acts over: `apps` (it acts only over these),
/// `notApps` (never over these) and `fullScreen` (only over a full-screen window, `true`, or only
/// over one that is not, `false`). Every key given must hold.
///
/// An unknown focus (no follower reports, it went away, or nothing is focused) is an app with no
/// id that is not full-screen: `apps` and `fullScreen: true` do not hold, `notApps` and
/// `fullScreen: false` do. A gesture limited to apps is off until an app is known; one excluded
/// from apps stays on.
public struct AppCondition: Hashable, Sendable {
    /// Globs on the app id (`*`, `?`, `[a-z]`); empty: any app.
    public var apps: [String]
    /// Globs on the app id over which it never acts.
    public var notApps: [String]
    /// Whether the focused window must be full-screen (true) or not (false); nil: either.
    public var fullScreen: Bool?

    /// Creates a condition; the default holds everywhere.
    public init(apps: [String] = [], notApps: [String] = [], fullScreen: Bool? = nil) {
        self.apps = apps
        self.notApps = notApps
        self.fullScreen = fullScreen
    }

    /// Whether it says nothing (holds for any focus, known or not).
    public var isEmpty: Bool { apps.isEmpty && notApps.isEmpty && fullScreen == nil }

    /// Whether it holds for `focus` (nil: unknown).
    public func holds(for focus: FocusedApp?) -> Bool {
        if !apps.isEmpty {
            guard let id = focus?.appID, apps.contains(where: { Glob.matches($0, id) }) else { return false }
        }
        if let id = focus?.appID, notApps.contains(where: { Glob.matches($0, id) }) { return false }
        if let f = fullScreen, (focus?.fullScreen ?? false) != f { return false }
        return true
    }

    /// What is wrong with a glob, nil when nothing: empty, or a `[` class not closed.
    public static func globProblem(_ pattern: String) -> String? {
        if pattern.isEmpty { return "an empty pattern matches no app id" }
        let p = Array(pattern.unicodeScalars)
        var i = 0
        while i < p.count {
            if p[i] == "[" {
                var k = i + 1
                if k < p.count, p[k] == "!" || p[k] == "^" { k += 1 }
                // As in fnmatch (and Glob.matches), a `]` right after the opening is a member, not the end.
                if k < p.count, p[k] == "]" { k += 1 }
                while k < p.count, p[k] != "]" { k += 1 }
                guard k < p.count else { return "'[' at \(i + 1) is not closed with ']'" }
                i = k
            }
            i += 1
        }
        return nil
    }

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
public struct AppRule: Hashable, Sendable, Codable {
    /// Which focused apps it applies to (`appId`, required; `fullScreen`, optional).
    public var match: AppCondition
    /// Screen edges whose system swipe is deferred while a matching app is focused, as for a
    /// surface that asks (semantics §6): its first swipe from the edge is the app's, a second one
    /// within the window the system's, and the hint is shown. The `deferral` policy of
    /// `systemGestures` still decides (`onlyFullScreen` asks the focused window).
    public var deferEdges: Set<SurfaceEdge>

    /// Creates a rule.
    public init(match: AppCondition, deferEdges: Set<SurfaceEdge> = []) {
        self.match = match
        self.deferEdges = deferEdges
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case match, deferEdges }
    enum MatchKeys: String, CodingKey, CaseIterable { case appId, fullScreen }

    /// Decodes `match` (required, with `appId` required) and `deferEdges`.
    public init(from decoder: any Decoder) throws {
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
    public func encode(to encoder: any Encoder) throws {
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
    public mutating func setFocus(_ focus: FocusedApp?) -> [EngineOutput] {
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
