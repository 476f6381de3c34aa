// SPDX-License-Identifier: MIT
import Foundation
import Testing
import TouchCore
import Trace
import Evdev
import Udev

/// Real recordings from Tests/Fixtures/real, and the guard for tests that need the kernel.
enum Fixtures {
    /// Tests/Fixtures/real/evemu-devices, found from this file's path.
    static let evemuDevices = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real/evemu-devices").path

    /// udev's view of a uinput device's event node once udev has initialized
    /// it and `wanted` holds. Polled (the real udevd, no virtual time), at
    /// most 30 s: under load the emulated guest's udevd can take seconds.
    static func udevInfo(of uinput: UinputDevice, until wanted: (UdevDeviceInfo) -> Bool = { _ in true }) throws -> UdevDeviceInfo {
        let syspath = try #require(uinput.syspath)
        let udev = try UdevContext()
        var last: UdevDeviceInfo?
        for _ in 0..<1500 {
            last = try udev.inputEventDevices().first { $0.syspath.hasPrefix(syspath + "/") && $0.isInitialized }
            if let last, wanted(last) { return last }
            usleep(20_000)
        }
        if let last { return last }
        throw FixtureError(message: "\(uinput.devnode ?? syspath): udev did not initialize it within 30 s")
    }

    /// Waits (at most 30 s, then throws) until udev has run its rules on the device: rules may
    /// change the kernel's view of it (libinput's 90-libinput-fuzz-override
    /// sets touchpads' fuzz to 0 with EVIOCSABS), so tests that model the
    /// kernel read the device only afterwards. A rule that runs after the
    /// test has read the device would change it mid-test.
    static func waitForUdev(_ uinput: UinputDevice) throws {
        guard uinput.syspath != nil, let node = uinput.devnode else { return }
        let info = try udevInfo(of: uinput)
        // libinput-fuzz-extract records LIBINPUT_FUZZ_<code>; a RUN program then
        // zeroes that axis's kernel fuzz, after udev already marked the device initialized.
        let zeroed = info.properties.keys.compactMap { key -> UInt16? in
            key.hasPrefix("LIBINPUT_FUZZ_") ? UInt16(key.dropFirst("LIBINPUT_FUZZ_".count), radix: 16) : nil
        }
        guard !zeroed.isEmpty else { return }
        for _ in 0..<1500 {
            let device = try EvdevDevice(path: node)
            let done = zeroed.allSatisfy { (device.deviceDescription.absInfo[$0]?.fuzz ?? 0) == 0 }
            device.close()
            if done { return }
            usleep(20_000)
        }
        throw FixtureError(message: "\(node): udev's rules did not zero the fuzz of \(zeroed) within 30 s")
    }

    /// Reads `evemu-devices/<relative>` (an `.events` file is paired with its `.desc`).
    static func recording(_ relative: String) throws -> Recording {
        try TraceReader.read(path: evemuDevices + "/" + relative)
    }

    /// The device description of `evemu-devices/<relative>`.
    static func description(_ relative: String) throws -> DeviceDescription {
        let recording = try recording(relative)
        guard let device = recording.devices.first else {
            throw FixtureError(message: "\(relative): no device")
        }
        return device.description
    }

    /// The events of the first device of a recording.
    static func events(_ recording: Recording) -> [InputEvent] {
        recording.events.filter { $0.device == DeviceID(0) }.map(\.event)
    }
}

/// A fixture that is not what a test expects.
struct FixtureError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// One real device with a recording of it, for kernel round-trip tests.
struct RecordedFixture: Sendable, CustomTestStringConvertible {
    /// What the device is, for test names.
    var label: String
    /// The `.events` file under evemu-devices.
    var events: String

    var testDescription: String { label }

    /// A protocol B (slotted) touchscreen, a protocol A touchscreen, a pen with
    /// hover, pressure, tilt and eraser, and a touchpad.
    static let all: [RecordedFixture] = [
        RecordedFixture(label: "protocol B touchscreen",
                        events: "touchscreens/Atmel maXTouch Touchscreen.2-fingers-touch-release.events"),
        RecordedFixture(label: "protocol A touchscreen",
                        events: "touchscreens/N-Trig MultiTouch.2-fingers-touch-release.events"),
        RecordedFixture(label: "pen", events: "tablets/Wacom Intuos4 6x9.stylus-drag.events"),
        RecordedFixture(label: "touchpad", events: "touchpads/SynPS2 Synaptics TouchPad.events"),
    ]
}
