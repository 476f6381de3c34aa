// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Socket-activated touchd with a configuration it rejects stays up and
/// refuses each client with an error naming the key, instead of exiting into
/// systemd's restart loop (which ends with touchd.socket failed); a reload
/// with the file fixed serves as usual. systemd-socket-activate passes the
/// socket as systemd does (LISTEN_FDS) and execs touchd on the first connection.
@Suite(.serialized) struct RejectedConfigurationTests {
    static let activator = "/usr/bin/systemd-socket-activate"

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: activator), "needs systemd-socket-activate (package systemd)"))
    func aRejectedFileRefusesClientsUntilAReloadFindsItFixed() throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        let socket = directory.path + "/activated.sock"
        try "devices:\n  - {match: {name: x}, passthrough: true}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config], waitForSocket: false, launcher: [Self.activator, "-l", socket])
        // systemd-socket-activate binds (the file appears) before it listens: polled until it accepts.
        var first: WireSocket?
        try poll("the activation socket accepting") {
            first = try? WireSocket(path: socket)
            return first != nil
        }

        for k in 0..<3 {
            let client = try k == 0 ? first! : WireSocket(path: socket)
            let line = try #require(try client.readLine())
            #expect(line.contains(#""type":"error""#) && line.contains(#""code":"internal""#), "\(line)")
            #expect(line.contains("devices[0].passthrough") && line.contains("did you mean 'passThrough'"), "\(line)")
            #expect(try client.readLine() == nil, "the refused client is closed")
        }
        #expect(daemon.process.isRunning, "\(daemon.log)")
        try daemon.waitForLog("refusing clients")

        // Still bad: still refusing, and the log names the key again.
        daemon.signal(SIGHUP)
        try daemon.waitForLog("SIGHUP: configuration still rejected")
        #expect(daemon.process.isRunning)

        try "devices:\n  - {match: {name: x}, passThrough: false}\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("the configuration is usable now")
        var hello: String?
        try poll("a hello on the activated socket") {
            guard let client = try? WireSocket(path: socket), let line = try? client.readLine() else { return false }
            hello = line
            return line.contains(#""type":"hello""#)
        }
        #expect(hello?.contains(#""type":"hello""#) == true, "\(daemon.log)")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }

    /// systemd watches the watchdog from READY=1 on: refusing clients is a
    /// steady state, so it keeps `WATCHDOG=1` coming and says why in its
    /// status; a reload with the file fixed says it is starting, then serving.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: activator), "needs systemd-socket-activate (package systemd)"))
    func refusingClientsKeepsTheWatchdogFedAndSaysWhy() throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        let socket = directory.path + "/activated.sock"
        let notify = try DaemonSystemTests.NotifySocket(path: directory.path + "/notify")
        try "screens: []\n".write(toFile: config, atomically: true, encoding: .utf8)
        // systemd-socket-activate passes on only the environment named with -E.
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop"], waitForSocket: false,
                                       launcher: [Self.activator, "-l", socket, "-E", "NOTIFY_SOCKET=\(notify.path)", "-E", "WATCHDOG_USEC=300000"])
        // systemd-socket-activate binds (the file appears) before it listens: polled until it accepts.
        var first: WireSocket?
        try poll("the activation socket accepting") {
            first = try? WireSocket(path: socket)
            return first != nil
        }
        _ = try first!.readLine()

        let ready = try notify.next(containing: "READY=1")
        #expect(ready.hasPrefix("READY=1\nSTATUS=configuration rejected: \(config):1: screens: needs at least one screen; refusing clients"), "\(ready)")
        #expect(ready.hasSuffix("; alive"), "\(ready)")
        // Ten pings at 150 ms: far longer than the 300 ms interval systemd would allow without them.
        for _ in 0..<10 { #expect(try notify.next(containing: "WATCHDOG") == "WATCHDOG=1") }
        #expect(daemon.process.isRunning, "\(daemon.log)")

        try "screens:\n  - {width: 800, height: 480}\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        #expect(try notify.next(containing: "RELOADING=1") == "RELOADING=1\nSTATUS=starting with the fixed configuration \(config)")
        #expect(try notify.next(containing: "READY=1") == "READY=1\nSTATUS=1 device, 0 clients", "\(daemon.log)")
        #expect(try notify.next(containing: "WATCHDOG") == "WATCHDOG=1")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }

    /// A reload says it is reloading, then the serving status again with `READY=1`.
    @Test func aReloadSaysSoAndThenServesAgain() throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        try "screens:\n  - {width: 800, height: 480}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let notify = try DaemonSystemTests.NotifySocket(path: directory.path + "/notify")
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop"],
                                       environment: ["NOTIFY_SOCKET": notify.path, "WATCHDOG_USEC": "300000"])
        #expect(try notify.next(containing: "STATUS=starting") == "STATUS=starting")
        #expect(try notify.next(containing: "READY=1") == "READY=1\nSTATUS=1 device, 0 clients")
        daemon.signal(SIGHUP)
        #expect(try notify.next(containing: "RELOADING=1") == "RELOADING=1\nSTATUS=reloading \(config)")
        #expect(try notify.next(containing: "READY=1") == "READY=1\nSTATUS=1 device, 0 clients", "\(daemon.log)")
        #expect(try notify.next(containing: "WATCHDOG") == "WATCHDOG=1")
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0, "\(daemon.log)")
    }
}
