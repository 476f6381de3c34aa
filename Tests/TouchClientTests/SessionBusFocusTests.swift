// SPDX-License-Identifier: MIT
import Foundation
import Testing
import TouchClient
import Wire

@Suite struct SessionBusFocusTests {
    @Test("a call with an app id is that app's report; an empty app id is the unknown focus")
    func reports() {
        #expect(SessionBusFocus.report(appID: "org.kde.dolphin", title: "Home", fullScreen: true)
            == FocusReport(appID: "org.kde.dolphin", title: "Home", fullScreen: true))
        #expect(SessionBusFocus.report(appID: "", title: "Desktop", fullScreen: false) == .unknown)
    }

    @Test("a long title is cut at a character boundary to the request's limit")
    func longTitle() {
        let title = String(repeating: "é", count: FocusReport.maxTitleBytes)
        let report = SessionBusFocus.report(appID: "app", title: title, fullScreen: false)
        #expect(report.title?.utf8.count == FocusReport.maxTitleBytes)
        #expect(report.title?.allSatisfy { $0 == "é" } == true)
    }

    @Test("the script calls the follower's method by its name, path and interface, under KWin 5 and 6")
    func scriptCallsTheFollower() {
        let call = "callDBus(\"\(SessionBusFocus.busName)\", \"\(SessionBusFocus.objectPath)\", \"\(SessionBusFocus.interface)\", \"\(SessionBusFocus.method)\""
        #expect(SessionBusFocus.kwinScript.contains(call))
        // Plasma 6 names it windowActivated, 5.27 clientActivated: the script takes either.
        #expect(SessionBusFocus.kwinScript.contains("workspace.windowActivated.connect(activated)"))
        #expect(SessionBusFocus.kwinScript.contains("workspace.clientActivated.connect(activated)"))
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
            (0, eval)(\(Self.jsString(SessionBusFocus.kwinScript)));
            \(steps)
            console.log(JSON.stringify(calls));
            """
        let (output, errors) = try runNode(["-e", harness])
        return (output + errors).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Runs node with `arguments`; what it printed on standard output and on standard error.
    static func runNode(_ arguments: [String]) throws -> (output: String, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(node))
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Standard error is read after standard output: the harnesses print little there.
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (output, errors)
    }

    /// `text` as a JavaScript (and JSON) string literal.
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

/// GNOME Shell's extension (clients/gnome-shell/touchd-focus@touchd.org/extension.js, an ES
/// module) imported by node with its imports (`gi://Gio`, `gi://GLib`, GNOME Shell's
/// `Extension`) resolved to stand-ins: `global.display` with its `focus-window`, windows with
/// their `notify::` signals, the session bus recording each call, and the name watch.
@Suite struct GNOMEFocusExtensionTests {
    static let extensionDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path + "/clients/gnome-shell/" + SessionBusFocus.gnomeExtension

    static let loader = """
        const stand = {
            'gi://Gio': 'export default globalThis.__stand.Gio;',
            'gi://GLib': 'export default globalThis.__stand.GLib;',
            'resource:///org/gnome/shell/extensions/extension.js': 'export class Extension { constructor(metadata) { this.metadata = metadata; } }',
        };
        export async function resolve(specifier, context, next) {
            if (specifier in stand)
                return { url: 'data:text/javascript,' + encodeURIComponent(stand[specifier]), shortCircuit: true };
            return next(specifier, context);
        }
        """

    static let harness = """
        const calls = [], log = [];
        function gobject() {
            const handlers = new Map(); let next = 1;
            return {
                connect(signal, f) { const id = next++; handlers.set(id, [signal, f]); return id; },
                disconnect(id) { if (!handlers.delete(id)) throw new Error('not connected: ' + id); },
                emit(signal) { for (const [s, f] of [...handlers.values()]) if (s === signal) f(); },
                count() { return handlers.size; },
            };
        }
        function win(wmClass, title, fullScreen) {
            const w = gobject();
            w.get_wm_class = () => wmClass; w.get_title = () => title; w.is_fullscreen = () => fullScreen;
            w.retitle = t => { title = t; w.emit('notify::title'); };
            w.fullScreen = f => { fullScreen = f; w.emit('notify::fullscreen'); };
            return w;
        }
        const display = gobject();
        display.focus_window = win('org.gnome.TextEditor', 'Notes', false);
        const watches = new Map();
        const bus = { call: (name, path, iface, method, args, type, flags) => calls.push([name, path, iface, method, args.type, ...args.value, flags]) };
        globalThis.__stand = {
            Gio: {
                BusNameWatcherFlags: { NONE: 0 }, DBusCallFlags: { NO_AUTO_START: 1 }, DBus: { session: bus },
                bus_watch_name_on_connection: (connection, name, flags, appeared) => { watches.set(3, [name, appeared]); return 3; },
                bus_unwatch_name: id => { if (!watches.delete(id)) throw new Error('not watched: ' + id); },
            },
            GLib: { Variant: class { constructor(type, value) { this.type = type; this.value = value; } } },
        };
        globalThis.global = { display };
        const { default: TouchdFocusExtension } = await import(process.argv[2]);
        const extension = new TouchdFocusExtension({ uuid: 'touchd-focus@touchd.org' });
        extension.enable();
        const first = display.focus_window;
        first.retitle('Notes - edited');
        // Another window: the first one's changes no longer count.
        const game = win('org.example.game', 'Game', true);
        display.focus_window = game; display.emit('notify::focus-window');
        first.retitle('ignored');
        game.fullScreen(false);
        // The follower (re)appears on the bus: the focus again.
        for (const [name, appeared] of watches.values()) if (name === 'org.touchd.FocusFollower') appeared();
        // Nothing focused.
        display.focus_window = null; display.emit('notify::focus-window');
        extension.disable();
        log.push([first.count(), game.count(), display.count(), watches.size]);
        console.log(JSON.stringify(log));
        for (const c of calls) console.log(JSON.stringify(c));
        """

    @Test("the focused window and each change of it, again when the follower appears, unknown with none and when disabled; nothing left connected",
          .enabled(if: KWinFocusScriptTests.node != nil, "needs node (make deps installs nodejs)"))
    func reports() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gnome-extension-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Self.loader.write(to: directory.appendingPathComponent("loader.mjs"), atomically: true, encoding: .utf8)
        try Self.harness.write(to: directory.appendingPathComponent("harness.mjs"), atomically: true, encoding: .utf8)
        let (output, errors) = try KWinFocusScriptTests.runNode(
            ["--no-warnings", "--experimental-loader", directory.appendingPathComponent("loader.mjs").path,
             directory.appendingPathComponent("harness.mjs").path, Self.extensionDirectory + "/extension.js"])
        let call = { (app: String, title: String, full: Bool) in
            #"["org.touchd.FocusFollower","/org/touchd/FocusFollower","org.touchd.FocusFollower1","Focused","(ssb)",\#(KWinFocusScriptTests.jsString(app)),\#(KWinFocusScriptTests.jsString(title)),\#(full),1]"#
        }
        let expected = ["[[0,0,0,0]]",
                        call("org.gnome.TextEditor", "Notes", false),
                        call("org.gnome.TextEditor", "Notes - edited", false),
                        call("org.example.game", "Game", true),
                        call("org.example.game", "Game", false),
                        call("org.example.game", "Game", false),
                        call("", "", false),
                        call("", "", false)]
        #expect(output.split(separator: "\n").map(String.init) == expected, "\(output)\n\(errors)")
    }

    @Test("metadata.json names the extension's uuid and the GNOME Shell versions of its module format (45 and later)")
    func metadata() throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: Self.extensionDirectory + "/metadata.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(json["uuid"] as? String == SessionBusFocus.gnomeExtension)
        let versions = try #require(json["shell-version"] as? [String]).compactMap { Int($0) }
        #expect(!versions.isEmpty && versions.allSatisfy { $0 >= 45 })
    }
}
