// SPDX-License-Identifier: MIT
import Evdev
import Foundation
import KernelTesting
import Testing
import TouchCore
import Trace
@testable import TouchDaemon

/// The secondary click (issue 41): a shortcut with `click: right` clicks BTN_RIGHT at the
/// gesture's location on touchd's own uinput pointer, as real libinput (what every Wayland
/// compositor reads) sees it; the shortcut claimed the touches, so the mirror's are cancelled.
/// In the guest (scripts/vm-test.sh).
@Suite(.serialized, .requiresUinput) struct SecondaryClickTests {
    /// A real recording of two fingers held and lifted (evemu-devices): a two-finger long press
    /// of 150 ms recognized at (914.34, 533.24) on the 1920x1080 default screen (touchctl replay).
    static let holdPath = PackagePaths.fixture("Atmel maXTouch Touchscreen.2-fingers-touch-release.events")
    static let namePrefix = "SecondaryClickTests "

    @Test("a two-finger long press is a right click at its location on touchd's pointer; its touches are cancelled on the mirror")
    func rightClick() throws {
        let rig = try ShortcutGuestRig(
            suite: Self.namePrefix,
            shortcuts: "  - {name: context-menu, kind: long-press, minTouches: 2, maxTouches: 2, minDuration: 150, click: right}",
            recording: Self.holdPath, outputCreated: "shortcut pointer created")
        defer { rig.stop() }
        let (pointer, mirror, daemon) = (rig.output, rig.mirror, rig.daemon)

        _ = try rig.replay.play(speed: 1)
        let buttons = pointer.lines(of: "POINTER_BUTTON", count: 2)
        #expect(buttons.count == 2, "\(pointer.output)\n\(daemon.log)")
        #expect(buttons.first?.contains("BTN_RIGHT") == true && buttons.first?.contains("pressed") == true, "\(pointer.output)")
        #expect(buttons.last?.contains("BTN_RIGHT") == true && buttons.last?.contains("released") == true, "\(pointer.output)")
        // libinput prints an absolute position as a percentage of the screen: 914.34/1920, 533.24/1080
        // offline. Live, the long press is recognized at its deadline on the engine's clock: on a
        // loaded guest the fingers may have crept a few pixels by then (seen: 47.37/50.42), so
        // within 2 points of the screen (38 by 22 pixels), far from any other place on it.
        let motion = try #require(pointer.lines(of: "POINTER_MOTION_ABSOLUTE", count: 1).first, "\(pointer.output)")
        let numbers = motion.split(separator: "\t").last.map { $0.split(separator: "/").map { Double($0.trimmingCharacters(in: .whitespaces)) } } ?? []
        #expect(numbers.count == 2, "\(motion)")
        if numbers.count == 2, let x = numbers[0], let y = numbers[1] {
            #expect(abs(x - 47.62) < 2 && abs(y - 49.37) < 2, "\(motion)")
        }
        // The button came after the move: the app beneath gets the click where the fingers were.
        let order = pointer.lines.filter { $0.contains("POINTER_") }.map { $0.contains("ABSOLUTE") ? "move" : "button" }
        #expect(order.first == "move", "\(pointer.output)")

        let touches = try rig.mirrorTouches(count: 4)
        #expect(touches.filter { $0 == "TOUCH_DOWN" }.count == 2, "\(mirror.output)")
        #expect(touches.contains("TOUCH_CANCEL"), "\(mirror.output)")
        #expect(!touches.contains("TOUCH_UP"), "\(mirror.output)")
    }

    @Test("with the lift ending, a click's touches end on the mirror with an up each, and the click reaches touchd's pointer (its order against the ups: the compositor case secondary-click)")
    func rightClickLiftsTheTouches() throws {
        let rig = try ShortcutGuestRig(
            suite: Self.namePrefix,
            shortcuts: "  - {name: context-menu, kind: long-press, minTouches: 2, maxTouches: 2, minDuration: 150, click: right}",
            recording: Self.holdPath, outputCreated: "shortcut pointer created", ending: "lift")
        defer { rig.stop() }
        _ = try rig.replay.play(speed: 1)
        let buttons = rig.output.lines(of: "POINTER_BUTTON", count: 2)
        #expect(buttons.count == 2, "\(rig.output.output)\n\(rig.daemon.log)")
        let touches = try rig.mirrorTouches(count: 8)
        #expect(touches.filter { $0 == "TOUCH_DOWN" }.count == 2, "\(rig.mirror.output)\n\(rig.daemon.log)")
        #expect(touches.filter { $0 == "TOUCH_UP" }.count == 2, "\(rig.mirror.output)\n\(rig.daemon.log)")
        #expect(!touches.contains("TOUCH_CANCEL"), "\(rig.mirror.output)")
    }
}
