// SPDX-License-Identifier: MIT
import Foundation
import Testing
import Session
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// touchd under a crowd: the connection limit, and descriptors afterwards.
@Suite(.serialized) struct DaemonHostileClientTests {
    @Test func aThousandConnectionsAtOnceMeetTheLimitAndLeaveNoDescriptorBehind() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop", "--speed", "4"])
        let healthy = try daemon.gestureSubscriber()
        let baseline = daemon.descriptorCount()

        var crowd: [WireSocket] = []
        for _ in 0..<1000 { crowd.append(try WireSocket(path: daemon.socketPath)) }
        var firsts: [String] = []
        for c in crowd { firsts.append(try c.readLine() ?? "") }
        // The documented limit is 256 connections, the healthy one included.
        #expect(firsts.filter { messageType($0) == "hello" }.count == 255)
        let refusal = #"{"type":"error","code":"limit-exceeded","message":"too many connections (the limit is 256)"}"#
        #expect(firsts.filter { $0 == refusal }.count == 745)
        for (c, first) in zip(crowd, firsts) where first == refusal {
            #expect(try c.readLine() == nil)
        }
        // 256 sessions hold two descriptors each (the connection and its
        // lane's duplicate, docs/daemon.md "Structure"); the refused ones hold none.
        try poll("refused connections closed") { daemon.descriptorCount() == baseline + 2 * 255 }
        try healthy.request(#"{"op":"ping","id":2}"#, id: 2)
        _ = try healthy.lines { messageType($0) == "gesture" }

        crowd.removeAll()
        try poll("descriptors back to the baseline") { daemon.descriptorCount() == baseline }
        let late = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try late.readLine() ?? "") == "hello")
        _ = try healthy.lines { messageType($0) == "gesture" }
        #expect(daemon.process.isRunning)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }
}
