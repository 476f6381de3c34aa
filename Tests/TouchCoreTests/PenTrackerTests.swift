// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import TouchTesting

@Suite struct PenTrackerTests {
    func run(_ s: EventScript, _ d: DeviceDescription = DeviceFixtures.penTablet()) -> TouchReplay {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: d)
        r.feed(s, from: DeviceID(0))
        r.finish()
        return r
    }

    @Test func hoverContactHoverWithFreshIds() {
        var s = EventScript()
        s.frame { $0.point(1000, 1000); $0.abs(EventCode.absDistance, 30); $0.key(EventCode.btnToolPen, 1); $0.serial(-1719661677) }
        s.frame { $0.point(1100, 1000) }
        s.frame { $0.key(EventCode.btnTouch, 1); $0.abs(EventCode.absPressure, 1024) }
        s.frame { $0.point(1200, 1000); $0.abs(EventCode.absPressure, 2047) }
        s.frame { $0.key(EventCode.btnTouch, 0); $0.abs(EventCode.absPressure, 0) }
        s.frame { $0.point(0, 0); $0.key(EventCode.btnToolPen, 0) }  // Wacom zeroes X/Y on leaving
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.touches.map(\.phase) == [.hover, .hover, .hover, .began, .moved, .ended, .hover, .hover])
        #expect(r.touches.map(\.id.rawValue) == [1, 1, 1, 2, 2, 2, 3, 3])
        #expect(r.touches.map(\.inProximity) == [true, true, false, true, true, true, true, false])
        #expect(r.touches.allSatisfy { $0.type == .stylus && $0.tool == .pen })
        #expect(r.touches[0].serial == UInt32(bitPattern: -1719661677))
        #expect(r.touches[3].force == 1024.0 / 2047)
        #expect(r.touches[4].force == 1)
        #expect(r.touches.last!.location == r.touches[6].location)
        #expect(r.touches.last!.location.x > 0)
    }

    @Test func eraserIsItsOwnToolAndToolSwitchEndsTheSpan() {
        var s = EventScript()
        s.frame { $0.point(1000, 1000); $0.key(EventCode.btnToolPen, 1) }
        s.frame { $0.key(EventCode.btnToolPen, 0); $0.key(EventCode.btnToolRubber, 1) }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.touches.map(\.tool) == [.pen, .pen, .eraser, .eraser])
        #expect(r.touches.map(\.id.rawValue) == [1, 1, 2, 2])
    }

    @Test func barrelButtons() {
        var s = EventScript()
        s.frame { $0.point(1000, 1000); $0.key(EventCode.btnToolPen, 1) }
        s.frame { $0.key(EventCode.btnStylus, 1) }
        s.frame { $0.key(EventCode.btnStylus2, 1); $0.key(EventCode.btnStylus, 0) }
        let r = run(s)
        #expect(r.touches.prefix(3).map(\.buttons) == [[], .stylus, .stylus2])
    }

    @Test func penAlreadyInProximityWithoutToolEvent() {
        var s = EventScript()
        s.frame { $0.point(1000, 1000) }
        s.frame { $0.key(EventCode.btnTouch, 1) }
        s.frame { $0.key(EventCode.btnTouch, 0) }
        let r = run(s)
        #expect(r.checker.violations == [])
        #expect(r.touches.map(\.phase) == [.hover, .hover, .began, .ended, .hover, .hover])
    }

    @Test func perpendicularAndTiltedPens() {
        var s = EventScript()
        s.frame { $0.point(1000, 1000); $0.abs(EventCode.absTiltX, 0); $0.abs(EventCode.absTiltY, 0); $0.key(EventCode.btnToolPen, 1) }
        s.frame { $0.abs(EventCode.absTiltX, 57) }  // 1 radian towards +x
        let r = run(s)
        #expect(r.touches[0].altitude == Double.pi / 2)
        #expect(abs(r.touches[1].altitude! - (Double.pi / 2 - 1)) < 1e-12)
        #expect(r.touches[1].azimuth == 0)
    }
}
