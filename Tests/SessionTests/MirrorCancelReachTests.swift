// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting
@testable import Session

/// `wl_touch.cancel` ends every touch the app has, not one: under ``MirrorEnding/cancel`` the
/// mirror cancels only when every contact down on it is taken in the same frame, and lifts the
/// taken ones otherwise (docs/pass-through.md, "How a taken touch ends"). Virtual time, no uinput.
@Suite struct MirrorCancelReachTests {
    static let description = DeviceFixtures.touchscreen()
    static func ms(_ m: Int) -> Timestamp { Timestamp(microseconds: 1_000_000 + Int64(m) * 1000) }

    static func touch(_ id: UInt32, _ phase: TouchPhase, x: Int32, at time: Timestamp) -> MirrorTouchEvent {
        var t = Touch(id: TouchID(rawValue: id), device: DeviceID(rawValue: 0), phase: phase, type: .direct, tool: .finger, time: time, location: .zero)
        t.deviceValues = DeviceContactValues(x: x, y: 1000)
        return MirrorTouchEvent(time: time, phase: phase, touch: t)
    }

    /// Writes each group of events as one frame, then runs the writer's deadlines; returns the events.
    static func run(_ writer: inout MirrorEventWriter, _ frames: [[MirrorTouchEvent]]) -> [InputEvent] {
        var events: [InputEvent] = []
        for frame in frames {
            for e in frame { writer.append(e, into: &events) }
            writer.endFrame(at: frame[0].time, into: &events)
        }
        var rounds = 0
        while let due = writer.nextDeadline, rounds < 20 {
            writer.advance(to: due, into: &events)
            rounds += 1
        }
        return events
    }

    /// What a compositor's libinput would make of the mirror's events, per contact: its phases.
    static func phases(_ events: [InputEvent]) -> [TouchID: [TouchPhase]] {
        var pipeline = TouchPipeline()
        pipeline.addDevice(DeviceID(rawValue: 0), description: description)
        var out: [TouchID: [TouchPhase]] = [:]
        for e in events {
            guard let f = pipeline.process(e, from: DeviceID(rawValue: 0)) else { continue }
            for t in f.touches where t.phase != .moved { out[t.id, default: []].append(t.phase) }
        }
        return out
    }

    static func palms(_ events: [InputEvent]) -> Int {
        events.filter { $0.code == EventCode.absMTToolType && $0.value == EventCode.mtToolPalm }.count
    }

    @Test("one contact taken while another stays down: the taken one lifts, no palm, the other goes on")
    func oneOfTwoLifts() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        let events = Self.run(&writer, [
            [Self.touch(1, .began, x: 1000, at: Self.ms(0)), Self.touch(2, .began, x: 3000, at: Self.ms(0))],
            [Self.touch(1, .cancelled, x: 1000, at: Self.ms(30))],
        ])
        #expect(Self.palms(events) == 0)
        let seen = Self.phases(events)
        #expect(seen.values.sorted { $0.count < $1.count } == [[.began], [.began, .ended]], "\(seen)")
        #expect(writer.activeContacts == 1)
    }

    @Test("every contact taken in one frame: each becomes a palm, then ends; libinput cancels, no up")
    func allTakenCancel() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        let events = Self.run(&writer, [
            [Self.touch(1, .began, x: 1000, at: Self.ms(0)), Self.touch(2, .began, x: 3000, at: Self.ms(0))],
            [Self.touch(1, .cancelled, x: 1000, at: Self.ms(30)), Self.touch(2, .cancelled, x: 3000, at: Self.ms(30))],
        ])
        #expect(Self.palms(events) == 2)
        #expect(Self.phases(events).values.map { $0 } == [[.began, .cancelled], [.began, .cancelled]])
        #expect(writer.activeContacts == 0 && writer.nextDeadline == nil)
    }

    @Test("a lone contact taken is cancelled as before")
    func loneContactCancels() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        let events = Self.run(&writer, [
            [Self.touch(1, .began, x: 1000, at: Self.ms(0))],
            [Self.touch(1, .cancelled, x: 1000, at: Self.ms(30))],
        ])
        #expect(Self.palms(events) == 1)
        #expect(Self.phases(events)[TouchID(rawValue: 1)] == [.began, .cancelled])
    }

    @Test("a contact that lifts in the same frame as the other is taken does not hold the cancel back")
    func anUpBesideTheCancel() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        let events = Self.run(&writer, [
            [Self.touch(1, .began, x: 1000, at: Self.ms(0)), Self.touch(2, .began, x: 3000, at: Self.ms(0))],
            [Self.touch(2, .ended, x: 3000, at: Self.ms(30)), Self.touch(1, .cancelled, x: 1000, at: Self.ms(30))],
        ])
        #expect(Self.palms(events) == 1)
        #expect(Self.phases(events)[TouchID(rawValue: 1)] == [.began, .cancelled])
        #expect(Self.phases(events)[TouchID(rawValue: 2)] == [.began, .ended])
    }

    @Test("the second of two contacts taken one after the other lifts too: the first is still lifting, so still down in the app")
    func takenInTurnBothLift() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        let events = Self.run(&writer, [
            [Self.touch(1, .began, x: 1000, at: Self.ms(0)), Self.touch(2, .began, x: 3000, at: Self.ms(0))],
            [Self.touch(1, .cancelled, x: 1000, at: Self.ms(30))],
            [Self.touch(2, .cancelled, x: 3000, at: Self.ms(40))],
        ])
        #expect(Self.palms(events) == 0)
        #expect(Self.phases(events).values.map { $0 } == [[.began, .ended], [.began, .ended]])
        #expect(writer.activeContacts == 0)
    }

    @Test("a contact taken and then ended in the same frame ends with its up; no palm is written to its empty slot")
    func takenThenEndedInOneFrame() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        let events = Self.run(&writer, [
            [Self.touch(1, .began, x: 1000, at: Self.ms(0))],
            [Self.touch(1, .cancelled, x: 1000, at: Self.ms(30)), Self.touch(1, .ended, x: 1000, at: Self.ms(30))],
        ])
        #expect(Self.palms(events) == 0)
        #expect(Self.phases(events)[TouchID(rawValue: 1)] == [.began, .ended])
        #expect(writer.activeContacts == 0)
    }

    @Test("the ending can change between frames: contacts taken afterwards end the new way")
    func endingChanges() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .lift)
        var events = Self.run(&writer, [[Self.touch(1, .began, x: 1000, at: Self.ms(0))]])
        writer.ending = .cancel
        events += Self.run(&writer, [[Self.touch(1, .cancelled, x: 1000, at: Self.ms(30))]])
        #expect(Self.palms(events) == 1)
        #expect(Self.phases(events)[TouchID(rawValue: 1)] == [.began, .cancelled])
    }
}
