// SPDX-License-Identifier: MIT
import Foundation
import KernelTesting
import Testing
import TouchCore
import Trace
@testable import LiveInput

/// Real recordings from Tests/Fixtures/real and helpers for kernel tests.
enum LiveFixtures {
    static let evemuDevices = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real/evemu-devices").path

    /// The `make test-vm` guest, whose udev rules and /etc may be changed (scripts/vm-guest.sh sets TOUCHD_VM_GUEST=1).
    static let isThrowawayGuest = ProcessInfo.processInfo.environment["TOUCHD_VM_GUEST"] == "1" && KernelCapability.uinputIsWritable

    /// Runs a program and returns its exit status.
    static func run(_ path: String, _ arguments: String...) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    static func description(_ relative: String) throws -> DeviceDescription {
        try #require(try TraceReader.read(path: evemuDevices + "/" + relative).devices.first).description
    }

    /// Pumps until an event satisfies `until` (udev can take a while in the guest); returns everything seen.
    static func pump(_ source: LiveDeviceSource, until: (LiveInputEvent) -> Bool) throws -> [LiveInputEvent] {
        var seen: [LiveInputEvent] = []
        for _ in 0..<100 {
            let events = try source.waitAndRead(timeoutMilliseconds: 200)
            seen += events
            if events.contains(where: until) { return seen }
        }
        Issue.record("nothing expected arrived; saw \(seen.map(\.summary))")
        return seen
    }
}

/// Protocol B frames for writing into a uinput touchscreen.
enum TouchFrames {
    static func abs(_ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: .zero, type: .abs, code: code, value: value)
    }
    static let sync = InputEvent(time: .zero, type: .syn, code: EventCode.synReport, value: 0)

    static func down(slot: Int32, trackingID: Int32, x: Int32, y: Int32) -> [InputEvent] {
        [abs(EventCode.absMTSlot, slot), abs(EventCode.absMTTrackingID, trackingID),
         abs(EventCode.absMTPositionX, x), abs(EventCode.absMTPositionY, y),
         InputEvent(time: .zero, type: .key, code: EventCode.btnTouch, value: 1),
         abs(EventCode.absX, x), abs(EventCode.absY, y), sync]
    }
}
