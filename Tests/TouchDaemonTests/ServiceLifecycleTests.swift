// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

extension UserServiceManager {
    /// `systemctl --user show UNIT -p P,Q`: each property's value.
    func show(_ unit: String, _ properties: [String]) throws -> [String: String] {
        let file = directory.path + "/show-\(UUID().uuidString)"
        _ = FileManager.default.createFile(atPath: file, contents: nil)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Self.unblocked[0])
        p.arguments = Array(Self.unblocked.dropFirst())
            + ["/usr/bin/timeout", "60", "/usr/bin/systemctl", "--user", "show", unit, "-p", properties.joined(separator: ",")]
        p.environment = environment
        p.standardOutput = FileHandle(forWritingAtPath: file)
        try p.run()
        try Self.waitForExit(p)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        var values: [String: String] = [:]
        for line in text.split(separator: "\n") {
            guard let eq = line.firstIndex(of: "=") else { continue }
            values[String(line[..<eq])] = String(line[line.index(after: eq)...])
        }
        return values
    }
}

/// touchd's lifecycle under a real systemd (a user manager in the guest, as
/// PassThroughRestartTests runs it), with the shipped unit's scheduling and
/// limit lines, touchd.socket's activation and a short `WatchdogSec=`: after
/// `systemctl restart` with a bad file, one touchd refuses clients and keeps
/// the watchdog fed (no restart, no `Result=watchdog`); a reload with the
/// file fixed serves clients from the same process; and neither the start nor
/// the reloads log Dispatch's `Failed to set thread priority` (docs/deploy.md),
/// touchd running without `CAP_SYS_NICE`, as the shipped unit runs it (root
/// without it is held to `RLIMIT_NICE` as touchd's own user is; it can reach
/// the user manager's notification socket, which only root may).
@Suite(.serialized) struct ServiceLifecycleTests {
    /// The shipped unit's lines that set the process's priority and limits.
    static func shippedSchedulingLines() throws -> [String] {
        let unit = try String(contentsOfFile: PackagePaths.root + "/systemd/touchd.service", encoding: .utf8)
        let lines = unit.split(separator: "\n").map(String.init).filter { ["Nice=", "LimitNICE=", "LimitRTPRIO="].contains(where: $0.hasPrefix) }
        try #require(lines.count == 3, "\(lines)")
        return lines
    }

    @Test("a rejected file after systemctl restart is a steady refusing state with the watchdog fed; a reload with it fixed serves; no Dispatch noise",
          .requiresServiceManager)
    func aRejectedFileIsASteadyStateUnderSystemd() throws {
        let manager = try UserServiceManager()
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        let socket = directory.path + "/touchd.sock"
        let log = directory.path + "/touchd.log"
        try "screens: []\n".write(toFile: config, atomically: true, encoding: .utf8)
        try manager.writeUnit("touchd-life.socket", """
            [Socket]
            ListenStream=\(socket)
            SocketMode=0666
            """)
        let watchdogSeconds = 2
        try manager.writeUnit("touchd-life.service", """
            [Service]
            Type=notify
            NotifyAccess=main
            ExecStart=/usr/bin/setpriv --bounding-set=-sys_nice \(PackagePaths.touchd) --config \(config)
            ExecReload=\(PackagePaths.touchd) --check-config --config \(config)
            ExecReload=/bin/kill -HUP $MAINPID
            WatchdogSec=\(watchdogSeconds)s
            Restart=on-failure
            RestartSec=1s
            RestartPreventExitStatus=78
            \(try Self.shippedSchedulingLines().joined(separator: "\n"))
            Environment=LIBDISPATCH_LOG=stderr
            StandardError=append:\(log)
            """)
        let readLog = { (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        let unit = "touchd-life.service"
        let properties = ["MainPID", "NRestarts", "Result", "ActiveState", "StatusText", "ExecMainStartTimestampMonotonic", "WatchdogTimestampMonotonic"]
        #expect(try manager.systemctl("start", "touchd-life.socket") == 0)
        #expect(try manager.systemctl("restart", unit) == 0, "\(readLog())")

        // Refusing: each client gets the error and is closed.
        try poll("a refusal on the activated socket", seconds: 60) {
            guard let client = try? WireSocket(path: socket), let line = try? client.readLine() else { return false }
            return line.contains("configuration is rejected") && line.contains("screens: needs at least one screen")
        }
        let refusing = try manager.show(unit, properties)
        #expect(refusing["StatusText"]?.contains("refusing clients until it is fixed") == true, "\(refusing)")
        // The watchdog fed for five of its intervals past the start: without pings systemd
        // would have aborted touchd after the first.
        let start = try #require(refusing["ExecMainStartTimestampMonotonic"].flatMap { Int64($0) })
        try poll("watchdog pings five intervals after the start", seconds: 90) {
            let now = try manager.show(unit, properties)
            guard now["MainPID"] == refusing["MainPID"], now["NRestarts"] == "0" else {
                throw DaemonTestFailure("touchd restarted while refusing clients: \(now)\n\(readLog())")
            }
            let pinged = Int64(now["WatchdogTimestampMonotonic"] ?? "") ?? 0
            return pinged - start > Int64(5 * watchdogSeconds) * 1_000_000
        }
        let steady = try manager.show(unit, properties)
        #expect(steady["ActiveState"] == "active" && steady["Result"] == "success" && steady["NRestarts"] == "0", "\(steady)")

        // Fixed and reloaded: the same process serves.
        try "screens:\n  - {width: 800, height: 480}\n".write(toFile: config, atomically: true, encoding: .utf8)
        #expect(try manager.systemctl("reload", unit) == 0, "\(readLog())")
        do {
            try poll("a hello on the activated socket", seconds: 120) {
                guard let client = try? WireSocket(path: socket), let line = try? client.readLine() else { return false }
                return line.contains(#""type":"hello""#)
            }
        } catch {
            Issue.record("\(try manager.show(unit, properties))\n\(readLog())")
            throw error
        }
        // A reload while serving, then the status of serving again.
        #expect(try manager.systemctl("reload", unit) == 0, "\(readLog())")
        try poll("touchd to log the reload", seconds: 60) { readLog().contains("configuration reloaded") }
        try poll("the serving status after the reload", seconds: 30) {
            let status = try manager.show(unit, properties)["StatusText"] ?? ""
            return status.hasSuffix(" clients") || status.hasSuffix(" client")
        }
        let serving = try manager.show(unit, properties)
        #expect(serving["MainPID"] == refusing["MainPID"] && serving["NRestarts"] == "0" && serving["Result"] == "success", "\(serving)")
        let text = readLog()
        #expect(!text.contains("Failed to set thread priority"), "\(text)")
        _ = try manager.systemctl("stop", unit, "touchd-life.socket")
    }
}
