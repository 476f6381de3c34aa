import Testing
@testable import Udev

@Suite struct UdevDeviceInfoTests {
    @Test func sizeParses() throws {
        let info = UdevDeviceInfo(syspath: "/sys/x", sysname: "event1", properties: ["TOUCHD_SIZE_MM": "293.5x165"])
        #expect(try info.sizeOverride() == PhysicalSize(width: 293.5, height: 165))
    }
}
