// SPDX-License-Identifier: MIT
import Testing
import Trace
import TouchCore
import TouchTesting

/// Real recordings from Tests/Fixtures/real through the pipeline. What each
/// file contains was checked by reading its events (noted per test).
@Suite struct RealRecordingTests {
    static let dir = "evemu-devices/"

    func replay(_ file: String) throws -> TouchReplay {
        let r = TouchReplay.run(try RealFixtures.read(Self.dir + file))
        #expect(r.checker.violations == [], "\(file)")
        return r
    }

    /// Four slots get tracking ids in the first frames, all four move to larger
    /// ABS_MT_POSITION_Y values, then lift.
    @Test func atmelFourFingerDragDown() throws {
        let r = try replay("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        #expect(r.maxConcurrentContacts == 4)
        let began = r.touches(.began), ended = r.touches(.ended)
        #expect(began.count == 4 && ended.count == 4)
        for b in began {
            let e = try #require(ended.first { $0.id == b.id })
            #expect(e.location.y - b.location.y > 100, "touch \(b.id) moves down")
            #expect(abs(e.location.x - b.location.x) < (e.location.y - b.location.y) / 2)
        }
        #expect(began.allSatisfy { $0.type == .direct })
    }

    /// Protocol A, no tracking ids: one contact per frame from (205,183) towards larger x and y.
    @Test func nTrigOneFingerDragNWSE() throws {
        let r = try replay("touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events")
        let ids = Set(r.touches.filter { $0.phase != .hover }.map(\.id))
        #expect(ids.count == 1)
        let first = try #require(r.touches.first), last = try #require(r.touches.last)
        #expect(last.phase == .ended)
        #expect(last.location.x > first.location.x + 100 && last.location.y > first.location.y + 100)
    }

    /// Protocol A: two contacts per frame for most of the recording.
    @Test func nTrigTwoFingers() throws {
        let r = try replay("touchscreens/N-Trig MultiTouch.2-fingers-touch-release.events")
        #expect(r.maxConcurrentContacts == 2)
        #expect(r.touches(.began).count == 2)
    }

    /// Semi-MT 2-slot Cypress: slots 0 and 1 plus BTN_TOOL_TRIPLETAP, then all lift.
    @Test func cypressThreeFingerTap() throws {
        let r = try replay("touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events")
        #expect(r.maxConcurrentContacts == 3)
        #expect(r.touches(.began).filter(\.isSynthetic).count == 1)
        #expect(r.touches(.ended).count == 3)
        #expect(r.touches.allSatisfy { $0.type == .indirect })
    }

    /// BTN_TOOL_PEN 1 ... 0 and no BTN_TOUCH: hover only.
    @Test func intuos4StylusMove() throws {
        let r = try replay("tablets/Wacom Intuos4 6x9.stylus-move.events")
        #expect(r.touches.allSatisfy { $0.phase == .hover && $0.type == .stylus && $0.tool == .pen })
        #expect(r.checker.hoverSpanCount == 1)
        #expect(r.touches.last?.inProximity == false)
        #expect(r.touches.contains { $0.altitude != nil && $0.azimuth != nil && $0.distance != nil })
        // Every frame carries MSC_SERIAL -1719661677.
        #expect(r.touches.allSatisfy { $0.serial == UInt32(bitPattern: Int32(-1719661677)) })
    }

    /// BTN_TOUCH 1 at .485333, 0 at .753331 (0.27 s): one short contact between two hover spans.
    @Test func intuos4StylusTap() throws {
        let r = try replay("tablets/Wacom Intuos4 6x9.stylus-tap.events")
        let began = try #require(r.touches(.began).first), ended = try #require(r.touches(.ended).first)
        #expect(r.touches(.began).count == 1)
        #expect(ended.time.milliseconds(since: began.time) < 300)
        #expect(r.checker.hoverSpanCount == 2)
    }

    /// BTN_TOUCH 1 at 81.789, 0 at 83.265 (1.5 s) while Y grows from ~5400 to ~23000, with ABS_PRESSURE.
    @Test func intuos4StylusDrag() throws {
        let r = try replay("tablets/Wacom Intuos4 6x9.stylus-drag.events")
        let began = try #require(r.touches(.began).first), ended = try #require(r.touches(.ended).first)
        #expect(ended.time.milliseconds(since: began.time) > 1000)
        #expect(ended.location.y > began.location.y + 300)
        let forces = r.touches.filter { $0.phase == .moved }.compactMap(\.force)
        #expect(forces.contains { $0 > 0.1 })
        #expect(forces.allSatisfy { (0...1).contains($0) })
    }

    /// No BTN_TOOL_* at all: the pen is in proximity from the first ABS_X; BTN_TOUCH 1 then 0.
    @Test func ucLogicPenWithoutProximityEvent() throws {
        let r = try replay("tablets/UC-LOGIC Tablet WP5540U Pen.events")
        #expect(r.touches.first?.phase == .hover)
        #expect(r.touches(.began).count == 1 && r.touches(.ended).count == 1)
        #expect(r.touches.allSatisfy { $0.type == .stylus })
    }

    /// Only BTN_TOUCH + ABS_Z/ABS_RX: a single-touch screen, not a pen.
    @Test func eGalaxTouchControllerIsATouchscreen() throws {
        let r = try replay("tablets/eGalax Inc. USB TouchController.events")
        #expect(r.touches(.began).count == 2)
        #expect(r.touches.allSatisfy { $0.type == .direct })
        #expect(r.touches.contains { $0.phase == .moved && $0.location != $0.previousLocation })
    }

    /// One finger up and down; the recording uses ABS_MT_TOOL_X/Y and ABS_MT_ORIENTATION codes it never declared.
    @Test func elanCandoRuns() throws {
        let r = try replay("touchscreens/ELAN CANDO Windows7.1-finger-drag-up-down.events")
        #expect(r.touches(.began).count >= 1)
        #expect(r.maxConcurrentContacts == 1)
    }

    /// Every recording in the fixtures satisfies the invariants, and nothing stays active after finish.
    @Test func allRecordingsKeepTheInvariants() throws {
        var traced = 0
        for f in RealFixtures.files(["events", "event", "evemu", "yml"]) {
            guard let rec = try? RealFixtures.read(f) else { continue }
            let r = TouchReplay.run(rec)
            #expect(r.checker.violations == [], "\(f)")
            #expect(r.pipeline.activeTouchCount == 0, "\(f)")
            traced += 1
        }
        #expect(traced >= 50)
    }
}
