// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import TouchTesting

@Suite struct DeviceClassificationTests {
    @Test func directTouchscreen() {
        let c = DeviceClassification(DeviceFixtures.touchscreen())
        #expect(c.fingerType == .direct && !c.hasStylus && c.isTouchDevice)
        #expect(c.contactProtocol == .slotted(slots: 10))
        #expect(c.maxFingerCount == 10)
        #expect(c.reason.contains("INPUT_PROP_DIRECT"))
    }

    /// Found by fuzz-pipeline-engine: a device declaring ABS_MT_SLOT max
    /// 2^31 - 1 made the pipeline allocate 2^31 slots when it was added.
    @Test func absurdSlotCountsAreCapped() {
        var d = DeviceFixtures.touchscreen()
        d.absInfo[EventCode.absMTSlot]?.maximum = Int32.max
        #expect(DeviceClassification(d).contactProtocol == .slotted(slots: ContactProtocol.maxSlots))
        var pipeline = TouchPipeline()
        pipeline.addDevice(DeviceID(0), description: d)
        let t = Timestamp(microseconds: 1000)
        _ = pipeline.process(InputEvent(time: t, type: .abs, code: EventCode.absMTSlot, value: 255), from: DeviceID(0))
        _ = pipeline.process(InputEvent(time: t, type: .abs, code: EventCode.absMTTrackingID, value: 5), from: DeviceID(0))
        _ = pipeline.process(InputEvent(time: t, type: .abs, code: EventCode.absMTPositionX, value: 100), from: DeviceID(0))
        let frame = pipeline.process(InputEvent(time: t, type: .syn, code: EventCode.synReport, value: 0), from: DeviceID(0))
        #expect(frame?.touches.map(\.phase) == [.began])
        #expect(pipeline.resync(device: DeviceID(0), slots: [], at: Timestamp(microseconds: 2000))?.touches.map(\.phase) == [.cancelled])
    }

    @Test func protocolAWithoutPropertiesIsAssumedTouchscreen() {
        let c = DeviceClassification(DeviceFixtures.protocolATouchscreen())
        #expect(c.fingerType == .direct)
        #expect(c.contactProtocol == .anonymous)
        #expect(c.reason.contains("H2"))
    }

    @Test func touchpadCountsBeyondItsSlots() {
        let c = DeviceClassification(DeviceFixtures.twoSlotTouchpad(semiMT: true))
        #expect(c.fingerType == .indirect && c.isSemiMT)
        #expect(c.maxFingerCount == 3)
    }

    @Test func fingerToolWithoutPropertiesIsATouchpad() {
        var d = DeviceFixtures.singleTouchScreen()
        d.enable(.key, EventCode.btnToolFinger)
        d.enable(.key, EventCode.btnToolDoubleTap)
        let c = DeviceClassification(d)
        #expect(c.fingerType == .indirect && c.contactProtocol == .singleTouch && c.maxFingerCount == 2)
        #expect(c.reason.contains("H1"))
    }

    @Test func penTablet() {
        let c = DeviceClassification(DeviceFixtures.penTablet())
        #expect(c.hasStylus && c.fingerType == nil)
        #expect(c.stylusTools == [.pen, .eraser])
        #expect(c.touchTypes == [.stylus])
        #expect(c.contactProtocol == .none)
    }

    @Test func padsAndMiceAreNotTouchDevices() {
        #expect(!DeviceClassification(DeviceFixtures.tabletPad()).isTouchDevice)
        #expect(!DeviceClassification(DeviceFixtures.mouse()).isTouchDevice)
    }

    @Test func penWithoutToolCodes() {
        var d = DeviceFixtures.singleTouchScreen()
        d.enable(.abs, EventCode.absPressure, absInfo: AbsInfo(minimum: 0, maximum: 1023))
        d.enable(.key, EventCode.btnStylus)
        let c = DeviceClassification(d)
        #expect(c.hasStylus && c.stylusTools == [.pen] && c.fingerType == nil)
        #expect(c.reason.contains("H4"))
    }

    @Test func touchscreenDeclaringAPenTool() {
        var d = DeviceFixtures.singleTouchScreen()
        d.enable(.key, EventCode.btnToolPen)
        let c = DeviceClassification(d)
        #expect(!c.hasStylus && c.fingerType == .direct && c.contactProtocol == .singleTouch)
        #expect(c.reason.contains("H3"))
    }
}
