// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting
@testable import Session

/// A mirror handed from a stopping touchd to the next one (systemd's file
/// descriptor store; docs/pass-through.md, "Across a restart"): what is down
/// on it survives as text, and the next writer ends it as a claim would,
/// never as a click (semantics §9, "no app keeps a touch down").
@Suite struct MirrorHandoverTests {
    static let description = DeviceFixtures.touchscreen()
    static func ms(_ m: Int) -> Timestamp { MirrorLiftTests.ms(m) }
    static func touch(_ phase: TouchPhase, _ x: Int32, _ y: Int32, _ time: Timestamp) -> MirrorTouchEvent {
        MirrorLiftTests.touch(phase, x: x, y: y, at: time)
    }

    /// A writer with one contact down at (3000, 1000) since 0 ms, unmoved; its events so far.
    static func leftDown() -> (MirrorEventWriter, [InputEvent]) {
        var writer = MirrorEventWriter(mirror: description, ending: .lift)
        var events: [InputEvent] = []
        writer.append(touch(.began, 3000, 1000, ms(0)), into: &events)
        writer.endFrame(at: ms(0), into: &events)
        return (writer, events)
    }

    @Test("the handover's text reads back as it was written; a malformed one does not read at all")
    func textRoundTrip() throws {
        var (writer, events) = Self.leftDown()
        var t = Touch(id: TouchID(10), device: DeviceID(rawValue: 0), phase: .began, type: .direct, tool: .finger, time: Self.ms(5), location: .zero)
        t.deviceValues = DeviceContactValues(x: 500, y: 600)
        writer.append(MirrorTouchEvent(time: Self.ms(5), phase: .began, touch: t), into: &events)
        writer.endFrame(at: Self.ms(5), into: &events)
        let handover = writer.handover
        #expect(handover.contacts.count == 2)
        #expect(handover.contacts.map(\.slot) == [0, 1])
        #expect(MirrorHandover(text: handover.text) == handover)
        #expect(MirrorHandover(text: "mirror-handover 2 next=0\n") == nil)
        #expect(MirrorHandover(text: handover.text + "contact slot=x\n") == nil)
        #expect(MirrorHandover(text: "") == nil)
    }

    @Test("ending lift: the contact left down goes out of the slop and back, holds still and lifts after a tap's time: one up, no palm")
    func takenOverContactLifts() throws {
        let (old, before) = Self.leftDown()
        var writer = MirrorEventWriter(mirror: Self.description, ending: .lift)
        var events = before
        writer.takeOver(old.handover, at: Self.ms(60), into: &events)
        var rounds = 0
        while let due = writer.nextDeadline, rounds < 10 {
            writer.advance(to: due, into: &events)
            rounds += 1
        }
        let back = MirrorLiftTests.readBack(events)
        #expect(back.map(\.phase) == [.began, .moved, .moved, .ended])
        let up = try #require(back.last)
        #expect((up.deviceValues.x, up.deviceValues.y) == (3000, 1000))
        #expect(up.time.milliseconds(since: back[0].time) >= MirrorLiftTiming.notBeforeMilliseconds)
        #expect(up.time.milliseconds(since: back[2].time) >= MirrorLiftTiming.stillMilliseconds)
        #expect(!events.contains { $0.code == EventCode.absMTToolType && $0.value == EventCode.mtToolPalm })
        #expect(writer.activeContacts == 0)
    }

    @Test("ending cancel: the contact left down becomes a palm for a frame, then ends: no up in between")
    func takenOverContactCancels() throws {
        let (old, before) = Self.leftDown()
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        var events: [InputEvent] = []
        writer.takeOver(old.handover, at: Self.ms(60), into: &events)
        let palm = try #require(events.firstIndex { $0.code == EventCode.absMTToolType && $0.value == EventCode.mtToolPalm })
        let end = try #require(events.firstIndex { $0.code == EventCode.absMTTrackingID && $0.value == -1 })
        let firstSyn = try #require(events.firstIndex { $0.type == .syn })
        #expect(palm < firstSyn && firstSyn < end)
        #expect(writer.activeContacts == 0 && writer.nextDeadline == nil)
        // Read back after what the old writer wrote: one touch, cancelled.
        let back = MirrorLiftTests.readBack(before + events)
        #expect(back.first?.phase == .began)
        #expect(back.contains { $0.phase == .cancelled || $0.phase == .ended })
    }

    @Test("a touch beginning after a takeover gets a free slot and a new tracking id; the session's events never reach the old contact")
    func newTouchAfterTakeover() throws {
        let (old, _) = Self.leftDown()
        var writer = MirrorEventWriter(mirror: Self.description, ending: .lift)
        var events: [InputEvent] = []
        writer.takeOver(old.handover, at: Self.ms(60), into: &events)
        events.removeAll()
        writer.append(Self.touch(.began, 100, 100, Self.ms(70)), into: &events)
        writer.endFrame(at: Self.ms(70), into: &events)
        #expect(events.contains { $0.code == EventCode.absMTSlot && $0.value == 1 })
        let id = try #require(events.first { $0.code == EventCode.absMTTrackingID }?.value)
        #expect(id == old.handover.nextTrackingID)
        #expect(writer.activeContacts == 2)
    }
}
