// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import Udev

@Suite struct UdevDeviceInfoTests {
    private func device(_ properties: [String: String], devnode: String? = "/dev/input/event5") -> UdevDeviceInfo {
        UdevDeviceInfo(
            syspath: "/sys/devices/virtual/input/input9/event5", devnode: devnode, sysname: "event5",
            properties: properties)
    }

    @Test func touchKindFollowsInputIDFlags() {
        #expect(device(["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]).touchKind == .touchscreen)
        #expect(device(["ID_INPUT_TABLET": "1"]).touchKind == .tablet)
        #expect(device(["ID_INPUT_TOUCHPAD": "1"]).touchKind == .touchpad)
        #expect(device(["ID_INPUT_MOUSE": "1"]).touchKind == nil)
        #expect(device(["ID_INPUT_KEYBOARD": "1", "ID_INPUT_TOUCHSCREEN": "0"]).touchKind == nil)
        // A screen pen is both a touchscreen-like direct device and a tablet; touchscreen wins.
        let both = device(["ID_INPUT_TOUCHSCREEN": "1", "ID_INPUT_TABLET": "1"])
        #expect(both.isTouchscreen && both.isTablet && both.touchKind == .touchscreen)
    }

    @Test func eventNodesAreRecognizedBySysname() {
        #expect(device([:]).isEventNode)
        #expect(!UdevDeviceInfo(syspath: "/sys/devices/virtual/input/input9", sysname: "input9").isEventNode)
        #expect(!UdevDeviceInfo(syspath: "/sys/devices/virtual/input/input9/mouse2", sysname: "mouse2").isEventNode)
    }

    @Test func sizeOverrideParsesWidthByHeight() throws {
        #expect(try device(["TOUCHD_SIZE_MM": "293.5x165"]).sizeOverride() == SizeMM(width: 293.5, height: 165))
        #expect(try device(["TOUCHD_SIZE_MM": " 300X200 "]).sizeOverride() == SizeMM(width: 300, height: 200))
        #expect(try device([:]).sizeOverride() == nil)
    }

    @Test(arguments: ["300", "300x", "x200", "300x200x1", "0x200", "-3x200", "abcxdef", "300 by 200", "infx1"])
    func malformedSizeIsAnErrorNamingTheDevice(_ value: String) {
        let error = #expect(throws: UdevError.self) { _ = try device(["TOUCHD_SIZE_MM": value]).sizeOverride() }
        #expect(error?.code == .badProperty)
        #expect(error?.subject == "/dev/input/event5")
        #expect(error?.description.contains("TOUCHD_SIZE_MM=\"\(value)\"") == true)
    }

    @Test func sizePrefersTheOverrideOverReportedSize() throws {
        let reported = ["ID_INPUT_WIDTH_MM": "256", "ID_INPUT_HEIGHT_MM": "144"]
        #expect(device(reported).reportedSize == SizeMM(width: 256, height: 144))
        #expect(try device(reported).size() == SizeMM(width: 256, height: 144))
        var both = reported
        both["TOUCHD_SIZE_MM"] = "250x140"
        #expect(try device(both).size() == SizeMM(width: 250, height: 140))
        #expect(device(["ID_INPUT_WIDTH_MM": "256"]).reportedSize == nil)
        #expect(device(["ID_INPUT_WIDTH_MM": "0", "ID_INPUT_HEIGHT_MM": "144"]).reportedSize == nil)
        #expect(try device([:]).size() == nil)
    }

    @Test func ignoreAcceptsBooleanWords() throws {
        for value in ["1", "true", "YES", "on"] { #expect(try device(["TOUCHD_IGNORE": value]).isIgnored()) }
        for value in ["0", "false", "no", "Off", ""] { #expect(try !device(["TOUCHD_IGNORE": value]).isIgnored()) }
        #expect(try !device([:]).isIgnored())
        let error = #expect(throws: UdevError.self) { _ = try device(["TOUCHD_IGNORE": "maybe"]).isIgnored() }
        #expect(error?.subject == "/dev/input/event5")
        #expect(error?.description.contains("TOUCHD_IGNORE") == true)
    }

    @Test func screenIsTrimmedAndEmptyMeansUnset() {
        #expect(device(["TOUCHD_SCREEN": "eDP-1"]).screen == "eDP-1")
        #expect(device(["TOUCHD_SCREEN": "  HDMI-A-1 "]).screen == "HDMI-A-1")
        #expect(device(["TOUCHD_SCREEN": ""]).screen == nil)
        #expect(device([:]).screen == nil)
    }

    @Test func calibrationMatrixHasSixNumbers() throws {
        let rotated = device(["LIBINPUT_CALIBRATION_MATRIX": "0 1 0 -1 0 1"])
        #expect(try rotated.calibrationMatrix() == [0, 1, 0, -1, 0, 1])
        #expect(rotated.calibrationMatrixText == "0 1 0 -1 0 1")
        #expect(try device(["LIBINPUT_CALIBRATION_MATRIX": "1.02\t0 -0.01  0 0.98 0.005"]).calibrationMatrix()
                == [1.02, 0, -0.01, 0, 0.98, 0.005])
        #expect(try device([:]).calibrationMatrix() == nil)
        for bad in ["1 0 0 0 1", "1 0 0 0 1 0 0", "1 0 0 0 1 x", "nan 0 0 0 1 0"] {
            let error = #expect(throws: UdevError.self) {
                _ = try device(["LIBINPUT_CALIBRATION_MATRIX": bad]).calibrationMatrix()
            }
            #expect(error?.code == .badProperty)
        }
    }

    @Test func errorsNameTheSyspathWithoutANode() {
        let error = #expect(throws: UdevError.self) {
            _ = try device(["TOUCHD_SIZE_MM": "big"], devnode: nil).sizeOverride()
        }
        #expect(error?.subject == "/sys/devices/virtual/input/input9/event5")
    }
}
