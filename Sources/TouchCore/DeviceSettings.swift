// SPDX-License-Identifier: MIT
/// Where one setting of a device came from (docs/udev.md, "Which setting
/// wins"), so that `touchctl devices` and the log can say why: "screen 1
/// from udev TOUCHD_SCREEN", "pass-through from touchd.yaml line 12".
package enum SettingOrigin: Hashable, Sendable, CustomStringConvertible {
    /// A key of the configuration file's device rules: its path
    /// (`devices[1].screen`), and the file and line when the configuration
    /// was read from a file.
    case configuration(key: String, file: String?, line: Int?)
    /// A udev property (`TOUCHD_SCREEN`, `LIBINPUT_CALIBRATION_MATRIX`,
    /// `ID_INPUT_WIDTH_MM`...), live or recorded with the device.
    case udevProperty(String)
    /// A libinput quirk (`AttrSizeHint`, `AttrResolutionHint`).
    case quirk
    /// What the device itself reports (axis resolution), or the built-in default.
    case device

    /// `configuration, FILE line N (devices[0].screen)`, `udev TOUCHD_SCREEN`,
    /// `libinput quirk`, `default`.
    package var description: String {
        switch self {
        case .configuration(let key, let file, let line):
            guard let file, let line else { return "configuration (\(key))" }
            return "configuration, \(file) line \(line) (\(key))"
        case .udevProperty(let name): return "udev \(name)"
        case .quirk: return "libinput quirk"
        case .device: return "default"
        }
    }

    /// Whether the setting came from the configuration file.
    package var isConfiguration: Bool {
        if case .configuration = self { return true }
        return false
    }
}

/// How touchd uses one device, decided once for every path (the live daemon,
/// `touchctl`, `touchd --replay`, offline replay): its mapping onto a screen,
/// whether it is grabbed or passed through, and where each setting came from.
package struct DeviceSettings: Hashable, Sendable {
    /// Screen, rotation, calibration, size override and quirks, ready for
    /// ``TouchPipeline/addDevice(_:description:mapping:state:)``.
    package var mapping = DeviceMapping()
    /// Whether to take the exclusive grab (`EVIOCGRAB`).
    package var grab = false
    /// Whether the device is served to the compositor through a pass-through
    /// mirror (semantics §9): it is then grabbed as well.
    package var passThrough = false
    /// How a touch the app world has ends on the mirror when touchd takes it
    /// (configuration key `passThroughEnding`; `auto` is decided when the
    /// mirror writes, from what is known of the compositor).
    package var passThroughEnding = MirrorEndingSetting.default
    /// Where each setting came from.
    package var origins = Origins()
    /// Malformed or unusable udev properties that were skipped, each naming the device.
    package var warnings: [String] = []

    /// Where each setting of ``DeviceSettings`` came from.
    package struct Origins: Hashable, Sendable {
        /// Of ``DeviceMapping/screen``.
        package var screen = SettingOrigin.device
        /// Of ``DeviceMapping/rotation``.
        package var rotation = SettingOrigin.device
        /// Of ``DeviceMapping/calibration``.
        package var calibration = SettingOrigin.device
        /// Of ``DeviceMapping/sizeMM`` (`.device` when it is nil: the pipeline
        /// uses the axis resolution or its documented fallback).
        package var size = SettingOrigin.device
        /// Of ``DeviceSettings/grab``.
        package var grab = SettingOrigin.device
        /// Of ``DeviceSettings/passThrough``.
        package var passThrough = SettingOrigin.device
        /// Of ``DeviceSettings/passThroughEnding``.
        package var passThroughEnding = SettingOrigin.device

        /// Every setting from the device or the default.
        package init() {}
    }

    /// The defaults: screen 0, no grab, no pass-through, everything from the device.
    package init(mapping: DeviceMapping = DeviceMapping()) {
        self.mapping = mapping
    }
}

/// What to do with a device: the one decision every path makes the same way.
package enum DeviceSettingsDecision: Hashable, Sendable {
    /// Leave it alone, for this reason.
    case ignore(reason: String)
    /// Read it with these settings.
    case use(DeviceSettings)

    /// The settings, nil when the device is ignored.
    package var settings: DeviceSettings? {
        if case .use(let s) = self { return s }
        return nil
    }

    /// Why the device is ignored, nil when it is used.
    package var ignoredBecause: String? {
        if case .ignore(let reason) = self { return reason }
        return nil
    }
}
