// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting
@testable import Session

/// ``MirrorEnding/lift``: a taken contact ends with an up that is never a tap
/// and never a fling, on compositors that drop libinput's cancel (semantics
/// §9, "no app keeps a touch down"; docs/pass-through.md).
@Suite struct MirrorLiftTests {
    static let description = DeviceFixtures.touchscreen()  // 20 units/mm: the excursion is 120 units
    static func ms(_ m: Int) -> Timestamp { Timestamp(microseconds: 1_000_000 + Int64(m) * 1000) }

    static func touch(_ phase: TouchPhase, x: Int32, y: Int32, at time: Timestamp) -> MirrorTouchEvent {
        var t = Touch(id: TouchID(9), device: DeviceID(rawValue: 0), phase: phase, type: .direct, tool: .finger, time: time, location: .zero)
        t.deviceValues = DeviceContactValues(x: x, y: y)
        return MirrorTouchEvent(time: time, phase: phase, touch: t)
    }

    /// Writes `steps` (each a frame), then runs the writer's deadlines until none is left; returns the events.
    static func run(_ writer: inout MirrorEventWriter, _ steps: [MirrorTouchEvent]) -> [InputEvent] {
        var events: [InputEvent] = []
        for e in steps {
            writer.append(e, into: &events)
            writer.endFrame(at: e.time, into: &events)
        }
        var guardCount = 0
        while let due = writer.nextDeadline, guardCount < 10 {
            // Nothing is written before it is due.
            let before = events.count
            writer.advance(to: Timestamp(microseconds: due.microseconds - 1), into: &events)
            #expect(events.count == before)
            writer.advance(to: due, into: &events)
            guardCount += 1
        }
        return events
    }

    /// The mirror's events as a compositor's libinput would turn them into touches (TouchCore reads them the same way).
    static func readBack(_ events: [InputEvent]) -> [Touch] {
        var pipeline = TouchPipeline()
        pipeline.addDevice(DeviceID(rawValue: 0), description: description)
        var out: [Touch] = []
        for e in events { if let f = pipeline.process(e, from: DeviceID(rawValue: 0)) { out += f.touches } }
        return out
    }

    @Test("a claimed touch that had scrolled stops where the app saw it, holds still, then lifts: no cancel, no fling")
    func movedContactHoldsStillThenLifts() throws {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .lift)
        let events = Self.run(&writer, [
            Self.touch(.began, x: 1000, y: 1000, at: Self.ms(0)),
            Self.touch(.moved, x: 1000, y: 1400, at: Self.ms(40)),
            Self.touch(.moved, x: 1000, y: 1800, at: Self.ms(80)),
            Self.touch(.cancelled, x: 1000, y: 2200, at: Self.ms(100)),
        ])
        let back = Self.readBack(events)
        #expect(back.map(\.phase) == [.began, .moved, .moved, .ended])
        let up = try #require(back.last)
        #expect((up.deviceValues.x, up.deviceValues.y) == (1000, 1800))
        // Still for longer than velocity trackers look back, and not before a tap's time.
        let lastMove = back[back.count - 2].time
        #expect(up.time.milliseconds(since: lastMove) >= MirrorLiftTiming.stillMilliseconds)
        #expect(up.time.milliseconds(since: back[0].time) >= MirrorLiftTiming.notBeforeMilliseconds)
        #expect(writer.activeContacts == 0 && writer.nextDeadline == nil)
        #expect(!events.contains { $0.code == EventCode.absMTToolType && $0.value == EventCode.mtToolPalm })
    }

    @Test("a claimed touch that had not moved leaves the slop and comes back before its up, after a tap's time: never a click")
    func unmovedContactMakesAnExcursion() throws {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .lift)
        let events = Self.run(&writer, [
            Self.touch(.began, x: 3000, y: 1000, at: Self.ms(0)),
            Self.touch(.cancelled, x: 3000, y: 1000, at: Self.ms(30)),
        ])
        let back = Self.readBack(events)
        #expect(back.map(\.phase) == [.began, .moved, .moved, .ended])
        // Out towards the middle of the axis (x is past it), by more than any toolkit's slop...
        let out = back[1].deviceValues.x
        #expect(out == 3000 - 120)
        // ... back where it went down, a frame or more later...
        #expect(back[2].deviceValues.x == 3000)
        #expect(back[2].time.milliseconds(since: back[1].time) >= MirrorLiftTiming.returnMilliseconds)
        // ... and up there, still, no sooner than 350 ms after the down: not a tap (the harness: 10 px, 300 ms).
        let up = try #require(back.last)
        #expect(up.deviceValues.x == 3000)
        #expect(up.time.milliseconds(since: back[0].time) >= 300)
        #expect(up.time.milliseconds(since: back[2].time) >= MirrorLiftTiming.stillMilliseconds)
    }

    @Test("with the ending `cancel` a claimed touch is a palm, then ends (libinput TOUCH_CANCEL)")
    func cancelEndingIsAPalm() {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .cancel)
        let events = Self.run(&writer, [
            Self.touch(.began, x: 1000, y: 1000, at: Self.ms(0)),
            Self.touch(.cancelled, x: 1000, y: 1000, at: Self.ms(30)),
        ])
        #expect(events.contains { $0.code == EventCode.absMTToolType && $0.value == EventCode.mtToolPalm })
        #expect(Self.readBack(events).map(\.phase) == [.began, .cancelled])
        #expect(writer.nextDeadline == nil)
    }

    @Test("a touch lifting on its own schedule takes no new events, and a new touch meanwhile gets another slot")
    func liftingContactIsLeftAlone() throws {
        var writer = MirrorEventWriter(mirror: Self.description, ending: .lift)
        var events: [InputEvent] = []
        for e in [Self.touch(.began, x: 1000, y: 1000, at: Self.ms(0)), Self.touch(.cancelled, x: 1000, y: 1000, at: Self.ms(10))] {
            writer.append(e, into: &events)
            writer.endFrame(at: e.time, into: &events)
        }
        let before = events.count
        writer.append(Self.touch(.moved, x: 2000, y: 2000, at: Self.ms(20)), into: &events)
        writer.append(Self.touch(.ended, x: 2000, y: 2000, at: Self.ms(20)), into: &events)
        #expect(events.count == before)
        var other = Self.touch(.began, x: 500, y: 500, at: Self.ms(30))
        other.touch.id = TouchID(10)
        writer.append(other, into: &events)
        writer.endFrame(at: Self.ms(30), into: &events)
        #expect(writer.activeContacts == 2)
        // Pass-through stopping ends everything at once, the lifting contact included.
        writer.endAll(at: Self.ms(40), into: &events)
        #expect(writer.activeContacts == 0 && writer.nextDeadline == nil)
    }

    @Test("the default ending is lift")
    func defaultIsLift() {
        #expect(MirrorEventWriter(mirror: Self.description).ending == .lift)
        #expect(MirrorEnding.default == .lift)
    }

    @Test("passThroughEnding in a device rule: auto (the default), cancel or lift, per rule; another word is refused naming the key and the allowed words")
    func configurationKey() throws {
        let c = try TouchdConfiguration.parse(yaml: """
        devices:
          - match: {name: "Panel*"}
            passThrough: true
            passThroughEnding: cancel
        """, file: "test.yaml")
        let panel = ConfigurationTests.touchscreen(DeviceDescription(name: "Panel A"))
        var other = panel
        other.name = "Other"
        #expect(c.deviceSettings(for: panel).settings?.passThroughEnding == .cancel)
        #expect(c.deviceSettings(for: other).settings?.passThroughEnding == .auto)
        #expect(c.deviceSettings(for: other).settings?.origins.passThroughEnding == .device)
        let auto = try TouchdConfiguration.parse(yaml: """
        devices:
          - match: {name: "Panel*"}
            passThroughEnding: lift
          - match: {name: "Panel A"}
            passThroughEnding: auto
        """, file: "test.yaml")
        #expect(auto.deviceSettings(for: panel).settings?.passThroughEnding == .auto)
        #expect(auto.deviceSettings(for: panel).settings?.origins.passThroughEnding != .device)
        do {
            _ = try TouchdConfiguration.parse(yaml: """
            devices:
              - match: {name: "Panel*"}
                passThroughEnding: palm
            """, file: "test.yaml")
            Issue.record("an unknown ending was accepted")
        } catch {
            #expect(error.description.contains("passThroughEnding"))
            #expect(error.description.contains("expected auto, cancel or lift, got palm"), "\(error.description)")
        }
    }
}
