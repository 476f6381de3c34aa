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
        try poll("the activation socket") { FileManager.default.fileExists(atPath: socket) }

        for _ in 0..<3 {
            let client = try WireSocket(path: socket)
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
}
