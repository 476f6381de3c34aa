// SPDX-License-Identifier: MIT
import TouchCore

/// Declarative descriptions of typical touch devices for tests, modelled on
/// real hardware (see Tests/Fixtures/real for the originals).
package enum DeviceFixtures {
    private static func describe(
        _ name: String, properties: InputProperties = [], keys: [UInt16] = [], abs: [UInt16: AbsInfo] = [:],
        rel: [UInt16] = [], msc: [UInt16] = []
    ) -> DeviceDescription {
        var d = DeviceDescription(name: name, properties: properties)
        d.codes[.syn] = CodeSet([EventCode.synReport, EventCode.synMTReport, EventCode.synDropped])
        for k in keys { d.enable(.key, k) }
        for (code, info) in abs { d.enable(.abs, code, absInfo: info) }
        for r in rel { d.enable(.rel, r) }
        for m in msc { d.enable(.msc, m) }
        return d
    }

    /// A 10-slot protocol-B touchscreen, 0...4095 x 0...4095 at 20 units/mm (204.75 x 204.75 mm),
    /// with pressure, touch major/minor and MT tool type.
    package static func touchscreen(slots: Int = 10, resolution: Int32 = 20, distance: Bool = false) -> DeviceDescription {
        var abs: [UInt16: AbsInfo] = [
            EventCode.absX: AbsInfo(minimum: 0, maximum: 4095, resolution: resolution),
            EventCode.absY: AbsInfo(minimum: 0, maximum: 4095, resolution: resolution),
            EventCode.absMTSlot: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
            EventCode.absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
            EventCode.absMTPositionX: AbsInfo(minimum: 0, maximum: 4095, resolution: resolution),
            EventCode.absMTPositionY: AbsInfo(minimum: 0, maximum: 4095, resolution: resolution),
            EventCode.absMTPressure: AbsInfo(minimum: 0, maximum: 255),
            EventCode.absMTTouchMajor: AbsInfo(minimum: 0, maximum: 255),
            EventCode.absMTTouchMinor: AbsInfo(minimum: 0, maximum: 255),
            EventCode.absMTToolType: AbsInfo(minimum: 0, maximum: 2),
        ]
        if distance { abs[EventCode.absMTDistance] = AbsInfo(minimum: 0, maximum: 1) }
        return describe("Fixture Touchscreen", properties: .direct, keys: [EventCode.btnTouch], abs: abs)
    }

    /// A protocol-A touchscreen with no input properties (like the 2010 N-Trig): 0...9600 x 0...7200, resolution 0.
    package static func protocolATouchscreen(trackingID: Bool = false) -> DeviceDescription {
        var abs: [UInt16: AbsInfo] = [
            EventCode.absX: AbsInfo(minimum: 0, maximum: 9600),
            EventCode.absY: AbsInfo(minimum: 0, maximum: 7200),
            EventCode.absMTPositionX: AbsInfo(minimum: 0, maximum: 9600),
            EventCode.absMTPositionY: AbsInfo(minimum: 0, maximum: 7200),
            EventCode.absMTTouchMajor: AbsInfo(minimum: 0, maximum: 9600),
            EventCode.absMTTouchMinor: AbsInfo(minimum: 0, maximum: 7200),
        ]
        if trackingID { abs[EventCode.absMTTrackingID] = AbsInfo(minimum: 0, maximum: 255) }
        return describe("Fixture Protocol A", keys: [EventCode.btnTouch, EventCode.btnToolDoubleTap], abs: abs)
    }

    /// A 2-slot clickpad counting up to three fingers (like the Cypress PS/2): 0...1600 x 0...900 at 16/15 units/mm.
    package static func twoSlotTouchpad(semiMT: Bool = false) -> DeviceDescription {
        describe(
            "Fixture Touchpad", properties: semiMT ? [.buttonpad, .semiMT] : [.pointer, .buttonpad],
            keys: [EventCode.btnLeft, EventCode.btnTouch, EventCode.btnToolFinger, EventCode.btnToolDoubleTap, EventCode.btnToolTripleTap],
            abs: [
                EventCode.absX: AbsInfo(minimum: 0, maximum: 1600, resolution: 16),
                EventCode.absY: AbsInfo(minimum: 0, maximum: 900, resolution: 15),
                EventCode.absPressure: AbsInfo(minimum: 0, maximum: 255),
                EventCode.absMTSlot: AbsInfo(minimum: 0, maximum: 1),
                EventCode.absMTTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                EventCode.absMTPositionX: AbsInfo(minimum: 0, maximum: 1600, resolution: 16),
                EventCode.absMTPositionY: AbsInfo(minimum: 0, maximum: 900, resolution: 15),
                EventCode.absMTPressure: AbsInfo(minimum: 0, maximum: 255),
            ])
    }

    /// A single-touch touchscreen (ABS_X/ABS_Y + BTN_TOUCH, no properties), 0...2047, resolution 0.
    package static func singleTouchScreen() -> DeviceDescription {
        describe("Fixture Single Touch", keys: [EventCode.btnTouch], abs: [
            EventCode.absX: AbsInfo(minimum: 0, maximum: 2047),
            EventCode.absY: AbsInfo(minimum: 0, maximum: 2047),
        ])
    }

    /// A Wacom-like pen tablet: pen and eraser, pressure, distance, tilt, barrel buttons, serials.
    /// 0...44704 x 0...27940 at 200 units/mm; tilt `tiltRange` with `tiltResolution` units/radian.
    package static func penTablet(tiltRange: ClosedRange<Int32> = -64...63, tiltResolution: Int32 = 57) -> DeviceDescription {
        describe(
            "Fixture Pen",
            keys: [EventCode.btnToolPen, EventCode.btnToolRubber, EventCode.btnTouch, EventCode.btnStylus, EventCode.btnStylus2],
            abs: [
                EventCode.absX: AbsInfo(minimum: 0, maximum: 44704, resolution: 200),
                EventCode.absY: AbsInfo(minimum: 0, maximum: 27940, resolution: 200),
                EventCode.absPressure: AbsInfo(minimum: 0, maximum: 2047),
                EventCode.absDistance: AbsInfo(minimum: 0, maximum: 63),
                EventCode.absTiltX: AbsInfo(minimum: tiltRange.lowerBound, maximum: tiltRange.upperBound, resolution: tiltResolution),
                EventCode.absTiltY: AbsInfo(minimum: tiltRange.lowerBound, maximum: tiltRange.upperBound, resolution: tiltResolution),
            ],
            msc: [EventCode.mscSerial])
    }

    /// A Wacom-like pad: buttons and a wheel, ABS_X/ABS_Y of range 0...1, BTN_STYLUS. Not a touch device.
    package static func tabletPad() -> DeviceDescription {
        describe("Fixture Pad", keys: [0x100, 0x101, EventCode.btnStylus], abs: [
            EventCode.absX: AbsInfo(minimum: 0, maximum: 1),
            EventCode.absY: AbsInfo(minimum: 0, maximum: 1),
            EventCode.absWheel: AbsInfo(minimum: 0, maximum: 71),
        ])
    }

    /// A USB mouse: relative axes and buttons. Not a touch device.
    package static func mouse() -> DeviceDescription {
        describe("Fixture Mouse", keys: [EventCode.btnLeft, EventCode.btnRight, EventCode.btnMiddle], rel: [0x00, 0x01, 0x08])
    }
}
