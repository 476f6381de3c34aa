// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import Session

@Suite struct ConfigurationTests {
    /// A description touches can come from (the decider ignores any other).
    static func touchscreen(_ d: DeviceDescription) -> DeviceDescription {
        var d = d
        d.enable(.key, EventCode.btnTouch)
        d.enable(.abs, EventCode.absX, absInfo: AbsInfo(minimum: 0, maximum: 100))
        d.enable(.abs, EventCode.absY, absInfo: AbsInfo(minimum: 0, maximum: 100))
        return d
    }

    func parse(_ yaml: String) throws(ConfigurationError) -> TouchdConfiguration {
        try TouchdConfiguration.parse(yaml: yaml, file: "test.yaml")
    }

    func error(_ yaml: String) -> ConfigurationError? {
        do { _ = try parse(yaml); return nil } catch { return error }
    }

    @Test func emptyFileIsTheBuiltInConfiguration() throws {
        let c = try parse("")
        #expect(c.screens.count == 1 && c.screens[0].width == 1920)
        let names = c.gestures.surfaces.first?.recognizers.map(\.name).sorted()
        #expect(names == ["double-tap", "long-press", "pan", "pinch", "rotate", "swipe", "tap"])
    }

    @Test func devicesMapToNamedScreensWithRotationAndSize() throws {
        let c = try parse("""
            screens:
              - {name: left, width: 800, height: 480}
              - {name: main, width: 1280, height: 800, sizeMM: {width: 217, height: 136}}
            devices:
              - match: {name: "Atmel maXTouch*"}
                screen: main
                rotation: 180
                calibration: [1, 0, 0, 0, 1, 0]
              - match: {vendor: "0x0eef", product: 1}
                ignore: true
              - match: {name: "Atmel*"}
                sizeMM: {width: 217, height: 136}
            """)
        let atmel = Self.touchscreen(DeviceDescription(name: "Atmel maXTouch Touchscreen", id: InputID(bustype: 0x18)))
        let d = try #require(c.deviceSettings(for: atmel).settings)
        #expect(d.mapping.screen == 1 && d.mapping.rotation == .half && d.mapping.sizeMM == SizeMM(width: 217, height: 136))
        let egalax = Self.touchscreen(DeviceDescription(name: "eGalax Inc. USB TouchController", id: InputID(bustype: 3, vendor: 0x0eef, product: 1)))
        #expect(c.deviceSettings(for: egalax).ignoredBecause?.contains("devices[1]") == true)
        let other = Self.touchscreen(DeviceDescription(name: "N-Trig MultiTouch", id: InputID(bustype: 3, vendor: 0x1b96, product: 1)))
        #expect(c.deviceSettings(for: other).settings?.mapping == DeviceMapping())
        // Pixel density for edge zones comes from the screen's physical size.
        #expect(c.gestures.screens[1].pixelsPerMillimetre.map { abs($0 - 1280.0 / 217) < 1e-9 } == true)
    }

    @Test func udevPropertiesOfARecordingCanBeMatched() throws {
        let c = try parse("devices:\n  - match: {udev: {ID_INPUT_TOUCHPAD: \"1\"}}\n    ignore: true\n")
        var pad = Self.touchscreen(DeviceDescription(name: "pad"))
        pad.udevProperties = ["ID_INPUT_TOUCHPAD": "1"]
        #expect(c.deviceSettings(for: pad, udevProperties: pad.udevProperties).ignoredBecause?.contains("devices[0]") == true)
        #expect(c.deviceSettings(for: Self.touchscreen(DeviceDescription(name: "screen"))).ignoredBecause == nil)
    }

    @Test("a screen's rotation turns what the user sees: sizes swap at 90 and 270, insets and density carry over")
    func screenRotationAndInsets() throws {
        let c = try parse("screens:\n  - {name: main, width: 1600, height: 1000, sizeMM: {width: 320, height: 200}, rotation: 90, insets: {top: 48}}\n")
        #expect(c.screens[0].rotation == .quarter && c.screens[0].insets == ScreenInsets(top: 48))
        #expect(c.screenConfigurations == [ScreenConfiguration(name: "main", width: 1000, height: 1600, rotation: .quarter)])
        let g = c.gestures.screens[0]
        #expect(g.width == 1000 && g.height == 1600 && g.pixelsPerMillimetre == 5 && g.insets.top == 48)
        #expect(g.safeArea == ScreenRect(x: 0, y: 48, width: 1000, height: 1552))
        #expect(c.screens.map { [$0.viewWidth, $0.viewHeight, $0.rotation.rawValue] } == [[1000, 1600, 90]])
        #expect(c.screens[0].viewSizeMM == SizeMM(width: 200, height: 320))
        #expect(error("screens:\n  - {name: main, width: 800, height: 480, rotation: 45}\n")?.description
            == "test.yaml:2: screens[0].rotation: expected 0, 90, 180 or 270, got 45")
        #expect(error("screens:\n  - {name: main, width: 800, height: 480, insets: {left: -3}}\n")?.description
            == "test.yaml:2: screens[0].insets.left: expected 0 to 65536 pixels, got -3.0")
    }

    @Test func errorsNameTheKey() throws {
        let rotation = try #require(error("devices:\n  - match: {name: x}\n    rotation: 45\n"))
        #expect(rotation.path == "devices[0].rotation" && rotation.message.contains("0, 90, 180 or 270"))
        let screen = try #require(error("devices:\n  - screen: side\n"))
        #expect(screen.path == "devices[0].screen" && screen.message.contains("side"))
        let calibration = try #require(error("devices:\n  - calibration: [1, 2]\n"))
        #expect(calibration.path == "devices[0].calibration")
        let width = try #require(error("screens:\n  - {name: a, width: wide, height: 10}\n"))
        #expect(width.path == "screens[0].width")
        #expect(width.message == "expected an integer, found \"wide\" at line 2, column 22", "\(width)")
        let vendor = try #require(error("devices:\n  - match: {vendor: \"zz\"}\n"))
        #expect(vendor.path == "devices[0].match.vendor")
        #expect(error("screens: []\n")?.path == "screens")
        let yaml = try #require(error("screens: [\n"))
        #expect(yaml.description.hasPrefix("test.yaml:1: "))
        #expect(yaml.message.contains("line 1, column 10: a [ list is not closed with ]"), "\(yaml)")
        let recognizer = try #require(error("recognizers:\n  - {name: t, kind: tapp}\n"))
        #expect(recognizer.description.contains("recognizers[0]") || recognizer.description.contains("tapp"), "\(recognizer)")
    }

    /// Found by fuzz-pipeline-engine: a calibration entry of .nan or .inf (valid
    /// YAML) was accepted and put every touch of the device at NaN.
    @Test func nonFiniteCalibrationAndSizeAreRefused() throws {
        let nan = try #require(error("devices:\n  - calibration: [1, 0, 0, 0, .nan, 0]\n"))
        #expect(nan.path == "devices[0].calibration" && nan.message.contains("finite") && nan.message.contains("position 5"), "\(nan)")
        let inf = try #require(error("devices:\n  - calibration: [.inf, 0, 0, 0, 1, 0]\n"))
        #expect(inf.path == "devices[0].calibration")
        let size = try #require(error("devices:\n  - sizeMM: {width: .inf, height: 100}\n"))
        #expect(size.path == "devices[0].sizeMM")
        #expect(error("devices:\n  - calibration: [1.5, 0, -0.25, 0, 1, 0]\n") == nil)
    }

    @Test func fileRecognizersExtendTheBuiltInSurface() throws {
        let c = try parse("recognizers:\n  - {name: three-finger-swipe, kind: swipe, minTouches: 3, maxTouches: 3}\n")
        let names = try #require(c.gestures.surfaces.first?.recognizers.map(\.name))
        #expect(names.contains("three-finger-swipe") && names.contains("tap"))
        let replaced = try parse("replaceDefaults: true\nsurfaces:\n  - {id: kiosk, frame: {width: 100, height: 100}, recognizers: [{name: tap, kind: tap}]}\n")
        #expect(replaced.gestures.surfaces.map(\.id.rawValue) == ["kiosk"])
    }

    @Test("passThrough in a device rule (semantics §9): off by default, per rule, a later rule overrides")
    func passThroughPerRule() throws {
        let c = try parse("""
        devices:
          - match: {name: "Panel*"}
            passThrough: true
          - match: {name: "Panel B"}
            passThrough: false
        """)
        let a = Self.touchscreen(DeviceDescription(name: "Panel A"))
        var b = a
        b.name = "Panel B"
        var other = a
        other.name = "Other"
        #expect(c.deviceSettings(for: a).settings?.passThrough == true)
        #expect(c.deviceSettings(for: b).settings?.passThrough == false)
        #expect(c.deviceSettings(for: b).settings?.origins.passThrough.isConfiguration == true)
        #expect(c.deviceSettings(for: other).settings?.passThrough == false)
        #expect(c.deviceSettings(for: other).settings?.origins.passThrough == .device)
        #expect(error("devices:\n  - passThrough: maybe\n")?.path == "devices[0].passThrough")
    }
}
