// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Testing
import TouchCore
import Session
import TouchDaemon
import TouchTesting
import Trace

/// Fixture paths, relative to this file.
enum RealFixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    static func recording(_ relative: String) throws -> Recording {
        try TraceReader.read(path: root + "/real/evemu-devices/" + relative)
    }
}

/// One gesture as a compact string: `recognizer:state(touches)`.
struct GestureLine: Equatable, CustomStringConvertible {
    var recognizer: String
    var state: GestureState
    var touches: Int
    var event: GestureEvent
    var description: String { "\(recognizer):\(state.rawValue)(\(touches))" }
}

func gestures(_ recording: Recording, configuration: TouchdConfiguration = TouchdConfiguration()) -> [GestureLine] {
    var out: [GestureLine] = []
    ReplaySession(recordings: [recording], configuration: configuration).run(recordsDebug: false) { o in
        if case .engine(.gesture(let g)) = o {
            out.append(GestureLine(recognizer: g.recognizer, state: g.state, touches: g.touches, event: g))
        }
    }
    return out
}

/// Issue 3: the real recordings, with the built-in configuration, come out as
/// the gestures their names and content say (semantics §3-§4 on real input).
@Suite struct RealRecordingGestureTests {
    /// Atmel maXTouch, 9 quick single-finger taps (9 touches of under 100 ms,
    /// each lifted near where it landed). Pairs within the double-tap window
    /// are double taps; the odd one out is a tap once the window passes.
    @Test func fastTapsAreDoubleTapsAndATap() throws {
        let g = gestures(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        #expect(g.map(\.description) == Array(repeating: "double-tap:recognized(1)", count: 4) + ["tap:recognized(1)"])
        #expect(g.allSatisfy { $0.event.touchType == .direct })
    }

    /// Atmel, four fingers dragged down the screen (+y) together: one pan,
    /// four touches at its peak, translation downward; a swipe down on the way
    /// (simultaneous with the pan in the built-in configuration).
    @Test func fourFingerDragDownIsAPanAndASwipeDown() throws {
        let g = gestures(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"))
        let pans = g.filter { $0.recognizer == "pan" }
        #expect(pans.first?.state == .began && pans.last?.state == .ended)
        #expect(pans.map(\.touches).max() == 4)
        let last = try #require(pans.last?.event.translation)
        #expect(last.y > 200 && abs(last.x) < last.y / 4, "\(last)")
        let swipes = g.filter { $0.recognizer == "swipe" }
        #expect(swipes.count == 1 && swipes.first?.event.direction == .down && swipes.first?.touches == 4)
        #expect(!g.contains { $0.recognizer == "tap" || $0.recognizer == "long-press" || $0.recognizer == "pinch" })
    }

    /// Atmel, one finger dragged up then down again: one pan whose translation
    /// goes negative (up) first, then comes back down.
    @Test func oneFingerUpAndDownIsOnePan() throws {
        let g = gestures(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.1-finger-drag-up-down.events"))
        let pans = g.filter { $0.recognizer == "pan" }
        #expect(pans.filter { $0.state == .began }.count == 1 && pans.last?.state == .ended)
        let ys = pans.compactMap { $0.event.translation?.y }
        let minimum = try #require(ys.min())
        #expect(minimum < -100, "goes up first")
        #expect(try #require(ys.last) > minimum + 100, "then comes back down")
        #expect(pans.allSatisfy { $0.touches == 1 })
    }

    /// EP0430M09, two fingers scrolling: a 2-finger pan, the second finger
    /// lifting just before the end. The panel's y axis runs bottom to top
    /// (the files' "scroll-down" moves toward y = 0), so on screen the pan
    /// goes up (negative y) with the built-in mapping.
    @Test func twoFingerScrollIsATwoFingerPan() throws {
        let g = gestures(try RealFixtures.recording("touchscreens/EP0430M09.2-finger-scroll-down.events"))
        let pans = g.filter { $0.recognizer == "pan" }
        #expect(pans.first?.state == .began && pans.first?.touches == 2 && pans.last?.state == .ended)
        #expect(try #require(pans.last?.event.translation?.y) < -100)
        #expect(!g.contains { $0.recognizer == "pinch" || $0.recognizer == "rotate" })
    }

    /// N-Trig (protocol A, no slots): one finger dragged from the north-west
    /// to the south-east: one 1-finger pan going right and down.
    @Test func protocolADiagonalDragIsOnePan() throws {
        let g = gestures(try RealFixtures.recording("touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events"))
        #expect(g.first?.description == "pan:began(1)" && g.last?.description == "pan:ended(1)")
        #expect(g.allSatisfy { $0.recognizer == "pan" })
        let t = try #require(g.last?.event.translation)
        #expect(t.x > 100 && t.y > 100, "\(t)")
    }

    /// Wacom Intuos4 pen: one short tap of the tip (under 300 ms), hovering
    /// before and after: a stylus tap.
    @Test func stylusTapIsATap() throws {
        let g = gestures(try RealFixtures.recording("tablets/Wacom Intuos4 6x9.stylus-tap.events"))
        #expect(g.map(\.description) == ["tap:recognized(1)"])
        #expect(g.first?.event.touchType == .stylus)
    }

    /// Wacom Intuos4 pen: the tip drawn across the tablet for over a second:
    /// a stylus pan; hover before and after does not start anything.
    @Test func stylusDragIsAPan() throws {
        let g = gestures(try RealFixtures.recording("tablets/Wacom Intuos4 6x9.stylus-drag.events"))
        #expect(g.first?.description == "pan:began(1)" && g.last?.description == "pan:ended(1)")
        #expect(g.allSatisfy { $0.recognizer == "pan" && $0.event.touchType == .stylus })
    }

    /// Wacom Intuos4 pen hovering only, never touching: no gesture of the
    /// built-in configuration (it has no hover recognizer).
    @Test func stylusHoverAloneIsNoGesture() throws {
        #expect(gestures(try RealFixtures.recording("tablets/Wacom Intuos4 6x9.stylus-move.events")).isEmpty)
    }

    /// Cypress two-slot touchpad, a three-finger tap (the third finger only in
    /// BTN_TOOL_TRIPLETAP): one 3-touch tap of indirect touches.
    @Test func touchpadThreeFingerTapIsAThreeTouchTap() throws {
        let g = gestures(try RealFixtures.recording("touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events"))
        #expect(g.map(\.description) == ["tap:recognized(3)"])
        #expect(g.first?.event.touchType == .indirect)
    }

    /// Atmel, two fingers put down and released after 0.8 s, each drifting
    /// about 2 mm (the data: 134.9,41.8 -> 134.7,44.1 mm and 55.6,76.6 ->
    /// 56.1,78.1 mm): too long for a tap; the drift passes the 2 mm pan slop
    /// before the 500 ms long press, so a 2-finger pan wins.
    @Test func twoFingersHeldAndDriftingIsAPanNotATap() throws {
        let g = gestures(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.2-fingers-touch-release.events"))
        #expect(g.first?.description == "pan:began(2)")
        #expect(!g.contains { $0.recognizer == "tap" || $0.recognizer == "double-tap" || $0.recognizer == "long-press" })
    }

    /// Every bundled recording, replayed with the built-in configuration:
    /// actions come in a legal order per recognizer (§3), and replaying twice
    /// gives identical output.
    @Test func everyRecordingGivesOrderedDeterministicGestures() throws {
        let root = RealFixtures.root + "/real"
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".events") || $0.hasSuffix(".event") || $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }
            .sorted()
        #expect(files.count >= 65)
        var total = 0
        for f in files {
            let r = try TraceReader.read(path: root + "/" + f)
            let a = gestures(r), b = gestures(r)
            #expect(a.map(\.event) == b.map(\.event), "\(f) replays differently")
            var open: [String: GestureState] = [:]
            for line in a {
                let key = (line.event.surface?.rawValue ?? "") + "/" + line.recognizer
                switch line.state {
                case .recognized:
                    #expect(open[key] == nil, "\(f): \(key) recognized while active")
                case .began:
                    #expect(open[key] == nil, "\(f): \(key) began twice")
                    open[key] = .began
                case .changed:
                    #expect(open[key] != nil, "\(f): \(key) changed before began")
                case .ended, .cancelled:
                    #expect(open[key] != nil, "\(f): \(key) ended before began")
                    open[key] = nil
                }
            }
            #expect(open.isEmpty, "\(f): still active at the end: \(open.keys.sorted())")
            total += a.count
        }
        #expect(total > 1000)
    }

    /// Every bundled recording, replayed with the built-in configuration
    /// (debug records on): the engine invariants the fuzz harness checks hold
    /// on real input too (no bug record, raw streams open and close, nothing
    /// left active once the replay and its deadlines are over).
    @Test func everyRecordingKeepsTheEngineInvariants() throws {
        let root = RealFixtures.root + "/real"
        let files = FileManager.default.enumerator(atPath: root)!.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".events") || $0.hasSuffix(".event") || $0.hasSuffix(".evemu") || $0.hasSuffix(".yml") }
            .sorted()
        var actions = 0
        for f in files {
            var checker = EngineInvariantChecker()
            ReplaySession(recordings: [try TraceReader.read(path: root + "/" + f)]).run { o in
                if case .engine(let e) = o { checker.check(e) }
            }
            #expect(checker.violations == [], "\(f)")
            #expect(checker.activeGestures.isEmpty && checker.openRawTouches.isEmpty, "\(f)")
            actions += checker.actionCount
        }
        #expect(actions > 1000)
    }
}
