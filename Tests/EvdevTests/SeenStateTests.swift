// SPDX-License-Identifier: MIT
import CLibevdev
import Testing
import TouchCore
@testable import Evdev

/// `EvdevDevice` reads the kernel's events with `read(2)` and applies
/// libevdev's rules itself (docs/performance.md, "Reading the kernel's
/// events"). These run on a libevdev handle declaring a real touchscreen
/// (no kernel needed); ResyncTests and EvdevDeviceTests check the same
/// path against the kernel in the guest.
@Suite struct SeenStateTests {
    static func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> input_event {
        var e = input_event()
        e.type = type
        e.code = code
        e.value = value
        return e
    }

    static func abs(_ code: UInt16, _ value: Int32) -> input_event { event(UInt16(EV_ABS), code, value) }

    /// A handle declaring the Atmel maXTouch touchscreen (10 slots), its description, and its state.
    static func atmel() throws -> (OpaquePointer, DeviceDescription, SeenState) {
        let description = try Fixtures.description("touchscreens/Atmel maXTouch Touchscreen.desc")
        let handle = try Libevdev.handle(declaring: description)
        return (handle, description, SeenState(handle, description: description))
    }

    @Test func eventsFollowLibevdevsRules() throws {
        let (handle, description, start) = try Self.atmel()
        defer { libevdev_free(handle) }
        var seen = start
        var ok = false
        #expect(seen.slotCount == 10)
        #expect(seen.slots(description).allSatisfy { !$0.isActive })

        // Declared axes and keys pass and are kept.
        var e = Self.abs(EventCode.absMTSlot, 3)
        ok = seen.admit(&e); #expect(ok && e.value == 3 && seen.slot == 3)
        e = Self.abs(EventCode.absMTTrackingID, 7)
        ok = seen.admit(&e); #expect(ok)
        e = Self.abs(EventCode.absMTPositionX, 1200)
        ok = seen.admit(&e); #expect(ok)
        e = Self.event(UInt16(EV_KEY), EventCode.btnTouch, 1)
        ok = seen.admit(&e); #expect(ok)
        e = Self.event(UInt16(EV_SYN), UInt16(SYN_REPORT), 0)
        ok = seen.admit(&e); #expect(ok)
        let slot3 = seen.slots(description)[3]
        #expect(slot3.slot == 3 && slot3.trackingID == 7 && slot3.x == 1200 && slot3.y == 0)
        // Axes the device does not declare are nil, not 0.
        #expect(slot3.touchMajor == nil)
        #expect(seen.keysDown(description) == [EventCode.btnTouch])

        // A second id in an occupied slot, and a lift of an empty one, are dropped.
        e = Self.abs(EventCode.absMTTrackingID, 8)
        ok = seen.admit(&e); #expect(!ok)
        #expect(seen.slots(description)[3].trackingID == 7)
        e = Self.abs(EventCode.absMTTrackingID, -1)
        ok = seen.admit(&e); #expect(ok)
        e = Self.abs(EventCode.absMTTrackingID, -1)
        ok = seen.admit(&e); #expect(!ok)

        // A slot beyond the device's is capped to its last one.
        e = Self.abs(EventCode.absMTSlot, 42)
        ok = seen.admit(&e); #expect(ok && e.value == 9 && seen.slot == 9)
        e = Self.abs(EventCode.absMTSlot, -5)
        ok = seen.admit(&e); #expect(ok && e.value == 9)

        // Codes and types the device does not declare are dropped.
        e = Self.event(UInt16(EV_REL), 0, 1)
        ok = seen.admit(&e); #expect(!ok)
        e = Self.abs(EventCode.absMTTouchMajor, 3)
        #expect(description.codes[.abs]?.contains(EventCode.absMTTouchMajor) == false)
        ok = seen.admit(&e); #expect(!ok)
        e = Self.event(UInt16(EV_KEY), 0x2ff, 1)
        ok = seen.admit(&e); #expect(!ok)
        e = Self.event(40, 1, 1)
        ok = seen.admit(&e); #expect(!ok)
    }

    /// The state a reader saw, handed to libevdev before a resync and read
    /// back from it, is the same state.
    @Test func libevdevTakesTheSeenStateAndGivesItBack() throws {
        let (handle, description, start) = try Self.atmel()
        defer { libevdev_free(handle) }
        var seen = start
        let events: [input_event] = [
            Self.abs(EventCode.absMTSlot, 0), Self.abs(EventCode.absMTTrackingID, 100),
            Self.abs(EventCode.absMTPositionX, 10), Self.abs(EventCode.absMTPositionY, 20),
            Self.abs(EventCode.absMTSlot, 4), Self.abs(EventCode.absMTTrackingID, 101),
            Self.abs(EventCode.absMTPositionX, 30), Self.abs(EventCode.absMTPositionY, 40),
            Self.abs(0, 30), Self.abs(1, 40),
            Self.event(UInt16(EV_KEY), EventCode.btnTouch, 1),
        ]
        for var e in events { let ok = seen.admit(&e); #expect(ok) }
        seen.push(into: handle, description: description)
        let back = SeenState(handle, description: description)
        #expect(back.slots(description) == seen.slots(description))
        #expect(back.slot == 4)
        #expect(back.keysDown(description) == [EventCode.btnTouch])
        #expect(back.axisValues(description) == seen.axisValues(description))
        #expect(back.axisValues(description)[0] == 30 && back.axisValues(description)[1] == 40)
        #expect(SlotModelCheck.active(back.slots(description)) == [0: 100, 4: 101])
    }
}

/// Tracking ids of the occupied slots.
enum SlotModelCheck {
    static func active(_ slots: [SlotSnapshot]) -> [Int: Int32] {
        var result: [Int: Int32] = [:]
        for s in slots where s.isActive { result[s.slot] = s.trackingID }
        return result
    }
}
