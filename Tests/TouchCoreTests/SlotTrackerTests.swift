// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import TouchTesting

@Suite struct SlotTrackerTests {
    func run(_ script: EventScript, _ d: DeviceDescription = DeviceFixtures.touchscreen(), finish: Bool = true) -> TouchReplay {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: d)
        r.feed(script, from: DeviceID(0))
        if finish { r.finish() }
        return r
    }

    @Test func implicitSlotZeroBeginsMovesEnds() {
        var s = EventScript()
        s.frame { $0.trackingID(5); $0.position(0, 0) }
        s.frame { $0.position(4095, 4095) }
        s.frame { $0.trackingID(-1) }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.touches.map(\.phase) == [.began, .moved, .ended])
        #expect(Set(r.touches.map(\.id)) == [TouchID(1)])
        let moved = r.touches[1]
        #expect(moved.location == Point(x: 1920, y: 1080))
        #expect(moved.previousLocation == .zero)
        #expect(abs(moved.locationMM.x - 204.75) < 1e-9)
        #expect(r.touches[0].type == .direct)
    }

    @Test func unchangedValuesAreNotRepeatedAndSlotsKeepTheirValues() {
        var s = EventScript()
        s.frame { $0.slot(0); $0.trackingID(1); $0.position(100, 100); $0.slot(1); $0.trackingID(2); $0.position(2000, 2000) }
        s.frame { $0.slot(0); $0.abs(EventCode.absMTPositionX, 200) }
        s.frame { $0.slot(1); $0.trackingID(-1) }
        s.frame { $0.slot(1); $0.trackingID(3) }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.frames[1].touches.count == 1)
        #expect(r.frames[1].touches[0].id == TouchID(1))
        // Slot 1's new contact reuses the slot's last position: nothing was resent.
        let began = r.frames[3].touches[0]
        #expect(began.phase == .began && began.id == TouchID(3))
        #expect(began.location == r.frames[0].touches[1].location)
    }

    @Test func trackingIDChangeInOneFrameEndsOldAndBeginsNew() {
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.position(100, 100) }
        s.frame { $0.trackingID(2); $0.position(300, 300) }
        s.frame { $0.trackingID(-1); $0.trackingID(3) }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.frames[1].touches.map(\.phase) == [.ended, .began])
        #expect(r.frames[1].touches.map(\.id) == [TouchID(1), TouchID(2)])
        #expect(r.frames[2].touches.map(\.phase) == [.ended, .began])
    }

    @Test func palmCancelsAndStaysIgnoredUntilTrackingIDEnds() {
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.position(100, 100) }
        s.frame { $0.abs(EventCode.absMTToolType, EventCode.mtToolPalm) }
        s.frame { $0.abs(EventCode.absMTToolType, EventCode.mtToolFinger); $0.position(120, 120) }
        s.frame { $0.trackingID(-1) }
        s.frame { $0.trackingID(2); $0.position(50, 50) }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.touches.map(\.phase) == [.began, .cancelled, .began, .cancelled])
        #expect(r.touches[1].tool == .palm)
        #expect(r.touches[2].id == TouchID(2))
    }

    @Test func palmFromTheStartNeverBegins() {
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.abs(EventCode.absMTToolType, EventCode.mtToolPalm); $0.position(100, 100) }
        s.frame { $0.trackingID(-1) }
        #expect(run(s).touches.isEmpty)
    }

    @Test func penToolTypeMakesAStylusTouch() {
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.abs(EventCode.absMTToolType, EventCode.mtToolPen); $0.position(100, 100) }
        let t = run(s).touches[0]
        #expect(t.type == .stylus && t.tool == .pen)
    }

    @Test func pressureAndTouchSizeInUnits() {
        var s = EventScript()
        s.frame {
            $0.trackingID(1); $0.position(100, 100)
            $0.abs(EventCode.absMTPressure, 51); $0.abs(EventCode.absMTTouchMajor, 40); $0.abs(EventCode.absMTTouchMinor, 20)
        }
        let t = run(s).touches[0]
        #expect(t.force == 0.2)
        #expect(t.majorRadius == 1.0)  // 40 units / 20 units per mm / 2
        #expect(t.minorRadius == 0.5)
    }

    @Test func distanceMakesAFingerHover() {
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.position(100, 100); $0.abs(EventCode.absMTDistance, 1) }
        s.frame { $0.abs(EventCode.absMTDistance, 0) }
        s.frame { $0.abs(EventCode.absMTDistance, 1) }
        s.frame { $0.trackingID(-1) }
        let r = run(s, DeviceFixtures.touchscreen(distance: true))
        #expect(r.checker.violations == [])
        #expect(r.touches.map(\.phase) == [.hover, .hover, .began, .ended, .hover, .hover])
        #expect(r.touches.map(\.id.rawValue) == [1, 1, 2, 2, 3, 3])
        #expect(r.touches[0].distance == 1)
    }

    @Test func legacyAxesAreIgnoredOnMultitouchDevices() {
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.position(100, 100); $0.point(100, 100) }
        s.frame { $0.point(3000, 3000) }
        let r = run(s, finish: false)
        #expect(r.frames.count == 1)
    }

    @Test func eventsBeyondTheDeclaredSlotsAreIgnored() {
        var s = EventScript()
        s.frame { $0.slot(12); $0.trackingID(1); $0.position(1, 1) }
        #expect(run(s, DeviceFixtures.touchscreen(slots: 10)).touches.isEmpty)
    }
}
