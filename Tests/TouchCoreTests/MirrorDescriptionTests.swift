// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import TouchTesting

/// The pass-through mirror's description: the original's ids, properties and
/// ranges, protocol B always, MT_TOOL_PALM in range, the name suffix.
@Suite struct MirrorDescriptionTests {
    static let atmel = "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc"
    static let nTrig = "evemu-devices/touchscreens/N-Trig MultiTouch.desc"

    static func description(_ relative: String) throws -> DeviceDescription {
        try #require(try RealFixtures.read(relative).devices.first).description
    }

    @Test func protocolBTouchscreenKeepsItsIdsPropertiesRangesAndSlots() throws {
        var original = try Self.description(Self.atmel)
        original.phys = "i2c-ATML1000:00"
        let mirror = MirrorDescription.make(from: original, key: "event5")
        // The compositor's identity of the original (`<vendor>:<product>:<name>`); the phys is touchd's marker.
        #expect(mirror.name == "Atmel maXTouch Touchscreen")
        #expect(mirror.id == original.id)
        #expect(mirror.properties == original.properties)
        #expect(mirror.properties.contains(.direct) && !mirror.properties.contains(.pointer))
        #expect(mirror.phys == "touchd-mirror-event5")
        #expect(MirrorDescription.isMirror(phys: mirror.phys) && !MirrorDescription.isMirror(phys: original.phys))
        #expect(mirror.slotCount == 10)
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY,
                     EventCode.absMTDistance, EventCode.absMTSlot] {
            #expect(mirror.supports(.abs, code) && mirror.absInfo[code] == original.absInfo[code], "ABS \(code)")
        }
        #expect(mirror.absInfo[EventCode.absMTToolType] == AbsInfo(minimum: 0, maximum: 2))
        #expect(mirror.absInfo[EventCode.absMTTrackingID] == AbsInfo(minimum: 0, maximum: 65535))
        #expect(mirror.codes[.key] == CodeSet([EventCode.btnTouch]))
        #expect(!mirror.supports(.msc))
    }

    @Test func protocolATouchscreenBecomesProtocolBWithTenSlots() throws {
        let original = try Self.description(Self.nTrig)
        #expect(original.slotCount == 0 && !original.supports(.abs, EventCode.absMTTrackingID))
        let mirror = MirrorDescription.make(from: original)
        #expect(mirror.slotCount == MirrorDescription.defaultSlotCount)
        #expect(mirror.absInfo[EventCode.absMTSlot] == AbsInfo(minimum: 0, maximum: 9))
        #expect(mirror.absInfo[EventCode.absMTTrackingID] == AbsInfo(minimum: 0, maximum: 65535))
        #expect(mirror.absInfo[EventCode.absMTToolType] == AbsInfo(minimum: 0, maximum: EventCode.mtToolPalm))
        #expect(mirror.absInfo[EventCode.absMTPositionX] == original.absInfo[EventCode.absMTPositionX])
        #expect(mirror.absInfo[EventCode.absMTPositionY] == original.absInfo[EventCode.absMTPositionY])
        // The contact shape axes it has; not ABS_MISC, which touch input does not use.
        for code in [EventCode.absMTTouchMajor, EventCode.absMTTouchMinor, EventCode.absMTOrientation] {
            #expect(mirror.absInfo[code] == original.absInfo[code], "ABS \(code)")
        }
        #expect(!mirror.supports(.abs, EventCode.absMisc))
        // No BTN_TOOL_FINGER added: with it and without INPUT_PROP_DIRECT udev would call it a touchpad.
        #expect(original.codes[.key] == CodeSet([EventCode.btnTouch, EventCode.btnToolDoubleTap]))
        #expect(mirror.codes[.key] == original.codes[.key])
        #expect(!mirror.supports(.key, EventCode.btnToolFinger))
        #expect(mirror.properties == original.properties)
    }

    @Test func singleTouchSourceGetsMTAxesFromItsAbsoluteAxes() {
        var original = DeviceDescription(name: "Resistive Panel", id: InputID(bustype: 0x19, vendor: 1, product: 2, version: 3),
                                         properties: .direct)
        original.enable(.key, EventCode.btnTouch)
        original.enable(.abs, EventCode.absX, absInfo: AbsInfo(minimum: 100, maximum: 3900, fuzz: 4, flat: 0, resolution: 15))
        original.enable(.abs, EventCode.absY, absInfo: AbsInfo(minimum: 200, maximum: 3800, fuzz: 4, flat: 0, resolution: 14))
        original.enable(.abs, EventCode.absPressure, absInfo: AbsInfo(minimum: 0, maximum: 255))
        original.enable(.msc, EventCode.mscTimestamp)
        let mirror = MirrorDescription.make(from: original)
        #expect(mirror.absInfo[EventCode.absMTPositionX] == original.absInfo[EventCode.absX])
        #expect(mirror.absInfo[EventCode.absMTPositionY] == original.absInfo[EventCode.absY])
        #expect(mirror.absInfo[EventCode.absX] == original.absInfo[EventCode.absX])
        #expect(mirror.absInfo[EventCode.absMTPressure] == original.absInfo[EventCode.absPressure])
        #expect(mirror.absInfo[EventCode.absPressure] == original.absInfo[EventCode.absPressure])
        #expect(mirror.slotCount == 10)
        #expect(mirror.supports(.msc, EventCode.mscTimestamp))
        #expect(mirror.id == original.id)
    }

    @Test func toolTypeRangeReachesPalmButKeepsALargerMaximum() {
        var original = DeviceDescription(name: "Pen and touch", properties: .direct)
        original.enable(.abs, EventCode.absMTSlot, absInfo: AbsInfo(minimum: 0, maximum: 4))
        original.enable(.abs, EventCode.absMTPositionX, absInfo: AbsInfo(minimum: 0, maximum: 1000))
        original.enable(.abs, EventCode.absMTPositionY, absInfo: AbsInfo(minimum: 0, maximum: 1000))
        original.enable(.abs, EventCode.absMTToolType, absInfo: AbsInfo(minimum: 0, maximum: 0))
        #expect(MirrorDescription.make(from: original).absInfo[EventCode.absMTToolType]?.maximum == 2)
        original.absInfo[EventCode.absMTToolType] = AbsInfo(minimum: 0, maximum: 15)
        #expect(MirrorDescription.make(from: original).absInfo[EventCode.absMTToolType]?.maximum == 15)
        #expect(MirrorDescription.make(from: original).slotCount == 5)
        #expect(MirrorDescription.make(from: original).absInfo[EventCode.absX] == AbsInfo(minimum: 0, maximum: 1000))
    }

    @Test func combinedPenAndTouchKeepsToolsAndStylusButtons() {
        var original = DeviceDescription(name: "Combined", properties: .direct)
        for code in [EventCode.btnTouch, EventCode.btnToolFinger, EventCode.btnToolDoubleTap, EventCode.btnToolPen,
                     EventCode.btnToolRubber, EventCode.btnStylus, EventCode.btnStylus2, EventCode.btnLeft, UInt16(30)] {
            original.enable(.key, code)
        }
        original.enable(.abs, EventCode.absX, absInfo: AbsInfo(minimum: 0, maximum: 100))
        original.enable(.abs, EventCode.absY, absInfo: AbsInfo(minimum: 0, maximum: 100))
        original.enable(.abs, EventCode.absTiltX, absInfo: AbsInfo(minimum: -64, maximum: 63))
        let mirror = MirrorDescription.make(from: original)
        #expect(mirror.codes[.key] == CodeSet([EventCode.btnTouch, EventCode.btnToolFinger, EventCode.btnToolDoubleTap,
                                               EventCode.btnToolPen, EventCode.btnToolRubber, EventCode.btnStylus, EventCode.btnStylus2]))
        #expect(mirror.absInfo[EventCode.absTiltX] == AbsInfo(minimum: -64, maximum: 63))
    }

    @Test func carriedPropertiesAreWhatLibinputAndCompositorsReadPerDevice() {
        let carried = MirrorDescription.carriedProperties([
            "LIBINPUT_CALIBRATION_MATRIX": "1 0 0 0 1 0", "WL_OUTPUT": "DSI-1", "LIBINPUT_DEVICE_GROUP": "3/1/2:usb-1",
            "ID_INPUT_WIDTH_MM": "217", "ID_INPUT_HEIGHT_MM": "136", "ID_SEAT": "seat1",
            "ID_PATH": "pci-0000:00:14.0-usb-0:7:1.0", "TOUCHD_SCREEN": "main", "ID_INPUT_TOUCHSCREEN": "1", "LIBINPUT_BAD": "a\nb",
        ])
        #expect(carried.map(\.key) == ["ID_INPUT_HEIGHT_MM", "ID_INPUT_WIDTH_MM", "ID_SEAT", "LIBINPUT_CALIBRATION_MATRIX",
                                        "LIBINPUT_DEVICE_GROUP", "WL_OUTPUT"])
        #expect(MirrorDescription.phys(key: "event5") == "touchd-mirror-event5")
        #expect(MirrorDescription.phys(key: "../x y") == "touchd-mirror-___x_y")
    }

    @Test func longNamesAreCutToUinputsLimitKeepingTheSuffix() {
        let long = String(repeating: "é", count: 60)  // 120 bytes
        let name = MirrorDescription.name(for: long)
        #expect(name.hasSuffix(MirrorDescription.nameSuffix))
        #expect(name.utf8.count <= 79)
        #expect(name.utf8.count >= 78)  // cut at a character, at most one byte short
        #expect(MirrorDescription.isMirror(name: name))
        #expect(!MirrorDescription.isMirror(name: "Atmel maXTouch Touchscreen"))
        let fits = String(repeating: "a", count: 79 - MirrorDescription.nameSuffix.utf8.count)
        #expect(MirrorDescription.name(for: fits) == fits + MirrorDescription.nameSuffix)
    }

    @Test func conventionsWriteFingerBeforeTheTrackingIDAndPalmThenEnd() {
        let down = MirrorConventions.down(slot: 1, trackingID: 7, x: 10, y: 20, firstContact: true)
        let codes = down.map(\.code)
        #expect(codes.firstIndex(of: EventCode.absMTToolType)! < codes.firstIndex(of: EventCode.absMTTrackingID)!)
        #expect(down.first == InputEvent(time: Timestamp(microseconds: 0), type: .abs, code: EventCode.absMTSlot, value: 1))
        #expect(down.last?.code == EventCode.btnTouch && down.last?.value == 1)
        #expect(MirrorConventions.palm(slot: 1).last?.value == EventCode.mtToolPalm)
        let end = MirrorConventions.end(slot: 1, lastContact: false)
        #expect(end.contains { $0.code == EventCode.absMTTrackingID && $0.value == -1 })
        #expect(end.contains { $0.code == EventCode.absMTToolType && $0.value == EventCode.mtToolFinger })
        #expect(!end.contains { $0.code == EventCode.btnTouch })
    }
}
