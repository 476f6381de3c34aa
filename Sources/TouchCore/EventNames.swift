// SPDX-License-Identifier: MIT
/// The kernel's names for event types, codes and properties, for people
/// (`touchctl describe`, evemu comments, error messages).
package enum EventNames {
    /// `EV_ABS` for type 3; `EV_0x1e` for a type with no name.
    package static func type(_ type: EventType) -> String {
        switch type.rawValue {
        case 0x00: return "EV_SYN"
        case 0x01: return "EV_KEY"
        case 0x02: return "EV_REL"
        case 0x03: return "EV_ABS"
        case 0x04: return "EV_MSC"
        case 0x05: return "EV_SW"
        case 0x11: return "EV_LED"
        case 0x12: return "EV_SND"
        case 0x14: return "EV_REP"
        case 0x15: return "EV_FF"
        case 0x16: return "EV_PWR"
        case 0x17: return "EV_FF_STATUS"
        default: return "EV_0x" + hex(type.rawValue)
        }
    }

    /// `ABS_MT_POSITION_X` for (EV_ABS, 0x35); `ABS_0x1d` for a code with no name.
    package static func code(_ type: EventType, _ code: UInt16) -> String {
        let table: [UInt16: String]
        let prefix: String
        switch type.rawValue {
        case 0x00: table = synNames; prefix = "SYN_"
        case 0x01: table = keyNames; prefix = "KEY_"
        case 0x02: table = relNames; prefix = "REL_"
        case 0x03: table = absNames; prefix = "ABS_"
        case 0x04: table = mscNames; prefix = "MSC_"
        default: table = [:]; prefix = EventNames.type(type) + "_"
        }
        return table[code] ?? prefix + "0x" + hex(code)
    }

    /// `INPUT_PROP_DIRECT` for 1.
    package static func property(_ number: Int) -> String {
        let names = ["INPUT_PROP_POINTER", "INPUT_PROP_DIRECT", "INPUT_PROP_BUTTONPAD", "INPUT_PROP_SEMI_MT",
                     "INPUT_PROP_TOPBUTTONPAD", "INPUT_PROP_POINTING_STICK", "INPUT_PROP_ACCELEROMETER",
                     "INPUT_PROP_PRESSUREPAD"]
        return number >= 0 && number < names.count ? names[number] : "INPUT_PROP_0x" + hex(UInt16(truncatingIfNeeded: number))
    }

    static func hex(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return s.count < 2 ? "0" + s : s
    }

    static let synNames: [UInt16: String] = [0: "SYN_REPORT", 1: "SYN_CONFIG", 2: "SYN_MT_REPORT", 3: "SYN_DROPPED"]
    static let relNames: [UInt16: String] = [
        0: "REL_X", 1: "REL_Y", 2: "REL_Z", 6: "REL_HWHEEL", 7: "REL_DIAL", 8: "REL_WHEEL", 9: "REL_MISC",
        11: "REL_WHEEL_HI_RES", 12: "REL_HWHEEL_HI_RES",
    ]
    static let mscNames: [UInt16: String] = [0: "MSC_SERIAL", 1: "MSC_PULSELED", 2: "MSC_GESTURE", 3: "MSC_RAW", 4: "MSC_SCAN", 5: "MSC_TIMESTAMP"]
    static let absNames: [UInt16: String] = [
        0x00: "ABS_X", 0x01: "ABS_Y", 0x02: "ABS_Z", 0x03: "ABS_RX", 0x04: "ABS_RY", 0x05: "ABS_RZ",
        0x06: "ABS_THROTTLE", 0x07: "ABS_RUDDER", 0x08: "ABS_WHEEL", 0x09: "ABS_GAS", 0x0a: "ABS_BRAKE",
        0x10: "ABS_HAT0X", 0x11: "ABS_HAT0Y", 0x12: "ABS_HAT1X", 0x13: "ABS_HAT1Y", 0x14: "ABS_HAT2X",
        0x15: "ABS_HAT2Y", 0x16: "ABS_HAT3X", 0x17: "ABS_HAT3Y", 0x18: "ABS_PRESSURE", 0x19: "ABS_DISTANCE",
        0x1a: "ABS_TILT_X", 0x1b: "ABS_TILT_Y", 0x1c: "ABS_TOOL_WIDTH", 0x20: "ABS_VOLUME", 0x21: "ABS_PROFILE",
        0x28: "ABS_MISC", 0x2e: "ABS_RESERVED", 0x2f: "ABS_MT_SLOT", 0x30: "ABS_MT_TOUCH_MAJOR",
        0x31: "ABS_MT_TOUCH_MINOR", 0x32: "ABS_MT_WIDTH_MAJOR", 0x33: "ABS_MT_WIDTH_MINOR",
        0x34: "ABS_MT_ORIENTATION", 0x35: "ABS_MT_POSITION_X", 0x36: "ABS_MT_POSITION_Y",
        0x37: "ABS_MT_TOOL_TYPE", 0x38: "ABS_MT_BLOB_ID", 0x39: "ABS_MT_TRACKING_ID", 0x3a: "ABS_MT_PRESSURE",
        0x3b: "ABS_MT_DISTANCE", 0x3c: "ABS_MT_TOOL_X", 0x3d: "ABS_MT_TOOL_Y",
    ]
    static let keyNames: [UInt16: String] = {
        var t: [UInt16: String] = [:]
        let buttons: [(UInt16, String)] = [
            (0x100, "BTN_0"), (0x101, "BTN_1"), (0x102, "BTN_2"), (0x103, "BTN_3"), (0x104, "BTN_4"),
            (0x105, "BTN_5"), (0x106, "BTN_6"), (0x107, "BTN_7"), (0x108, "BTN_8"), (0x109, "BTN_9"),
            (0x110, "BTN_LEFT"), (0x111, "BTN_RIGHT"), (0x112, "BTN_MIDDLE"), (0x113, "BTN_SIDE"),
            (0x114, "BTN_EXTRA"), (0x115, "BTN_FORWARD"), (0x116, "BTN_BACK"), (0x117, "BTN_TASK"),
            (0x140, "BTN_TOOL_PEN"), (0x141, "BTN_TOOL_RUBBER"), (0x142, "BTN_TOOL_BRUSH"),
            (0x143, "BTN_TOOL_PENCIL"), (0x144, "BTN_TOOL_AIRBRUSH"), (0x145, "BTN_TOOL_FINGER"),
            (0x146, "BTN_TOOL_MOUSE"), (0x147, "BTN_TOOL_LENS"), (0x148, "BTN_TOOL_QUINTTAP"),
            (0x149, "BTN_STYLUS3"), (0x14a, "BTN_TOUCH"), (0x14b, "BTN_STYLUS"), (0x14c, "BTN_STYLUS2"),
            (0x14d, "BTN_TOOL_DOUBLETAP"), (0x14e, "BTN_TOOL_TRIPLETAP"), (0x14f, "BTN_TOOL_QUADTAP"),
            (0x150, "BTN_GEAR_DOWN"), (0x151, "BTN_GEAR_UP"),
        ]
        for (c, n) in buttons { t[c] = n }
        return t
    }()
}
