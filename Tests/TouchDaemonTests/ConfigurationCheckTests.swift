// SPDX-License-Identifier: MIT
import Foundation
import Testing
import Session
@testable import TouchDaemon

/// `touchd --check-config`: every error of a file, each file:line: key: message, exit 0 or 78.
@Suite struct ConfigurationCheckTests {
    func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("touchd-check-\(UUID().uuidString).yaml").path
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theShippedFilesPass() throws {
        for file in ["config/touchd.yaml", "docs/examples/kiosk-touchd.yaml"] {
            let outcome = ConfigurationCheck.run(path: PackagePaths.root + "/" + file, readsQuirks: false)
            #expect(outcome.errors.isEmpty && outcome.status == 0, "\(file): \(outcome.errors)")
        }
    }

    @Test func everyErrorIsReportedWithItsLineAndTheStatusIs78() throws {
        let path = try write("""
            devices:
              - {match: {name: "Atmel*"}, passthrough: true, screnn: 1}
            access:
              connect: {users: [no-such-user-here]}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = ConfigurationCheck.run(path: path, readsQuirks: false)
        #expect(outcome.status == 78)
        #expect(outcome.errors.map(\.description).map { $0.prefix(path.count + 30) }.count == 2, "\(outcome.errors)")
        #expect(outcome.errors.map(\.path) == ["devices[0].passthrough", "devices[0].screnn"])
        #expect(outcome.errors.allSatisfy { $0.description.hasPrefix("\(path):2: devices[0].") })
        // Users are resolved once the file reads: that error comes when the typos are fixed.
        let fixed = try write("access:\n  connect: {users: [no-such-user-here]}\n")
        defer { try? FileManager.default.removeItem(atPath: fixed) }
        let second = ConfigurationCheck.run(path: fixed, readsQuirks: false)
        #expect(second.errors.map(\.description) == ["\(fixed):2: access.connect.users[0]: no user \"no-such-user-here\""])
    }

    @Test("passThroughEnding: auto passes; another word is refused with its line, naming the allowed words")
    func passThroughEnding() throws {
        let good = try write("devices:\n  - match: {name: \"X*\"}\n    passThrough: true\n    passThroughEnding: auto\n")
        let bad = try write("devices:\n  - match: {name: \"X*\"}\n    passThrough: true\n    passThroughEnding: palm\n")
        defer {
            try? FileManager.default.removeItem(atPath: good)
            try? FileManager.default.removeItem(atPath: bad)
        }
        let ok = ConfigurationCheck.run(path: good, readsQuirks: false)
        #expect(ok.errors.isEmpty && ok.status == 0, "\(ok.errors)")
        let refused = ConfigurationCheck.run(path: bad, readsQuirks: false)
        #expect(refused.status == 78)
        #expect(refused.errors.map(\.description) == ["\(bad):4: devices[0].passThroughEnding: expected auto, cancel or lift, got palm"])
    }

    @Test func theBinaryPrintsEveryErrorAndExits78() throws {
        let path = try write("screnn: []\nscheduling: {realtimePriority: 200}\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: PackagePaths.touchd)
        process.arguments = ["--check-config", "--config", path]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = Pipe()
        try process.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 78)
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("warning:") }
        #expect(lines.count == 2, "\(text)")
        #expect(lines.first?.hasPrefix("\(path):1: screnn: unknown key 'screnn'; did you mean 'screens'?") == true, "\(text)")
        #expect(lines.last?.hasPrefix("\(path):2: scheduling.realtimePriority: expected a SCHED_FIFO priority") == true, "\(text)")
    }

    @Test("the unit checks the file before signalling a reload, and lets Dispatch renice its workers")
    func theUnitChecksBeforeReloading() throws {
        let unit = try String(contentsOfFile: PackagePaths.root + "/systemd/touchd.service", encoding: .utf8)
        let reloads = unit.split(separator: "\n").filter { $0.hasPrefix("ExecReload=") }
        #expect(reloads.count == 2 && reloads[0].contains("touchd --check-config --config /etc/touchd/touchd.yaml") && reloads[1].contains("kill -HUP"),
                "\(reloads)")
        #expect(unit.split(separator: "\n").contains("SystemCallFilter=setpriority"))
        // Dispatch's workers may return to the unit's own nice value, no further.
        #expect(unit.split(separator: "\n").contains("LimitNICE=-8") && unit.split(separator: "\n").contains("Nice=-8"))
    }
}
