// SPDX-License-Identifier: MIT
import Testing
import TouchCore
import TouchTesting

@Suite struct DeviceGeometryTests {
    @Test func sizeFromResolution() {
        let d = DeviceFixtures.twoSlotTouchpad()
        let g = DeviceGeometry(d, classification: DeviceClassification(d))
        #expect(g.source == .resolution)
        #expect(g.width == 100 && g.height == 60)
        #expect(g.millimetres(x: 800, y: 450) == Point(x: 50, y: 30))
    }

    @Test func fallbackKeepsAspectOnTheLongerSide() {
        let d = DeviceFixtures.protocolATouchscreen()
        let g = DeviceGeometry(d, classification: DeviceClassification(d))
        #expect(g.source == .fallback)
        #expect(g.width == 200 && g.height == 150)
        var pad = DeviceFixtures.twoSlotTouchpad()
        pad.absInfo[EventCode.absMTPositionX]!.resolution = 0
        pad.absInfo[EventCode.absMTPositionY]!.resolution = 0
        let pg = DeviceGeometry(pad, classification: DeviceClassification(pad))
        #expect(pg.width == 100 && pg.height == 56.25)
    }

    @Test func overrideWins() {
        let d = DeviceFixtures.touchscreen()
        let g = DeviceGeometry(d, classification: DeviceClassification(d), override: SizeMM(width: 300, height: 200))
        #expect(g.source == .override && g.width == 300 && g.height == 200)
        #expect(g.unitsPerMM.x == 4095.0 / 300)
    }

    @Test func oneKnownResolutionStandsInForTheOther() {
        let g = DeviceGeometry(xAxis: AbsInfo(minimum: 0, maximum: 1000, resolution: 10), yAxis: AbsInfo(minimum: 0, maximum: 500))
        #expect(g.width == 100 && g.height == 50 && g.source == .resolution)
    }
}
