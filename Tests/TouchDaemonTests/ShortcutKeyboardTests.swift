import Evdev
import Foundation
import KernelTesting
import Session
import Testing
import TouchCore
import Trace
@testable import TouchDaemon

/// A shortcut's keys typed on touchd's own uinput keyboard, as real libinput (what every
/// Wayland compositor reads) sees them; with pass-through, the shortcut's touches cancelled on
/// the mirror (semantics §10). In the guest (scripts/vm-test.sh).
@Suite(.serialized, .requiresUinput) struct ShortcutKeyboardTests {
    static let swipePath = PackagePaths.root + "/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.3-finger-swipe-right.events"
    /// Only this suite's touchscreen is passed through (the kernel suites beside it keep theirs).
    static let namePrefix = "ShortcutKeyboardTests "

    /// The node of the input device named `name`, once it exists.
    static func node(named name: String) throws -> String {
        var found: String?
        try poll("the input device \(name)") {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/input")) ?? []
            for n in entries where n.hasPrefix("event") {
                let device = (try? String(contentsOfFile: "/sys/class/input/\(n)/device/name", encoding: .utf8)) ?? ""
                if device.trimmingCharacters(in: .whitespacesAndNewlines) == name {
                    found = "/dev/input/" + n
                    return true
                }
            }
            return false
        }
        return found!
    }

    @Test("§10 a three-finger swipe types KEY_LEFTMETA+KEY_TAB on touchd's keyboard (press in order, release in reverse), and its touches are cancelled on the mirror")
    func keysAndMirror() throws {
        let dir = TemporaryDirectory()
        let config = dir.path + "/touchd.yaml"
        try """
        devices:
          - match: {name: "\(Self.namePrefix)*"}
            passThrough: true
        shortcuts:
          - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right], keys: [KEY_LEFTMETA, KEY_TAB]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config])
        let keyboardNode = try Self.node(named: VirtualKeyboard.deviceName)
        var recording = try TraceReader.read(path: Self.swipePath)
        for i in recording.devices.indices { recording.devices[i].description.name = Self.namePrefix + recording.devices[i].description.name }
        let replay = try UinputReplay(recording: recording)
        defer { replay.close() }
        try daemon.waitForLog("pass-through: on")
        // This suite's own mirror (PassThroughTests' mirrors may exist beside it).
        let mirrorNode = try Self.node(named: recording.devices[0].description.name + MirrorDescription.nameSuffix)

        let keys = try LibinputDebugEvents(node: keyboardNode, extraArguments: ["--show-keycodes"])
        defer { keys.stop() }
        try keys.waitForDeviceAdded()
        let mirror = try LibinputDebugEvents(node: mirrorNode)
        defer { mirror.stop() }
        try mirror.waitForDeviceAdded()

        _ = try replay.play(speed: 1)
        let typed = keys.keyboardKeys(count: 4)
        #expect(typed == ["KEY_LEFTMETA pressed", "KEY_TAB pressed", "KEY_TAB released", "KEY_LEFTMETA released"], "\(keys.output)\n\(daemon.log)")

        let touches = try mirror.touchEvents(count: 6).map(\.kind).filter { $0 != "TOUCH_FRAME" }
        // The three fingers reached the app world (nothing held them back), then were taken.
        #expect(touches.filter { $0 == "TOUCH_DOWN" }.count == 3, "\(mirror.output)")
        #expect(touches.filter { $0 == "TOUCH_CANCEL" }.count >= 1, "\(mirror.output)")
        #expect(!touches.contains("TOUCH_UP"), "\(mirror.output)")
    }
}
