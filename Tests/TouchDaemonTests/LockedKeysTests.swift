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
        let rig = try ShortcutGuestRig(
            suite: Self.namePrefix,
            shortcuts: "  - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right], keys: [KEY_LEFTMETA, KEY_TAB]}",
            recording: ShortcutKeyboardTests.swipePath, outputCreated: "shortcut keyboard created", outputArguments: ["--show-keycodes"],
            directory: dir, daemonArguments: ["--login-state", "follow"], environment: ["DBUS_SYSTEM_BUS_ADDRESS": logind.address],
            ready: { try $0.waitForLog("session locked") })
        defer { rig.stop() }
        let (keys, mirror, daemon, replay) = (rig.output, rig.mirror, rig.daemon, rig.replay)

        _ = try replay.play(speed: 1)
        // Waits 5 s for keys that must not come.
        #expect(keys.keyboardKeys(count: 1, seconds: 5).isEmpty, "\(keys.output)\n\(daemon.log)")
        let locked = try rig.mirrorTouches(count: 6)
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
