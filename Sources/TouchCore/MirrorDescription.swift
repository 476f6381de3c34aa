// SPDX-License-Identifier: MIT
/// What touchd's pass-through mirror of a touch device declares: the device
/// touchd creates through uinput when it grabs a real touchscreen, and to
/// which it writes only what the app world may see (docs/pass-through.md).
///
/// The mirror looks like the original to libinput and the compositor (the
/// same name, ids, properties, ranges and resolutions, so the same size in
/// millimetres, the same quirks by id, and the compositor's per-device
/// settings keyed by `<vendor>:<product>:<name>` apply to it), with three
/// differences:
/// - its phys is ``phys(key:)``, `touchd-mirror-<key>` (the original's
///   node, `event5`): the marker by which touchd never reads its own mirrors
///   (the shipped udev rule marks them `TOUCHD_MIRROR=1`, and imports the
///   original's udev properties from `/run/touchd/<phys>`); a person tells
///   them apart by it and by their node (`touchctl devices`, `libinput
///   list-devices`' "Kernel:");
/// - it always speaks multitouch protocol B (`ABS_MT_SLOT`,
///   `ABS_MT_TRACKING_ID`), whatever the original speaks: protocol A and
///   single-touch originals get 10 slots;
/// - it always has `ABS_MT_TOOL_TYPE` with `MT_TOOL_PALM` in range, which is
///   how touchd cancels a contact (``MirrorConventions``).
///
/// A pen without fingers (a pen-only node, as Wacom's `... Pen`) gets no
/// multitouch axes at all: it stays the tablet it was.
///
/// Of the original it keeps only what touch and pen input use: `BTN_TOUCH`
/// (always declared), `BTN_TOOL_FINGER`...`BTN_TOOL_QUINTTAP`, pen tools and
/// stylus buttons, `ABS_X`/`ABS_Y` (always), `ABS_PRESSURE`, `ABS_DISTANCE`,
/// `ABS_TILT_X`/`Y`, a pen's `ABS_MISC` (its tool id), `ABS_Z` and `ABS_WHEEL`, the contact shape axes (`ABS_MT_PRESSURE`,
/// `ABS_MT_TOUCH_*`, `ABS_MT_WIDTH_*`, `ABS_MT_ORIENTATION`,
/// `ABS_MT_DISTANCE`), `MSC_TIMESTAMP` and a pen's `MSC_SERIAL`. It adds no `BTN_TOOL_FINGER` and no
/// `INPUT_PROP_POINTER`: udev's `input_id` calls it a touchscreen exactly when
/// it calls the original one.
package enum MirrorDescription {
    /// What mirrors of earlier touchd versions appended to the original's
    /// name (`"Atmel maXTouch Touchscreen (touchd pass-through)"`): such a
    /// device is still recognised as a mirror. Mirrors now keep the original's name.
    package static let nameSuffix = " (touchd pass-through)"

    /// The start of a mirror's phys: `touchd-mirror-<key>`.
    package static let physPrefix = "touchd-mirror-"

    /// A mirror's phys for `key` (the original's node name, `event5`), kept
    /// to what uinput takes and what a udev file name may hold.
    package static func phys(key: String) -> String {
        let safe = key.unicodeScalars.map { s -> Character in
            (s.isASCII && (s.properties.isAlphabetic || s.properties.numericType != nil || s == "-" || s == "_")) ? Character(s) : "_"
        }
        return physPrefix + String(String(safe).prefix(48))
    }

    /// Whether a device of this phys is a touchd mirror.
    package static func isMirror(phys: String?) -> Bool {
        phys?.hasPrefix(physPrefix) ?? false
    }

    /// The udev properties of the original that its mirror carries too
    /// (written to `/run/touchd/<phys>`, imported by the shipped rule
    /// `90-touchd-mirror.rules`): what libinput and compositors read per
    /// device. `LIBINPUT_*` (calibration, device group, ignore, quirks
    /// overrides), `WL_*` (`WL_OUTPUT`, `WL_SEAT`), `ID_INPUT_WIDTH_MM` and
    /// `ID_INPUT_HEIGHT_MM`, `ID_SEAT`. Sorted by name.
    package static func carriedProperties(_ properties: [String: String]) -> [(key: String, value: String)] {
        properties.filter { key, value in
            (key.hasPrefix("LIBINPUT_") || key.hasPrefix("WL_") || key == "ID_INPUT_WIDTH_MM" || key == "ID_INPUT_HEIGHT_MM"
                || key == "ID_SEAT") && !value.contains("\n") && !key.contains("=")
        }.sorted { $0.key < $1.key }.map { (key: $0.key, value: $0.value) }
    }

    /// uinput's name limit (`UINPUT_MAX_NAME_SIZE`, 80 bytes with the terminating NUL).
    package static let maximumNameBytes = 79

    /// Slots of a mirror whose original has none (protocol A or single-touch):
    /// as many as libinput gives a protocol A device through mtdev.
    package static let defaultSlotCount = 10

    /// The mirror's description for `original`; `key` names it in its phys
    /// (``phys(key:)``: the original's node name).
    package static func make(from original: DeviceDescription, key: String = "0") -> DeviceDescription {
        var mirror = DeviceDescription(
            name: String(original.name.utf8.prefix(maximumNameBytes)) ?? original.name, id: original.id,
            properties: original.properties, phys: phys(key: key))
        mirror.codes[.syn] = CodeSet([EventCode.synReport, EventCode.synDropped])

        // Keys: touch, finger counts, pen tools and stylus buttons the original has; BTN_TOUCH always.
        mirror.enable(.key, EventCode.btnTouch)
        for code in keptKeys where original.supports(.key, code) { mirror.enable(.key, code) }

        // Positions: the MT axes, else the single-touch ones; ABS_X/ABS_Y too, which libinput requires.
        let positionX = original.declaredAbsInfo(EventCode.absMTPositionX) ?? original.declaredAbsInfo(EventCode.absX)
            ?? AbsInfo(minimum: 0, maximum: 0)
        let positionY = original.declaredAbsInfo(EventCode.absMTPositionY) ?? original.declaredAbsInfo(EventCode.absY)
            ?? AbsInfo(minimum: 0, maximum: 0)
        mirror.enable(.abs, EventCode.absX, absInfo: original.declaredAbsInfo(EventCode.absX) ?? positionX)
        mirror.enable(.abs, EventCode.absY, absInfo: original.declaredAbsInfo(EventCode.absY) ?? positionY)
        mirror.enable(.abs, EventCode.absMTPositionX, absInfo: positionX)
        mirror.enable(.abs, EventCode.absMTPositionY, absInfo: positionY)
        for code in keptAxes {
            if let info = original.declaredAbsInfo(code) { mirror.enable(.abs, code, absInfo: info) }
        }
        // A single-touch original's pressure is each contact's pressure on the mirror.
        if let pressure = original.declaredAbsInfo(EventCode.absMTPressure) ?? original.declaredAbsInfo(EventCode.absPressure) {
            mirror.enable(.abs, EventCode.absMTPressure, absInfo: pressure)
        }

        if original.supports(.msc, EventCode.mscTimestamp) { mirror.enable(.msc, EventCode.mscTimestamp) }
        // A pen's tool serial (Wacom): libinput tells tools apart by it.
        if original.supports(.msc, EventCode.mscSerial) { mirror.enable(.msc, EventCode.mscSerial) }

        let classification = DeviceClassification(original)
        // A pen's tool id (Wacom), art pen rotation and airbrush wheel (other devices' are not a pen's).
        if classification.hasStylus {
            for code in [EventCode.absMisc, EventCode.absZ, EventCode.absWheel] {
                if let info = original.declaredAbsInfo(code) { mirror.enable(.abs, code, absInfo: info) }
            }
        }
        // A pen without fingers stays one (no multitouch axes a tablet never had); the pen is on ABS_X/ABS_Y.
        if classification.hasStylus && classification.fingerType == nil && original.slotCount == 0
            && !original.supports(.abs, EventCode.absMTPositionX) {
            mirror.codes[.abs]?.remove(EventCode.absMTPositionX)
            mirror.codes[.abs]?.remove(EventCode.absMTPositionY)
            mirror.codes[.abs]?.remove(EventCode.absMTPressure)
            mirror.absInfo[EventCode.absMTPositionX] = nil
            mirror.absInfo[EventCode.absMTPositionY] = nil
            mirror.absInfo[EventCode.absMTPressure] = nil
            return mirror
        }

        // Protocol B always.
        let slots = original.slotCount > 0 ? original.declaredAbsInfo(EventCode.absMTSlot) : nil
        mirror.enable(.abs, EventCode.absMTSlot, absInfo: slots ?? AbsInfo(minimum: 0, maximum: Int32(defaultSlotCount - 1)))
        mirror.enable(.abs, EventCode.absMTTrackingID, absInfo: AbsInfo(minimum: 0, maximum: 65535))
        // MT_TOOL_PALM must be in range whatever the original declares: it is how a contact is cancelled.
        let toolMaximum = max(original.declaredAbsInfo(EventCode.absMTToolType)?.maximum ?? 0, EventCode.mtToolPalm)
        mirror.enable(.abs, EventCode.absMTToolType, absInfo: AbsInfo(minimum: 0, maximum: toolMaximum))
        return mirror
    }

    /// `name` with ``nameSuffix``, the original part cut (at a character
    /// boundary) so that the whole fits ``maximumNameBytes``.
    package static func name(for name: String) -> String {
        let room = maximumNameBytes - nameSuffix.utf8.count
        var kept = Substring(name)
        while kept.utf8.count > room { kept.removeLast() }
        return kept + nameSuffix
    }

    /// Whether a device of this name is a touchd mirror.
    package static func isMirror(name: String) -> Bool {
        name.hasSuffix(nameSuffix)
    }

    /// `BTN_TOOL_FINGER`...`BTN_TOOL_QUINTTAP`, pen tools, stylus buttons.
    static let keptKeys: [UInt16] = [
        EventCode.btnToolFinger, EventCode.btnToolDoubleTap, EventCode.btnToolTripleTap,
        EventCode.btnToolQuadTap, EventCode.btnToolQuintTap,
        EventCode.btnToolPen, EventCode.btnToolRubber, EventCode.btnToolBrush, EventCode.btnToolPencil,
        EventCode.btnToolAirbrush, EventCode.btnStylus, EventCode.btnStylus2, EventCode.btnStylus3,
    ]

    /// Copied with their absinfo when the original has them.
    static let keptAxes: [UInt16] = [
        EventCode.absPressure, EventCode.absDistance, EventCode.absTiltX, EventCode.absTiltY,
        EventCode.absMTTouchMajor, EventCode.absMTTouchMinor, EventCode.absMTWidthMajor,
        EventCode.absMTWidthMinor, EventCode.absMTOrientation, EventCode.absMTDistance,
    ]
}

extension DeviceDescription {
    /// The absinfo of `code` when the device declares that axis.
    fileprivate func declaredAbsInfo(_ code: UInt16) -> AbsInfo? {
        supports(.abs, code) ? absInfo[code] ?? AbsInfo(minimum: 0, maximum: 0) : nil
    }
}
