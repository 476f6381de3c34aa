// SPDX-License-Identifier: MIT
/// An evdev event type (`EV_*` in linux/input-event-codes.h).
package struct EventType: RawRepresentable, Hashable, Comparable, Sendable {
    /// The kernel's number.
    package var rawValue: UInt16
    /// Creates an event type from the kernel's number.
    @inlinable package init(rawValue: UInt16) { self.rawValue = rawValue }
    @inlinable package static func < (a: EventType, b: EventType) -> Bool { a.rawValue < b.rawValue }

    /// `EV_SYN`
    package static let syn = EventType(rawValue: 0x00)
    /// `EV_KEY`
    package static let key = EventType(rawValue: 0x01)
    /// `EV_REL`
    package static let rel = EventType(rawValue: 0x02)
    /// `EV_ABS`
    package static let abs = EventType(rawValue: 0x03)
    /// `EV_MSC`
    package static let msc = EventType(rawValue: 0x04)
    /// `EV_SW`
    package static let sw = EventType(rawValue: 0x05)
    /// `EV_LED`
    package static let led = EventType(rawValue: 0x11)
    /// `EV_SND`
    package static let snd = EventType(rawValue: 0x12)
    /// `EV_REP`
    package static let rep = EventType(rawValue: 0x14)
    /// `EV_FF`
    package static let ff = EventType(rawValue: 0x15)
    /// `EV_PWR`
    package static let pwr = EventType(rawValue: 0x16)
    /// `EV_FF_STATUS`
    package static let ffStatus = EventType(rawValue: 0x17)
    /// `EV_MAX`
    package static let max = EventType(rawValue: 0x1f)

    /// The highest code of this type the kernel defines (`*_MAX`), or 0x2ff.
    package var maxCode: UInt16 {
        switch rawValue {
        case 0x00: return 0x0f
        case 0x01: return 0x2ff
        case 0x02: return 0x0f
        case 0x03: return 0x3f
        case 0x04: return 0x07
        case 0x05: return 0x11
        case 0x11: return 0x0f
        case 0x12: return 0x07
        case 0x14: return 0x01
        case 0x15: return 0x7f
        default: return 0x2ff
        }
    }
}

/// Event codes used by touch devices, named after the kernel's constants.
/// Codes are plain `UInt16` because their meaning depends on the event type.
package enum EventCode {
    /// `SYN_REPORT`: end of a hardware frame.
    package static let synReport: UInt16 = 0
    /// `SYN_CONFIG`
    package static let synConfig: UInt16 = 1
    /// `SYN_MT_REPORT`: end of one contact in multitouch protocol A.
    package static let synMTReport: UInt16 = 2
    /// `SYN_DROPPED`: the kernel's buffer overran; state must be resynced.
    package static let synDropped: UInt16 = 3

    /// `BTN_LEFT`
    package static let btnLeft: UInt16 = 0x110
    /// `BTN_RIGHT`
    package static let btnRight: UInt16 = 0x111
    /// `BTN_MIDDLE`
    package static let btnMiddle: UInt16 = 0x112
    /// `BTN_TOOL_PEN`
    package static let btnToolPen: UInt16 = 0x140
    /// `BTN_TOOL_RUBBER` (eraser)
    package static let btnToolRubber: UInt16 = 0x141
    /// `BTN_TOOL_BRUSH`
    package static let btnToolBrush: UInt16 = 0x142
    /// `BTN_TOOL_PENCIL`
    package static let btnToolPencil: UInt16 = 0x143
    /// `BTN_TOOL_AIRBRUSH`
    package static let btnToolAirbrush: UInt16 = 0x144
    /// `BTN_TOOL_FINGER`
    package static let btnToolFinger: UInt16 = 0x145
    /// `BTN_TOOL_MOUSE`
    package static let btnToolMouse: UInt16 = 0x146
    /// `BTN_TOOL_LENS`
    package static let btnToolLens: UInt16 = 0x147
    /// `BTN_TOOL_QUINTTAP`: five fingers.
    package static let btnToolQuintTap: UInt16 = 0x148
    /// `BTN_STYLUS3`
    package static let btnStylus3: UInt16 = 0x149
    /// `BTN_TOUCH`
    package static let btnTouch: UInt16 = 0x14a
    /// `BTN_STYLUS`
    package static let btnStylus: UInt16 = 0x14b
    /// `BTN_STYLUS2`
    package static let btnStylus2: UInt16 = 0x14c
    /// `BTN_TOOL_DOUBLETAP`: two fingers.
    package static let btnToolDoubleTap: UInt16 = 0x14d
    /// `BTN_TOOL_TRIPLETAP`: three fingers.
    package static let btnToolTripleTap: UInt16 = 0x14e
    /// `BTN_TOOL_QUADTAP`: four fingers.
    package static let btnToolQuadTap: UInt16 = 0x14f

    /// `ABS_X`
    package static let absX: UInt16 = 0x00
    /// `ABS_Y`
    package static let absY: UInt16 = 0x01
    /// `ABS_Z`
    package static let absZ: UInt16 = 0x02
    /// `ABS_RX`
    package static let absRX: UInt16 = 0x03
    /// `ABS_RY`
    package static let absRY: UInt16 = 0x04
    /// `ABS_RZ`
    package static let absRZ: UInt16 = 0x05
    /// `ABS_THROTTLE`
    package static let absThrottle: UInt16 = 0x06
    /// `ABS_WHEEL`
    package static let absWheel: UInt16 = 0x08
    /// `ABS_PRESSURE`
    package static let absPressure: UInt16 = 0x18
    /// `ABS_DISTANCE`
    package static let absDistance: UInt16 = 0x19
    /// `ABS_TILT_X`
    package static let absTiltX: UInt16 = 0x1a
    /// `ABS_TILT_Y`
    package static let absTiltY: UInt16 = 0x1b
    /// `ABS_TOOL_WIDTH`
    package static let absToolWidth: UInt16 = 0x1c
    /// `ABS_MISC`
    package static let absMisc: UInt16 = 0x28
    /// `ABS_MT_SLOT`
    package static let absMTSlot: UInt16 = 0x2f
    /// `ABS_MT_TOUCH_MAJOR`
    package static let absMTTouchMajor: UInt16 = 0x30
    /// `ABS_MT_TOUCH_MINOR`
    package static let absMTTouchMinor: UInt16 = 0x31
    /// `ABS_MT_WIDTH_MAJOR`
    package static let absMTWidthMajor: UInt16 = 0x32
    /// `ABS_MT_WIDTH_MINOR`
    package static let absMTWidthMinor: UInt16 = 0x33
    /// `ABS_MT_ORIENTATION`
    package static let absMTOrientation: UInt16 = 0x34
    /// `ABS_MT_POSITION_X`
    package static let absMTPositionX: UInt16 = 0x35
    /// `ABS_MT_POSITION_Y`
    package static let absMTPositionY: UInt16 = 0x36
    /// `ABS_MT_TOOL_TYPE`
    package static let absMTToolType: UInt16 = 0x37
    /// `ABS_MT_BLOB_ID`
    package static let absMTBlobID: UInt16 = 0x38
    /// `ABS_MT_TRACKING_ID`
    package static let absMTTrackingID: UInt16 = 0x39
    /// `ABS_MT_PRESSURE`
    package static let absMTPressure: UInt16 = 0x3a
    /// `ABS_MT_DISTANCE`
    package static let absMTDistance: UInt16 = 0x3b
    /// `ABS_MT_TOOL_X`
    package static let absMTToolX: UInt16 = 0x3c
    /// `ABS_MT_TOOL_Y`
    package static let absMTToolY: UInt16 = 0x3d

    /// `MSC_SERIAL`: tool serial number.
    package static let mscSerial: UInt16 = 0x00
    /// `MSC_SCAN`
    package static let mscScan: UInt16 = 0x04
    /// `MSC_TIMESTAMP`: device timestamp in microseconds.
    package static let mscTimestamp: UInt16 = 0x05

    /// `MT_TOOL_FINGER`, a value of `ABS_MT_TOOL_TYPE`.
    package static let mtToolFinger: Int32 = 0
    /// `MT_TOOL_PEN`, a value of `ABS_MT_TOOL_TYPE`.
    package static let mtToolPen: Int32 = 1
    /// `MT_TOOL_PALM`, a value of `ABS_MT_TOOL_TYPE`.
    package static let mtToolPalm: Int32 = 2
}

/// Input device properties (`INPUT_PROP_*`), as a bit set.
package struct InputProperties: OptionSet, Hashable, Sendable {
    /// Bit *n* is property *n*.
    package var rawValue: UInt32
    /// Creates a property set from its bits.
    @inlinable package init(rawValue: UInt32) { self.rawValue = rawValue }
    /// Creates a property set from property numbers.
    package init(numbers: some Sequence<Int>) {
        var bits: UInt32 = 0
        for n in numbers where n >= 0 && n < 32 { bits |= 1 << UInt32(n) }
        self.rawValue = bits
    }

    /// `INPUT_PROP_POINTER` (0): needs a pointer (touchpads).
    package static let pointer = InputProperties(rawValue: 1 << 0)
    /// `INPUT_PROP_DIRECT` (1): direct input (touchscreens, screen tablets).
    package static let direct = InputProperties(rawValue: 1 << 1)
    /// `INPUT_PROP_BUTTONPAD` (2): clickpad.
    package static let buttonpad = InputProperties(rawValue: 1 << 2)
    /// `INPUT_PROP_SEMI_MT` (3): slots are bounding box corners.
    package static let semiMT = InputProperties(rawValue: 1 << 3)
    /// `INPUT_PROP_TOPBUTTONPAD` (4)
    package static let topButtonpad = InputProperties(rawValue: 1 << 4)
    /// `INPUT_PROP_POINTING_STICK` (5)
    package static let pointingStick = InputProperties(rawValue: 1 << 5)
    /// `INPUT_PROP_ACCELEROMETER` (6)
    package static let accelerometer = InputProperties(rawValue: 1 << 6)
    /// `INPUT_PROP_PRESSUREPAD` (7)
    package static let pressurepad = InputProperties(rawValue: 1 << 7)

    /// The property numbers set, ascending.
    package var numbers: [Int] { (0..<32).filter { rawValue & (1 << UInt32($0)) != 0 } }
}
