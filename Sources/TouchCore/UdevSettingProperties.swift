// SPDX-License-Identifier: MIT
/// A udev property of a device that touchd reads as a setting but could not
/// use: names the device, the property, its value and what was expected.
package struct UdevPropertyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device (its node, or what the caller names it by).
    package var device: String
    /// The property, e.g. `TOUCHD_SIZE_MM`.
    package var property: String
    /// `KEY="value": expected ...`.
    package var message: String

    /// `device: KEY="value": expected ...`.
    package var description: String { "\(device): \(message)" }
}

/// The udev properties that are device settings (docs/udev.md), read from a
/// device's property list without I/O: the live input reads them from udev,
/// a replay from the recording's `udev` line, and both decide through
/// ``DeviceSettings`` the same way.
package struct UdevSettingProperties: Hashable, Sendable {
    /// The properties as udev gives them.
    package var properties: [String: String]
    /// The device's name in errors (its node).
    package var device: String

    /// Reads settings from `properties`; `device` names it in errors.
    package init(_ properties: [String: String], device: String) {
        self.properties = properties
        self.device = device
    }

    /// `TOUCHD_SCREEN`: a screen name or index, nil when unset or empty.
    package var screen: String? {
        guard let value = properties["TOUCHD_SCREEN"]?.trimmedWhitespace, !value.isEmpty else { return nil }
        return value
    }

    /// `TOUCHD_MIRROR=1`: touchd's own pass-through mirror, which touchd never reads.
    package var isTouchdMirror: Bool { properties["TOUCHD_MIRROR"]?.trimmedWhitespace == "1" }

    /// `TOUCHD_IGNORE`: true when a udev rule tells touchd to leave the device alone.
    ///
    /// - Throws: ``UdevPropertyError`` for a value other than `1/0`,
    ///   `true/false`, `yes/no`, `on/off` (any case) or empty.
    package func ignore() throws(UdevPropertyError) -> Bool {
        guard let raw = properties["TOUCHD_IGNORE"] else { return false }
        if raw.trimmedWhitespace.isEmpty { return false }
        return try flag("TOUCHD_IGNORE", raw)
    }

    /// `TOUCHD_PASS_THROUGH`: serve the device through a pass-through mirror
    /// (semantics §9); nil when unset.
    ///
    /// - Throws: ``UdevPropertyError`` for a value other than `1/0`,
    ///   `true/false`, `yes/no`, `on/off` (any case).
    package func passThrough() throws(UdevPropertyError) -> Bool? {
        guard let raw = properties["TOUCHD_PASS_THROUGH"] else { return nil }
        return try flag("TOUCHD_PASS_THROUGH", raw)
    }

    /// `TOUCHD_SIZE_MM` (`WIDTHxHEIGHT`, e.g. `293.5x165`): the active area's
    /// size, overriding what the device reports; nil when unset.
    ///
    /// - Throws: ``UdevPropertyError`` when malformed or not positive.
    package func sizeOverride() throws(UdevPropertyError) -> SizeMM? {
        guard let raw = properties["TOUCHD_SIZE_MM"] else { return nil }
        let parts = raw.trimmedWhitespace.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width > 0, height > 0, width.isFinite, height.isFinite else {
            throw bad("TOUCHD_SIZE_MM", raw, expected: "WIDTHxHEIGHT in millimetres, e.g. 293.5x165")
        }
        return SizeMM(width: width, height: height)
    }

    /// `ID_INPUT_WIDTH_MM` and `ID_INPUT_HEIGHT_MM`, which udev derives from the
    /// axis resolution; nil unless both are present and positive numbers.
    package var reportedSize: SizeMM? {
        guard let w = properties["ID_INPUT_WIDTH_MM"].flatMap({ Double($0.trimmedWhitespace) }),
              let h = properties["ID_INPUT_HEIGHT_MM"].flatMap({ Double($0.trimmedWhitespace) }),
              w > 0, h > 0, w.isFinite, h.isFinite else { return nil }
        return SizeMM(width: w, height: h)
    }

    /// `LIBINPUT_CALIBRATION_MATRIX` as libinput reads it: the first two rows
    /// `a b c d e f` of a 3x3 matrix applied to coordinates normalized to 0...1.
    ///
    /// - Returns: nil when unset.
    /// - Throws: ``UdevPropertyError`` unless it is exactly six finite numbers.
    package func calibrationMatrix() throws(UdevPropertyError) -> [Double]? {
        guard let raw = properties["LIBINPUT_CALIBRATION_MATRIX"] else { return nil }
        let numbers = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Double($0) }
        guard numbers.count == 6, numbers.allSatisfy({ $0?.isFinite ?? false }) else {
            throw bad("LIBINPUT_CALIBRATION_MATRIX", raw, expected: "six numbers, e.g. 1 0 0 0 1 0")
        }
        return numbers.compactMap { $0 }
    }

    private func flag(_ key: String, _ raw: String) throws(UdevPropertyError) -> Bool {
        switch raw.trimmedWhitespace.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw bad(key, raw, expected: "1 or 0 (also true/false, yes/no, on/off)")
        }
    }

    private func bad(_ key: String, _ raw: String, expected: String) -> UdevPropertyError {
        UdevPropertyError(device: device, property: key, message: "\(key)=\"\(raw)\": expected \(expected)")
    }
}

extension String {
    var trimmedWhitespace: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
