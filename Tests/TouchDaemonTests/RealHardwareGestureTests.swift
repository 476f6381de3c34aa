// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Quirks
import Session
import Testing
import TouchCore
import TouchTesting
import Trace

/// Strokes scripted on real device descriptions (Tests/Fixtures/real), in
/// fractions of each device's axis ranges so the same stroke fits any device.
enum ScriptedStroke {
    static func description(_ relative: String) throws -> DeviceDescription {
        try #require(try TraceReader.read(path: RealFixtures.root + "/real/" + relative).devices.first).description
    }

    /// A position in device units, `fx`/`fy` being 0...1 of the axis range.
    static func units(_ d: DeviceDescription, _ fx: Double, _ fy: Double, mt: Bool) -> (Int32, Int32) {
        let xa = d.absInfo[mt ? EventCode.absMTPositionX : EventCode.absX]!
        let ya = d.absInfo[mt ? EventCode.absMTPositionY : EventCode.absY]!
        return (Int32(Double(xa.minimum) + fx * xa.span), Int32(Double(ya.minimum) + fy * ya.span))
    }

    /// Finger-count key for `n` fingers (touchpads announce it).
    static func toolKey(_ n: Int) -> UInt16 {
        let codes: [UInt16] = [EventCode.btnToolFinger, 0x14d, 0x14e, 0x14f, 0x148]
        return codes[max(0, min(n, 5) - 1)]
    }

    /// `fingers` touch down at their start points, rest `restMS` (jittering by 0.2% of the range,
    /// as resting fingers do), then follow `path(progress)` (an offset in fractions of the range)
    /// for `moveMS`, and lift. Protocol B with slots, BTN_TOUCH and the finger-count keys when declared.
    static func slotted(_ d: DeviceDescription, fingers: [(Double, Double)], restMS: Double, moveMS: Double,
                        path: (Double) -> (Double, Double)) -> Recording {
        var s = EventScript(frameInterval: 10)
        let touchpadKeys = d.supports(.key, EventCode.btnToolFinger)
        func frame(_ offset: (Double, Double), first: Bool) {
            s.frame { e in
                for (i, f) in fingers.enumerated() {
                    e.slot(Int32(i))
                    if first { e.trackingID(Int32(100 + i)) }
                    let p = units(d, f.0 + offset.0, f.1 + offset.1, mt: true)
                    e.position(p.0, p.1)
                }
                if first {
                    e.key(EventCode.btnTouch, 1)
                    if touchpadKeys { e.key(toolKey(fingers.count), 1) }
                }
            }
        }
        frame((0, 0), first: true)
        var t = 10.0
        var k = 0
        while t < restMS {
            let j = k % 2 == 0 ? 0.002 : -0.002
            frame((j, -j), first: false)
            t += 10; k += 1
        }
        var m = 0.0
        while m < moveMS {
            m += 10
            frame(path(min(1, m / moveMS)), first: false)
        }
        s.frame { e in
            for i in fingers.indices { e.slot(Int32(i)); e.trackingID(-1) }
            e.key(EventCode.btnTouch, 0)
            if touchpadKeys { e.key(toolKey(fingers.count), 0) }
        }
        return recording(d, s.events)
    }

    static func recording(_ d: DeviceDescription, _ events: [InputEvent]) -> Recording {
        Recording(devices: [RecordedDevice(description: d)],
                  events: events.map { RecordedEvent(device: DeviceID(rawValue: 0), event: $0) }, format: .native)
    }

    /// A circle of radius `r` (fraction of the x range; round in device units, as the
    /// fallback size and most resolutions are square) starting at its top, going clockwise.
    static func circle(_ d: DeviceDescription, _ r: Double) -> (Double) -> (Double, Double) {
        let xa = d.absInfo[EventCode.absMTPositionX]!, ya = d.absInfo[EventCode.absMTPositionY]!
        let ry = r * xa.span / ya.span
        return { p in
            let a = 2 * Double.pi * p
            return (r * sin(a), ry * (1 - cos(a)))
        }
    }
}

/// Issue 31: gestures on touchpads, protocol-A touchpads and curved strokes,
/// on the real recordings and on strokes scripted from real device descriptions.
@Suite struct RealHardwareGestureTests {
    static let touchpads = [
        "libinput-litest-devices/bcm5974.desc",                 // no resolution, 9648 units wide
        "libinput-litest-devices/synaptics-t440.desc",          // with resolution
        "libinput-litest-devices/wacom-intuos5-finger.desc",    // a Wacom touch tablet (indirect)
    ]

    /// Fingers that rest half a second and more before a two-finger scroll, a
    /// two-finger swipe and a one-finger circle on touchpads: always a pan,
    /// never a long press, whatever the device's resolution (or its fallback).
    @Test func touchpadRestThenMoveIsAPanNotALongPress() throws {
        for file in Self.touchpads {
            let d = try ScriptedStroke.description(file)
            #expect(DeviceClassification(d).fingerType == .indirect, "\(file)")
            let strokes: [(String, Recording)] = [
                ("two-finger scroll", ScriptedStroke.slotted(d, fingers: [(0.4, 0.3), (0.55, 0.3)], restMS: 600, moveMS: 500) { p in (0, 0.4 * p) }),
                ("two-finger swipe", ScriptedStroke.slotted(d, fingers: [(0.2, 0.1), (0.3, 0.1)], restMS: 550, moveMS: 250) { p in (0.5 * p, 0) }),
                ("one-finger circle", ScriptedStroke.slotted(d, fingers: [(0.5, 0.3)], restMS: 600, moveMS: 1000, path: ScriptedStroke.circle(d, 0.15))),
            ]
            for (name, r) in strokes {
                let g = gestures(r)
                #expect(!g.contains { $0.recognizer == "long-press" }, "\(file) \(name): \(g.map(\.description).prefix(4))")
                #expect(g.contains { $0.description.hasPrefix("pan:began") }, "\(file) \(name): \(g.map(\.description).prefix(4))")
            }
        }
    }

    /// The same rest-then-move on touchscreens stays as specified: the hold
    /// is a long press (which then follows the movement) on two panels.
    @Test func touchscreenRestThenMoveStaysALongPress() throws {
        for file in ["libinput-litest-devices/nexus4-touch-screen.desc", "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc"] {
            let d = try ScriptedStroke.description(file)
            #expect(DeviceClassification(d).fingerType == .direct, "\(file)")
            let r = ScriptedStroke.slotted(d, fingers: [(0.5, 0.3)], restMS: 600, moveMS: 500) { p in (0, 0.3 * p) }
            let g = gestures(r)
            #expect(g.first?.description == "long-press:began(1)", "\(file): \(g.map(\.description).prefix(4))")
            #expect(!g.contains { $0.recognizer == "pan" }, "\(file)")
        }
    }

    /// A two-finger and a one-finger circle on touchscreens are not swipes
    /// (their pan is still seen); straight two-finger strokes still are.
    @Test func curvedStrokesAreNotSwipes() throws {
        for file in ["libinput-litest-devices/nexus4-touch-screen.desc", "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc"] {
            let d = try ScriptedStroke.description(file)
            for fingers in [[(0.45, 0.3)], [(0.4, 0.3), (0.5, 0.3)]] {
                for radius in [0.05, 0.1] {
                    let r = ScriptedStroke.slotted(d, fingers: fingers, restMS: 0, moveMS: 600, path: ScriptedStroke.circle(d, radius))
                    let g = gestures(r)
                    #expect(!g.contains { $0.recognizer == "swipe" }, "\(file) \(fingers.count) fingers r \(radius): \(g.filter { $0.recognizer == "swipe" })")
                    #expect(g.contains { $0.recognizer == "pan" }, "\(file)")
                }
                let straight = ScriptedStroke.slotted(d, fingers: fingers, restMS: 0, moveMS: 200) { p in (0, 0.4 * p) }
                let swipes = gestures(straight).filter { $0.recognizer == "swipe" }
                #expect(swipes.count == 1 && swipes.first?.event.direction == .down, "\(file) \(fingers.count) fingers: \(swipes)")
            }
        }
    }

    /// Real one-finger drags that go up and come back down (ELAN CANDO, EP0430M09):
    /// the turn is a curve, not a swipe (the chord still points the first way while
    /// the finger goes back, fast); the pan is unchanged.
    @Test func realUpDownDragsAreNotSwipes() throws {
        for f in ["touchscreens/ELAN CANDO Windows7.1-finger-drag-up-down.events", "touchscreens/EP0430M09.1-finger-drag-up-down.events"] {
            let g = gestures(try RealFixtures.recording(f))
            #expect(!g.contains { $0.recognizer == "swipe" }, "\(f): \(g.filter { $0.recognizer == "swipe" })")
            #expect(g.filter { $0.recognizer == "pan" && $0.state == .began }.count == 1, "\(f)")
        }
    }

    /// The real touchpad recordings replayed with the real quirks files (the Cypress
    /// pad gets `AttrPressureRange=10:8` and a palm threshold, the Elantech pads a
    /// resolution hint and the same range): their taps are still taps, and every
    /// recording keeps the touch and engine invariants.
    @Test func touchpadRecordingsWithQuirks() throws {
        var configuration = TouchdConfiguration()
        configuration.quirks = try QuirksLoader.load(directory: RealFixtures.root + "/real/libinput-quirks")
        let cypress = "touchpads/CyPS2 Cypress Trackpad."
        #expect(gestures(try RealFixtures.recording(cypress + "three_finger_tap.events"), configuration: configuration).map(\.description)
            == ["tap:recognized(3)"])
        #expect(gestures(try RealFixtures.recording(cypress + "two_finger_tap.events"), configuration: configuration).map(\.description)
            == ["tap:recognized(2)"])
        let root = RealFixtures.root + "/real/evemu-devices/touchpads/"
        var matched = 0
        for f in try FileManager.default.contentsOfDirectory(atPath: root).filter({ $0.hasSuffix(".events") }).sorted() {
            let r = try TraceReader.read(path: root + f)
            if !configuration.quirks.attributes(for: r.devices[0].description).entries.isEmpty { matched += 1 }
            var checker = EngineInvariantChecker()
            ReplaySession(recordings: [r], configuration: configuration).run { o in
                if case .engine(let e) = o { checker.check(e) }
            }
            #expect(checker.violations == [] && checker.activeGestures.isEmpty, "\(f)")
        }
        #expect(matched >= 5)
    }

    /// The touchpad recordings in the fixtures give no long press at all.
    @Test func touchpadRecordingsHaveNoLongPress() throws {
        let root = RealFixtures.root + "/real/"
        let files = try FileManager.default.subpathsOfDirectory(atPath: root + "evemu-devices/touchpads")
            .filter { $0.hasSuffix(".events") }.sorted()
        #expect(files.count >= 5)
        var panned = 0
        for f in files {
            let g = gestures(try TraceReader.read(path: root + "evemu-devices/touchpads/" + f))
            #expect(!g.contains { $0.recognizer == "long-press" }, "\(f)")
            if g.contains(where: { $0.recognizer == "pan" }) { panned += 1 }
        }
        #expect(panned >= 3)
    }
}

/// Protocol-A touchpads whose lifted fingers keep coming as zero-size blocks.
@Suite struct ProtocolALiftTests {
    /// bcm5974 as its old protocol-A driver declared it: the litest description without slots or tracking ids.
    static func protocolABcm5974() throws -> DeviceDescription {
        var d = try ScriptedStroke.description("libinput-litest-devices/bcm5974.desc")
        d.codes[.abs]?.remove(EventCode.absMTSlot)
        d.codes[.abs]?.remove(EventCode.absMTTrackingID)
        d.absInfo[EventCode.absMTSlot] = nil
        d.absInfo[EventCode.absMTTrackingID] = nil
        return d
    }

    /// Taps of 1, 2, 3 and 4 fingers; after each lift the device keeps sending
    /// its fingers for 300 ms as blocks with ABS_MT_TOUCH_MAJOR 0 (and pressure 0
    /// when `pressure`), BTN_TOUCH 0 and the finger-count key released.
    static func tapsWithGhostBlocks(_ d: DeviceDescription, pressure: Bool) -> Recording {
        var s = EventScript(frameInterval: 10)
        func block(_ e: inout EventScript, _ i: Int, major: Int32) {
            let p = ScriptedStroke.units(d, 0.2 + 0.15 * Double(i), 0.4, mt: true)
            e.position(p.0, p.1)
            e.abs(EventCode.absMTTouchMajor, major)
            if pressure { e.abs(EventCode.absMTPressure, major > 0 ? 40 : 0) }
            e.mtReport()
        }
        for n in 1...4 {
            for k in 0..<10 {
                s.frame { e in
                    for i in 0..<n { block(&e, i, major: 300) }
                    if k == 0 {
                        e.key(EventCode.btnTouch, 1)
                        e.key(ScriptedStroke.toolKey(n), 1)
                    }
                }
            }
            for k in 0..<30 {
                s.frame { e in
                    for i in 0..<n { block(&e, i, major: 0) }
                    if k == 0 {
                        e.key(EventCode.btnTouch, 0)
                        e.key(ScriptedStroke.toolKey(n), 0)
                    }
                }
            }
            s.frame { e in e.mtReport() }
            s.time = s.time.adding(milliseconds: 500)
        }
        return ScriptedStroke.recording(d, s.events)
    }

    static func touches(_ r: Recording) -> [Touch] {
        var pipeline = TouchPipeline()
        for (i, dev) in r.devices.enumerated() { _ = pipeline.addDevice(DeviceID(rawValue: UInt32(i)), description: dev.description) }
        var out: [Touch] = []
        for e in r.events { out += pipeline.process(e.event, from: e.device)?.touches ?? [] }
        return out
    }

    /// Each tap is its own touches (1+2+3+4 of them), each ends within one frame
    /// of BTN_TOUCH 0, and the taps are taps, the four-finger one included:
    /// on bcm5974 (size only) and on the N-Trig protocol-A panel (size and pressure).
    @Test func liftedFingersEndAtTheLift() throws {
        let devices: [(String, DeviceDescription, Bool)] = [
            ("bcm5974 protocol A", try Self.protocolABcm5974(), false),
            ("N-Trig MultiTouch", try ScriptedStroke.description("evemu-devices/touchscreens/N-Trig MultiTouch.desc"), true),
        ]
        for (name, d, pressure) in devices {
            #expect(DeviceClassification(d).contactProtocol == .anonymous, "\(name)")
            let r = Self.tapsWithGhostBlocks(d, pressure: pressure)
            let t = Self.touches(r)
            let began = t.filter { $0.phase == .began }
            #expect(began.count == 10, "\(name): \(began.count) touches")
            for touch in t where touch.phase == .ended {
                let start = try #require(began.first { $0.id == touch.id })
                #expect(touch.time.milliseconds(since: start.time) <= 110, "\(name): touch \(touch.id) lasted too long")
            }
            let taps = gestures(r).filter { $0.recognizer == "tap" || $0.recognizer == "double-tap" }
            #expect(taps.map(\.touches).contains(4), "\(name): \(taps.map(\.description))")
        }
    }

    /// appletouch (single touch, the other old Apple driver): after BTN_TOUCH 0 it
    /// keeps reporting positions with pressure 0; the touch ends at BTN_TOUCH 0 and
    /// nothing begins again until BTN_TOUCH 1. Four separate taps are four touches.
    @Test func appletouchEndsAtTheLift() throws {
        let d = try ScriptedStroke.description("libinput-litest-devices/apple-appletouch.desc")
        var s = EventScript(frameInterval: 10)
        for n in 0..<4 {
            let p = ScriptedStroke.units(d, 0.2 + 0.15 * Double(n), 0.5, mt: false)
            for k in 0..<8 {
                s.frame { e in
                    if k == 0 { e.key(EventCode.btnTouch, 1); e.key(EventCode.btnToolFinger, 1) }
                    e.point(p.0, p.1 + Int32(k)); e.abs(EventCode.absPressure, 60)
                }
            }
            for k in 0..<20 {
                s.frame { e in
                    if k == 0 { e.key(EventCode.btnTouch, 0); e.key(EventCode.btnToolFinger, 0) }
                    e.point(p.0, p.1 + 8 + Int32(k)); e.abs(EventCode.absPressure, 0)
                }
            }
            s.time = s.time.adding(milliseconds: 500)
        }
        let t = Self.touches(ScriptedStroke.recording(d, s.events))
        #expect(t.filter { $0.phase == .began }.count == 4)
        #expect(t.filter { $0.phase == .ended }.count == 4)
        #expect(t.filter { $0.phase == .moved }.count == 4 * 7)
    }
}
