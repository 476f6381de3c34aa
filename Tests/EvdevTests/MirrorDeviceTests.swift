// SPDX-License-Identifier: MIT
import Foundation
import KernelTesting
import Testing
import TouchCore
import Udev
#if canImport(Glibc)
import Glibc
#endif
@testable import Evdev

/// touchd's pass-through mirror read by real libinput (`libinput debug-events`,
/// Debian's libinput-tools, which scripts/vm-test.sh installs): the frames of
/// ``MirrorConventions`` come out as the touch events the app world should see.
@Suite(.requiresUinput) struct MirrorDeviceTests {
    /// A real touchscreen of each protocol, and one with a resolution (the
    /// recorded ones have none, which libinput replaces by 1 unit/mm).
    static let originals: [MirrorOriginal] = [
        MirrorOriginal(label: "protocol B touchscreen", desc: "touchscreens/Atmel maXTouch Touchscreen.desc"),
        MirrorOriginal(label: "protocol A touchscreen", desc: "touchscreens/N-Trig MultiTouch.desc"),
        MirrorOriginal(label: "protocol B touchscreen, 10 units/mm", desc: "touchscreens/Atmel maXTouch Touchscreen.desc",
                       resolution: 10),
    ]

    @Test(arguments: originals)
    func tapIsDownFrameUpAtTheWrittenPosition(_ original: MirrorOriginal) throws {
        let (mirror, libinput) = try Self.start(original)
        defer { libinput.stop(); mirror.close() }
        let (x, y) = original.point(0.25, 0.75, of: mirror.deviceDescription)
        try mirror.write(MirrorConventions.down(slot: 0, trackingID: 1, x: x, y: y, firstContact: true) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.end(slot: 0, lastContact: true) + MirrorConventions.frameEnd)
        let touch = try libinput.touchEvents(count: 4)
        #expect(touch.map(\.kind) == ["TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_UP", "TOUCH_FRAME"], "\(libinput.output)")
        let down = try #require(touch.first)
        let expected = original.libinputMillimetres(x: x, y: y, of: mirror.deviceDescription)
        let mm = try #require(down.millimetres, "no position in \(down.line)")
        #expect(abs(mm.x - expected.x) < 0.01 && abs(mm.y - expected.y) < 0.01, "\(down.line): expected \(expected) mm")
        #expect(down.slot == 0)
    }

    @Test(arguments: originals)
    func palmThenEndIsCancelAndNeverUp(_ original: MirrorOriginal) throws {
        let (mirror, libinput) = try Self.start(original)
        defer { libinput.stop(); mirror.close() }
        let (x, y) = original.point(0.5, 0.5, of: mirror.deviceDescription)
        try mirror.write(MirrorConventions.down(slot: 0, trackingID: 1, x: x, y: y, firstContact: true) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.palm(slot: 0) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.end(slot: 0, lastContact: true) + MirrorConventions.frameEnd)
        // The slot's next contact is a finger again: a plain tap.
        try mirror.write(MirrorConventions.down(slot: 0, trackingID: 2, x: x, y: y, firstContact: true) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.end(slot: 0, lastContact: true) + MirrorConventions.frameEnd)
        let touch = try libinput.touchEvents(count: 8)
        #expect(touch.map(\.kind) == ["TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_CANCEL", "TOUCH_FRAME",
                                      "TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_UP", "TOUCH_FRAME"], "\(libinput.output)")
    }

    /// Why ``MirrorConventions`` writes the tool type back to finger: a slot
    /// left a palm swallows its next contact whole.
    @Test func slotLeftAPalmSwallowsItsNextContact() throws {
        let original = Self.originals[0]
        let (mirror, libinput) = try Self.start(original)
        defer { libinput.stop(); mirror.close() }
        let (x, y) = original.point(0.5, 0.5, of: mirror.deviceDescription)
        func ev(_ type: EventType, _ code: UInt16, _ value: Int32) -> InputEvent {
            InputEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value)
        }
        func bareDown(_ slot: Int32, _ id: Int32) -> [InputEvent] {
            [ev(.abs, EventCode.absMTSlot, slot), ev(.abs, EventCode.absMTTrackingID, id),
             ev(.abs, EventCode.absMTPositionX, x), ev(.abs, EventCode.absMTPositionY, y), ev(.key, EventCode.btnTouch, 1)]
        }
        func bareEnd(_ slot: Int32) -> [InputEvent] {
            [ev(.abs, EventCode.absMTSlot, slot), ev(.abs, EventCode.absMTTrackingID, -1), ev(.key, EventCode.btnTouch, 0)]
        }
        try mirror.write(bareDown(0, 1) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.palm(slot: 0) + MirrorConventions.frameEnd)
        try mirror.write(bareEnd(0) + MirrorConventions.frameEnd)
        try mirror.write(bareDown(0, 2) + MirrorConventions.frameEnd)   // still MT_TOOL_PALM: swallowed
        try mirror.write(bareEnd(0) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.down(slot: 1, trackingID: 3, x: x, y: y, firstContact: true) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.end(slot: 1, lastContact: true) + MirrorConventions.frameEnd)
        let touch = try libinput.touchEvents(count: 8)
        #expect(touch.map(\.kind) == ["TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_CANCEL", "TOUCH_FRAME",
                                      "TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_UP", "TOUCH_FRAME"], "\(libinput.output)")
        #expect(touch[4].slot == 1, "the second contact of slot 0 must not reach libinput: \(libinput.output)")
    }

    @Test(arguments: originals)
    func twoContactsInOneFrameAreTwoDownsInOneFrame(_ original: MirrorOriginal) throws {
        let (mirror, libinput) = try Self.start(original)
        defer { libinput.stop(); mirror.close() }
        let a = original.point(0.2, 0.2, of: mirror.deviceDescription)
        let b = original.point(0.8, 0.6, of: mirror.deviceDescription)
        try mirror.write(MirrorConventions.down(slot: 0, trackingID: 5, x: a.x, y: a.y, firstContact: true)
            + MirrorConventions.down(slot: 1, trackingID: 6, x: b.x, y: b.y, firstContact: false) + MirrorConventions.frameEnd)
        try mirror.write(MirrorConventions.end(slot: 0, lastContact: false)
            + MirrorConventions.end(slot: 1, lastContact: true) + MirrorConventions.frameEnd)
        let touch = try libinput.touchEvents(count: 6)
        #expect(touch.map(\.kind) == ["TOUCH_DOWN", "TOUCH_DOWN", "TOUCH_FRAME", "TOUCH_UP", "TOUCH_UP", "TOUCH_FRAME"],
                "\(libinput.output)")
        #expect(Set(touch.prefix(2).compactMap(\.slot)) == [0, 1])
        let mmA = original.libinputMillimetres(x: a.x, y: a.y, of: mirror.deviceDescription)
        let firstDown = try #require(touch.first { $0.slot == 0 }?.millimetres)
        #expect(abs(firstDown.x - mmA.x) < 0.01 && abs(firstDown.y - mmA.y) < 0.01)
    }

    @Test(arguments: originals)
    func mirrorIsATouchscreenWithTheOriginalsIDs(_ original: MirrorOriginal) throws {
        let mirror = try UinputDevice.mirror(of: try original.description())
        defer { mirror.close() }
        // Until udev has run its rules on this device: on a loaded guest its database can still
        // hold the record of a removed device with the same node number (a keyboard's, seen once).
        let info = try Fixtures.udevInfo(of: mirror, until: { $0.isTouchscreen })
        #expect(info.isTouchscreen, "\(info.properties)")
        let read = try EvdevDevice(path: try #require(mirror.devnode))
        defer { read.close() }
        // The original's identity for the compositor (sway's `input "<vendor>:<product>:<name>"`); the phys marks it.
        #expect(read.deviceDescription.name == (try original.description()).name)
        #expect(read.deviceDescription.id == (try original.description()).id)
        #expect(read.deviceDescription.absInfo[EventCode.absMTToolType]?.maximum == EventCode.mtToolPalm)
        #expect(read.deviceDescription.phys == MirrorDescription.phys(key: "0"))
        #expect(MirrorDescription.isMirror(phys: read.deviceDescription.phys))
    }

    /// The mirror's phys is touchd's marker (the original's device group reaches
    /// it from the original's properties: UdevRulesInstallTests), and the
    /// original's phys is not: the marker tells them apart, their names do not.
    @Test func mirrorPhysIsTheMarkerAndTheOriginalsIsNot() throws {
        var description = try Self.originals[0].description()
        description.id = InputID(bustype: 0x03, vendor: 0x1234, product: 0x5678, version: 1)
        description.phys = "usb-0000:00:14.0-7/input0"
        let original = try UinputDevice(description: description)
        defer { original.close() }
        let readOriginal = try EvdevDevice(path: try #require(original.devnode))
        let live = readOriginal.deviceDescription
        readOriginal.close()
        #expect(live.phys == "usb-0000:00:14.0-7/input0")
        #expect(!MirrorDescription.isMirror(phys: live.phys))
        let mirror = try UinputDevice.mirror(of: live, key: "event42")
        defer { mirror.close() }
        let readMirror = try EvdevDevice(path: try #require(mirror.devnode))
        #expect(readMirror.deviceDescription.phys == "touchd-mirror-event42")
        #expect(readMirror.deviceDescription.name == live.name)
        readMirror.close()
    }

    // MARK: Set-up

    /// A mirror of `original`, once udev has set it up, and libinput reading it.
    static func start(_ original: MirrorOriginal) throws -> (UinputDevice, LibinputDebugEvents) {
        let mirror = try UinputDevice.mirror(of: try original.description())
        try Fixtures.waitForUdev(mirror)
        let libinput = try LibinputDebugEvents.started(node: try #require(mirror.devnode))
        return (mirror, libinput)
    }
}

/// A recorded touchscreen to mirror, optionally given a resolution.
struct MirrorOriginal: Sendable, CustomTestStringConvertible {
    var label: String
    var desc: String
    var resolution: Int32? = nil

    var testDescription: String { label }

    func description() throws -> DeviceDescription {
        var description = try Fixtures.description(desc)
        if let resolution {
            for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
                description.absInfo[code]?.resolution = resolution
            }
        }
        return description
    }

    /// Device units at fractions of the mirror's range.
    func point(_ fx: Double, _ fy: Double, of mirror: DeviceDescription) -> (x: Int32, y: Int32) {
        let ax = mirror.absInfo[EventCode.absMTPositionX]!, ay = mirror.absInfo[EventCode.absMTPositionY]!
        return (ax.minimum + Int32(fx * ax.span), ay.minimum + Int32(fy * ay.span))
    }

    /// What libinput reports in millimetres: `(value - minimum) / resolution`,
    /// a resolution of 0 taken as 1 (libinput's fake resolution).
    func libinputMillimetres(x: Int32, y: Int32, of mirror: DeviceDescription) -> (x: Double, y: Double) {
        let ax = mirror.absInfo[EventCode.absMTPositionX]!, ay = mirror.absInfo[EventCode.absMTPositionY]!
        return (Double(x - ax.minimum) / Double(max(ax.resolution, 1)), Double(y - ay.minimum) / Double(max(ay.resolution, 1)))
    }
}

