// SPDX-License-Identifier: MIT
import JSON

/// What a follower in the user's session reports of the focused window (the `focus` request,
/// docs/protocol.md): the app's id (Wayland `app_id`, X11 class), the title and whether it is
/// full-screen. No `appId`: the focus is unknown (nothing focused, or the compositor lost).
public struct FocusReport: Hashable, Sendable {
    /// The app id; nil: unknown.
    public var appID: String?
    /// The window's title.
    public var title: String?
    /// Whether the window is full-screen.
    public var fullScreen: Bool

    /// Longest title kept: a title is for the log and the trace, and a client must not make the
    /// daemon hold megabytes for it.
    public static let maxTitleBytes = 512

    /// Creates a report.
    public init(appID: String?, title: String? = nil, fullScreen: Bool = false) {
        self.appID = appID
        self.title = title
        self.fullScreen = fullScreen
    }

    /// The focus is unknown (a follower that went away, a report without `appId`).
    public static let unknown = FocusReport(appID: nil)
}

extension FieldReader {
    /// `focus`' fields: `appId` (optional: absent is unknown), `title`, `fullScreen`.
    func focusReport(_ fields: [String: JSONValue]) throws(RequestError) -> FocusReport {
        let app = try optionalName(fields["appId"], path: "appId")
        var title: String?
        if let v = present(fields["title"]) {
            guard case let .string(s) = v else { throw bad("title", "expected a string, not \(v.kindDescription)") }
            // Cut at a character boundary: the log and the trace keep the start of a long title.
            var cut = ""
            for c in s {
                guard cut.utf8.count + String(c).utf8.count <= FocusReport.maxTitleBytes else { break }
                cut.append(c)
            }
            title = cut
        }
        let fullScreen = try bool(fields["fullScreen"], path: "fullScreen") ?? false
        return FocusReport(appID: app, title: title, fullScreen: fullScreen)
    }
}

extension RequestEnvelope {
    /// Writes `focus`' fields into an open object.
    static func writeFocus(_ f: FocusReport, into w: inout JSONWriter) {
        if let a = f.appID { w.key("appId"); w.string(a) }
        if let t = f.title { w.key("title"); w.string(t) }
        if f.fullScreen { w.key("fullScreen"); w.bool(true) }
    }
}
