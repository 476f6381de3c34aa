// SPDX-License-Identifier: MIT
import Quirks
import Testing
import TouchCore
import TouchTesting
import Trace
@testable import Session

/// The one decision about a device (docs/udev.md, "Which setting wins"):
/// configuration > TOUCHD_* > LIBINPUT_*/ID_INPUT_* > quirks > device, with
/// where each setting came from, the same for live devices and recordings.
@Suite struct DeviceSettingsDeciderTests {
    static let screensYAML = """
        screens:
          - {name: eDP-1, width: 1920, height: 1080}
          - {name: HDMI-A-1, width: 1920, height: 1080}
          - {name: DP-2, width: 1920, height: 1080}

        """

    static func configuration(_ devices: String = "") throws -> TouchdConfiguration {
        try TouchdConfiguration.parse(yaml: screensYAML + devices, file: "/etc/touchd/touchd.yaml")
    }

    static func device(resolution: Int32) -> DeviceDescription {
        var d = DeviceDescription(name: "Test Touchscreen")
        d.enable(.key, EventCode.btnTouch)
        d.enable(.abs, EventCode.absX, absInfo: AbsInfo(minimum: 0, maximum: 4095, resolution: resolution))
        d.enable(.abs, EventCode.absY, absInfo: AbsInfo(minimum: 0, maximum: 2047, resolution: resolution))
        return d
    }

    static let allProperties = [
        "ID_INPUT_TOUCHSCREEN": "1", "TOUCHD_SCREEN": "HDMI-A-1", "TOUCHD_SIZE_MM": "300x200", "TOUCHD_PASS_THROUGH": "1",
        "LIBINPUT_CALIBRATION_MATRIX": "-1 0 1 0 -1 1", "ID_INPUT_WIDTH_MM": "250", "ID_INPUT_HEIGHT_MM": "150",
    ]

    static func settings(_ c: TouchdConfiguration, _ d: DeviceDescription, _ udev: [String: String],
                         sourceLocation: SourceLocation = #_sourceLocation) throws -> DeviceSettings {
        try #require(c.deviceSettings(for: d, udevProperties: udev, node: "/dev/input/event7").settings, sourceLocation: sourceLocation)
    }

    @Test func configurationRuleWinsOverEveryUdevPropertyAndNamesItsLine() throws {
        let c = try Self.configuration("""
            devices:
              - match: {name: "Test*"}
                screen: 2
                rotation: 90
                calibration: [0, 1, 0, 1, 0, 0]
                sizeMM: {width: 100, height: 50}
                grab: true
                passThrough: false
            """)
        let s = try Self.settings(c, Self.device(resolution: 0), Self.allProperties)
        #expect(s.mapping == DeviceMapping(screen: 2, rotation: .quarter, calibration: CalibrationMatrix(0, 1, 0, 1, 0, 0),
                                           sizeMM: SizeMM(width: 100, height: 50)))
        #expect(s.grab && !s.passThrough)
        #expect(s.origins.screen == .configuration(key: "devices[0].screen", file: "/etc/touchd/touchd.yaml", line: 7))
        #expect(s.origins.passThrough == .configuration(key: "devices[0].passThrough", file: "/etc/touchd/touchd.yaml", line: 12))
        #expect(s.origins.passThrough.description == "configuration, /etc/touchd/touchd.yaml line 12 (devices[0].passThrough)")
        #expect([s.origins.rotation, s.origins.calibration, s.origins.size, s.origins.grab].allSatisfy { $0.isConfiguration })
        #expect(s.warnings.isEmpty)
    }

    @Test func aLaterRuleOverridesOnlyTheKeysItSets() throws {
        let c = try Self.configuration("""
            devices:
              - match: {name: "Test*"}
                screen: 1
                grab: true
              - match: {name: "Test Touch*"}
                screen: DP-2
            """)
        let s = try Self.settings(c, Self.device(resolution: 10), [:])
        #expect(s.mapping.screen == 2 && s.grab)
        #expect(s.origins.screen == .configuration(key: "devices[1].screen", file: "/etc/touchd/touchd.yaml", line: 10))
        #expect(s.origins.grab == .configuration(key: "devices[0].grab", file: "/etc/touchd/touchd.yaml", line: 8))
    }

    @Test func touchdPropertiesWinOverGenericUdevProperties() throws {
        let s = try Self.settings(Self.configuration(), Self.device(resolution: 0), Self.allProperties)
        #expect(s.mapping.screen == 1 && s.origins.screen == .udevProperty("TOUCHD_SCREEN"))
        #expect(s.origins.screen.description == "udev TOUCHD_SCREEN")
        #expect(s.mapping.sizeMM == SizeMM(width: 300, height: 200) && s.origins.size == .udevProperty("TOUCHD_SIZE_MM"))
        #expect(s.mapping.calibration == CalibrationMatrix(-1, 0, 1, 0, -1, 1)
                && s.origins.calibration == .udevProperty("LIBINPUT_CALIBRATION_MATRIX"))
        #expect(s.passThrough && s.origins.passThrough == .udevProperty("TOUCHD_PASS_THROUGH"))
        #expect(s.mapping.rotation == .none && !s.grab)
    }

    @Test func udevSizeOnlyStandsInForAMissingResolution() throws {
        let props = ["ID_INPUT_WIDTH_MM": "250", "ID_INPUT_HEIGHT_MM": "150"]
        let without = try Self.settings(Self.configuration(), Self.device(resolution: 0), props)
        #expect(without.mapping.sizeMM == SizeMM(width: 250, height: 150)
                && without.origins.size == .udevProperty("ID_INPUT_WIDTH_MM/ID_INPUT_HEIGHT_MM"))
        let with = try Self.settings(Self.configuration(), Self.device(resolution: 16), props)
        #expect(with.mapping.sizeMM == nil && with.origins.size == .device)
    }

    @Test func nothingSetLeavesTheDeviceDefaults() throws {
        #expect(try Self.settings(Self.configuration(), Self.device(resolution: 10), [:]) == DeviceSettings())
    }

    @Test func screenByIndexAndUnknownScreenWarns() throws {
        let byIndex = try Self.settings(Self.configuration(), Self.device(resolution: 10), ["TOUCHD_SCREEN": "2"])
        #expect(byIndex.mapping.screen == 2)
        let unknown = try Self.settings(Self.configuration(), Self.device(resolution: 10), ["TOUCHD_SCREEN": "VGA-9"])
        #expect(unknown.mapping.screen == 0 && unknown.origins.screen == .device)
        #expect(unknown.warnings == ["/dev/input/event7: TOUCHD_SCREEN=\"VGA-9\": no such screen (screens: eDP-1, HDMI-A-1, DP-2); using screen 0"])
    }

    @Test func malformedPropertiesAreSkippedWithWarningsNamingTheNode() throws {
        let props = ["TOUCHD_SIZE_MM": "300by200", "LIBINPUT_CALIBRATION_MATRIX": "1 0 0", "TOUCHD_PASS_THROUGH": "maybe",
                     "TOUCHD_IGNORE": "perhaps"]
        let s = try Self.settings(Self.configuration(), Self.device(resolution: 10), props)
        #expect(s.mapping == DeviceMapping() && !s.passThrough)
        #expect(s.warnings.count == 4)
        #expect(s.warnings.allSatisfy { $0.hasPrefix("/dev/input/event7: ") })
        #expect(s.warnings.contains { $0.contains("LIBINPUT_CALIBRATION_MATRIX=\"1 0 0\"") && $0.hasSuffix("(ignored)") })
        #expect(s.warnings.contains { $0.contains("TOUCHD_SIZE_MM=\"300by200\"") })
        #expect(s.warnings.contains { $0.contains("TOUCHD_PASS_THROUGH=\"maybe\"") })
        #expect(s.warnings.contains { $0.contains("TOUCHD_IGNORE=\"perhaps\"") && $0.hasSuffix("(device not ignored)") })
    }

    @Test func ignoredByARuleByUdevOrForHavingNoTouches() throws {
        let c = try Self.configuration("devices:\n  - match: {name: \"Test*\"}\n    ignore: true\n")
        #expect(c.deviceSettings(for: Self.device(resolution: 10)).ignoredBecause == "ignored by devices[0] of the configuration")
        let plain = try Self.configuration()
        #expect(plain.deviceSettings(for: Self.device(resolution: 10), udevProperties: ["TOUCHD_IGNORE": "1"]).ignoredBecause
                == "udev property TOUCHD_IGNORE=1")
        #expect(plain.deviceSettings(for: DeviceDescription(name: "keyboard")).ignoredBecause?.contains("no touches can come from it") == true)
    }

    @Test func quirksComeBelowConfigurationAndUdev() throws {
        var c = try Self.configuration()
        c.quirks = try QuirksLoader.load(directory: RealFixtures.path("libinput-quirks"))
        for file in ["libinput-litest-devices/bcm5974.desc", "libinput-litest-devices/apple-appletouch.desc"] {
            let d = try #require(try RealFixtures.read(file).devices.first).description
            let touchpad = ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"]
            let byQuirk = try Self.settings(c, d, touchpad)
            #expect(byQuirk.origins.size == .quirk && byQuirk.mapping.sizeMM == SizeMM(width: 104, height: 75), "\(file)")
            #expect(byQuirk.mapping.quirks["AttrSizeHint"]?.section == "Apple Touchpads USB", "\(file)")
            #expect(byQuirk.mapping.contactThresholds.touchSize?.high == 150, "\(file)")

            var udev = touchpad
            udev["ID_INPUT_WIDTH_MM"] = "98"; udev["ID_INPUT_HEIGHT_MM"] = "70"
            let byUdev = try Self.settings(c, d, udev)
            #expect(byUdev.origins.size == .udevProperty("ID_INPUT_WIDTH_MM/ID_INPUT_HEIGHT_MM")
                    && byUdev.mapping.sizeMM == SizeMM(width: 98, height: 70), "\(file)")
            #expect(byUdev.mapping.contactThresholds.touchSize?.high == 150, "quirk thresholds still apply")

            var configured = c
            configured.devices = try TouchdConfiguration.parse(yaml: "devices:\n  - match: {vendor: 0x05ac}\n    sizeMM: {width: 90, height: 60}\n", file: "t.yaml").devices
            let byConfig = try Self.settings(configured, d, udev)
            #expect(byConfig.origins.size.isConfiguration && byConfig.mapping.sizeMM == SizeMM(width: 90, height: 60), "\(file)")

            // As a touchscreen (udev says so), the touchpad sections do not match.
            let screen = try Self.settings(c, d, ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"])
            #expect(screen.origins.size == .device && screen.mapping.quirks.entries.isEmpty, "\(file)")
        }
    }

    /// A recording's device carries the udev properties it was recorded with
    /// (`touchd --record`): a replay maps it as the live daemon did.
    @Test func aRecordedDeviceIsDecidedWithItsRecordedUdevProperties() throws {
        let c = try Self.configuration()
        var d = Self.device(resolution: 10)
        d.udevProperties = ["ID_INPUT_TOUCHSCREEN": "1", "TOUCHD_SCREEN": "DP-2"]
        var session = TouchSession(configuration: c)
        var sink = ReplayOutputSink { _ in }
        #expect(session.addRecordedDevice(DeviceID(0), RecordedDevice(description: d), at: .zero, into: &sink) == nil)
        #expect(session.devices.first?.mapping.screen == 2)
    }
}
