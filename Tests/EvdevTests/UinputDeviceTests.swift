// SPDX-License-Identifier: MIT
import KernelTesting
import Testing
import TouchCore
#if canImport(Glibc)
import Glibc
#endif
@testable import Evdev

@Suite struct UinputDeviceTests {
    @Test func impossibleDescriptionIsAnErrorNamingTheDevice() {
        var broken = DeviceDescription(name: "Broken Panel")
        broken.enable(.abs, EventCode.absX, absInfo: AbsInfo(minimum: 100, maximum: 0))
        broken.enable(.key, EventCode.btnTouch)
        // Without /dev/uinput creation fails with ENOENT, without the right to
        // write it with EACCES; with it the kernel rejects maximum < minimum.
        let error = #expect(throws: EvdevError.self) { _ = try UinputDevice(description: broken) }
        #expect(error?.code == .uinputFailed)
        #expect(error?.device == "Broken Panel")
        let expected = KernelCapability.uinputIsWritable ? EINVAL : access("/dev/uinput", F_OK) == 0 ? EACCES : ENOENT
        #expect(error?.errno == expected)
    }

    @Test(.requiresUinput)
    func destroyedDeviceRefusesWrites() throws {
        let uinput = try UinputDevice(description: try Fixtures.description(RecordedFixture.all[0].events))
        let node = try #require(uinput.devnode)
        #expect(try #require(uinput.syspath).hasPrefix("/sys/devices/virtual/input/input"))
        #expect(uinput.deviceDescription.name == "Atmel maXTouch Touchscreen")
        try uinput.write(TouchFrames.down(slot: 0, trackingID: 1, x: 10, y: 10))
        uinput.close()
        uinput.close()
        let error = #expect(throws: EvdevError.self) { try uinput.write(TouchFrames.sync) }
        #expect(error?.code == .closed)
        #expect(error?.device == node)
    }
}
