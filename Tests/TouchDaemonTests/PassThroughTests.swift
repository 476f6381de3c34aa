// SPDX-License-Identifier: MIT
import Evdev
import Foundation
import KernelTesting
import Session
import Testing
import TouchCore
import Trace
import Wire
@testable import TouchDaemon

/// touchd in front of the compositor (semantics §9): the live daemon with
/// pass-through on a uinput touchscreen, real libinput (`libinput
/// debug-events`) reading the mirror as a compositor would. In the guest
/// (scripts/vm-test.sh).
@Suite(.serialized, .requiresUinput) struct PassThroughTests {
    static let descriptionPath = PackagePaths.root + "/Tests/Fixtures/real/evemu-devices/touchscreens/Atmel maXTouch Touchscreen.desc"

    /// Events on the Atmel touchscreen (800 x 480 units), as an evemu trace.
    struct Strokes {
        var lines: [String] = []
        var trackingID = 1

        mutating func event(_ ms: Int, _ type: Int, _ code: Int, _ value: Int) {
            lines.append("E: \(ms / 1000).\(String(format: "%06d", ms % 1000 * 1000)) \(String(format: "%04x %04x", type, code)) \(value)")
        }

        /// One finger down in slot 0 at (x, y), left down.
        mutating func fingerDown(at ms: Int, x: Int, y: Int) {
            event(ms, 3, 0x2f, 0); event(ms, 3, 0x39, trackingID); event(ms, 3, 0x35, x); event(ms, 3, 0x36, y)
            event(ms, 1, 0x14a, 1); event(ms, 0, 0, 0)
            trackingID += 1
        }

        /// One finger in slot 0 along `points` (x, y), one frame every 10 ms from `at`, then lifted.
        mutating func stroke(at ms: Int, _ points: [(Int, Int)], holdMilliseconds: Int = 0) {
            let id = trackingID
            trackingID += 1
            var t = ms
            event(t, 3, 0x2f, 0); event(t, 3, 0x39, id); event(t, 3, 0x35, points[0].0); event(t, 3, 0x36, points[0].1)
            event(t, 1, 0x14a, 1); event(t, 0, 0, 0)
            t += holdMilliseconds
            for p in points.dropFirst() {
                t += 10
                event(t, 3, 0x35, p.0); event(t, 3, 0x36, p.1); event(t, 0, 0, 0)
            }
            t += 10
            event(t, 3, 0x39, -1); event(t, 1, 0x14a, 0); event(t, 0, 0, 0)
        }

        func recording() throws -> Recording {
            let header = try String(contentsOfFile: PassThroughTests.descriptionPath, encoding: .utf8)
            return try TraceReader.read(text: header + "\n" + lines.joined(separator: "\n") + "\n", name: "strokes.events")
        }
    }

    static func tap(at ms: Int, x: Int, y: Int) -> [(Int, Int)] { [(x, y), (x + 1, y)] }
    static func swipeUpFromBottom() -> [(Int, Int)] { (0...20).map { (400, 478 - $0 * 18) } }

    /// touchd with pass-through on the Atmel touchscreen, the touchscreen itself
    /// (uinput), and libinput reading the mirror.
    final class Rig {
        let directory = TemporaryDirectory()
        let daemon: DaemonProcess
        let replay: UinputReplay
        let libinput: LibinputDebugEvents
        let mirrorNode: String

        /// The name prefix of this suite's touchscreens: only they are passed through, so that
        /// the kernel suites running beside this one keep their devices (a pass-through grab
        /// would take theirs).
        static let namePrefix = "PassThroughTests "

        init(_ recording: Recording, extraConfiguration: String = "", environment: [String: String] = [:]) throws {
            let config = directory.path + "/touchd.yaml"
            try ("devices:\n  - match: {name: \"\(Self.namePrefix)*\"}\n    passThrough: true\n" + extraConfiguration)
                .write(toFile: config, atomically: true, encoding: .utf8)
            daemon = try DaemonProcess(["--config", config], environment: environment)
            var own = recording
            for i in own.devices.indices { own.devices[i].description.name = Self.namePrefix + own.devices[i].description.name }
            replay = try UinputReplay(recording: own)
            try daemon.waitForLog("pass-through: on")
            mirrorNode = try Self.mirrorNode(of: try #require(replay.devices.first?.devnode))
            libinput = try LibinputDebugEvents.started(node: mirrorNode)
        }

        /// The node of the mirror of `original` (`/dev/input/eventN`): known by its phys, `touchd-mirror-eventN`.
        static func mirrorNode(of original: String) throws -> String {
            var found: String?
            let key = String(original.split(separator: "/").last ?? "")
            let phys = MirrorDescription.phys(key: key)
            let originalName = try String(contentsOfFile: "/sys/class/input/\(key)/device/name", encoding: .utf8)
            try poll("the pass-through mirror's node") {
                let names = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/input")) ?? []
                for n in names where n.hasPrefix("event") {
                    let value = (try? String(contentsOfFile: "/sys/class/input/\(n)/device/phys", encoding: .utf8)) ?? ""
                    // The name too (a mirror keeps its original's): another suite's mirror, going
                    // away, may carry the same phys when its original had this node number before.
                    let name = (try? String(contentsOfFile: "/sys/class/input/\(n)/device/name", encoding: .utf8)) ?? ""
                    if value.trimmingCharacters(in: .whitespacesAndNewlines) == phys, name == originalName,
                       FileManager.default.fileExists(atPath: "/dev/input/" + n) {
                        found = "/dev/input/" + n
                        return true
                    }
                }
                return false
            }
            return found!
        }

        /// Plays the recording in real time; returns libinput's touch lines (waiting for `count`).
        func play(expecting count: Int) throws -> [LibinputTouchLine] {
            _ = try replay.play(speed: 1)
            return try libinput.touchEvents(count: count)
        }

        deinit {
            libinput.stop()
            replay.close()
        }
    }

    static func kinds(_ lines: [LibinputTouchLine]) -> [String] { lines.map(\.kind).filter { $0 != "TOUCH_FRAME" } }

    @Test("§9 case 1: a tap in the middle reaches libinput as down and up")
    func tapInTheMiddle() throws {
        var s = Strokes()
        s.stroke(at: 1000, Self.tap(at: 1000, x: 400, y: 240))
        let rig = try Rig(try s.recording())
        let lines = try rig.play(expecting: 4)
        #expect(Self.kinds(lines) == ["TOUCH_DOWN", "TOUCH_MOTION", "TOUCH_UP"] || Self.kinds(lines) == ["TOUCH_DOWN", "TOUCH_UP"], "\(rig.libinput.output)")
    }

    @Test("§9 case 2: a swipe up from the bottom edge: nothing on the mirror, the system's gesture on the socket")
    func edgeSwipeNeverReachesTheMirror() throws {
        var s = Strokes()
        s.stroke(at: 1000, Self.swipeUpFromBottom())
        s.stroke(at: 2500, Self.tap(at: 2500, x: 400, y: 240))
        let rig = try Rig(try s.recording())
        let socket = try WireSocket(path: rig.daemon.socketPath)
        _ = try socket.readLine()
        try socket.request(#"{"op":"subscribe","id":1,"events":["system"]}"#, id: 1)
        let lines = try rig.play(expecting: 2)
        // Only the tap after it: the swipe's contact never reached the mirror.
        #expect(Self.kinds(lines).filter { $0 == "TOUCH_DOWN" }.count == 1, "\(rig.libinput.output)")
        let system = try socket.lines { $0.contains("edge-bottom") }
        #expect(system.last?.contains(#""recognizer":"edge-bottom""#) == true)
    }

    @Test("§9 case 5: a tap in the bottom edge zone reaches libinput, as down and up, once the system swipe fails")
    func tapNearTheEdge() throws {
        var s = Strokes()
        s.stroke(at: 1000, Self.tap(at: 1000, x: 400, y: 478))
        let rig = try Rig(try s.recording())
        let lines = try rig.play(expecting: 3)
        let kinds = Self.kinds(lines)
        #expect(kinds.first == "TOUCH_DOWN" && kinds.last == "TOUCH_UP", "\(rig.libinput.output)")
    }

    @Test("§9 case 3, ending `cancel`: a delivered touch that a drag then takes is cancelled on the mirror: TOUCH_CANCEL, no TOUCH_UP")
    func claimedAfterDelivery() throws {
        var s = Strokes()
        // Held 600 ms still, then moved 200 units: a drag (minDuration 500 ms).
        s.stroke(at: 1000, [(400, 240)] + (1...20).map { (400 + $0 * 10, 240) }, holdMilliseconds: 600)
        let rig = try Rig(try s.recording(), extraConfiguration: "    passThroughEnding: cancel\n" + Self.dragSurface)
        let lines = try rig.play(expecting: 3)
        let kinds = Self.kinds(lines)
        #expect(kinds.first == "TOUCH_DOWN", "\(rig.libinput.output)")
        #expect(kinds.contains("TOUCH_CANCEL"), "\(rig.libinput.output)")
        #expect(!kinds.contains("TOUCH_UP"), "\(rig.libinput.output)")
    }

    static let dragSurface = """
    surfaces:
      - id: desk
        owner: kiosk
        frame: {x: 0, y: 0, width: 1920, height: 1080}
        z: 1
        recognizers:
          - {name: pick, kind: drag}

    """

    /// The `+S.SSSs` time of a `libinput debug-events` line, in milliseconds.
    static func milliseconds(_ line: LibinputTouchLine) -> Double? {
        line.line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first { $0.hasPrefix("+") && $0.hasSuffix("s") }
            .flatMap { Double($0.dropFirst().dropLast()) }.map { $0 * 1000 }
    }

    @Test("§9 case 3, default ending `auto` with no compositor reported (lift): a delivered touch a drag takes ends with TOUCH_UP, no cancel, never tap-shaped")
    func claimedAfterDeliveryLifts() throws {
        var s = Strokes()
        s.stroke(at: 1000, [(400, 240)] + (1...20).map { (400 + $0 * 10, 240) }, holdMilliseconds: 600)
        let rig = try Rig(try s.recording(), extraConfiguration: Self.dragSurface)
        _ = try rig.replay.play(speed: 1)
        let lines = try rig.libinput.touchEvents(count: 3)
        // The up comes on the mirror's own schedule (350 ms after the down at the earliest).
        #expect(rig.libinput.waitForLine(containing: "TOUCH_UP", seconds: LibinputDebugEvents.eventWait), "\(rig.libinput.output)")
        let all = rig.libinput.output.split(separator: "\n").compactMap { LibinputTouchLine(String($0)) }
        let kinds = Self.kinds(all)
        #expect(kinds.first == "TOUCH_DOWN", "\(rig.libinput.output)")
        #expect(!kinds.contains("TOUCH_CANCEL"), "\(rig.libinput.output)")
        #expect(kinds.filter { $0 == "TOUCH_UP" }.count == 1, "\(rig.libinput.output)")
        let down = try #require(all.first { $0.kind == "TOUCH_DOWN" }), up = try #require(all.first { $0.kind == "TOUCH_UP" })
        // libinput prints 32-bit milliseconds since its start: an event stamped before it wraps.
        var held = (Self.milliseconds(up) ?? 0) - (Self.milliseconds(down) ?? 0)
        if held < 0 { held += 4_294_967_296 }
        #expect(held >= 300, "down to up \(held) ms: \(rig.libinput.output)")
        _ = lines
    }

    @Test("§9 the first touch is where the finger is: a touchscreen used before touchd opens it, then a contact that repeats no axis")
    func firstTouchAfterStartIsWhereTheFingerIs() throws {
        let header = try String(contentsOfFile: Self.descriptionPath, encoding: .utf8)
        var description = try #require(try TraceReader.read(text: header, name: "atmel.desc").devices.first).description
        description.name = Rig.namePrefix + description.name
        let device = try UinputDevice(description: UinputReplay.withoutFuzz(description))
        defer { device.close() }
        func write(_ events: [(Int, Int, Int)]) throws {
            for e in events { try device.write(type: EventType(rawValue: UInt16(e.0)), code: UInt16(e.1), value: Int32(e.2)) }
        }
        // Before touchd: a contact in slot 1 at (600, 300) lifts, then slot 0 is selected again.
        try write([(3, 0x2f, 1), (3, 0x39, 5), (3, 0x35, 600), (3, 0x36, 300), (1, 0x14a, 1), (0, 0, 0),
                   (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0), (3, 0x2f, 0), (3, 0x39, 6), (3, 0x35, 100), (3, 0x36, 100),
                   (1, 0x14a, 1), (0, 0, 0), (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)])
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        try "devices:\n  - match: {name: \"\(Rig.namePrefix)*\"}\n    passThrough: true\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config])
        try daemon.waitForLog("pass-through: on")
        let mirror = try Rig.mirrorNode(of: try #require(device.devnode))
        let libinput = try LibinputDebugEvents.started(node: mirror)
        defer { libinput.stop() }
        let socket = try WireSocket(path: daemon.socketPath)
        // `hello` names the mirror (`touchctl devices --running`), which keeps the original's name.
        let hello = try #require(try socket.readLine())
        #expect(hello.contains(#""passThrough":{"mirror":"\#(mirror)","name":"\#(description.name)","ending":"lift","endingReason":"auto: compositor unknown"}"#), "\(hello)")
        #expect(daemon.log.contains("pass-through: mirror \(description.name) (\(mirror), phys touchd-mirror-"), "\(daemon.log)")
        _ = try socket.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#, id: 1)
        // A new contact in slot 1 where the last one there was: only its tracking id (the kernel repeats no value).
        try write([(3, 0x2f, 1), (3, 0x39, 7), (1, 0x14a, 1), (0, 0, 0), (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)])
        // The same place, said in full, for comparison.
        try write([(3, 0x2f, 0), (3, 0x39, 8), (3, 0x35, 600), (3, 0x36, 300), (1, 0x14a, 1), (0, 0, 0),
                   (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)])
        let lines = try libinput.touchEvents(count: 8)
        let downs = lines.filter { $0.kind == "TOUCH_DOWN" }.compactMap(\.millimetres)
        #expect(downs.count == 2, "\(libinput.output)")
        if downs.count == 2 {
            #expect(abs(downs[0].x - downs[1].x) < 0.01 && abs(downs[0].y - downs[1].y) < 0.01, "\(libinput.output)")
            #expect(downs[0].x > 1 && downs[0].y > 1, "\(libinput.output)")
        }
        // touchd's own clients get it there too.
        let began = try socket.lines { $0.contains(#""phase":"began""#) }
        let mm = began.last.flatMap { line -> Double? in
            guard let r = line.range(of: #""locationMM":{"x":"#) else { return nil }
            return Double(line[r.upperBound...].prefix { $0 != "," })
        }
        #expect((mm ?? 0) > 1, "\(began)")
    }

    @Test("§9 case 7: touchd killed with a finger down: the mirror goes away and the touchscreen works again for its other readers")
    func killedWithAFingerDown() throws {
        var s = Strokes()
        s.fingerDown(at: 1000, x: 400, y: 240)
        let rig = try Rig(try s.recording())
        let original = try #require(rig.replay.devices.first?.devnode)
        let direct = try LibinputDebugEvents.started(node: original)
        defer { direct.stop() }
        _ = try rig.replay.play(speed: 0)
        _ = try rig.libinput.touchEvents(count: 1)
        rig.daemon.signal(SIGKILL)
        _ = try rig.daemon.waitForExit()
        try poll("the mirror to go away") { !FileManager.default.fileExists(atPath: rig.mirrorNode) }
        // The finger lifts, and a new tap: the kernel released the grab with touchd's descriptor.
        let device = try #require(rig.replay.devices.first)
        for e in [(3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0), (3, 0x39, 2), (3, 0x35, 300), (3, 0x36, 200), (1, 0x14a, 1), (0, 0, 0),
                  (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)] {
            try device.write(type: EventType(rawValue: UInt16(e.0)), code: UInt16(e.1), value: Int32(e.2))
        }
        let seen = Self.kinds(try direct.touchEvents(count: 2))
        #expect(seen.contains("TOUCH_DOWN") && seen.contains("TOUCH_UP"), "\(direct.output)")
    }

    @Test("§9.7 touchd stopped as a whole (SIGSTOP) with a finger down: the guard outside it ends the mirror's contact and gives the touchscreen back")
    func stoppedProcessIsGuarded() throws {
        let guardDirectory = TemporaryDirectory()
        let guardSocket = guardDirectory.path + "/guard.sock"
        let guardian = try DaemonProcess(["--pass-through-guard", guardSocket], waitForSocket: false)
        try guardian.waitForLog("listening on")
        var s = Strokes()
        s.fingerDown(at: 1000, x: 400, y: 240)
        let rig = try Rig(try s.recording(), environment: ["TOUCHD_GUARD_SOCKET": guardSocket])
        try rig.daemon.waitForLog("the guard at")
        let original = try #require(rig.replay.devices.first?.devnode)
        let direct = try LibinputDebugEvents.started(node: original)
        defer { direct.stop() }
        _ = try rig.replay.play(speed: 0)
        _ = try rig.libinput.touchEvents(count: 1)
        rig.daemon.signal(SIGSTOP)
        defer { rig.daemon.signal(SIGCONT) }
        let stopped = Date()
        // The guard ends the app's touch on the mirror (an up after a second of stillness)...
        let sawUp = rig.libinput.waitForLine(containing: "TOUCH_UP", seconds: 30)
        let ended = Date().timeIntervalSince(stopped)
        #expect(sawUp, "guard: \(guardian.log)\nlibinput: \(rig.libinput.output)")
        // ... and releases the grab: the finger lifts, a new tap reaches libinput on the touchscreen itself.
        let device = try #require(rig.replay.devices.first)
        for e in [(3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0), (3, 0x39, 2), (3, 0x35, 300), (3, 0x36, 200), (1, 0x14a, 1), (0, 0, 0),
                  (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)] {
            try device.write(type: EventType(rawValue: UInt16(e.0)), code: UInt16(e.1), value: Int32(e.2))
        }
        let seen = Self.kinds(try direct.touchEvents(count: 2))
        let back = Date().timeIntervalSince(stopped)
        #expect(seen.contains("TOUCH_DOWN") && seen.contains("TOUCH_UP"), "\(direct.output)")
        // The guard's limit is 1 s of silence; the bound (not a latency target: the figure is printed) allows for
        // a TCG guest running other suites beside this one, and still fails when nothing but touchd could end it.
        #expect(ended < 8, "the mirror's contact ended \(ended) s after SIGSTOP")
        print("pass-through guard: mirror contact ended \(ended) s, touchscreen working \(back) s after SIGSTOP")
        try poll("the guard's log line") { guardian.log.contains("given back to the compositor") }
        // Running again, touchd hears it and leaves the device to the compositor.
        rig.daemon.signal(SIGCONT)
        try rig.daemon.waitForLog("the guard gave")
    }

    @Test("§9 touchd killed with a finger down, with the guard: the app's touch ends (TOUCH_UP on the mirror) before the mirror goes away")
    func killedWithTheGuardEndsTheTouch() throws {
        let guardDirectory = TemporaryDirectory()
        let guardSocket = guardDirectory.path + "/guard.sock"
        let guardian = try DaemonProcess(["--pass-through-guard", guardSocket], waitForSocket: false)
        try guardian.waitForLog("listening on")
        var s = Strokes()
        s.fingerDown(at: 1000, x: 400, y: 240)
        let rig = try Rig(try s.recording(), environment: ["TOUCHD_GUARD_SOCKET": guardSocket])
        try rig.daemon.waitForLog("the guard at")
        _ = try rig.replay.play(speed: 0)
        _ = try rig.libinput.touchEvents(count: 1)
        rig.daemon.signal(SIGKILL)
        _ = try rig.daemon.waitForExit()
        try poll("the mirror to go away") { !FileManager.default.fileExists(atPath: rig.mirrorNode) }
        #expect(rig.libinput.waitForLine(containing: "TOUCH_UP", seconds: LibinputDebugEvents.eventWait), "\(rig.libinput.output)\nguard: \(guardian.log)")
        // The up came before the device went away.
        let kinds = rig.libinput.lines.compactMap { l -> String? in
            l.contains("TOUCH_UP") ? "up" : l.contains("DEVICE_REMOVED") ? "removed" : nil
        }
        #expect(kinds.first == "up", "\(rig.libinput.output)")
        try poll("the guard's log line") { guardian.log.contains("touchd is gone") }
    }

    @Test("§9 case 4: deferral: the first swipe from a deferred bottom edge reaches libinput, the second within the window does not")
    func deferral() throws {
        var s = Strokes()
        s.stroke(at: 1000, Self.swipeUpFromBottom())
        s.stroke(at: 1500, Self.swipeUpFromBottom())
        let game = """
        surfaces:
          - id: game
            owner: game
            frame: {x: 0, y: 0, width: 1920, height: 1080}
            z: 1
            fullScreen: true
            deferEdges: [bottom]
            recognizers:
              - {name: shoot, kind: tap}

        """
        let rig = try Rig(try s.recording(), extraConfiguration: game)
        let lines = try rig.play(expecting: 3)
        let kinds = Self.kinds(lines)
        #expect(kinds.filter { $0 == "TOUCH_DOWN" }.count == 1, "\(rig.libinput.output)")
        #expect(kinds.last == "TOUCH_UP", "\(rig.libinput.output)")
    }

    /// libinput's touch lines as compared between two readers: kind and position, not slot or time.
    static func comparable(_ lines: [LibinputTouchLine]) -> [String] {
        lines.filter { $0.kind != "TOUCH_FRAME" }.map { l in
            guard let mm = l.millimetres else { return l.kind }
            return "\(l.kind) \(String(format: "%.1f/%.1f", mm.x, mm.y))"
        }
    }

    @Test("§9 case 6: a four-finger stream nothing claims reaches libinput through the mirror as it does from the device itself")
    func unclaimedStreamIsTheSame() throws {
        let recording = try TraceReader.read(path: PackagePaths.drag4)
        // libinput on the device itself, without touchd.
        let direct: [LibinputTouchLine]
        do {
            let replay = try UinputReplay(recording: recording)
            defer { replay.close() }
            let node = try #require(replay.devices.first?.devnode)
            let libinput = try LibinputDebugEvents.started(node: node)
            defer { libinput.stop() }
            _ = try replay.play(speed: 1)
            direct = try libinput.touchEvents(count: 8)
        }
        let rig = try Rig(recording)
        let mirrored = try rig.play(expecting: 8)
        #expect(Self.comparable(direct).filter { $0 == "TOUCH_DOWN" || $0.hasPrefix("TOUCH_DOWN") }.count == 4)
        #expect(Self.comparable(mirrored) == Self.comparable(direct), "direct:\n\(direct.map(\.line).joined(separator: "\n"))\nmirror:\n\(rig.libinput.output)")
    }

    @Test("§9 case 8: the touchscreen unplugged with a finger down: its mirror goes away, nothing left down")
    func unplugMidTouch() throws {
        var s = Strokes()
        s.fingerDown(at: 1000, x: 400, y: 240)
        let rig = try Rig(try s.recording())
        _ = try rig.replay.play(speed: 0)
        #expect(Self.kinds(try rig.libinput.touchEvents(count: 1)).first == "TOUCH_DOWN", "\(rig.libinput.output)")
        rig.replay.close()
        try poll("the mirror to go away") { !FileManager.default.fileExists(atPath: rig.mirrorNode) }
        try rig.daemon.waitForLog("pass-through: mirror removed")
        // The contact was ended on the mirror before it went: libinput saw it end, not vanish.
        let kinds = Self.kinds(try rig.libinput.touchEvents(count: 3))
        #expect(kinds.contains("TOUCH_CANCEL") || kinds.contains("TOUCH_UP"), "\(rig.libinput.output)")
    }

    @Test("§9 a mirror outlives the ending of its contacts: a compositor reading late still reads the up (the touchscreen unplugged with a finger down)")
    func mirrorOutlivesItsEnding() throws {
        var s = Strokes()
        s.fingerDown(at: 1000, x: 400, y: 240)
        // A delay a loaded guest cannot miss: what is checked is that the up stays readable, not how long.
        let rig = try Rig(try s.recording(), environment: ["TOUCHD_MIRROR_DESTROY_DELAY_MS": "5000"])
        _ = try rig.replay.play(speed: 0)
        #expect(Self.kinds(try rig.libinput.touchEvents(count: 1)).first == "TOUCH_DOWN", "\(rig.libinput.output)")
        // A reader that reads nothing until the mirror is out of service: evdev answers a read on a
        // destroyed device with ENODEV before what it queued, so a mirror destroyed at once loses the up.
        let late = open(rig.mirrorNode, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(late >= 0, "cannot open \(rig.mirrorNode): errno \(errno)")
        defer { close(late) }
        var buffer = [UInt8](repeating: 0, count: 24 * 256)
        while read(late, &buffer, buffer.count) > 0 {}
        rig.replay.close()
        try rig.daemon.waitForLog("pass-through: mirror removed")
        let n = read(late, &buffer, buffer.count)
        let readError = n < 0 ? errno : 0
        // struct input_event on 64-bit: two longs of time, then type, code, value.
        let events = n > 0 ? stride(from: 0, to: n - 23, by: 24).map { i in
            buffer.withUnsafeBytes { b in
                (b.load(fromByteOffset: i + 16, as: UInt16.self), b.load(fromByteOffset: i + 18, as: UInt16.self), b.load(fromByteOffset: i + 20, as: Int32.self))
            }
        } : []
        #expect(events.contains { $0 == (3, 0x39, -1) }, "read \(n) bytes (errno \(readError)): \(events)")
        try poll("the mirror to go away", seconds: 30) { !FileManager.default.fileExists(atPath: rig.mirrorNode) }
        #expect(rig.libinput.waitForLine(containing: "TOUCH_UP", seconds: LibinputDebugEvents.eventWait), "\(rig.libinput.output)")
    }

    @Test("§9 a protocol A touchscreen through pass-through: libinput reads protocol B contacts on the mirror")
    func protocolA() throws {
        let recording = try TraceReader.read(path: PackagePaths.fixture("N-Trig MultiTouch.1-finger-drag-NW-SE.events"))
        let rig = try Rig(recording)
        let kinds = Self.kinds(try rig.play(expecting: 3))
        #expect(kinds.first == "TOUCH_DOWN", "\(rig.libinput.output)")
        #expect(kinds.contains("TOUCH_MOTION"), "\(rig.libinput.output)")
        #expect(kinds.last == "TOUCH_UP", "\(rig.libinput.output)")
        #expect(kinds.filter { $0 == "TOUCH_DOWN" }.count == 1, "\(rig.libinput.output)")
    }
}
