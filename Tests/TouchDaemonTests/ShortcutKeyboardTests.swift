// SPDX-License-Identifier: MIT
import Evdev
import Gestures
import KeyboardKeys
import Logging
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

    @Test("§10 a three-finger swipe types KEY_LEFTMETA+KEY_TAB on touchd's keyboard (press in order, release in reverse), and its touches are cancelled on the mirror")
    func keysAndMirror() throws {
        let rig = try ShortcutGuestRig(
            suite: Self.namePrefix,
            shortcuts: "  - {name: app-switcher, kind: swipe, minTouches: 3, maxTouches: 3, directions: [left, right], keys: [KEY_LEFTMETA, KEY_TAB]}",
            recording: Self.swipePath, outputCreated: "shortcut keyboard created", outputArguments: ["--show-keycodes"])
        defer { rig.stop() }
        let (keys, mirror, daemon) = (rig.output, rig.mirror, rig.daemon)

        _ = try rig.replay.play(speed: 1)
        let typed = keys.keyboardKeys(count: 4)
        #expect(typed == ["KEY_LEFTMETA pressed", "KEY_TAB pressed", "KEY_TAB released", "KEY_LEFTMETA released"], "\(keys.output)\n\(daemon.log)")

        let touches = try rig.mirrorTouches(count: 6)
        // The three fingers reached the app world (nothing held them back), then were taken.
        #expect(touches.filter { $0 == "TOUCH_DOWN" }.count == 3, "\(mirror.output)")
        #expect(touches.filter { $0 == "TOUCH_CANCEL" }.count >= 1, "\(mirror.output)")
        #expect(!touches.contains("TOUCH_UP"), "\(mirror.output)")
    }
}

/// The keyboard's failure paths, without uinput.
@Suite("Shortcut keyboard without uinput")
struct ShortcutKeyboardFailureTests {
    @Test("no /dev/uinput: the keys are inactive, the failure is logged once, gestures go on being handled")
    func uinputMissing() {
        let record = LogRecord()
        var logger = Logger(label: "test") { _ in record }
        logger.logLevel = .debug
        var config = GestureConfiguration()
        config.shortcuts = [ShortcutConfiguration(recognizer: RecognizerConfiguration(name: "s", kind: .tap(TapParameters())),
                                                  keys: [KeyboardKey(name: "KEY_A")!])]
        let keyboard = ShortcutKeyboard(bindings: ShortcutKeyBindings(config), logger: logger, makeKeyboard: { () throws(EvdevError) in
            throw EvdevError(.uinputFailed, device: VirtualKeyboard.deviceName, message: "no /dev/uinput", errno: ENOENT)
        })
        #expect(!keyboard.isReady)
        keyboard.handle(GestureEvent(time: .zero, device: DeviceID(0), surface: nil, owner: "system", recognizer: "s", kind: .tap,
                                     state: .recognized, touches: 1, touchType: .direct, location: .zero, isSystem: true))
        #expect(record.messages.filter { $0.contains("shortcut keys are inactive") }.count == 1)
        // A reload binding keys again tries again (and fails again, logged again).
        keyboard.update(ShortcutKeyBindings(config))
        #expect(record.messages.filter { $0.contains("shortcut keys are inactive") }.count == 2)
    }
}

/// A log handler keeping the messages.
final class LogRecord: LogHandler, @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        lock.lock(); lines.append(event.message.description); lock.unlock()
    }
    var messages: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
