// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import KernelTesting
import Testing
import TouchCore
import Session
import TouchDaemon
import TouchTesting
import Trace
import Evdev
import LiveInput

/// A real recording, for live-versus-offline comparisons.
struct LiveFixture: Sendable, CustomTestStringConvertible {
    var label: String
    var file: String
    var testDescription: String { label }

    static let all: [LiveFixture] = [
        LiveFixture(label: "protocol B touchscreen, 4-finger drag",
                    file: "touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"),
        LiveFixture(label: "protocol A touchscreen, 1-finger drag",
                    file: "touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events"),
        LiveFixture(label: "pen, stylus drag", file: "tablets/Wacom Intuos4 6x9.stylus-drag.events"),
        LiveFixture(label: "touchpad, 3-finger tap", file: "touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events"),
    ]
}

/// Issue 5 in the guest: the live pipeline (uinput -> evdev -> LiveTouchSession)
/// gives the touches and gestures offline replay gives for the same recording.
@Suite(.serialized) struct LiveTouchSessionTests {
    @Test(.requiresUinput, arguments: LiveFixture.all)
    func liveMatchesOfflineReplay(_ fixture: LiveFixture) throws {
        let recording = try RealFixtures.recording(fixture.file)
        let offline = Comparable(LiveHarness.offlineOutputs(recording))
        let (outputs, received) = try LiveHarness.liveOutputs(recording)
        let live = Comparable(outputs)
        #expect(!offline.touches.isEmpty)
        #expect(live.touches == offline.touches)
        // Gestures depend on time (long-press after 500 ms, swipe speed), and
        // the kernel stamps events when they are written: the exact gesture
        // stream is compared with offline replay of the input as the kernel
        // delivered it (same events, kernel times)...
        #expect(received.events.count > 0)
        let delivered = Comparable(LiveHarness.offlineOutputs(received))
        #expect(live.gestures == delivered.gestures)
        // ...and with the file's, in outline, when the guest kept to the
        // file's schedule (a stalled emulated CPU can hold a pen still for
        // longer than a long press; the deviation is in the failure message).
        let deviation = try #require(offline.scheduleDeviation(of: delivered))
        if deviation <= 40 {
            #expect(live.gestureOutline == offline.gestureOutline, "delivered within \(deviation) ms of the file's schedule")
        }
        #expect(outputs.contains { if case .deviceAdded = $0 { true } else { false } })
        #expect(!outputs.contains { if case .resynced = $0 { true } else { false } })
    }

    @Test(.requiresUinput)
    func removalWithTwoFingersDownCancelsAndReAddingWorks() throws {
        let description = try #require(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.desc").devices.first).description
        var syspaths: [String] = []
        let session = try LiveHarness.session(for: { syspaths })
        var outputs: [LiveSessionOutput] = []
        try session.start { outputs.append($0) }

        var uinput = try UinputDevice(description: description)
        syspaths.append(try #require(uinput.syspath))
        try LiveHarness.waitForDevices(session, count: 1, into: &outputs)
        try uinput.write(Frames.down(slot: 0, trackingID: 1, x: 1000, y: 1000))
        try uinput.write(Frames.down(slot: 1, trackingID: 2, x: 2000, y: 1000))
        try LiveHarness.pump(session, until: LiveClock.now().adding(milliseconds: 50), into: &outputs)
        #expect(session.pipeline.activeTouchCount == 2)
        #expect(!session.engine.isIdle)

        uinput.close()
        outputs.removeAll()
        for _ in 0..<100 where !outputs.contains(where: { if case .deviceRemoved = $0 { true } else { false } }) {
            try session.runRound(maximumWaitMilliseconds: 200) { outputs.append($0) }
        }
        try LiveHarness.settle(session, into: &outputs)
        let touches = outputs.compactMap { if case .touch(let t) = $0 { t } else { nil } }
        #expect(touches.map(\.phase) == [.cancelled, .cancelled])
        #expect(Set(touches.map(\.id.rawValue)) == [1, 2])
        let gestures = outputs.compactMap { if case .engine(.gesture(let g)) = $0 { g } else { nil } }
        // Two fingers down for 50 ms begin nothing continuous; whatever began must have finished.
        #expect(gestures.filter { $0.state == .began }.count == gestures.filter { $0.state == .ended || $0.state == .cancelled }.count,
                "\(gestures.map(\.state))")
        #expect(session.engine.isIdle)
        #expect(session.engine.nextDeadline == nil)
        #expect(session.pipeline.devices.isEmpty)

        // Plugged in again: a new device id, and touches flow.
        uinput = try UinputDevice(description: description)
        syspaths.append(try #require(uinput.syspath))
        outputs.removeAll()
        try LiveHarness.waitForDevices(session, count: 1, into: &outputs)
        guard case .deviceAdded(let info, _) = try #require(outputs.first { if case .deviceAdded = $0 { true } else { false } }) else { Issue.record("not deviceAdded: \(outputs)"); return }
        #expect(info.id == DeviceID(1))
        try uinput.write(Frames.down(slot: 0, trackingID: 7, x: 1500, y: 1500))
        try uinput.write(Frames.up(slot: 0))
        try LiveHarness.settle(session, into: &outputs)
        let again = outputs.compactMap { if case .touch(let t) = $0 { t } else { nil } }
        #expect(again.map(\.phase) == [.began, .ended])
        #expect(again.allSatisfy { $0.device == DeviceID(1) && $0.id.rawValue == 3 })
        #expect(session.engine.isIdle)
        uinput.close()
    }

    @Test(.requiresUinput)
    func floodingUntilTheKernelDropsKeepsTouchInvariants() throws {
        let description = try #require(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.desc").devices.first).description
        let uinput = try UinputDevice(description: description)
        let syspath = try #require(uinput.syspath)
        let session = try LiveHarness.session(for: { [syspath] })
        var outputs: [LiveSessionOutput] = []
        try session.start { outputs.append($0) }
        try LiveHarness.waitForDevices(session, count: 1, into: &outputs)

        try uinput.write(Frames.down(slot: 0, trackingID: 100, x: 1000, y: 1000))
        try uinput.write(Frames.down(slot: 1, trackingID: 101, x: 2000, y: 2000))
        try LiveHarness.pump(session, until: LiveClock.now().adding(milliseconds: 50), into: &outputs)
        // Far more frames than evdev buffers, without reading; then finger 1 lifts and finger 3 lands.
        for i in 0..<3000 {
            let step = Int32(i % 400)
            try uinput.write([Frames.abs(0x2f, 0), Frames.abs(0x35, 1001 + step),
                              Frames.abs(0x2f, 1), Frames.abs(0x36, 2001 + step), Frames.sync])
        }
        try uinput.write(Frames.up(slot: 1))
        try uinput.write(Frames.down(slot: 2, trackingID: 102, x: 3000, y: 3000))
        try LiveHarness.settle(session, into: &outputs)
        #expect(outputs.contains { if case .resynced = $0 { true } else { false } })
        #expect(session.pipeline.activeTouchCount == 2)

        // Everything lifts; then the device goes.
        try uinput.write(Frames.up(slot: 0))
        try uinput.write(Frames.up(slot: 2))
        try LiveHarness.settle(session, into: &outputs)
        session.finish { outputs.append($0) }

        var checker = TouchInvariantChecker()
        var frame: [Touch] = []
        func flush() {
            guard let first = frame.first else { return }
            checker.check(TouchFrame(device: first.device, time: first.time, touches: frame))
            frame.removeAll()
        }
        for case .touch(let t) in outputs {
            if let last = frame.last, last.time != t.time { flush() }
            frame.append(t)
        }
        flush()
        checker.checkAllEnded()
        #expect(checker.violations.isEmpty, "\(checker.violations)")
        #expect(checker.beganCount >= 3)
        #expect(session.engine.isIdle)
    }
}

/// Protocol B frames written into a uinput touchscreen.
enum Frames {
    static func abs(_ code: UInt16, _ value: Int32) -> InputEvent { InputEvent(time: .zero, type: .abs, code: code, value: value) }
    static let sync = InputEvent(time: .zero, type: .syn, code: EventCode.synReport, value: 0)

    static func down(slot: Int32, trackingID: Int32, x: Int32, y: Int32) -> [InputEvent] {
        [abs(EventCode.absMTSlot, slot), abs(EventCode.absMTTrackingID, trackingID),
         abs(EventCode.absMTPositionX, x), abs(EventCode.absMTPositionY, y),
         InputEvent(time: .zero, type: .key, code: EventCode.btnTouch, value: 1), sync]
    }

    static func up(slot: Int32) -> [InputEvent] {
        [abs(EventCode.absMTSlot, slot), abs(EventCode.absMTTrackingID, -1), sync]
    }
}
