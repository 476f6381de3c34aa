// SPDX-License-Identifier: MIT

// Gestures per app: the focused app as the user's session reports it, and the conditions a
// shortcut, an edge swipe or an action binding puts on it. Here, not in Gestures, so that the
// action agent (Actions) decides bindings by the same rule as touchd decides its gestures.
// Reference: docs/configuration.md, "Per-app conditions".

/// The focused window's app, as a follower in the user's session reports it (the `focus` request).
package struct FocusedApp: Hashable, Sendable {
    /// The app's id: Wayland's `app_id`, X11's `WM_CLASS` class.
    package var appID: String
    /// The window's title (for the log and the trace; conditions do not read it).
    package var title: String
    /// Whether the window is full-screen.
    package var fullScreen: Bool

    /// Creates a focused app.
    package init(appID: String, title: String = "", fullScreen: Bool = false) {
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
package struct AppCondition: Hashable, Sendable {
    /// Globs on the app id (`*`, `?`, `[a-z]`); empty: any app.
    package var apps: [String]
    /// Globs on the app id over which it never acts.
    package var notApps: [String]
    /// Whether the focused window must be full-screen (true) or not (false); nil: either.
    package var fullScreen: Bool?

    /// Creates a condition; the default holds everywhere.
    package init(apps: [String] = [], notApps: [String] = [], fullScreen: Bool? = nil) {
        self.apps = apps
        self.notApps = notApps
        self.fullScreen = fullScreen
    }

    /// Whether it says nothing (holds for any focus, known or not).
    package var isEmpty: Bool { apps.isEmpty && notApps.isEmpty && fullScreen == nil }

    /// Whether it holds for `focus` (nil: unknown).
    package func holds(for focus: FocusedApp?) -> Bool {
        if !apps.isEmpty {
            guard let id = focus?.appID, apps.contains(where: { Glob.matches($0, id) }) else { return false }
        }
        if let id = focus?.appID, notApps.contains(where: { Glob.matches($0, id) }) { return false }
        if let f = fullScreen, (focus?.fullScreen ?? false) != f { return false }
        return true
    }

    /// What is wrong with a glob, nil when nothing: empty, or a `[` class not closed.
    package static func globProblem(_ pattern: String) -> String? {
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
}
