// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import TouchTesting

@Suite struct TouchPipelineTests {
    @Test func idsAreUniqueAcrossDevicesInOrderOfAppearance() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen())
        r.pipeline.addDevice(DeviceID(1), description: DeviceFixtures.touchscreen())
        var a = EventScript(), b = EventScript(start: Timestamp(microseconds: 1_005_000))
        a.frame { $0.trackingID(1); $0.position(10, 10) }
        b.frame { $0.trackingID(1); $0.position(10, 10) }
        r.feed(a, from: DeviceID(0))
        r.feed(b, from: DeviceID(1))
        #expect(r.pipeline.activeTouchCount == 2)
        r.finish()
        #expect(r.checker.violations == [])
        #expect(r.touches(.began).map(\.id) == [TouchID(1), TouchID(2)])
        #expect(r.touches(.cancelled).map(\.device) == [DeviceID(0), DeviceID(1)])
        #expect(r.pipeline.activeTouchCount == 0)
    }

    @Test func resetForgetsDevicesAndScreensButKeepsCountingIDs() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen())
        var a = EventScript()
        a.frame { $0.trackingID(1); $0.position(10, 10) }
        r.feed(a, from: DeviceID(0))
        r.finish()
        r.pipeline.reset(screens: [ScreenConfiguration(width: 800, height: 480)])
        #expect(r.pipeline.devices.isEmpty && r.pipeline.activeTouchCount == 0)
        #expect(r.pipeline.screens.map(\.width) == [800])
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen())
        var b = EventScript(start: Timestamp(microseconds: 2_000_000))
        b.frame { $0.trackingID(5); $0.position(10, 10) }
        r.feed(b, from: DeviceID(0))
        r.finish()
        #expect(r.touches(.began).map(\.id) == [TouchID(1), TouchID(2)])
        #expect(r.checker.violations == [])
    }

    /// Issue 9, faults: a device reporting absurd absinfo. Each case breaks one
    /// assumption; the pipeline must give finite positions and sizes, legal
    /// touch sequences, and no crash.
    @Test(arguments: ["max < min", "resolution 0", "zero range", "0 slots", "negative resolution", "huge range"])
    func absurdAbsinfoGivesFiniteTouches(_ fault: String) throws {
        var d = DeviceFixtures.touchscreen()
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            switch fault {
            case "max < min": d.absInfo[code] = AbsInfo(minimum: 4095, maximum: 0, resolution: 20)
            case "resolution 0": d.absInfo[code] = AbsInfo(minimum: 0, maximum: 4095, resolution: 0)
            case "zero range": d.absInfo[code] = AbsInfo(minimum: 100, maximum: 100, resolution: 20)
            case "negative resolution": d.absInfo[code] = AbsInfo(minimum: 0, maximum: 4095, resolution: -5)
            case "huge range": d.absInfo[code] = AbsInfo(minimum: Int32.min, maximum: Int32.max, resolution: 1)
            default: break
            }
        }
        if fault == "0 slots" { d.absInfo[EventCode.absMTSlot] = AbsInfo(minimum: 0, maximum: -1) }
        var r = TouchReplay()
        let info = r.pipeline.addDevice(DeviceID(0), description: d)
        #expect(info.geometry.width.isFinite && info.geometry.width >= 0, "\(info.geometry)")
        #expect(info.geometry.height.isFinite && info.geometry.height >= 0, "\(info.geometry)")
        // Axes without a range: not usable, and said so (the daemon ignores it with this reason).
        let unusable = fault == "max < min" || fault == "zero range"
        #expect(info.classification.isTouchDevice == !unusable)
        if unusable {
            #expect(info.classification.unusableReason ==
                    (fault == "max < min"
                     ? "ABS_MT_POSITION_X has no usable range (minimum 4095, maximum 0), ABS_MT_POSITION_Y has no usable range (minimum 4095, maximum 0), ABS_X has no usable range (minimum 4095, maximum 0), ABS_Y has no usable range (minimum 4095, maximum 0): no touches can come from it"
                     : "ABS_MT_POSITION_X has no usable range (minimum 100, maximum 100), ABS_MT_POSITION_Y has no usable range (minimum 100, maximum 100), ABS_X has no usable range (minimum 100, maximum 100), ABS_Y has no usable range (minimum 100, maximum 100): no touches can come from it"))
        } else {
            #expect(info.geometry.width > 0 && info.geometry.height > 0, "\(info.geometry)")
        }
        var s = EventScript()
        s.frame { $0.slot(0); $0.trackingID(1); $0.position(10, 10); $0.slot(1); $0.trackingID(2); $0.position(5000, -20) }
        s.frame { $0.slot(0); $0.position(Int32.max, Int32.min); $0.slot(1); $0.position(100, 100) }
        s.frame { $0.slot(0); $0.trackingID(-1); $0.slot(1); $0.trackingID(-1) }
        r.feed(s, from: DeviceID(0))
        r.finish()
        #expect(r.checker.violations == [])
        #expect(r.touches(.began).isEmpty == unusable)
        for t in r.frames.flatMap(\.touches) {
            #expect(t.location.x.isFinite && t.location.y.isFinite, "\(fault): \(t.location)")
            #expect(t.locationMM.x.isFinite && t.locationMM.y.isFinite, "\(fault): \(t.locationMM)")
        }
    }

    @Test func unknownDevicesAreCounted() {
        var p = TouchPipeline()
        #expect(p.process(InputEvent(time: .zero, type: .syn, code: 0, value: 0), from: DeviceID(9)) == nil)
        #expect(p.unknownDeviceEvents == 1)
    }

    /// Feeding a read's events in one call (as the daemon does) gives the
    /// frames event-by-event feeding gives, on a real recording with touches
    /// beginning, moving and lifting; events after the last frame are fed too.
    @Test func aReadFedAtOnceGivesTheFramesOfEventByEventFeeding() throws {
        let recording = try RealFixtures.read("evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let description = try #require(recording.devices.first).description
        let events = recording.events.map(\.event)
        var one = TouchPipeline(), all = TouchPipeline()
        one.addDevice(DeviceID(1), description: description)
        all.addDevice(DeviceID(1), description: description)
        var expected: [TouchFrame] = []
        for e in events { if let f = one.process(e, from: DeviceID(1)) { expected.append(f) } }
        // Reads of 7 events: frames end anywhere in a read, or not in it.
        var frames: [TouchFrame] = []
        var start = 0
        while start < events.count {
            let read = Array(events[start..<min(start + 7, events.count)])
            start += read.count
            var next = 0
            while next < read.count {
                let (frame, after) = all.process(read, startingAt: next, from: DeviceID(1))
                #expect(after > next)
                next = after
                if let frame { frames.append(frame) }
            }
        }
        #expect(frames.count > 20)
        #expect(frames == expected)
        #expect(all.activeTouchCount == one.activeTouchCount)
    }

    @Test func aReadOfAnUnknownDeviceIsCountedWhole() {
        var p = TouchPipeline()
        let read = [InputEvent(time: .zero, type: .abs, code: EventCode.absX, value: 3), InputEvent(time: .zero, type: .syn, code: 0, value: 0)]
        let (frame, next) = p.process(read, startingAt: 0, from: DeviceID(9))
        #expect(frame == nil && next == 2)
        #expect(p.unknownDeviceEvents == 2)
        // Nothing left to feed: nothing counted again.
        let again = p.process(read, startingAt: 2, from: DeviceID(9))
        #expect(again.frame == nil && again.next == 2)
        #expect(p.unknownDeviceEvents == 2)
    }

    @Test func framesWithoutChangesReturnNil() {
        var p = TouchPipeline()
        p.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen())
        #expect(p.process(InputEvent(time: .zero, type: .syn, code: 0, value: 0), from: DeviceID(0)) == nil)
    }

    @Test func removingADeviceCancelsItsTouches() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(3), description: DeviceFixtures.touchscreen())
        var s = EventScript()
        s.frame { $0.slot(0); $0.trackingID(1); $0.position(10, 10); $0.slot(1); $0.trackingID(2); $0.position(90, 90) }
        r.feed(s, from: DeviceID(3))
        r.record(r.pipeline.removeDevice(DeviceID(3), at: s.time))
        #expect(r.frames.last!.touches.map(\.phase) == [.cancelled, .cancelled])
        #expect(r.pipeline.devices.isEmpty)
        r.finish()
        #expect(r.checker.violations == [])
    }

    @Test func devicesWithLargeIdsAndRemovalInTheMiddleKeepTheirRouting() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen())
        r.pipeline.addDevice(DeviceID(70_000), description: DeviceFixtures.touchscreen())
        r.pipeline.addDevice(DeviceID(2), description: DeviceFixtures.touchscreen())
        // Replacing a device keeps its place in the order.
        r.pipeline.addDevice(DeviceID(70_000), description: DeviceFixtures.touchscreen(slots: 3))
        #expect(r.pipeline.devices.map(\.id) == [DeviceID(0), DeviceID(70_000), DeviceID(2)])
        _ = r.pipeline.removeDevice(DeviceID(0), at: .zero)
        #expect(r.pipeline.devices.map(\.id) == [DeviceID(70_000), DeviceID(2)])
        #expect(r.pipeline.device(DeviceID(0)) == nil)
        #expect(r.pipeline.device(DeviceID(70_000))?.classification.contactProtocol == .slotted(slots: 3))
        var a = EventScript(), b = EventScript(start: Timestamp(microseconds: 1_005_000))
        a.frame { $0.trackingID(1); $0.position(10, 10) }
        b.frame { $0.trackingID(1); $0.position(10, 10) }
        r.feed(a, from: DeviceID(2))
        r.feed(b, from: DeviceID(70_000))
        r.feed(a, from: DeviceID(0))
        #expect(r.pipeline.unknownDeviceEvents > 0)
        r.finish()
        #expect(r.checker.violations == [])
        #expect(r.touches(.began).map(\.device) == [DeviceID(2), DeviceID(70_000)])
        #expect(r.touches(.cancelled).map(\.device) == [DeviceID(70_000), DeviceID(2)])
    }

    @Test func finishEndsHoverWithInProximityFalse() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.penTablet())
        var s = EventScript()
        s.frame { $0.point(100, 100); $0.key(EventCode.btnToolPen, 1) }
        r.feed(s, from: DeviceID(0))
        r.finish(at: s.time)
        #expect(r.checker.violations == [])
        #expect(r.touches.last!.phase == .hover && r.touches.last!.inProximity == false)
    }

    @Test func resyncCancelsVanishedBeginsNewKeepsSame() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen(slots: 3))
        var s = EventScript()
        s.frame { $0.slot(0); $0.trackingID(10); $0.position(10, 10); $0.slot(1); $0.trackingID(11); $0.position(50, 50) }
        s.dropped()
        s.frame { $0.slot(1); $0.trackingID(-1) }  // discarded
        r.feed(s, from: DeviceID(0))
        r.record(r.pipeline.resync(device: DeviceID(0), slots: [
            SlotSnapshot(slot: 0, trackingID: 10, x: 20, y: 20),
            SlotSnapshot(slot: 2, trackingID: 12, x: 70, y: 70),
        ], at: s.time))
        let f = r.frames.last!
        #expect(f.touches.map(\.phase) == [.moved, .cancelled, .began])
        #expect(f.touches.map(\.id) == [TouchID(1), TouchID(2), TouchID(3)])
        r.finish()
        #expect(r.checker.violations == [])
    }

    @Test func resyncOfAPenUsesTheKeysHeld() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.penTablet())
        var s = EventScript()
        s.frame { $0.point(100, 100); $0.key(EventCode.btnToolPen, 1); $0.key(EventCode.btnTouch, 1) }
        r.feed(s, from: DeviceID(0))
        r.record(r.pipeline.resync(device: DeviceID(0), slots: [], keysDown: [EventCode.btnToolPen],
                                   absValues: [EventCode.absX: 200, EventCode.absY: 100], at: s.time))
        #expect(r.frames.last!.touches.map(\.phase) == [.cancelled, .hover])
        r.finish()
        #expect(r.checker.violations == [])
    }

    @Test func tripleTapOnTwoSlotsAddsASyntheticTouch() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.twoSlotTouchpad())
        var s = EventScript()
        s.frame {
            $0.slot(0); $0.trackingID(1); $0.position(400, 300); $0.slot(1); $0.trackingID(2); $0.position(800, 300)
            $0.key(EventCode.btnTouch, 1); $0.key(EventCode.btnToolTripleTap, 1)
        }
        s.frame { $0.slot(1); $0.position(810, 300) }
        s.frame { $0.slot(0); $0.trackingID(-1); $0.slot(1); $0.trackingID(-1); $0.key(EventCode.btnToolTripleTap, 0); $0.key(EventCode.btnTouch, 0) }
        r.feed(s, from: DeviceID(0))
        r.finish()
        #expect(r.checker.violations == [])
        #expect(r.maxConcurrentContacts == 3)
        let synthetic = r.touches.filter(\.isSynthetic)
        #expect(synthetic.map(\.phase) == [.began, .moved, .ended])
        #expect(synthetic[0].location == r.frames[0].touches[1].location)
        #expect(r.touches.allSatisfy { $0.type == .indirect })
    }

    @Test func singleTouchDevice() {
        var r = TouchReplay()
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.singleTouchScreen())
        var s = EventScript()
        s.frame { $0.point(0, 0); $0.key(EventCode.btnTouch, 1) }
        s.frame { $0.point(2047, 2047) }
        s.frame { $0.key(EventCode.btnTouch, 0) }
        r.feed(s, from: DeviceID(0))
        r.finish()
        #expect(r.checker.violations == [])
        #expect(r.touches.map(\.phase) == [.began, .moved, .ended])
        #expect(r.touches[1].location == Point(x: 1920, y: 1080))
        #expect(r.touches[0].type == .direct)
    }

    @Test func mappingToASecondRotatedScreen() {
        var r = TouchReplay(screens: [ScreenConfiguration(), ScreenConfiguration(name: "side", width: 800, height: 1280)])
        let info = r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen(),
                                        mapping: DeviceMapping(screen: 1, rotation: .quarter))
        #expect(info.screen.name == "side")
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.position(0, 0) }
        r.feed(s, from: DeviceID(0))
        let t = r.touches[0]
        #expect(t.screen == 1)
        #expect(t.location == Point(x: 800, y: 0))
        #expect(t.locationMM == .zero)
    }

    @Test("a geometry change keeps each touch down in the placement it began with; a hover span too; new ones take the new one")
    func geometryChangeKeepsTouchesDown() {
        var r = TouchReplay(screens: [ScreenConfiguration(name: "main", width: 1600, height: 1000)])
        r.pipeline.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen(distance: true))
        var s = EventScript()
        s.frame { $0.slot(0); $0.trackingID(1); $0.position(0, 0) }
        s.frame { $0.slot(1); $0.trackingID(2); $0.abs(EventCode.absMTDistance, 1); $0.position(4095, 0) }
        r.feed(s, from: DeviceID(0))
        let turned = ScreenConfiguration(name: "main", width: 1000, height: 1600, rotation: .quarter)
        let changed = r.pipeline.changeGeometry(screens: [turned], mappings: [:])
        #expect(changed.map(\.screen) == [turned])
        #expect(r.pipeline.activeTouchCount == 1)
        s = EventScript(start: s.time)
        s.frame { $0.slot(0); $0.position(0, 4095); $0.slot(1); $0.position(4095, 4095) }
        s.frame { $0.slot(2); $0.trackingID(3); $0.position(0, 4095) }
        s.frame { $0.slot(0); $0.trackingID(-1); $0.slot(1); $0.trackingID(-1); $0.slot(2); $0.trackingID(-1) }
        r.feed(s, from: DeviceID(0))
        r.finish()
        #expect(r.checker.violations == [])
        func path(_ id: UInt32) -> [Point] { r.frames.flatMap(\.touches).filter { $0.id == TouchID(rawValue: id) }.map(\.location) }
        // Unturned, 1600 x 1000: the device's bottom-left is (0, 1000), its bottom-right (1600, 1000).
        #expect(path(1) == [Point(x: 0, y: 0), Point(x: 0, y: 1000), Point(x: 0, y: 1000)])
        #expect(path(2).dropFirst().allSatisfy { $0 == Point(x: 1600, y: 1000) } && path(2).first == Point(x: 1600, y: 0))
        // Turned a quarter: the panel's bottom-left is the screen's bottom-right, (1000, 1600).
        #expect(path(3) == [Point(x: 1000, y: 1600), Point(x: 1000, y: 1600)])
    }

    @Test func steadyStateReusesTheFrameBuffer() {
        var p = TouchPipeline()
        p.addDevice(DeviceID(0), description: DeviceFixtures.touchscreen())
        var s = EventScript()
        s.frame { $0.trackingID(1); $0.position(0, 0) }
        for i in 1...50 { s.frame { $0.abs(EventCode.absMTPositionX, Int32(i)) } }
        var counts: [Int] = []
        for e in s.events { if let f = p.process(e, from: DeviceID(0)) { counts.append(f.touches.count) } }
        #expect(counts == Array(repeating: 1, count: 51))
    }
}
