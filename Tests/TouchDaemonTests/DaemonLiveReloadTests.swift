// SPDX-License-Identifier: MIT
import Evdev
import Foundation
import KernelTesting
import Testing
import TouchCore
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// A reload decides every live device again with the inputs a hot-plug sees
/// (the engine's LiveDeviceDecider): in the guest, against real uinput devices and udev.
@Suite(.serialized, .requiresUinput) struct DaemonLiveReloadTests {
    /// Only this suite's devices are taken: the kernel suites beside it keep theirs.
    static let namePrefix = "DaemonLiveReloadTests "
    static let onlyOurs = "  - {match: {name: \"*\"}, ignore: true}\n  - {match: {name: \"\(namePrefix)*\"}, ignore: false}\n"

    static func description(_ suffix: String) throws -> DeviceDescription {
        var d = try PassThroughTests.Strokes().recording().devices[0].description
        d.name = namePrefix + suffix
        return d
    }

    /// The hello's device named `name`, as JSON.
    static func helloDevice(_ daemon: DaemonProcess, named name: String) throws -> [String: Any]? {
        let client = try WireSocket(path: daemon.socketPath)
        let hello = try #require(try client.readLine())
        let o = try #require(try JSONSerialization.jsonObject(with: Data(hello.utf8)) as? [String: Any])
        let devices = (o["devices"] as? [[String: Any]]) ?? []
        return devices.first { ($0["name"] as? String) == name }
    }

    static func waitForDevice(_ daemon: DaemonProcess, named name: String) throws -> [String: Any] {
        var found: [String: Any]?
        try poll("\(name) in the hello") {
            found = try helloDevice(daemon, named: name)
            return found != nil
        }
        return found!
    }

    static func run(_ path: String, _ arguments: String...) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aDevicePluggedAfterAReloadFollowsTheNewRules() throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        let screens = "screens:\n  - {name: a, width: 800, height: 480}\n  - {name: b, width: 800, height: 480}\n"
        try write(screens + "devices:\n" + Self.onlyOurs, to: config)
        let daemon = try DaemonProcess(["--config", config, "--log-level", "info"])
        try write(screens + "devices:\n" + Self.onlyOurs + "  - {match: {name: \"\(Self.namePrefix)late*\"}, screen: b, rotation: 180}\n", to: config)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("configuration reloaded")
        let description = try Self.description("late touchscreen")
        let device = try UinputDevice(description: description)
        defer { device.close() }
        let served = try Self.waitForDevice(daemon, named: description.name)
        // Before, the source decided with the rules touchd started with: screen 0.
        #expect(served["screen"] as? Int == 1, "\(served)\n\(daemon.log)")
    }

    /// Throwaway guest only: writes a udev rule.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["TOUCHD_VM_GUEST"] == "1", "changes udev rules: runs in the QEMU guest (make test-vm)"))
    func aReloadKeepsUdevDerivedSettings() throws {
        let description = try Self.description("udev-sized touchscreen")
        let rule = "/run/udev/rules.d/64-touchd-reload-test.rules"
        try FileManager.default.createDirectory(atPath: "/run/udev/rules.d", withIntermediateDirectories: true)
        try write("SUBSYSTEM==\"input\", KERNEL==\"event*\", ATTRS{name}==\"\(description.name)\", ENV{TOUCHD_SIZE_MM}=\"150x100\"\n", to: rule)
        // udevd may be busy with another suite's `control` request (EAGAIN): asked again.
        func reloadUdevRules() throws -> Bool {
            for _ in 0..<20 {
                if try Self.run("/usr/bin/udevadm", "control", "--reload") == 0 { return true }
                usleep(100_000)
            }
            return false
        }
        defer {
            try? FileManager.default.removeItem(atPath: rule)
            _ = try? reloadUdevRules()
        }
        #expect(try reloadUdevRules())
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        try write("devices:\n" + Self.onlyOurs, to: config)
        let daemon = try DaemonProcess(["--config", config, "--log-level", "info"])
        let device = try UinputDevice(description: description)
        defer { device.close() }
        let before = try Self.waitForDevice(daemon, named: description.name)
        let sizeBefore = before["size"] as? [String: Any]
        #expect(sizeBefore?["width"] as? Double == 150, "\(before)")
        // A reload that changes the device rules (the device is decided again).
        try write("devices:\n" + Self.onlyOurs + "  - {match: {name: \"\(description.name)\"}, rotation: 180}\n", to: config)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("configuration reloaded")
        let after = try #require(try Self.helloDevice(daemon, named: description.name))
        let sizeAfter = after["size"] as? [String: Any]
        #expect(sizeAfter?["width"] as? Double == 150 && sizeAfter?["height"] as? Double == 100, "\(after)\n\(daemon.log)")
        #expect(sizeAfter?["source"] as? String == sizeBefore?["source"] as? String)
    }

    @Test func passThroughTurnsOnAndOffByReload() throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        try write("devices:\n" + Self.onlyOurs, to: config)
        let daemon = try DaemonProcess(["--config", config, "--log-level", "info"])
        let description = try Self.description("pass-through touchscreen")
        let device = try UinputDevice(description: description)
        defer { device.close() }
        _ = try Self.waitForDevice(daemon, named: description.name)
        let node = try #require(device.devnode)
        // Not grabbed: another reader may take the device.
        let other = try EvdevDevice(path: node)
        defer { other.close() }
        try other.grab()
        try other.ungrab()

        try write("devices:\n" + Self.onlyOurs + "  - {match: {name: \"\(description.name)\"}, passThrough: true}\n", to: config)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("pass-through: on")
        _ = try PassThroughTests.Rig.mirrorNode(of: node)
        #expect(throws: EvdevError.self) { try other.grab() }

        try write("devices:\n" + Self.onlyOurs, to: config)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("pass-through: off")
        try poll("the grab released") { (try? other.grab()) != nil }
        try other.ungrab()
    }

    /// A grab a reload asks for is taken once the contact down lifts: the
    /// compositor saw it begin and must see it end.
    @Test func aGrabByReloadWaitsForTheContactsToLift() throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        try write("devices:\n" + Self.onlyOurs, to: config)
        let daemon = try DaemonProcess(["--config", config, "--log-level", "info"])
        let description = try Self.description("grabbed touchscreen")
        let device = try UinputDevice(description: description)
        defer { device.close() }
        _ = try Self.waitForDevice(daemon, named: description.name)
        let node = try #require(device.devnode)
        let touches = try WireSocket(path: daemon.socketPath)
        _ = try touches.readLine()
        _ = try touches.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#, id: 1)
        // A finger down (slot 0, tracking id 1), read by touchd before the reload.
        try device.write(type: .abs, code: EventCode.absMTSlot, value: 0)
        try device.write(type: .abs, code: EventCode.absMTTrackingID, value: 1)
        try device.write(type: .abs, code: EventCode.absMTPositionX, value: 400)
        try device.write(type: .abs, code: EventCode.absMTPositionY, value: 240)
        try device.write(type: .key, code: EventCode.btnTouch, value: 1)
        try device.write(type: .syn, code: 0, value: 0)
        _ = try touches.lines { $0.contains(#""type":"touch""#) }

        try write("devices:\n" + Self.onlyOurs + "  - {match: {name: \"\(description.name)\"}, grab: true}\n", to: config)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("configuration reloaded")
        let other = try EvdevDevice(path: node)
        defer { other.close() }
        // Not taken while the finger is down: another reader may still grab it.
        try other.grab()
        try other.ungrab()
        #expect(!daemon.log.contains("grabbed the device (configuration)"))

        try device.write(type: .abs, code: EventCode.absMTTrackingID, value: -1)
        try device.write(type: .key, code: EventCode.btnTouch, value: 0)
        try device.write(type: .syn, code: 0, value: 0)
        try daemon.waitForLog("grabbed the device (configuration)")
        #expect(throws: EvdevError.self) { try other.grab() }
    }
}
