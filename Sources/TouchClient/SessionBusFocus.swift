// SPDX-License-Identifier: MIT
import Wire

/// Following the focused window where only code running inside the compositor can see it:
/// KWin (Plasma 5.27 and 6) and GNOME Shell. Neither offers other clients an interface to the
/// focused window (no wlr-foreign-toplevel; KWin's window-management protocol is for Plasma's
/// shell, GNOME's Introspect answers only allow-listed callers). So the follower serves one
/// method on the session bus, ``method`` of ``interface`` at ``objectPath`` under the name
/// ``busName``, and code inside the compositor calls it with the focused window's app id,
/// title and full-screen state whenever one of them changes: under KWin ``kwinScript``, which
/// the follower loads itself (`org.kde.KWin /Scripting loadScript`); under GNOME the
/// extension ``gnomeExtension`` (clients/gnome-shell), which the user installs and enables.
public enum SessionBusFocus {
    /// The follower's name on the session bus: one follower per session.
    public static let busName = "org.touchd.FocusFollower"
    /// The object the script calls.
    public static let objectPath = "/org/touchd/FocusFollower"
    /// The interface of ``method``.
    public static let interface = "org.touchd.FocusFollower1"
    /// `Focused(s appId, s title, b fullScreen)`: an empty app id is no focused window.
    public static let method = "Focused"
    /// The script's plugin name in KWin (`unloadScript` takes it).
    public static let kwinPluginName = "touchd-focus"
    /// The GNOME Shell extension's uuid (`gnome-extensions enable` takes it).
    public static let gnomeExtension = "touchd-focus@touchd.org"

    /// The script KWin runs: it follows `workspace.windowActivated` (Plasma 6) or
    /// `clientActivated` (5.27) and the active window's caption and full-screen changes.
    /// KWin 5 gives `resourceClass` (a Wayland window's `app_id`, an X11 window's class) as a
    /// byte array, so the script turns it into text first.
    public static let kwinScript = """
        // touchd's focus follower (touchctl follow-focus): the active window, each time it changes.
        function text(v) {
            if (v === undefined || v === null) return "";
            if (typeof v === "string") return v;
            try {
                var bytes = new Uint8Array(v), s = "";
                for (var i = 0; i < bytes.length; i++) s += String.fromCharCode(bytes[i]);
                try { return decodeURIComponent(escape(s)); } catch (e) { return s; }
            } catch (e) { return String(v); }
        }
        var watched = null;
        function report() {
            var w = watched;
            callDBus("\(busName)", "\(objectPath)", "\(interface)", "\(method)",
                     w ? text(w.resourceClass) : "", w ? text(w.caption) : "", w ? !!w.fullScreen : false);
        }
        function activated(w) {
            if (watched) {
                try { watched.captionChanged.disconnect(report); watched.fullScreenChanged.disconnect(report); } catch (e) {}
            }
            watched = w || null;
            if (watched) { watched.captionChanged.connect(report); watched.fullScreenChanged.connect(report); }
            report();
        }
        if (workspace.windowActivated) {
            workspace.windowActivated.connect(activated);
            activated(workspace.activeWindow);
        } else {
            workspace.clientActivated.connect(activated);
            activated(workspace.activeClient);
        }

        """

    /// The report of one call of ``method``: an empty app id is unknown (no window is active).
    public static func report(appID: String, title: String, fullScreen: Bool) -> FocusReport {
        guard !appID.isEmpty else { return .unknown }
        var cut = ""
        for c in title {
            guard cut.utf8.count + String(c).utf8.count <= FocusReport.maxTitleBytes else { break }
            cut.append(c)
        }
        return FocusReport(appID: appID, title: cut, fullScreen: fullScreen)
    }
}
