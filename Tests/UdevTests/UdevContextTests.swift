// SPDX-License-Identifier: MIT
import Foundation
import KernelTesting
import Testing
import Trace
import TouchCore
import Evdev
@testable import Udev

@Suite struct UdevContextTests {
    // MARK: Host (and guest)

    @Test func enumerationListsOnlyEventNodes() throws {
        let udev = try UdevContext()
        // Touch devices first: other tests' devices may come and go in between,
        // so one listed here and missing below must be gone by then.
        let touch = try udev.touchDevices()
        let all = try udev.inputEventDevices()
        for device in all {
            #expect(device.isEventNode, "\(device.syspath)")
            #expect(device.syspath.hasPrefix("/sys/"))
        }
        let allPaths = Set(all.map(\.syspath))
        for device in touch where !allPaths.contains(device.syspath) {
            #expect(udev.device(syspath: device.syspath) == nil, "\(device.syspath) is listed as touch but not as input")
        }
        #expect(touch.allSatisfy { $0.touchKind != nil && $0.devnode != nil })
    }

    @Test func unknownSyspathHasNoDevice() throws {
        #expect(try UdevContext().device(syspath: "/sys/devices/virtual/input/input99999/event99999") == nil)
    }

    @Test func actionsMapFromUdevNames() {
        #expect(UdevAction("add") == .add)
        #expect(UdevAction("remove") == .remove)
        #expect(UdevAction("change") == .change)
        #expect(UdevAction("bind") == .other("bind"))
    }

    // MARK: Kernel (uinput, udevd)

    @Test(.requiresUinput, arguments: [
        ("touchscreens/Atmel maXTouch Touchscreen.desc", TouchDeviceKind.touchscreen),
        ("tablets/Wacom Intuos4 6x9 Pen.desc", TouchDeviceKind.tablet),
        ("touchpads/SynPS2 Synaptics TouchPad.desc", TouchDeviceKind.touchpad),
    ])
    func monitorAndEnumerationSeeTouchDevicesComeAndGo(_ desc: String, _ kind: TouchDeviceKind) throws {
        let udev = try UdevContext()
        let monitor = try UdevMonitor(context: udev)
        let described = try #require(try TraceReader.read(path: Self.evemuDevices + "/" + desc).devices.first).description
        let uinput = try UinputDevice(description: described)
        let node = try #require(uinput.devnode)
        let syspath = try #require(uinput.syspath)

        // Device nodes are reused as other tests' devices come and go: match on this device's syspath.
        let added = try #require(try Self.next(.add, under: syspath, from: monitor), "no udev add event for \(node)")
        #expect(added.device.touchKind == kind, "\(added.device.properties)")
        #expect(added.device.isEventNode)
        #expect(added.device.syspath.hasPrefix(try #require(uinput.syspath)))

        let listed = try udev.touchDevices().first { $0.syspath == added.device.syspath }
        #expect(listed?.touchKind == kind)
        #expect(listed?.isInitialized == true)
        #expect(listed?.syspath == added.device.syspath)

        uinput.close()
        let removed = try #require(try Self.next(.remove, under: syspath, from: monitor), "no udev remove event for \(node)")
        #expect(removed.device.syspath == added.device.syspath)
        #expect(try udev.touchDevices().contains { $0.syspath == added.device.syspath } == false)
    }

    // udevd reports after running its rules; other tests' devices come and go meanwhile.
    private static func next(_ action: UdevAction, under syspath: String, from monitor: UdevMonitor) throws -> UdevEvent? {
        for _ in 0..<200 {
            guard try monitor.waitForEvent(timeoutMilliseconds: 20_000) else { return nil }
            while let event = try monitor.receive() {
                if event.action == action && event.device.isEventNode && event.device.syspath.hasPrefix(syspath + "/") { return event }
            }
        }
        return nil
    }

    static let evemuDevices = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real/evemu-devices").path
}
