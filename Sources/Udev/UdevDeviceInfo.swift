// SPDX-License-Identifier: MIT
import TouchCore

/// The kind of touch device udev's `input_id` builtin says a node is.
package enum TouchDeviceKind: String, Hashable, Sendable, CaseIterable {
    /// `ID_INPUT_TOUCHSCREEN=1`
    case touchscreen
    /// `ID_INPUT_TABLET=1`: graphics tablets and pens (including screen pens).
    case tablet
    /// `ID_INPUT_TOUCHPAD=1`
    case touchpad
}

extension UdevError {
    /// A setting property that could not be read (``UdevSettingProperties``).
    init(_ error: UdevPropertyError) {
        self.init(.badProperty, subject: error.device, message: error.message)
    }
}

/// One udev device (normally an input event node) with its properties, and
/// typed accessors for the properties touchd uses (see docs/udev.md).
package struct UdevDeviceInfo: Hashable, Sendable {
    /// `/sys/devices/.../input/inputN/eventM`.
    package var syspath: String
    /// `/dev/input/eventM`, nil for devices without a node (the `inputN` parent).
    package var devnode: String?
    /// `eventM`.
    package var sysname: String
    /// Whether udev has processed the device (its rules ran, its properties are final).
    package var isInitialized: Bool
    /// Every udev property (`ID_INPUT_*`, `LIBINPUT_*`, `TOUCHD_*`, ...).
    package var properties: [String: String]

    /// Creates a device record.
    package init(
        syspath: String, devnode: String? = nil, sysname: String, isInitialized: Bool = true,
        properties: [String: String] = [:]
    ) {
        self.syspath = syspath
        self.devnode = devnode
        self.sysname = sysname
        self.isInitialized = isInitialized
        self.properties = properties
    }

    /// The device node, else the syspath: how errors name the device.
    package var name: String { devnode ?? syspath }

    /// Whether this is an evdev node (`eventN`), the only kind touchd reads.
    package var isEventNode: Bool { sysname.hasPrefix("event") }

    /// `ID_INPUT_TOUCHSCREEN=1`
    package var isTouchscreen: Bool { flag("ID_INPUT_TOUCHSCREEN") }
    /// `ID_INPUT_TABLET=1`
    package var isTablet: Bool { flag("ID_INPUT_TABLET") }
    /// `ID_INPUT_TOUCHPAD=1`
    package var isTouchpad: Bool { flag("ID_INPUT_TOUCHPAD") }

    /// The touch kind, checked in the order touchscreen, tablet, touchpad; nil
    /// for every other input device (keyboards, mice, ...), which touchd ignores.
    package var touchKind: TouchDeviceKind? {
        if isTouchscreen { return .touchscreen }
        if isTablet { return .tablet }
        if isTouchpad { return .touchpad }
        return nil
    }

    /// The properties that are device settings (`TOUCHD_*`,
    /// `LIBINPUT_CALIBRATION_MATRIX`, `ID_INPUT_WIDTH_MM`...), read as every
    /// path reads them (TouchCore's ``UdevSettingProperties``).
    package var settingProperties: UdevSettingProperties { UdevSettingProperties(properties, device: name) }

    /// `TOUCHD_SCREEN`: a screen name or index, nil when unset or empty.
    package var screen: String? { settingProperties.screen }

    /// `TOUCHD_MIRROR=1`: touchd's own pass-through mirror (set by the shipped
    /// rule in `70-touchd.rules` on devices whose phys starts `touchd-mirror-`),
    /// which touchd never reads.
    package var isTouchdMirror: Bool { settingProperties.isTouchdMirror }

    /// `TOUCHD_IGNORE`: true when a udev rule tells touchd to leave the device alone.
    ///
    /// - Throws: ``UdevError`` `.badProperty` for a value other than
    ///   `1/0`, `true/false`, `yes/no`, `on/off` (any case) or empty.
    package func isIgnored() throws(UdevError) -> Bool {
        do { return try settingProperties.ignore() } catch { throw UdevError(error) }
    }

    /// `TOUCHD_PASS_THROUGH`: serve the device through a pass-through mirror
    /// (semantics §9); nil when unset.
    ///
    /// - Throws: ``UdevError`` `.badProperty` for a value other than
    ///   `1/0`, `true/false`, `yes/no`, `on/off` (any case).
    package func passThrough() throws(UdevError) -> Bool? {
        do { return try settingProperties.passThrough() } catch { throw UdevError(error) }
    }

    /// `TOUCHD_SIZE_MM` (`WIDTHxHEIGHT`, e.g. `293.5x165`): the active area's size, overriding what the device reports.
    ///
    /// - Returns: nil when unset.
    /// - Throws: ``UdevError`` `.badProperty` when malformed or not positive.
    package func sizeOverride() throws(UdevError) -> SizeMM? {
        do { return try settingProperties.sizeOverride() } catch { throw UdevError(error) }
    }

    /// `ID_INPUT_WIDTH_MM` and `ID_INPUT_HEIGHT_MM`, which udev derives from the
    /// axis resolution; nil unless both are present and positive numbers.
    package var reportedSize: SizeMM? { settingProperties.reportedSize }

    /// The size touchd uses: `TOUCHD_SIZE_MM` when set, else `ID_INPUT_WIDTH_MM`/`HEIGHT_MM`.
    package func size() throws(UdevError) -> SizeMM? {
        try sizeOverride() ?? reportedSize
    }

    /// `LIBINPUT_CALIBRATION_MATRIX` as written (six numbers separated by spaces).
    package var calibrationMatrixText: String? { properties["LIBINPUT_CALIBRATION_MATRIX"] }

    /// `LIBINPUT_CALIBRATION_MATRIX` as libinput reads it: the first two rows
    /// `a b c d e f` of a 3x3 matrix applied to coordinates normalized to 0...1:
    /// `x' = a*x + b*y + c`, `y' = d*x + e*y + f`.
    ///
    /// - Returns: nil when unset.
    /// - Throws: ``UdevError`` `.badProperty` unless it is exactly six finite numbers.
    package func calibrationMatrix() throws(UdevError) -> [Double]? {
        do { return try settingProperties.calibrationMatrix() } catch { throw UdevError(error) }
    }

    private func flag(_ key: String) -> Bool { properties[key] == "1" }
}
