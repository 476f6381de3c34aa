// SPDX-License-Identifier: MIT
import Foundation
import LiveInput
import Quirks
import Session
import Testing
import TouchCore
import TouchDaemon
import Trace
import Udev

/// The live decision's order of precedence with libinput's quirks:
/// configuration > udev properties > quirks > device (docs/udev.md).
@Suite struct LiveDeviceRulesTests {
    static func candidate(_ relative: String, properties: [String: String]) throws -> LiveDeviceCandidate {
        let d = try #require(try TraceReader.read(path: RealFixtures.root + "/real/" + relative).devices.first).description
        return LiveDeviceCandidate(node: "/dev/input/event7",
                                   udev: UdevDeviceInfo(syspath: "/sys/devices/x/input/input7/event7", devnode: "/dev/input/event7",
                                                        sysname: "event7", properties: properties),
                                   description: d)
    }

    static func settings(_ c: TouchdConfiguration, _ candidate: LiveDeviceCandidate) throws -> LiveDeviceSettings {
        guard case .use(let s) = c.liveDecision(candidate) else { throw CancellationError() }
        return s
    }

    @Test func quirksComeBelowConfigurationAndUdev() throws {
        var c = TouchdConfiguration()
        c.quirks = try QuirksLoader.load(directory: RealFixtures.root + "/real/libinput-quirks")
        for file in ["libinput-litest-devices/bcm5974.desc", "libinput-litest-devices/apple-appletouch.desc"] {
            let touchpad = ["ID_INPUT": "1", "ID_INPUT_TOUCHPAD": "1"]
            let byQuirk = try Self.settings(c, try Self.candidate(file, properties: touchpad))
            #expect(byQuirk.sizeSource == .quirk && byQuirk.mapping.sizeMM == SizeMM(width: 104, height: 75), "\(file)")
            #expect(byQuirk.mapping.quirks["AttrSizeHint"]?.section == "Apple Touchpads USB", "\(file)")
            #expect(byQuirk.mapping.contactThresholds.touchSize?.high == 150, "\(file)")

            var udev = touchpad
            udev["ID_INPUT_WIDTH_MM"] = "98"; udev["ID_INPUT_HEIGHT_MM"] = "70"
            let byUdev = try Self.settings(c, try Self.candidate(file, properties: udev))
            #expect(byUdev.sizeSource == .udevProperty && byUdev.mapping.sizeMM == SizeMM(width: 98, height: 70), "\(file)")
            #expect(byUdev.mapping.contactThresholds.touchSize?.high == 150, "quirk thresholds still apply")

            var configured = c
            configured.devices = try TouchdConfiguration.parse(yaml: "devices:\n  - match: {vendor: 0x05ac}\n    sizeMM: {width: 90, height: 60}\n", file: "t.yaml").devices
            let byConfig = try Self.settings(configured, try Self.candidate(file, properties: udev))
            #expect(byConfig.sizeSource == .configuration && byConfig.mapping.sizeMM == SizeMM(width: 90, height: 60), "\(file)")

            // As a touchscreen (udev says so), the touchpad sections do not match.
            let screen = try Self.settings(c, try Self.candidate(file, properties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]))
            #expect(screen.sizeSource == .device && screen.mapping.quirks.entries.isEmpty, "\(file)")
        }
    }
}
