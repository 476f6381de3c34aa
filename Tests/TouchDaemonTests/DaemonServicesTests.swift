// SPDX-License-Identifier: MIT
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// The signal service (Sources/TouchDaemon/DaemonServices.swift): SIGUSR1
/// logs the delivery statistics (docs/daemon.md, "Signals").
@Suite struct DaemonServicesTests {
    /// The batch count of the latest `delivery statistics:` line, or nil.
    static func batches(in log: String) -> Int? {
        guard let line = log.split(separator: "\n").last(where: { $0.contains("delivery statistics: ") }) else { return nil }
        let text = line[line.range(of: "delivery statistics: ")!.upperBound...]
        if text.hasPrefix("no batches") { return 0 }
        return Int(text.prefix { $0.isNumber })
    }

    @Test func sigusr1LogsThePublishingTimesAndStartsAfresh() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop", "--speed", "4"])
        let client = try daemon.gestureSubscriber()
        _ = try client.lines { messageType($0) == "gesture" }
        daemon.signal(SIGUSR1)
        try daemon.waitForLog("delivery statistics: ")
        let first = try #require(Self.batches(in: daemon.log))
        #expect(first > 0)
        let line = daemon.log.split(separator: "\n").last { $0.contains("delivery statistics: ") }.map(String.init) ?? ""
        #expect(line.hasPrefix("notice: delivery statistics: \(first) batches; publish p50 "))
        // How many batches some client could not take at once.
        #expect(line.contains(" queued for clients behind"))
        // Replaying: how late frames reached the engine after their due time.
        #expect(line.contains("; replay lateness p50 "))
        // The daemon goes on serving after a report.
        _ = try client.lines { messageType($0) == "gesture" }
        #expect(daemon.process.isRunning)
    }

    /// At `--speed 0` no frame is ever due: the lateness says so instead of
    /// reporting zeros.
    @Test func replayAsFastAsPossibleHasNoLateness() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--speed", "0"])
        try daemon.waitForLog("replay pass finished")
        daemon.signal(SIGUSR1)
        try daemon.waitForLog("delivery statistics: ")
        let line = daemon.log.split(separator: "\n").last { $0.contains("delivery statistics: ") }.map(String.init) ?? ""
        #expect(line.hasSuffix("; replay lateness none"))
        #expect(daemon.process.isRunning)
    }
}
