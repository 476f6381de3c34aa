// SPDX-License-Identifier: MIT
/// How a contact is written to touchd's pass-through mirror
/// (``MirrorDescription``) so that libinput reports it as meant: the
/// protocol B events of one slot within a frame, which the caller follows
/// with ``frameEnd`` once every changed slot is written. Checked against real
/// libinput (`libinput debug-events`) by the guest suite `MirrorDeviceTests`.
///
/// - Down: ``down(slot:trackingID:x:y:firstContact:)``. `ABS_MT_TOOL_TYPE`
///   `MT_TOOL_FINGER` comes before `ABS_MT_TRACKING_ID`: libinput reads the
///   slot's tool type when a new tracking id starts, and a slot still marked
///   palm from an earlier cancel swallows the whole new contact (no
///   TOUCH_DOWN, no TOUCH_UP).
/// - Lift: ``end(slot:lastContact:)``, reported as TOUCH_UP.
/// - Cancel: ``palm(slot:)`` in one frame, then ``end(slot:lastContact:)``
///   in the next. libinput reports TOUCH_CANCEL (and TOUCH_FRAME) for the
///   palm frame and nothing for the end. This is decided in libinput's
///   src/evdev-fallback.c (the touchscreen dispatch; libinput 1.22 in
///   Debian 12): `fallback_process_touch` turns `ABS_MT_TOOL_TYPE`
///   = `MT_TOOL_PALM` on a slot in `PALM_NONE` into `PALM_NEW` (palm
///   handling needs only that the device declares `ABS_MT_TOOL_TYPE`,
///   `dispatch->mt.has_palm`), and at `SYN_REPORT`
///   `fallback_flush_mt_events` calls `fallback_flush_mt_cancel` (TOUCH_CANCEL)
///   for a `PALM_NEW` slot that is not just beginning, then marks it
///   `PALM_IS_PALM`, for which the tracking id -1 sends no TOUCH_UP. The end
///   frame also writes `MT_TOOL_FINGER` back, so the slot's next contact is
///   a finger again.
/// - A palm in the very frame that starts a contact sends nothing at all (no
///   down to cancel): cancel only contacts libinput has seen go down.
///
/// `BTN_TOUCH` and `ABS_X`/`ABS_Y` are for readers of the legacy axes
/// (libinput ignores them on multitouch devices): `BTN_TOUCH` 1 with the
/// first contact down, 0 with the last one ended.
package enum MirrorConventions {
    /// `SYN_REPORT`, ending a frame.
    package static let frameEnd = [event(.syn, EventCode.synReport, 0)]

    /// A new contact in `slot`; `firstContact` when no other contact is down (adds `BTN_TOUCH` 1).
    package static func down(slot: Int32, trackingID: Int32, x: Int32, y: Int32, firstContact: Bool) -> [InputEvent] {
        var events = [
            event(.abs, EventCode.absMTSlot, slot),
            // Before the tracking id: libinput reads the tool type when the contact starts.
            event(.abs, EventCode.absMTToolType, EventCode.mtToolFinger),
            event(.abs, EventCode.absMTTrackingID, trackingID),
            event(.abs, EventCode.absMTPositionX, x),
            event(.abs, EventCode.absMTPositionY, y),
            event(.abs, EventCode.absX, x),
            event(.abs, EventCode.absY, y),
        ]
        if firstContact { events.append(event(.key, EventCode.btnTouch, 1)) }
        return events
    }

    /// The contact in `slot` moved.
    package static func motion(slot: Int32, x: Int32, y: Int32) -> [InputEvent] {
        [
            event(.abs, EventCode.absMTSlot, slot),
            event(.abs, EventCode.absMTPositionX, x),
            event(.abs, EventCode.absMTPositionY, y),
            event(.abs, EventCode.absX, x),
            event(.abs, EventCode.absY, y),
        ]
    }

    /// The first half of a cancel: the contact in `slot` becomes a palm
    /// (libinput: TOUCH_CANCEL). Follow it, in a later frame, with ``end(slot:lastContact:)``.
    package static func palm(slot: Int32) -> [InputEvent] {
        [
            event(.abs, EventCode.absMTSlot, slot),
            event(.abs, EventCode.absMTToolType, EventCode.mtToolPalm),
        ]
    }

    /// The contact in `slot` ends: lifted (libinput: TOUCH_UP), or the second
    /// half of a cancel (nothing). `lastContact` when no other contact stays down
    /// (adds `BTN_TOUCH` 0).
    package static func end(slot: Int32, lastContact: Bool) -> [InputEvent] {
        var events = [
            event(.abs, EventCode.absMTSlot, slot),
            event(.abs, EventCode.absMTTrackingID, -1),
            // A cancelled contact's slot is a finger again for its next contact.
            event(.abs, EventCode.absMTToolType, EventCode.mtToolFinger),
        ]
        if lastContact { events.append(event(.key, EventCode.btnTouch, 0)) }
        return events
    }

    private static func event(_ type: EventType, _ code: UInt16, _ value: Int32) -> InputEvent {
        InputEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value)
    }
}
