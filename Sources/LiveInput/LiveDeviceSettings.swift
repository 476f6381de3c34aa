// SPDX-License-Identifier: MIT
import TouchCore
import Udev

/// Where one setting of a live device came from, for `touchctl devices` and logs.
public enum SettingSource: String, Hashable, Sendable {
    /// A device rule of the configuration file.
    case configuration
    /// touchd's own udev property (`TOUCHD_SCREEN`, `TOUCHD_SIZE_MM`).
    case touchdProperty = "udev TOUCHD_*"
    /// `LIBINPUT_CALIBRATION_MATRIX` or `ID_INPUT_WIDTH_MM`/`ID_INPUT_HEIGHT_MM`.
    case udevProperty = "udev"
    /// A libinput quirk (`AttrSizeHint`, `AttrResolutionHint`).
    case quirk = "libinput quirk"
    /// What the device itself reports (axis resolution), or the built-in default.
    case device
}


/// How touchd uses one live device: its mapping onto a screen, whether it
/// grabs it, and where each setting came from.
public struct LiveDeviceSettings: Hashable, Sendable {
    /// Screen, rotation, calibration and size override, ready for ``TouchPipeline/addDevice(_:description:mapping:)``.
    public var mapping: DeviceMapping
    /// Whether to take the exclusive grab (`EVIOCGRAB`).
    public var grab: Bool
    /// Whether the device is served to the compositor through a pass-through
    /// mirror (semantics §9): it is then grabbed as well.
    public var passThrough = false
    /// Where ``passThrough`` came from.
    public var passThroughSource = SettingSource.device
    /// How a touch the app world has ends on the mirror when touchd takes it
    /// (configuration key `passThroughEnding`; ``MirrorEnding/default`` otherwise).
    public var passThroughEnding = MirrorEnding.default
    /// Where ``DeviceMapping/screen`` came from.
    public var screenSource: SettingSource
    /// Where ``DeviceMapping/calibration`` came from.
    public var calibrationSource: SettingSource
    /// Where ``DeviceMapping/sizeMM`` came from (`.device` when it is nil: the
    /// pipeline uses the axis resolution or its documented fallback).
    public var sizeSource: SettingSource
    /// Malformed or unusable udev properties that were skipped, each naming the device.
    public var warnings: [String]

    /// Creates settings.
    public init(mapping: DeviceMapping = DeviceMapping(), grab: Bool = false, screenSource: SettingSource = .device,
                calibrationSource: SettingSource = .device, sizeSource: SettingSource = .device, warnings: [String] = []) {
        self.mapping = mapping
        self.grab = grab
        self.screenSource = screenSource
        self.calibrationSource = calibrationSource
        self.sizeSource = sizeSource
        self.warnings = warnings
    }

    /// Merges the configuration's rule settings with the device's udev
    /// properties. Each setting takes the first source that has it, in this
    /// order (docs/udev.md, "Which setting wins"):
    ///
    /// 1. the configuration's device rules (`rule`);
    /// 2. touchd's udev properties: `TOUCHD_SCREEN` (a screen name from
    ///    `screenNames`, or an index), `TOUCHD_SIZE_MM`;
    /// 3. the generic udev properties: `LIBINPUT_CALIBRATION_MATRIX`, and
    ///    `ID_INPUT_WIDTH_MM`/`ID_INPUT_HEIGHT_MM` when the device reports no
    ///    axis resolution (udev derives them from it, so otherwise they only
    ///    repeat it rounded to whole millimetres);
    /// 4. the device itself: screen 0, identity calibration, the size its
    ///    resolution gives (or the fallback).
    ///
    /// A malformed property is skipped with a warning naming the device.
    public static func merged(rule: DeviceRuleSettings, udev: UdevDeviceInfo, description: DeviceDescription,
                              screenNames: [String]) -> LiveDeviceSettings {
        var s = LiveDeviceSettings(grab: rule.grab ?? false)
        if let r = rule.rotation { s.mapping.rotation = r }

        if let e = rule.passThroughEnding { s.passThroughEnding = e }
        if let p = rule.passThrough {
            s.passThrough = p
            s.passThroughSource = .configuration
        } else {
            do {
                if let p = try udev.passThrough() {
                    s.passThrough = p
                    s.passThroughSource = .touchdProperty
                }
            } catch {
                s.warnings.append(error.description + " (ignored)")
            }
        }

        if let screen = rule.screen {
            s.mapping.screen = screen
            s.screenSource = .configuration
        } else if let name = udev.screen {
            if let index = screenNames.firstIndex(of: name) {
                s.mapping.screen = index
                s.screenSource = .touchdProperty
            } else if let index = Int(name), screenNames.indices.contains(index) {
                s.mapping.screen = index
                s.screenSource = .touchdProperty
            } else {
                s.warnings.append("\(udev.name): TOUCHD_SCREEN=\"\(name)\": no such screen (screens: \(screenNames.joined(separator: ", "))); using screen 0")
            }
        }

        if let m = rule.calibration {
            s.mapping.calibration = m
            s.calibrationSource = .configuration
        } else {
            do {
                if let v = try udev.calibrationMatrix() {
                    s.mapping.calibration = CalibrationMatrix(v[0], v[1], v[2], v[3], v[4], v[5])
                    s.calibrationSource = .udevProperty
                }
            } catch {
                s.warnings.append(error.description + " (ignored)")
            }
        }

        if let size = rule.sizeMM {
            s.mapping.sizeMM = size
            s.sizeSource = .configuration
        } else {
            var fromTouchd: PhysicalSize?
            do { fromTouchd = try udev.sizeOverride() } catch { s.warnings.append(error.description + " (ignored)") }
            if let size = fromTouchd {
                s.mapping.sizeMM = SizeMM(width: size.width, height: size.height)
                s.sizeSource = .touchdProperty
            } else if let size = udev.reportedSize, !Self.reportsResolution(description) {
                s.mapping.sizeMM = SizeMM(width: size.width, height: size.height)
                s.sizeSource = .udevProperty
            }
        }
        return s
    }

    private static func reportsResolution(_ d: DeviceDescription) -> Bool {
        let axes = [EventCode.absMTPositionX, EventCode.absMTPositionY, EventCode.absX, EventCode.absY]
        return axes.contains { (d.absInfo[$0]?.resolution ?? 0) > 0 }
    }
}

/// A touch device found by udev and opened, before touchd decides what to do with it.
public struct LiveDeviceCandidate: Sendable {
    /// `/dev/input/eventN`.
    public var node: String
    /// What udev says about the node: syspath, kind, properties.
    public var udev: UdevDeviceInfo
    /// What the device declares (libevdev).
    public var description: DeviceDescription

    /// Creates a candidate.
    public init(node: String, udev: UdevDeviceInfo, description: DeviceDescription) {
        self.node = node
        self.udev = udev
        self.description = description
    }
}

/// What to do with a candidate device.
public enum LiveDeviceDecision: Hashable, Sendable {
    /// Leave it alone (closed again at once), for this reason.
    case ignore(reason: String)
    /// Read it with these settings.
    case use(LiveDeviceSettings)
}
