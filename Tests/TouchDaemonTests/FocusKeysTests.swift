// SPDX-License-Identifier: MIT
import Evdev
import Foundation
import KernelTesting
import Testing
import TouchCore
import Trace
@testable import TouchDaemon

/// Gestures per app with real keys: a live touchd whose three-finger swipe types Super+Tab only
/// over app A. A client reports the focus over the socket (as touchctl follow-focus does);
/// over app B the same recorded swipe types nothing and the app (the mirror) gets its touches;
/// over app A libinput reads the keys. In the guest (scripts/vm-test.sh).
@Suite(.serialized, .requiresUinput) struct FocusKeysTests {
    static let namePrefix = "FocusKeysTests "

    @Test("the same three-finger swipe: over app B no key and the app gets the touches; over app A KEY_LEFTMETA+KEY_TAB")
    func keysPerApp() throws {
        let rig = try ShortcutGuestRig(
            suite: Self.namePrefix,
            shortcuts: #"  - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right], keys: [KEY_LEFTMETA, KEY_TAB], apps: ["org.example.a*"]}"#,
            recording: ShortcutKeyboardTests.swipePath, outputCreated: "shortcut keyboard created", outputArguments: ["--show-keycodes"],
            daemonArguments: ["--login-state", "ignore"])
        defer { rig.stop() }
        let (keys, mirror, daemon, replay) = (rig.output, rig.mirror, rig.daemon, rig.replay)
        // Not following logind: a client in no session (this test) may report.
        let follower = try WireSocket(path: daemon.socketPath)
        _ = try follower.readLine()
        let b = try follower.request(#"{"op":"focus","id":1,"appId":"org.example.beta"}"#, id: 1)
        #expect(b.last?.contains("\"type\":\"ack\"") == true, "\(b)")
        try daemon.waitForLog("focus org.example.beta")

        _ = try replay.play(speed: 1)
        // Waits 5 s for keys that must not come.
        #expect(keys.keyboardKeys(count: 1, seconds: 5).isEmpty, "\(keys.output)\n\(daemon.log)")
        let overB = try rig.mirrorTouches(count: 6)
        #expect(overB.filter { $0 == "TOUCH_DOWN" }.count == 3, "\(mirror.output)")
        #expect(overB.filter { $0 == "TOUCH_UP" }.count == 3 && !overB.contains("TOUCH_CANCEL"), "\(mirror.output)")

        let a = try follower.request(#"{"op":"focus","id":2,"appId":"org.example.alpha","title":"A"}"#, id: 2)
        #expect(a.last?.contains("\"type\":\"ack\"") == true, "\(a)")
        try daemon.waitForLog("focus org.example.alpha")
        _ = try replay.play(speed: 1)
        let typed = keys.keyboardKeys(count: 4)
        #expect(typed == ["KEY_LEFTMETA pressed", "KEY_TAB pressed", "KEY_TAB released", "KEY_LEFTMETA released"], "\(keys.output)\n\(daemon.log)")
    }
}
