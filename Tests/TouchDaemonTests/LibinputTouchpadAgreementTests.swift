// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import KernelTesting
import Testing
import TouchCore
import TouchDaemon
import Trace

/// Issue 48: what touchd decides on every bundled touchpad recording (scroll, pinch, swipe,
/// tap...), against what libinput decides on the same recording played into a uinput device.
/// The table (`decisions`) is the measurement of docs/recognizers.md, "Touchpads: touchd
/// against libinput", every difference explained there. The host test pins touchd's column
/// (a change of what touchd decides fails it); the guest test plays each recording into
/// `libinput debug-events --enable-tap` and checks libinput's column, so the table cannot
/// go stale (scripts/vm-test.sh LibinputTouchpadAgreementTests).
@Suite(.serialized) struct LibinputTouchpadAgreementTests {
    /// One recording's decisions: the most telling class each reports (``TouchpadDecision``).
    struct Row: Sendable, CustomTestStringConvertible {
        var file: String
        var touchd: String
        var libinput: String
        var testDescription: String { file }
    }

    /// Measured in the guest with libinput 1.22.1 (Debian 12); touchd with the built-in configuration.
    static let decisions: [Row] = [
        Row(file: "AlpsPS2 ALPS GlidePoint.2-finger-tap.events", touchd: "scroll", libinput: "scroll"),
        Row(file: "AlpsPS2 ALPS GlidePoint.double-tap.events", touchd: "motion", libinput: "motion"),
        Row(file: "AlpsPS2 ALPS GlidePoint.right-edge-scroll.events", touchd: "motion", libinput: "none"),
        Row(file: "AlpsPS2 ALPS GlidePoint.single-tap.events", touchd: "motion", libinput: "motion"),
        Row(file: "AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.doubletap.events", touchd: "tap(1)", libinput: "tap(1)"),
        Row(file: "AlpsPS2-ALPS-DualPoint-TouchPad-non-MT.tap.events", touchd: "tap(1)", libinput: "tap(1)"),
        Row(file: "AlpsPS2-ALPS-DualPoint-TouchPad.events", touchd: "motion", libinput: "motion"),
        Row(file: "CyPS2 Cypress Trackpad.three_finger_press.events", touchd: "click", libinput: "click"),
        Row(file: "CyPS2 Cypress Trackpad.three_finger_tap.events", touchd: "tap(3)", libinput: "tap(3)"),
        Row(file: "CyPS2 Cypress Trackpad.two_finger_press.events", touchd: "click", libinput: "click"),
        Row(file: "CyPS2 Cypress Trackpad.two_finger_tap.events", touchd: "tap(2)", libinput: "tap(2)"),
        Row(file: "ETPS2 Elantech Touchpad.Samsung-700Z3A.events", touchd: "motion", libinput: "motion"),
        Row(file: "ETPS2 Elantech Touchpad.events", touchd: "motion", libinput: "motion"),
        Row(file: "SynPS2 Synaptics TouchPad-fdo23890.events", touchd: "motion", libinput: "motion"),
        Row(file: "SynPS2 Synaptics TouchPad-with-scrollbuttons.events", touchd: "click", libinput: "click"),
        Row(file: "SynPS2 Synaptics TouchPad.button-rpress.events", touchd: "click", libinput: "click"),
        Row(file: "SynPS2 Synaptics TouchPad.events", touchd: "click", libinput: "click"),
        Row(file: "SynPS2 Synaptics TouchPad.fdo48777-reproducer.events", touchd: "tap(1)", libinput: "tap(1)"),
        Row(file: "SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-horizontal.events", touchd: "pinch", libinput: "pinch"),
        Row(file: "SynPS2 Synaptics TouchPad.hp8470p.edge-scroll-vertical.events", touchd: "motion", libinput: "motion"),
        Row(file: "SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-horizontal.events", touchd: "pinch", libinput: "pinch"),
        Row(file: "SynPS2 Synaptics TouchPad.hp8470p.two-finger-scroll-vertical.events", touchd: "motion", libinput: "motion"),
        Row(file: "SynPS2 Synaptics TouchPad.leftmove.events", touchd: "motion", libinput: "motion"),
        Row(file: "SynPS2 Synaptics TouchPad.two-finger-vert-scroll.events", touchd: "scroll", libinput: "scroll"),
        Row(file: "bcm5974.three-finger-click.events", touchd: "click", libinput: "click"),
    ]

    static func recording(_ file: String) throws -> Recording {
        try RealFixtures.recording("touchpads/" + file)
    }

    @Test("every bundled touchpad recording is in the table")
    func tableCoversTheFixtures() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: RealFixtures.root + "/real/evemu-devices/touchpads")
            .filter { $0.hasSuffix(".events") }.sorted()
        #expect(files == Self.decisions.map(\.file).sorted())
    }

    @Test("touchd decides each touchpad recording as the table says", arguments: decisions)
    func touchdDecision(_ row: Row) throws {
        let recording = try Self.recording(row.file)
        let decision = TouchpadDecision.touchd(gestures(recording).map(\.event), recording: recording)
        #expect(decision == row.touchd)
    }

    @Test("libinput decides each touchpad recording as the table says (uinput, libinput debug-events)",
          .requiresUinput, arguments: decisions)
    func libinputDecision(_ row: Row) throws {
        let recording = try Self.recording(row.file)
        let replay = try UinputReplay(recording: recording)
        defer { replay.close() }
        let node = try #require(replay.devices.first?.devnode)
        try PassThroughPenTests.waitForUdev(node)
        let libinput = try LibinputDebugEvents.started(node: node, extraArguments: ["--enable-tap"])
        defer { libinput.stop() }
        _ = try replay.play(speed: 1)
        // Taps are decided 180 ms after the lift, scroll ends after the last finger: give it a second.
        _ = libinput.waitForLine(containing: "\u{1}", seconds: 1)
        let decision = TouchpadDecision.libinput(libinput.lines, recording: recording)
        #expect(decision == row.libinput, "\(libinput.output)")
    }
}

/// The most telling class a recording's gestures fall into, the same words for touchd and
/// libinput, first found in this order: `pinch`, `swipe(N)` (three or more fingers moving),
/// `click` (the recording presses a physical button: both get it from the kernel), `tap(N)`,
/// `scroll` (two fingers moving), `edge-scroll` (libinput's one-finger scroll along the pad's
/// edge), `motion` (one finger moving the pointer), `none`. A tap comes before a scroll: libinput
/// scrolls a little during a two-finger tap (a tenth of a millimetre, then the tap), and touchd's
/// two-finger pan may begin in one too; the tap is what the user did.
enum TouchpadDecision {
    /// The physical buttons a recording presses.
    static func clicks(_ recording: Recording) -> Bool {
        recording.events.contains {
            $0.event.type == .key && $0.event.value == 1
                && ($0.event.code == EventCode.btnLeft || $0.event.code == EventCode.btnLeft + 1 || $0.event.code == EventCode.btnLeft + 2)
        }
    }

    /// touchd's: from its gesture events with the built-in configuration.
    static func touchd(_ events: [GestureEvent], recording: Recording) -> String {
        let began = events.filter { $0.state == .began || $0.state == .recognized }
        if began.contains(where: { $0.recognizer == "pinch" }) { return "pinch" }
        let panTouches = events.filter { $0.recognizer == "pan" }.map(\.touches).max() ?? 0
        let panned = began.contains(where: { $0.recognizer == "pan" })
        if panned && panTouches >= 3 { return "swipe(\(panTouches))" }
        if clicks(recording) { return "click" }
        if let tap = began.first(where: { $0.recognizer == "tap" || $0.recognizer == "double-tap" }) { return "tap(\(tap.touches))" }
        if panned { return panTouches == 2 ? "scroll" : "motion" }
        return "none"
    }

    /// libinput's: from the lines of `libinput debug-events --enable-tap`.
    static func libinput(_ lines: [String], recording: Recording) -> String {
        func kind(_ line: String) -> (String, [Substring]) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            return (words.count > 1 ? String(words[1]) : "", words)
        }
        let events = lines.map(kind)
        if events.contains(where: { $0.0 == "GESTURE_PINCH_BEGIN" }) { return "pinch" }
        if let swipe = events.first(where: { $0.0 == "GESTURE_SWIPE_BEGIN" }) {
            // `event5   GESTURE_SWIPE_BEGIN  +1.234s	3`: the finger count last.
            return "swipe(\(swipe.1.last.map(String.init) ?? "?"))"
        }
        if clicks(recording) { return "click" }
        // Taps are buttons with no physical press: left, right, middle for one, two, three fingers.
        if let button = events.first(where: { $0.0 == "POINTER_BUTTON" && $0.1.contains("pressed,") }) {
            let text = button.1.joined(separator: " ")
            if text.contains("BTN_RIGHT") { return "tap(2)" }
            if text.contains("BTN_MIDDLE") { return "tap(3)" }
            return "tap(1)"
        }
        if events.contains(where: { $0.0 == "POINTER_SCROLL_FINGER" }) { return "scroll" }
        if events.contains(where: { $0.0 == "POINTER_SCROLL_EDGE" }) { return "edge-scroll" }
        if events.contains(where: { $0.0 == "POINTER_MOTION" }) { return "motion" }
        return "none"
    }
}
