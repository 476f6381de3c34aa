// SPDX-License-Identifier: MIT
import Quirks
import TouchCore

extension TouchdConfiguration {
    /// The one decision about a device, for every path (the live daemon at
    /// enumeration, hot-plug, udev `change` and reload; `touchctl`; `touchd
    /// --replay` and offline replay of a recording's devices): ignored when a
    /// rule or `TOUCHD_IGNORE` says so or when no touch can come from it
    /// (``DeviceClassification/unusableReason``), else its settings with where
    /// each came from. Each setting takes the first source that has it
    /// (docs/udev.md, "Which setting wins"):
    ///
    /// 1. the configuration's device rules (a later matching rule overrides
    ///    the keys it sets);
    /// 2. touchd's udev properties: `TOUCHD_SCREEN` (a screen name, or an
    ///    index), `TOUCHD_SIZE_MM`, `TOUCHD_PASS_THROUGH`;
    /// 3. the generic udev properties: `LIBINPUT_CALIBRATION_MATRIX`, and
    ///    `ID_INPUT_WIDTH_MM`/`ID_INPUT_HEIGHT_MM` when the device reports no
    ///    axis resolution (udev derives them from it, so otherwise they only
    ///    repeat it rounded to whole millimetres);
    /// 4. libinput's quirks (a size hint);
    /// 5. the device itself: screen 0, identity calibration, the size its
    ///    resolution gives (or the fallback).
    ///
    /// A malformed udev property is skipped with a warning naming the device.
    /// `udevProperties` are the device's (live: udev's; replay: the
    /// recording's); `node` names the device in warnings.
    package func deviceSettings(for description: DeviceDescription, syspath: String? = nil,
                               udevProperties: [String: String] = [:], node: String? = nil) -> DeviceSettingsDecision {
        let udev = UdevSettingProperties(udevProperties, device: node ?? description.name)
        var s = DeviceSettings()
        var ignoredBecause: String?
        var ruleScreen: Int?
        var ruleSize: SizeMM?
        var ruleCalibration: CalibrationMatrix?
        func origin(_ i: Int, _ key: String) -> SettingOrigin {
            let path = "devices[\(i)].\(key)"
            return .configuration(key: path, file: source?.file, line: source?.root.line(of: path))
        }
        for (i, rule) in devices.enumerated() where rule.match.matches(description, syspath: syspath, udevProperties: udevProperties) {
            switch rule.screen {
            case .index(let n)?:
                ruleScreen = n
                s.origins.screen = origin(i, "screen")
            case .name(let n)?:
                if let index = screens.firstIndex(where: { $0.name == n }) {
                    ruleScreen = index
                    s.origins.screen = origin(i, "screen")
                }
            case nil: break
            }
            if let r = rule.rotation {
                s.mapping.rotation = r
                s.origins.rotation = origin(i, "rotation")
            }
            if let m = rule.calibration {
                ruleCalibration = CalibrationMatrix(m[0], m[1], m[2], m[3], m[4], m[5])
                s.origins.calibration = origin(i, "calibration")
            }
            if let size = rule.sizeMM {
                ruleSize = size
                s.origins.size = origin(i, "sizeMM")
            }
            if let ignore = rule.ignore { ignoredBecause = ignore ? "ignored by devices[\(i)] of the configuration" : nil }
            if let g = rule.grab {
                s.grab = g
                s.origins.grab = origin(i, "grab")
            }
            if let p = rule.passThrough {
                s.passThrough = p
                s.origins.passThrough = origin(i, "passThrough")
            }
            if let e = rule.passThroughEnding {
                s.passThroughEnding = e
                s.origins.passThroughEnding = origin(i, "passThroughEnding")
            }
        }
        if let reason = ignoredBecause { return .ignore(reason: reason) }
        do {
            if try udev.ignore() {
                return .ignore(reason: "udev property TOUCHD_IGNORE=\(udevProperties["TOUCHD_IGNORE"] ?? "")")
            }
        } catch {
            s.warnings.append(error.description + " (device not ignored)")
        }
        // udev may call it a touchscreen while its absinfo makes it useless (no range).
        if let reason = DeviceClassification(description).unusableReason { return .ignore(reason: reason) }

        if !s.origins.passThrough.isConfiguration {
            do {
                if let p = try udev.passThrough() {
                    s.passThrough = p
                    s.origins.passThrough = .udevProperty("TOUCHD_PASS_THROUGH")
                }
            } catch {
                s.warnings.append(error.description + " (ignored)")
            }
        }

        if let screen = ruleScreen {
            s.mapping.screen = screen
        } else if let name = udev.screen {
            if let index = screens.firstIndex(where: { $0.name == name }) ?? Int(name).flatMap({ screens.indices.contains($0) ? $0 : nil }) {
                s.mapping.screen = index
                s.origins.screen = .udevProperty("TOUCHD_SCREEN")
            } else {
                s.warnings.append("\(udev.device): TOUCHD_SCREEN=\"\(name)\": no such screen (screens: \(screens.map(\.name).joined(separator: ", "))); using screen 0")
            }
        }

        if let m = ruleCalibration {
            s.mapping.calibration = m
        } else {
            do {
                if let v = try udev.calibrationMatrix() {
                    s.mapping.calibration = CalibrationMatrix(v[0], v[1], v[2], v[3], v[4], v[5])
                    s.origins.calibration = .udevProperty("LIBINPUT_CALIBRATION_MATRIX")
                }
            } catch {
                s.warnings.append(error.description + " (ignored)")
            }
        }

        if let size = ruleSize {
            s.mapping.sizeMM = size
        } else {
            var fromTouchd: SizeMM?
            do { fromTouchd = try udev.sizeOverride() } catch { s.warnings.append(error.description + " (ignored)") }
            if let size = fromTouchd {
                s.mapping.sizeMM = size
                s.origins.size = .udevProperty("TOUCHD_SIZE_MM")
            } else if let size = udev.reportedSize, !Self.reportsResolution(description) {
                s.mapping.sizeMM = size
                s.origins.size = .udevProperty("ID_INPUT_WIDTH_MM/ID_INPUT_HEIGHT_MM")
            }
        }

        // Quirks come below the rules and udev: they size the device only when those did not.
        var described = description
        described.udevProperties = udevProperties
        quirks.attributes(for: described).apply(to: &s.mapping, description: description)
        if s.mapping.sizeFromQuirk { s.origins.size = .quirk }
        return .use(s)
    }

    private static func reportsResolution(_ d: DeviceDescription) -> Bool {
        let axes = [EventCode.absMTPositionX, EventCode.absMTPositionY, EventCode.absX, EventCode.absY]
        return axes.contains { (d.absInfo[$0]?.resolution ?? 0) > 0 }
    }
}
