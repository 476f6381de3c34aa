// SPDX-License-Identifier: MIT
import Foundation
import Testing
import TouchClient
import Wire

@Suite struct KWinFocusTests {
    @Test("a call with an app id is that app's report; an empty app id is the unknown focus")
    func reports() {
        #expect(KWinFocus.report(appID: "org.kde.dolphin", title: "Home", fullScreen: true)
            == FocusReport(appID: "org.kde.dolphin", title: "Home", fullScreen: true))
        #expect(KWinFocus.report(appID: "", title: "Desktop", fullScreen: false) == .unknown)
    }

    @Test("a long title is cut at a character boundary to the request's limit")
    func longTitle() {
        let title = String(repeating: "é", count: FocusReport.maxTitleBytes)
        let report = KWinFocus.report(appID: "app", title: title, fullScreen: false)
        #expect(report.title?.utf8.count == FocusReport.maxTitleBytes)
        #expect(report.title?.allSatisfy { $0 == "é" } == true)
    }

    @Test("the script calls the follower's method by its name, path and interface, under KWin 5 and 6")
    func scriptCallsTheFollower() {
        let call = "callDBus(\"\(KWinFocus.busName)\", \"\(KWinFocus.objectPath)\", \"\(KWinFocus.interface)\", \"\(KWinFocus.method)\""
        #expect(KWinFocus.script.contains(call))
        // Plasma 6 names it windowActivated, 5.27 clientActivated: the script takes either.
        #expect(KWinFocus.script.contains("workspace.windowActivated.connect(activated)"))
        #expect(KWinFocus.script.contains("workspace.clientActivated.connect(activated)"))
    }
}

/// The script run by node against a stand-in of KWin's scripting API: `workspace` with its
/// activation signal and active window, windows with `captionChanged` and `fullScreenChanged`,
/// and `callDBus` recording each call's last three arguments.
@Suite struct KWinFocusScriptTests {
    static let node = ["/usr/bin/node", "/usr/bin/nodejs"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The stand-in, then the script, then `steps` (JavaScript); prints the calls as JSON.
    static func run(plasma6: Bool, steps: String) throws -> String {
        let harness = """
            const calls = [];
            function signal() {
                const fns = [];
                return { connect: f => fns.push(f),
                         disconnect: f => { const i = fns.indexOf(f); if (i < 0) throw new Error("not connected"); fns.splice(i, 1); },
                         emit: () => fns.slice().forEach(f => f()), count: () => fns.length,
                         emitWith: w => fns.slice().forEach(f => f(w)) };
            }
            // KWin 5 gives resourceClass as bytes (QByteArray), 6 as a string.
            const bytes = s => new TextEncoder().encode(s).buffer;
            function win(cls, caption, full) {
                return { resourceClass: \(plasma6 ? "cls" : "bytes(cls)"), caption: caption, fullScreen: full,
                         captionChanged: signal(), fullScreenChanged: signal() };
            }
            const first = win("touch-recorder", "Recorder", false);
            const activation = signal();
            globalThis.workspace = \(plasma6 ? "{ windowActivated: activation, activeWindow: first }" : "{ clientActivated: activation, activeClient: first }");
            globalThis.callDBus = (...a) => calls.push(a.slice(4));
            (0, eval)(\(Self.jsString(KWinFocus.script)));
            \(steps)
            console.log(JSON.stringify(calls));
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(node))
        process.arguments = ["-e", harness]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let out = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `text` as a JavaScript string literal.
    static func jsString(_ text: String) -> String {
        var out = "\""
        for u in text.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(u)
            }
        }
        return out + "\""
    }

    static let steps = """
        first.caption = "Recorder - 2"; first.captionChanged.emit();
        const other = win("org.example.game", "Game", true);
        activation.emitWith(other);
        // The window left: its changes are no longer the focus's.
        first.caption = "ignored"; first.captionChanged.emit();
        other.fullScreen = false; other.fullScreenChanged.emit();
        activation.emitWith(null);
        console.log(JSON.stringify([first.captionChanged.count(), other.captionChanged.count()]));
        """

    static let expected = """
        [0,0]
        [["touch-recorder","Recorder",false],["touch-recorder","Recorder - 2",false],["org.example.game","Game",true],["org.example.game","Game",false],["","",false]]
        """

    @Test("KWin 5.27 (clientActivated, the class as bytes): the active window and each change of it, the unknown focus when none is active",
          .enabled(if: node != nil, "needs node (make deps installs nodejs)"))
    func plasma5() throws {
        #expect(try Self.run(plasma6: false, steps: Self.steps) == Self.expected)
    }

    @Test("Plasma 6 (windowActivated, the class as text): the same reports",
          .enabled(if: node != nil, "needs node (make deps installs nodejs)"))
    func plasma6() throws {
        #expect(try Self.run(plasma6: true, steps: Self.steps) == Self.expected)
    }
}
