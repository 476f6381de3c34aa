// SPDX-License-Identifier: MIT
import Foundation
import KernelTesting
import Testing
import Trace
import TouchCore
import Evdev
@testable import Udev

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The shipped udev rules (`udev-rules/70-touchd.rules`) and the screen
/// example (`udev-rules/examples/66-touchd-screen.rules`), installed into a
/// real systemd-udevd in the QEMU guest with the groups of
/// `systemd/touchd.sysusers`: touch event nodes get the group `touchd`, mode
/// 0640 and `SYSTEMD_WANTS=touchd.service`; keyboards, even ones that are
/// also touchscreens, keep their group and get nothing.
///
/// They change the machine (groups in /etc, rules in /run/udev), so they run
/// only where `scripts/vm-guest.sh` says so (`TOUCHD_VM_GUEST=1`: a throwaway
/// guest whose /etc is a writable overlay), and alone: other suites' devices
/// would get the rules too.
@Suite(.serialized, .enabled(if: isThrowawayGuest, "runs alone in the QEMU guest (make test-vm)"))
struct UdevRulesInstallTests {
    @Test(arguments: [
        ("touchscreens/Atmel maXTouch Touchscreen.desc", TouchDeviceKind.touchscreen),
        ("tablets/Wacom Intuos4 6x9 Pen.desc", TouchDeviceKind.tablet),
        ("touchpads/SynPS2 Synaptics TouchPad.desc", TouchDeviceKind.touchpad),
    ])
    func touchDeviceNodeGetsTheDaemonGroupAndStartsTheService(_ desc: String, _ kind: TouchDeviceKind) throws {
        let touchdGroup = try Self.installRules()
        let description = try #require(try TraceReader.read(path: Self.evemuDevices + "/" + desc).devices.first).description
        let added = try Self.create(description)
        #expect(added.info.touchKind == kind, "\(added.info.properties)")
        let node = try Self.ownership(of: added.node)
        #expect(node.gid == touchdGroup, "\(added.node) has gid \(node.gid), expected touchd (\(touchdGroup))")
        #expect(node.mode == 0o640, "\(added.node) has mode \(String(node.mode, radix: 8))")
        #expect(node.uid == 0)
        let wants = added.info.properties["SYSTEMD_WANTS"] ?? ""
        #expect(wants.split(separator: " ").contains("touchd.service"), "SYSTEMD_WANTS=\(wants)")
        #expect((added.info.properties["TAGS"] ?? "").contains(":systemd:"))
    }

    @Test func screenExampleSetsTheScreenAndSizeOfItsTouchscreenOnly() throws {
        _ = try Self.installRules()
        let atmel = try #require(try TraceReader.read(path: Self.evemuDevices + "/touchscreens/Atmel maXTouch Touchscreen.desc").devices.first)
        let matched = try Self.create(atmel.description)
        #expect(matched.info.properties["TOUCHD_SCREEN"] == "DSI-1")
        #expect(matched.info.screen == "DSI-1")
        #expect(try matched.info.sizeOverride() == SizeMM(width: 217, height: 136))

        var other = atmel.description
        other.name = "touchd rules test touchscreen"
        let unmatched = try Self.create(other)
        #expect(unmatched.info.isTouchscreen)
        #expect(unmatched.info.properties["TOUCHD_SCREEN"] == nil)
        #expect(unmatched.info.properties["TOUCHD_SIZE_MM"] == nil)
    }

    /// The mirror keeps the original's name, so it is known by its phys; it
    /// carries the original's udev properties that touchd wrote to
    /// /run/touchd/<phys> (90-touchd-mirror.rules), the device group included.
    @Test func passThroughMirrorIsMarkedAndNotGivenToTheDaemon() throws {
        let touchdGroup = try Self.installRules()
        let atmel = try #require(try TraceReader.read(path: Self.evemuDevices + "/touchscreens/Atmel maXTouch Touchscreen.desc").devices.first)
        let phys = MirrorDescription.phys(key: "rulestest")
        try FileManager.default.createDirectory(atPath: "/run/touchd", withIntermediateDirectories: true)
        let carried = MirrorDescription.carriedProperties([
            "LIBINPUT_CALIBRATION_MATRIX": "0.5 0 0 0 0.5 0", "WL_OUTPUT": "HDMI-A-1",
            "LIBINPUT_DEVICE_GROUP": "3/1234/5678:usb-0000:00:14.0-7", "ID_PATH": "not carried", "TOUCHD_RULES_TEST": "not carried",
        ])
        try carried.map { "\($0.key)=\($0.value)\n" }.joined().write(toFile: "/run/touchd/" + phys, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: "/run/touchd/" + phys) }
        let mirror = try Self.create(MirrorDescription.make(from: atmel.description, key: "rulestest"))
        #expect(mirror.info.properties["TOUCHD_MIRROR"] == "1", "\(mirror.info.properties)")
        #expect(mirror.info.isTouchdMirror)
        #expect(mirror.info.isTouchscreen)
        #expect(mirror.info.properties["LIBINPUT_CALIBRATION_MATRIX"] == "0.5 0 0 0 0.5 0", "\(mirror.info.properties)")
        #expect(mirror.info.properties["WL_OUTPUT"] == "HDMI-A-1")
        #expect(mirror.info.properties["LIBINPUT_DEVICE_GROUP"] == "3/1234/5678:usb-0000:00:14.0-7")
        #expect(mirror.info.properties["ID_PATH"] != "not carried")
        #expect(mirror.info.properties["TOUCHD_RULES_TEST"] == nil)
        let node = try Self.ownership(of: mirror.node)
        #expect(node.gid != touchdGroup, "\(mirror.node): touchd must not read its own mirror")
        #expect(!(mirror.info.properties["SYSTEMD_WANTS"] ?? "").contains("touchd.service"))
        // The original is not marked.
        let plain = try Self.create(atmel.description)
        #expect(plain.info.properties["TOUCHD_MIRROR"] == nil)
        #expect(!plain.info.isTouchdMirror)
    }

    @Test(arguments: [false, true])
    func keyboardNodeKeepsItsGroup(alsoTouchscreen: Bool) throws {
        let touchdGroup = try Self.installRules()
        var keyboard: DeviceDescription
        if alsoTouchscreen {
            keyboard = try #require(try TraceReader.read(path: Self.evemuDevices + "/touchscreens/Atmel maXTouch Touchscreen.desc").devices.first).description
            keyboard.name = "touchd rules test keyboard with touchscreen"
        } else {
            keyboard = DeviceDescription(name: "touchd rules test keyboard", id: InputID(bustype: 0x03, vendor: 0x1234, product: 0x5678))
        }
        // KEY_ESC...KEY_D: udev's input_id calls a device with all of them a keyboard.
        for code in UInt16(1)...UInt16(32) { keyboard.enable(.key, code) }
        let added = try Self.create(keyboard)
        #expect(added.info.properties["ID_INPUT_KEYBOARD"] == "1", "\(added.info.properties)")
        #expect(added.info.isTouchscreen == alsoTouchscreen)
        let node = try Self.ownership(of: added.node)
        #expect(node.gid != touchdGroup, "\(added.node) must not be readable by touchd")
        #expect(node.mode & 0o007 == 0, "\(added.node) is world-accessible: \(String(node.mode, radix: 8))")
        #expect(!(added.info.properties["SYSTEMD_WANTS"] ?? "").contains("touchd.service"))
    }

    // MARK: Set-up

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let evemuDevices = packageRoot.appendingPathComponent("Tests/Fixtures/real/evemu-devices").path

    /// Creates the user and groups (systemd-sysusers on the shipped file),
    /// puts the rules into /run/udev/rules.d and reloads udevd; returns the
    /// gid of `touchd`. Idempotent: each test calls it.
    static func installRules() throws -> gid_t {
        if getgrnam("touchd") == nil {
            // virtme-ng mounts over the guest's /etc/shadow, so sysusers fails
            // at its last step (replacing shadow) after writing group and
            // passwd: judge it by the user and groups it made.
            _ = try run(["/usr/bin/systemd-sysusers", "/bin/systemd-sysusers"], packageRoot.appendingPathComponent("systemd/touchd.sysusers").path)
        }
        let group = try #require(getgrnam("touchd"), "systemd-sysusers did not create the group touchd").pointee.gr_gid
        let clients = try #require(getgrnam("touchd-clients"), "systemd-sysusers did not create the group touchd-clients").pointee.gr_gid
        let user = try #require(getpwnam("touchd"), "systemd-sysusers did not create the user touchd").pointee
        #expect(user.pw_gid == clients, "the user touchd's primary group is touchd-clients")
        let rulesDirectory = "/run/udev/rules.d"
        try FileManager.default.createDirectory(atPath: rulesDirectory, withIntermediateDirectories: true)
        var changed = false
        for source in ["udev-rules/70-touchd.rules", "udev-rules/90-touchd-mirror.rules", "udev-rules/examples/66-touchd-screen.rules"] {
            let text = try String(contentsOf: packageRoot.appendingPathComponent(source), encoding: .utf8)
            let target = rulesDirectory + "/" + (source as NSString).lastPathComponent
            if (try? String(contentsOfFile: target, encoding: .utf8)) != text {
                try text.write(toFile: target, atomically: true, encoding: .utf8)
                changed = true
            }
        }
        if changed {
            let status = try run(["/usr/bin/udevadm", "/bin/udevadm"], "control", "--reload")
            #expect(status == 0, "udevadm control --reload exited with \(status)")
        }
        return group
    }

    /// A uinput device, and udev's view of its event node once udevd has run
    /// the rules on it (the add event comes after the rules).
    struct Added {
        let uinput: UinputDevice
        let node: String
        let info: UdevDeviceInfo
    }

    static func create(_ description: DeviceDescription) throws -> Added {
        let udev = try UdevContext()
        let monitor = try UdevMonitor(context: udev)
        let uinput = try UinputDevice(description: description)
        let syspath = try #require(uinput.syspath)
        for _ in 0..<200 {
            guard try monitor.waitForEvent(timeoutMilliseconds: 20_000) else { break }
            while let event = try monitor.receive() {
                if event.action == .add, event.device.isEventNode, event.device.syspath.hasPrefix(syspath + "/"),
                   let node = event.device.devnode {
                    return Added(uinput: uinput, node: node, info: event.device)
                }
            }
        }
        throw RulesTestError(description: "no udev add event for \(description.name) (\(syspath))")
    }

    static func ownership(of node: String) throws -> (uid: uid_t, gid: gid_t, mode: mode_t) {
        var st = stat()
        guard stat(node, &st) == 0 else { throw RulesTestError(description: "stat \(node): errno \(errno)") }
        return (st.st_uid, st.st_gid, st.st_mode & 0o7777)
    }

    /// Runs the first existing program of `candidates` with `arguments`; returns its exit status.
    @discardableResult
    static func run(_ candidates: [String], _ arguments: String...) throws -> Int32 {
        guard let path = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw RulesTestError(description: "none of \(candidates) exists")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// Set by scripts/vm-guest.sh: a guest whose /etc and /run may be changed.
private let isThrowawayGuest = ProcessInfo.processInfo.environment["TOUCHD_VM_GUEST"] == "1"
    && KernelCapability.uinputIsWritable

/// A failed step of setting up the rules test, naming the command or device.
struct RulesTestError: Error, CustomStringConvertible {
    let description: String
}
