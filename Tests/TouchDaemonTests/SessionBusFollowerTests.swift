// SPDX-License-Identifier: MIT
import Foundation
import Testing
import TouchClient

#if canImport(Glibc)
import Glibc
#endif

/// `touchctl follow-focus --gnome` on a private session bus (Debian's dbus-daemon), in front of a
/// real touchd: the calls GNOME Shell's touchd-focus extension makes (clients/gnome-shell) are
/// made with `dbus-send`, and python-dbusmock stands in for GNOME Shell's name on the bus, so
/// its leaving can be seen. The extension's own logic is tested under node
/// (Tests/TouchClientTests/SessionBusFocusTests.swift); KWin's path under KWin in the compositor
/// guest (`kwin-focus-follow`).
@Suite(.serialized) struct SessionBusFollowerTests {
    final class Bus {
        let directory = TemporaryDirectory()
        let address: String
        private var processes: [Process] = []

        init() throws {
            address = "unix:path=\(directory.path)/bus"
            try start("/usr/bin/dbus-daemon", ["--session", "--nofork", "--nopidfile", "--address=\(address)"])
            // The socket file appears at bind(), before the bus listens: ask it.
            try poll("the private bus", seconds: 60) { (try? self.send(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetId"])) != nil }
        }

        deinit {
            for p in processes where p.isRunning {
                kill(p.processIdentifier, SIGKILL)
                p.waitUntilExit()
            }
        }

        @discardableResult
        func start(_ executable: String, _ arguments: [String], log: String? = nil, environment: [String: String?] = [:]) throws -> Process {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: executable)
            p.arguments = arguments
            var env = ProcessInfo.processInfo.environment
            env["DBUS_SESSION_BUS_ADDRESS"] = address
            for (k, v) in environment { env[k] = v }
            p.environment = env
            if let log {
                _ = FileManager.default.createFile(atPath: log, contents: nil)
                p.standardOutput = FileHandle(forWritingAtPath: log)
                p.standardError = FileHandle(forWritingAtPath: log)
            } else {
                p.standardOutput = FileHandle.nullDevice
                p.standardError = FileHandle.nullDevice
            }
            try p.run()
            processes.append(p)
            return p
        }

        /// `dbus-send --session --print-reply` with `arguments`; its output, or a throw when it fails.
        @discardableResult
        func send(_ arguments: [String]) throws -> String {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-send")
            p.arguments = ["--session", "--print-reply"] + arguments
            p.environment = ["DBUS_SESSION_BUS_ADDRESS": address]
            let out = Pipe()
            p.standardOutput = out
            p.standardError = out
            try p.run()
            let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            p.waitUntilExit()
            guard p.terminationStatus == 0 else { throw DaemonTestFailure("dbus-send \(arguments): \(text)") }
            return text
        }

        /// The extension's call.
        func focused(_ app: String, _ title: String, fullScreen: Bool) throws {
            try send(["--dest=\(SessionBusFocus.busName)", SessionBusFocus.objectPath, "\(SessionBusFocus.interface).\(SessionBusFocus.method)",
                      "string:\(app)", "string:\(title)", "boolean:\(fullScreen)"])
        }
    }

    static func text(_ path: String) -> String { (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }

    @Test("the extension's calls reach touchd as focus reports; a second follower is refused; GNOME Shell leaving makes the focus unknown and the follower exit 69")
    func gnomeShell() throws {
        let bus = try Bus()
        // GNOME Shell's name on the bus, held by a stand-in.
        let shell = try bus.start("/usr/bin/python3", ["-m", "dbusmock", "--session", "org.gnome.Shell", "/org/gnome/Shell", "org.gnome.Shell"])
        try poll("the stand-in GNOME Shell", seconds: 90) {
            (try? bus.send(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner", "string:org.gnome.Shell"])) != nil
        }
        // Not following logind: a client in no session may report.
        let daemon = try DaemonProcess(["--login-state", "ignore", "--replay", PackagePaths.drag4, "--loop", "--speed", "4"])
        let log = bus.directory.path + "/follower.log"
        let follower = try bus.start(PackagePaths.touchctl, ["follow-focus", "--gnome", "--socket", daemon.socketPath, "--verbose"], log: log)
        try poll("the follower's name on the bus") {
            guard follower.isRunning else { throw DaemonTestFailure("the follower exited: \(Self.text(log))") }
            return (try? bus.send(["--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.GetNameOwner", "string:\(SessionBusFocus.busName)"])) != nil
        }

        try bus.focused("org.gnome.TextEditor", "Notes", fullScreen: false)
        try daemon.waitForLog("focus org.gnome.TextEditor")
        try bus.focused("org.example.game", "Game", fullScreen: true)
        try daemon.waitForLog("focus org.example.game")
        #expect(Self.text(log).contains("focus org.example.game fullscreen Game"), "\(Self.text(log))")
        // No focused window.
        try bus.focused("", "", fullScreen: false)
        try daemon.waitForLog("focus unknown")

        // One follower per session.
        let second = try bus.start(PackagePaths.touchctl, ["follow-focus", "--gnome", "--socket", daemon.socketPath], log: bus.directory.path + "/second.log")
        try poll("the second follower to exit") { !second.isRunning }
        #expect(second.terminationStatus == 69)
        #expect(Self.text(bus.directory.path + "/second.log").contains("another follower owns it"), "\(Self.text(bus.directory.path + "/second.log"))")

        // The first follower still serves.
        let reports = daemon.log.components(separatedBy: "focus org.gnome.TextEditor").count - 1
        try bus.focused("org.gnome.TextEditor", "Notes", fullScreen: false)
        try poll("the report again") { daemon.log.components(separatedBy: "focus org.gnome.TextEditor").count - 1 > reports }
        // SIGKILL: the test runner's children may inherit an ignored SIGTERM. The bus sees the
        // connection close either way.
        kill(shell.processIdentifier, SIGKILL)
        try poll("the stand-in GNOME Shell to exit") { !shell.isRunning }
        do {
            try poll("the follower to exit once GNOME Shell left") { !follower.isRunning }
        } catch {
            throw DaemonTestFailure("\(error); the follower's output:\n\(Self.text(log))")
        }
        #expect(follower.terminationStatus == 69, "\(Self.text(log))")
        #expect(Self.text(log).contains("org.gnome.Shell left the session bus"), "\(Self.text(log))")
        try poll("touchd to forget the focus") {
            daemon.log.components(separatedBy: "\n").last(where: { $0.contains("focus ") })?.contains("focus unknown") == true
        }
    }

    @Test("in a GNOME session (XDG_CURRENT_DESKTOP) the follower serves the extension by itself, and says so when the extension does not call")
    func gnomeSessionWithoutTheExtension() throws {
        let bus = try Bus()
        let daemon = try DaemonProcess(["--login-state", "ignore", "--replay", PackagePaths.drag4, "--loop", "--speed", "4"])
        let log = bus.directory.path + "/follower.log"
        let follower = try bus.start(PackagePaths.touchctl, ["follow-focus", "--socket", daemon.socketPath], log: log,
                                     environment: ["XDG_CURRENT_DESKTOP": "ubuntu:GNOME", "SWAYSOCK": nil])
        try poll("the hint about the extension", seconds: 60) {
            Self.text(log).contains("gnome-extensions enable \(SessionBusFocus.gnomeExtension)")
        }
        #expect(follower.isRunning, "\(Self.text(log))")
        // The extension enabled late: its call is taken.
        try bus.focused("org.gnome.Nautilus", "Files", fullScreen: false)
        try daemon.waitForLog("focus org.gnome.Nautilus")
    }
}
