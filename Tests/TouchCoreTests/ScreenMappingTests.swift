// SPDX-License-Identifier: MIT
import Testing
import TouchCore

@Suite struct ScreenMappingTests {
    @Test func defaults() {
        let s = ScreenConfiguration()
        #expect(s.name == "default" && s.width == 1920 && s.height == 1080)
        #expect(DeviceMapping().calibration == .identity && DeviceMapping().rotation == .none)
    }

    @Test func calibrationParsesSixNumbers() {
        #expect(CalibrationMatrix("1 0 0 0 1 0") == .identity)
        #expect(CalibrationMatrix("0 -1 1 1 0 0") == CalibrationMatrix(0, -1, 1, 1, 0, 0))
        #expect(CalibrationMatrix("1 0 0 0 1") == nil)
        #expect(CalibrationMatrix("1 0 0 0 1 x") == nil)
    }

    @Test func rotationIsClockwise() {
        let p = Point(x: 0.25, y: 0)
        #expect(Rotation.quarter.apply(p) == Point(x: 1, y: 0.25))
        #expect(Rotation.half.apply(p) == Point(x: 0.75, y: 1))
        #expect(Rotation.threeQuarters.apply(p) == Point(x: 0, y: 0.75))
    }

    @Test func calibrationBeforeRotationBeforeScaling() {
        let g = DeviceGeometry(xAxis: AbsInfo(minimum: 0, maximum: 100), yAxis: AbsInfo(minimum: 0, maximum: 100))
        // Calibration halves x; then a half turn; then 1000 x 500 pixels.
        let m = DeviceMapping(rotation: .half, calibration: CalibrationMatrix(0.5, 0, 0, 0, 1, 0))
        let p = g.screenPoint(x: 100, y: 0, mapping: m, screen: ScreenConfiguration(name: "s", width: 1000, height: 500))
        #expect(p == Point(x: 500, y: 500))
    }

    @Test("a screen turned a quarter clockwise puts the panel's physical left side at the bottom and its bottom at the right")
    func screenRotationTurnsTouchesBack() {
        let screen = ScreenConfiguration(name: "s", width: 1000, height: 1600, rotation: .quarter)
        let p = ScreenPlacement(mapping: DeviceMapping(), screen: screen, index: 0)
        #expect(p.place(Point(x: 0, y: 0.5)) == Point(x: 500, y: 1600))
        #expect(p.place(Point(x: 0.5, y: 1)) == Point(x: 1000, y: 800))
        // The device's own rotation comes first: a device mounted a quarter turn clockwise on a panel turned back a quarter.
        let q = ScreenPlacement(mapping: DeviceMapping(rotation: .quarter), screen: screen, index: 0)
        #expect(q.rotation == .none)
        #expect(Rotation.quarter.then(.half) == .threeQuarters && Rotation.quarter.inverse == .threeQuarters)
    }
}
