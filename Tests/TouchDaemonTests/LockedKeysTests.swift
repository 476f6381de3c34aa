// SPDX-License-Identifier: MIT
import Evdev
import Foundation
import KernelTesting
import Testing
import TouchCore
import Trace
@testable import TouchDaemon

/// Semantics §13 with real keys: a live touchd following a stand-in logind on a private
/// dbus-daemon types nothing for the recorded three-finger swipe while LockedHint is true, and
/// the mirror (the locker's world) gets every touch, lifted, not cancelled; unlocked, the same
/// swipe types its keys again. In the guest (scripts/vm-test.sh).
@Suite(.serialized, .requiresUinput) struct LockedKeysTests {
    static let namePrefix = "LockedKeysTests "

    @Test("§13 locked: the shortcut types nothing and the locker gets the touches; unlocked: KEY_LEFTMETA+KEY_TAB again")
    func lockedTypesNothing() throws {
        let dir = TemporaryDirectory()
        let logind = try StandInLogind(directory: dir.path)
        try logind.addActiveSession("c1")
        try logind.setLocked("c1", true)
        let config = dir.path + "/touchd.yaml"
        try """
        devices:
          - match: {name: "\(Self.namePrefix)*"}
            passThrough: true
            passThroughEnding: cancel
        shortcuts:
          - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right], keys: [KEY_LEFTMETA, KEY_TAB]}
        """.write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--login-state", "follow"],
                                       environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address])
        try daemon.waitForLog("session locked")
        let keyboardNode = try ShortcutKeyboardTests.node(named: VirtualKeyboard.deviceName)
        var recording = try TraceReader.read(path: ShortcutKeyboardTests.swipePath)
        for i in recording.devices.indices { recording.devices[i].description.name = Self.namePrefix + recording.devices[i].description.name }
        let replay = try UinputReplay(recording: recording)
        defer { replay.close() }
        try daemon.waitForLog("pass-through: on")
        // This suite's own mirror (a cancel shows a claim; the default lift ending would end it with an up).
        let mirrorNode = try PassThroughTests.Rig.mirrorNode(of: try #require(replay.devices.first?.devnode))

        let keys = try LibinputDebugEvents(node: keyboardNode, extraArguments: ["--show-keycodes"])
        defer { keys.stop() }
        try keys.waitForDeviceAdded()
        let mirror = try LibinputDebugEvents(node: mirrorNode)
        defer { mirror.stop() }
        try mirror.waitForDeviceAdded()

        _ = try replay.play(speed: 1)
        // Waits 5 s for keys that must not come.
        #expect(keys.keyboardKeys(count: 1).isEmpty, "\(keys.output)\n\(daemon.log)")
        let locked = try mirror.touchEvents(count: 6).map(\.kind).filter { $0 != "TOUCH_FRAME" }
        #expect(locked.filter { $0 == "TOUCH_DOWN" }.count == 3, "\(mirror.output)")
        #expect(locked.filter { $0 == "TOUCH_UP" }.count == 3, "\(mirror.output)")
        #expect(!locked.contains("TOUCH_CANCEL"), "\(mirror.output)")

        try logind.setLocked("c1", false)
        try daemon.waitForLog("session unlocked")
        _ = try replay.play(speed: 1)
        let typed = keys.keyboardKeys(count: 4)
        #expect(typed == ["KEY_LEFTMETA pressed", "KEY_TAB pressed", "KEY_TAB released", "KEY_LEFTMETA released"], "\(keys.output)\n\(daemon.log)")
    }
}
