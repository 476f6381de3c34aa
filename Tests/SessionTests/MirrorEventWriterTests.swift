// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Testing
import TouchCore
import TouchTesting
import Trace
@testable import Session

/// The pass-through mirror's evdev events (semantics §9), read back through TouchCore.
@Suite struct MirrorEventWriterTests {
    /// Collects the mirror events of a session and writes them as the mirror's evdev events, frame by frame.
    struct MirrorSink: SessionSink {
        var writer: MirrorEventWriter
        var events: [InputEvent] = []
        var originalTouches: [Touch] = []
        var mirrorFrames = 0

        mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine) {
            originalTouches += frame.touches
            write(outputs, at: frame.time)
        }
        mutating func engineOutputs(_ outputs: [EngineOutput]) {
            write(outputs, at: outputs.lazy.compactMap { if case .mirror(let m) = $0 { return m.time } else { return nil } }.first ?? .zero)
        }
        mutating func device(_ event: SessionDeviceEvent) {}

        mutating func write(_ outputs: [EngineOutput], at time: Timestamp) {
            var any = false
            for case .mirror(let m) in outputs {
                writer.append(m, into: &events)
                any = true
            }
            if any {
                writer.endFrame(at: time, into: &events)
                mirrorFrames += 1
            }
        }
    }

    /// Runs `recording` through a session with its device mirrored; returns the mirror's events and the original touches.
    static func mirror(_ recording: Recording, configuration: TouchdConfiguration = TouchdConfiguration()) -> MirrorSink {
        let description = recording.devices[0].description
        var sink = MirrorSink(writer: MirrorEventWriter(mirror: description, ending: .cancel))
        var session = TouchSession(configuration: configuration, recordsDebug: false)
        session.mirror(DeviceID(rawValue: 0))
        let feed = ReplayFeed(recordings: [recording])
        session.addDevice(DeviceID(rawValue: 0), description: description, at: feed.startTime, into: &sink)
        ReplaySession.drive(&session, feed: feed, into: &sink)
        return sink
    }

    /// The mirror's events read by a fresh pipeline, as a compositor would.
    static func readBack(_ events: [InputEvent], description: DeviceDescription) -> [Touch] {
        var pipeline = TouchPipeline(screens: TouchdConfiguration().screenConfigurations)
        pipeline.addDevice(DeviceID(rawValue: 0), description: description)
        var touches: [Touch] = []
        for e in events {
            if let f = pipeline.process(e, from: DeviceID(rawValue: 0)) { touches += f.touches }
        }
        return touches
    }

    /// One evemu event line at `ms` milliseconds.
    static func evemuLine(_ ms: Int, _ type: Int, _ code: Int, _ value: Int) -> String {
        "E: \(ms / 1000).\(String(format: "%06d", ms % 1000 * 1000)) \(String(format: "%04x %04x", type, code)) \(value)\n"
    }

    static func outline(_ touches: [Touch]) -> [String] {
        touches.map { "\($0.phase.rawValue) \($0.deviceValues.x),\($0.deviceValues.y)" }
    }

    @Test("§9 a stream nothing claims comes out of the mirror as it went in: same contacts, phases and device positions, frame for frame")
    func unclaimedStreamIsUnchanged() throws {
        let recording = try TraceReader.read(path: "Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let sink = Self.mirror(recording)
        let back = Self.readBack(sink.events, description: recording.devices[0].description)
        #expect(back.count > 100)
        #expect(Self.outline(back) == Self.outline(sink.originalTouches))
        // Four fingers at once reached the mirror.
        var down = Set<TouchID>(), most = 0
        for t in back {
            if t.phase == .began { down.insert(t.id) }
            if t.phase == .ended || t.phase == .cancelled { down.remove(t.id) }
            most = max(most, down.count)
        }
        #expect(most == 4)
        #expect(sink.writer.activeContacts == 0)
    }

    @Test("§9 a cancelled contact becomes a palm for one frame, then ends")
    func cancelIsAPalmThenAnEnd() {
        let description = DeviceFixtures.touchscreen()
        var writer = MirrorEventWriter(mirror: description, ending: .cancel)
        var events: [InputEvent] = []
        let t0 = Timestamp(microseconds: 1_000_000), t1 = Timestamp(microseconds: 1_010_000)
        var touch = Touch(id: TouchID(7), device: DeviceID(rawValue: 0), phase: .began, type: .direct, tool: .finger, time: t0, location: .zero)
        touch.deviceValues = DeviceContactValues(x: 1000, y: 2000, pressure: 40)
        writer.append(MirrorTouchEvent(time: t0, phase: .began, touch: touch), into: &events)
        writer.endFrame(at: t0, into: &events)
        writer.append(MirrorTouchEvent(time: t1, phase: .cancelled, touch: touch), into: &events)
        writer.endFrame(at: t1, into: &events)
        let frames = events.split(whereSeparator: { $0.isSynReport }).map { $0.map { "\($0.type) \($0.code) \($0.value)" } }
        #expect(frames.count == 3)
        // libinput reads the tool type when the contact starts (MirrorConventions): finger before the tracking id.
        let tool = frames[0].firstIndex(of: "\(EventType.abs) \(EventCode.absMTToolType) \(EventCode.mtToolFinger)")
        let track = frames[0].firstIndex(of: "\(EventType.abs) \(EventCode.absMTTrackingID) 0")
        #expect(tool != nil && track != nil && tool! < track!)
        // After the palm's end the slot is a finger again.
        #expect(frames[2].contains("\(EventType.abs) \(EventCode.absMTToolType) \(EventCode.mtToolFinger)"))
        #expect(frames[1] == ["\(EventType.abs) \(EventCode.absMTToolType) \(EventCode.mtToolPalm)"] || frames[1].contains("\(EventType.abs) \(EventCode.absMTToolType) \(EventCode.mtToolPalm)"))
        #expect(!frames[1].contains("\(EventType.abs) \(EventCode.absMTTrackingID) -1"))
        #expect(frames[2].contains("\(EventType.abs) \(EventCode.absMTTrackingID) -1"))
        #expect(frames[2].contains("\(EventType.key) \(EventCode.btnTouch) 0"))
        // TouchCore, reading the mirror as a compositor would, sees the touch end without a lift.
        let back = Self.readBack(events, description: description)
        #expect(back.first?.phase == .began)
        #expect(back.last?.phase == .cancelled)
        #expect(writer.activeContacts == 0)
    }

    @Test("§9 a swipe up from the bottom edge leaves the mirror silent; a tap in the middle goes through")
    func edgeSwipeIsNotMirrored() throws {
        let description = DeviceFixtures.touchscreen()
        // The fixture is 204.75 mm square at 20 units/mm; the default screen is 1920x1080.
        var lines = ""
        func e(_ ms: Int, _ type: Int, _ code: Int, _ value: Int) { lines += Self.evemuLine(ms, type, code, value) }
        // A swipe up from the bottom edge: starts 1 mm from it, 60 mm up in 200 ms.
        e(1000, 3, 0x39, 1); e(1000, 3, 0x35, 2000); e(1000, 3, 0x36, 4075); e(1000, 1, 0x14a, 1); e(1000, 0, 0, 0)
        for i in 1...20 { e(1000 + i * 10, 3, 0x36, 4075 - i * 60); e(1000 + i * 10, 0, 0, 0) }
        e(1210, 3, 0x39, -1); e(1210, 1, 0x14a, 0); e(1210, 0, 0, 0)
        // A tap in the middle.
        e(3000, 3, 0x39, 2); e(3000, 3, 0x35, 2000); e(3000, 3, 0x36, 2000); e(3000, 1, 0x14a, 1); e(3000, 0, 0, 0)
        e(3060, 3, 0x39, -1); e(3060, 1, 0x14a, 0); e(3060, 0, 0, 0)
        let recording = try TraceReader.read(text: lines, name: "edge.events", format: .evemu, description: description)
        let sink = Self.mirror(recording)
        let back = Self.readBack(sink.events, description: description)
        #expect(Self.outline(back) == ["began 2000,2000", "ended 2000,2000"])
    }

    @Test("§9 a tap in the edge zone, delivered when the system swipe fails at its lift, goes down in one mirror frame and up in the next")
    func withheldTapComesDownThenUp() throws {
        let description = DeviceFixtures.touchscreen()
        var lines = ""
        func e(_ ms: Int, _ type: Int, _ code: Int, _ value: Int) { lines += Self.evemuLine(ms, type, code, value) }
        e(1000, 3, 0x39, 1); e(1000, 3, 0x35, 2000); e(1000, 3, 0x36, 4075); e(1000, 1, 0x14a, 1); e(1000, 0, 0, 0)
        e(1060, 3, 0x39, -1); e(1060, 1, 0x14a, 0); e(1060, 0, 0, 0)
        let recording = try TraceReader.read(text: lines, name: "edge-tap.events", format: .evemu, description: description)
        let sink = Self.mirror(recording)
        let frames = sink.events.split(whereSeparator: { $0.isSynReport })
        #expect(frames.count == 2)
        #expect(frames.first?.contains { $0.code == EventCode.absMTTrackingID && $0.value >= 0 } == true)
        #expect(frames.last?.contains { $0.code == EventCode.absMTTrackingID && $0.value == -1 } == true)
        let back = Self.readBack(sink.events, description: description)
        #expect(Self.outline(back) == ["began 2000,4075", "ended 2000,4075"])
    }

    @Test("§9.7 after the kernel dropped events, a contact that vanished is cancelled on the mirror: nothing stays down")
    func resyncLeavesNothingDown() throws {
        let recording = try TraceReader.read(path: "Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let description = recording.devices[0].description
        var sink = MirrorSink(writer: MirrorEventWriter(mirror: description, ending: .cancel))
        var session = TouchSession(recordsDebug: false)
        let id = DeviceID(rawValue: 0)
        session.mirror(id)
        session.addDevice(id, description: description, at: recording.events[0].event.time, into: &sink)
        // The first 100 events: fingers down.
        session.handle(recording.events.prefix(100).map(\.event), from: id, into: &sink)
        #expect(sink.writer.activeContacts > 0)
        // SYN_DROPPED, and the device's state re-read: every slot empty.
        let time = recording.events[100].event.time
        let empty = (0..<description.slotCount).map { SlotSnapshot(slot: $0, trackingID: -1) }
        session.resync(id, slots: empty, keysDown: [], axisValues: [:], droppedAt: time, into: &sink)
        #expect(sink.writer.activeContacts == 0)
        let back = Self.readBack(sink.events, description: description)
        #expect(back.last?.phase == .cancelled)
    }
}
