// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import Udev
@testable import LiveInput

/// The merge order of device settings: configuration rule > TOUCHD_* > LIBINPUT_*/ID_INPUT_* > device.
@Suite struct LiveDeviceSettingsTests {
    static let screens = ["eDP-1", "HDMI-A-1", "DP-2"]

    static func udev(_ properties: [String: String]) -> UdevDeviceInfo {
        UdevDeviceInfo(syspath: "/sys/devices/virtual/input/input7/event7", devnode: "/dev/input/event7",
                       sysname: "event7", properties: properties.merging(["ID_INPUT_TOUCHSCREEN": "1"]) { a, _ in a })
    }

    static func device(resolution: Int32) -> DeviceDescription {
        var d = DeviceDescription(name: "Test Touchscreen")
        d.enable(.abs, EventCode.absX, absInfo: AbsInfo(minimum: 0, maximum: 4095, resolution: resolution))
        d.enable(.abs, EventCode.absY, absInfo: AbsInfo(minimum: 0, maximum: 2047, resolution: resolution))
        return d
    }

    static let allProperties = [
        "TOUCHD_SCREEN": "HDMI-A-1", "TOUCHD_SIZE_MM": "300x200",
        "LIBINPUT_CALIBRATION_MATRIX": "-1 0 1 0 -1 1", "ID_INPUT_WIDTH_MM": "250", "ID_INPUT_HEIGHT_MM": "150",
    ]

    @Test func configurationRuleWinsOverEveryUdevProperty() {
        let rule = DeviceRuleSettings(screen: 2, rotation: .quarter, calibration: CalibrationMatrix(0, 1, 0, 1, 0, 0),
                                      sizeMM: SizeMM(width: 100, height: 50), grab: true)
        let s = LiveDeviceSettings.merged(rule: rule, udev: Self.udev(Self.allProperties),
                                          description: Self.device(resolution: 0), screenNames: Self.screens)
        #expect(s.mapping == DeviceMapping(screen: 2, rotation: .quarter, calibration: CalibrationMatrix(0, 1, 0, 1, 0, 0),
                                           sizeMM: SizeMM(width: 100, height: 50)))
        #expect(s.grab)
        #expect([s.screenSource, s.calibrationSource, s.sizeSource] == [.configuration, .configuration, .configuration])
        #expect(s.warnings.isEmpty)
    }

    @Test func touchdPropertiesWinOverGenericUdevProperties() {
        let s = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: Self.udev(Self.allProperties),
                                          description: Self.device(resolution: 0), screenNames: Self.screens)
        #expect(s.mapping.screen == 1 && s.screenSource == .touchdProperty)
        #expect(s.mapping.sizeMM == SizeMM(width: 300, height: 200) && s.sizeSource == .touchdProperty)
        #expect(s.mapping.calibration == CalibrationMatrix(-1, 0, 1, 0, -1, 1) && s.calibrationSource == .udevProperty)
        #expect(s.mapping.rotation == .none)
        #expect(!s.grab)
    }

    @Test func udevSizeOnlyStandsInForAMissingResolution() {
        let props = ["ID_INPUT_WIDTH_MM": "250", "ID_INPUT_HEIGHT_MM": "150"]
        let without = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: Self.udev(props),
                                                description: Self.device(resolution: 0), screenNames: Self.screens)
        #expect(without.mapping.sizeMM == SizeMM(width: 250, height: 150) && without.sizeSource == .udevProperty)
        let with = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: Self.udev(props),
                                             description: Self.device(resolution: 16), screenNames: Self.screens)
        #expect(with.mapping.sizeMM == nil && with.sizeSource == .device)
    }

    @Test func nothingSetLeavesTheDeviceDefaults() {
        let s = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: Self.udev([:]),
                                          description: Self.device(resolution: 10), screenNames: Self.screens)
        #expect(s == LiveDeviceSettings())
    }

    @Test func screenByIndexAndUnknownScreenWarns() {
        let byIndex = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: Self.udev(["TOUCHD_SCREEN": "2"]),
                                                description: Self.device(resolution: 10), screenNames: Self.screens)
        #expect(byIndex.mapping.screen == 2)
        let unknown = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: Self.udev(["TOUCHD_SCREEN": "VGA-9"]),
                                                description: Self.device(resolution: 10), screenNames: Self.screens)
        #expect(unknown.mapping.screen == 0 && unknown.screenSource == .device)
        #expect(unknown.warnings == ["/dev/input/event7: TOUCHD_SCREEN=\"VGA-9\": no such screen (screens: eDP-1, HDMI-A-1, DP-2); using screen 0"])
    }

    @Test func malformedPropertiesAreSkippedWithWarningsNamingTheNode() {
        let props = ["TOUCHD_SIZE_MM": "300by200", "LIBINPUT_CALIBRATION_MATRIX": "1 0 0"]
        let s = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: Self.udev(props),
                                          description: Self.device(resolution: 10), screenNames: Self.screens)
        #expect(s.mapping == DeviceMapping())
        #expect(s.warnings.count == 2)
        #expect(s.warnings.allSatisfy { $0.hasPrefix("/dev/input/event7: ") && $0.hasSuffix("(ignored)") })
        #expect(s.warnings.contains { $0.contains("LIBINPUT_CALIBRATION_MATRIX=\"1 0 0\"") })
        #expect(s.warnings.contains { $0.contains("TOUCHD_SIZE_MM=\"300by200\"") })
    }
}

@Suite struct LiveClockTests {
    @Test func pollTimeoutRoundsUpAndCaps() {
        let now = Timestamp(microseconds: 10_000_000)
        #expect(LiveClock.pollTimeout(until: nil, now: now) == -1)
        #expect(LiveClock.pollTimeout(until: nil, now: now, cap: 250) == 250)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 9_000_000), now: now) == 0)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 10_000_001), now: now) == 1)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 10_300_000), now: now) == 300)
        #expect(LiveClock.pollTimeout(until: Timestamp(microseconds: 10_300_000), now: now, cap: 100) == 100)
    }

    @Test func nowIsMonotonic() {
        let a = LiveClock.now(), b = LiveClock.now()
        #expect(b >= a && a.microseconds > 0)
    }

}

/// Pass-through's setting (semantics §9), merged like the others.
@Suite struct PassThroughSettingTests {
    @Test("pass-through (semantics §9): off by default; TOUCHD_PASS_THROUGH turns it on; a configuration rule wins; a malformed value warns")
    func passThroughSources() {
        let device = LiveDeviceSettingsTests.device(resolution: 10)
        let off = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: LiveDeviceSettingsTests.udev([:]), description: device, screenNames: LiveDeviceSettingsTests.screens)
        #expect(!off.passThrough && off.passThroughSource == .device)
        let udevOn = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: LiveDeviceSettingsTests.udev(["TOUCHD_PASS_THROUGH": "yes"]),
                                               description: device, screenNames: LiveDeviceSettingsTests.screens)
        #expect(udevOn.passThrough && udevOn.passThroughSource == .touchdProperty)
        let ruleOff = LiveDeviceSettings.merged(rule: DeviceRuleSettings(passThrough: false), udev: LiveDeviceSettingsTests.udev(["TOUCHD_PASS_THROUGH": "1"]),
                                                description: device, screenNames: LiveDeviceSettingsTests.screens)
        #expect(!ruleOff.passThrough && ruleOff.passThroughSource == .configuration)
        let bad = LiveDeviceSettings.merged(rule: DeviceRuleSettings(), udev: LiveDeviceSettingsTests.udev(["TOUCHD_PASS_THROUGH": "maybe"]),
                                            description: device, screenNames: LiveDeviceSettingsTests.screens)
        #expect(!bad.passThrough)
        #expect(bad.warnings.count == 1 && bad.warnings[0].contains("TOUCHD_PASS_THROUGH"))
    }
}
