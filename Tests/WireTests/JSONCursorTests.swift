// SPDX-License-Identifier: MIT
import Testing

@testable import Wire

/// A SplitMix64 generator: the same random cases on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The touch and gesture lines are laid out through a `JSONCursor`
/// (docs/performance.md, "A line through a cursor"); these tests hold them to
/// the same bytes as the same objects written value by value with the
/// writer's general methods (docs/protocol.md's messages), on random events
/// with every optional field, strings to escape, and numbers the fixed-point
/// path cannot take.
@Suite struct JSONCursorTests {
    // MARK: The reference: the objects written value by value

    static func referenceTouch(_ t: TouchMessage, surface: String?, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("touch")
        w.key("time"); w.number(Double(t.microseconds) / 1e6, decimals: 6)
        w.key("device"); w.int(t.device)
        w.key("id"); w.int(t.id)
        w.key("phase"); w.string(t.phase.rawValue)
        w.key("touchType"); w.string(t.touchType.rawValue)
        w.key("tool"); w.string(t.tool.rawValue)
        w.key("screen"); w.int(t.screen)
        w.key("location"); w.point(x: t.location.x, y: t.location.y, decimals: 2)
        w.key("locationMM"); w.point(x: t.locationMM.x, y: t.locationMM.y, decimals: 2)
        if let v = t.force { w.key("force"); w.number(v, decimals: 4) }
        if let v = t.majorRadius { w.key("majorRadius"); w.number(v, decimals: 2) }
        if let v = t.minorRadius { w.key("minorRadius"); w.number(v, decimals: 2) }
        if let v = t.altitude { w.key("altitude"); w.number(v, decimals: 4) }
        if let v = t.azimuth { w.key("azimuth"); w.number(v, decimals: 4) }
        if let v = t.distance { w.key("distance"); w.number(v, decimals: 4) }
        if !t.buttons.isEmpty {
            w.key("buttons")
            w.beginArray()
            for name in t.buttons.names { w.string(name) }
            w.endArray()
        }
        if let s = t.serial { w.key("serial"); w.int(s) }
        if t.phase == .hover { w.key("inProximity"); w.bool(t.inProximity) }
        if t.isSynthetic { w.key("synthetic"); w.bool(true) }
        if let surface { w.key("surface"); w.string(surface) }
        w.endObject()
    }

    static func referenceGesture(_ e: GestureMessage, into w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string("gesture")
        w.key("time"); w.number(Double(e.microseconds) / 1e6, decimals: 6)
        w.key("device"); w.int(e.device)
        w.key("surface")
        if let s = e.surface { w.string(s) } else { w.null() }
        w.key("owner"); w.string(e.owner)
        w.key("recognizer"); w.string(e.recognizer)
        w.key("kind"); w.string(e.kind.rawValue)
        w.key("state"); w.string(e.state.rawValue)
        w.key("touches"); w.int(e.touches)
        w.key("touchType"); w.string(e.touchType.rawValue)
        w.key("location"); w.point(x: e.location.x, y: e.location.y, decimals: 2)
        if let v = e.taps { w.key("taps"); w.int(v) }
        if let v = e.direction { w.key("direction"); w.string(v.rawValue) }
        if let v = e.translation { w.key("translation"); w.point(x: v.x, y: v.y, decimals: 2) }
        if let v = e.velocity { w.key("velocity"); w.point(x: v.x, y: v.y, decimals: 1) }
        if let v = e.scale { w.key("scale"); w.number(v, decimals: 4) }
        if let v = e.scaleVelocity { w.key("velocity"); w.number(v, decimals: 4) }
        if let v = e.rotation { w.key("rotation"); w.number(v, decimals: 4) }
        if let v = e.rotationVelocity { w.key("velocity"); w.number(v, decimals: 4) }
        if let v = e.edge { w.key("edge"); w.string(v.rawValue) }
        if let v = e.purpose { w.key("purpose"); w.string(v) }
        if e.isSystem { w.key("system"); w.bool(true) }
        w.endObject()
    }

    // MARK: Random events

    /// A coordinate-like number, now and then one the fixed-point path cannot take.
    static func number(_ g: inout SplitMix) -> Double {
        switch Int.random(in: 0..<40, using: &g) {
        case 0: return .nan
        case 1: return -.infinity
        case 2: return 3.5e300
        case 3: return -0.0
        case 4: return 0.005  // a half at two decimals
        default: return Double.random(in: -5000...5000, using: &g)
        }
    }

    static func maybe(_ g: inout SplitMix) -> Double? { Bool.random(using: &g) ? number(&g) : nil }

    static func string(_ g: inout SplitMix) -> String {
        let pieces = ["screen", "app-1", "\"q\"", "back\\slash", "tab\t", "nl\n", "\u{1}", "é", "🖐", ""]
        return (0..<Int.random(in: 1...3, using: &g)).map { _ in pieces.randomElement(using: &g)! }.joined()
    }

    static func touch(_ g: inout SplitMix) -> TouchMessage {
        TouchMessage(
            microseconds: Int64.random(in: -1...Int64(1e13), using: &g),
            device: UInt32.random(in: 0...UInt32.max, using: &g),
            id: UInt32.random(in: 0...UInt32.max, using: &g),
            phase: WireTouchPhase.allCases.randomElement(using: &g)!,
            touchType: WireTouchType.allCases.randomElement(using: &g)!,
            tool: WireTool.allCases.randomElement(using: &g)!,
            screen: Int.random(in: Int.min...Int.max, using: &g),
            location: WirePoint(x: number(&g), y: number(&g)),
            locationMM: WirePoint(x: number(&g), y: number(&g)),
            force: maybe(&g), majorRadius: maybe(&g), minorRadius: maybe(&g),
            altitude: maybe(&g), azimuth: maybe(&g), distance: maybe(&g),
            buttons: WireToolButtons(rawValue: UInt8.random(in: 0...63, using: &g)),
            serial: Bool.random(using: &g) ? UInt32.random(in: 0...UInt32.max, using: &g) : nil,
            inProximity: Bool.random(using: &g), isSynthetic: Bool.random(using: &g))
    }

    static func gesture(_ g: inout SplitMix) -> GestureMessage {
        func point() -> WirePoint? { Bool.random(using: &g) ? WirePoint(x: number(&g), y: number(&g)) : nil }
        return GestureMessage(
            microseconds: Int64.random(in: 0...Int64(1e13), using: &g),
            device: UInt32.random(in: 0...UInt32.max, using: &g),
            surface: Bool.random(using: &g) ? string(&g) : nil,
            owner: string(&g), recognizer: string(&g),
            kind: WireGestureKind.allCases.randomElement(using: &g)!,
            state: WireGestureState.allCases.randomElement(using: &g)!,
            touches: Int.random(in: 0...10, using: &g),
            touchType: WireTouchType.allCases.randomElement(using: &g)!,
            location: WirePoint(x: number(&g), y: number(&g)),
            taps: Bool.random(using: &g) ? Int.random(in: 1...5, using: &g) : nil,
            direction: Bool.random(using: &g) ? WireSwipeDirection.allCases.randomElement(using: &g) : nil,
            translation: point(), velocity: point(),
            scale: maybe(&g), scaleVelocity: maybe(&g), rotation: maybe(&g), rotationVelocity: maybe(&g),
            edge: Bool.random(using: &g) ? WireEdge.allCases.randomElement(using: &g) : nil,
            purpose: Bool.random(using: &g) ? string(&g) : nil,
            isSystem: Bool.random(using: &g))
    }

    // MARK: Tests

    @Test func touchLinesAreTheReferenceBytes() throws {
        var g = SplitMix(state: 8)
        for _ in 0..<3000 {
            let t = Self.touch(&g)
            let surface: String? = Bool.random(using: &g) ? Self.string(&g) : nil
            var fast = JSONWriter(), reference = JSONWriter()
            MessageEncoder.touch(t, surface: surface, into: &fast)
            Self.referenceTouch(t, surface: surface, into: &reference)
            #expect(fast.string == reference.string)
            if fast.string != reference.string { return }
        }
    }

    @Test func gestureLinesAreTheReferenceBytes() throws {
        var g = SplitMix(state: 9)
        for _ in 0..<3000 {
            let e = Self.gesture(&g)
            var fast = JSONWriter(), reference = JSONWriter()
            MessageEncoder.gesture(e, into: &fast)
            Self.referenceGesture(e, into: &reference)
            #expect(fast.string == reference.string)
            if fast.string != reference.string { return }
        }
    }

    /// Lines written back to back inside an array take the writer's commas.
    @Test func linesInAContainerTakeCommas() throws {
        var g = SplitMix(state: 10)
        let touches = (0..<3).map { _ in Self.touch(&g) }
        var fast = JSONWriter(), reference = JSONWriter()
        fast.beginArray(); reference.beginArray()
        for t in touches {
            MessageEncoder.touch(t, into: &fast)
            Self.referenceTouch(t, surface: nil, into: &reference)
        }
        fast.endArray(); reference.endArray()
        #expect(fast.string == reference.string)
        #expect(fast.string.hasPrefix("[{") && fast.string.contains("},{"))
    }

    /// The cursor's own values against the writer's: integers at the ends of
    /// their ranges, and every byte a string can hold.
    @Test func cursorValuesMatchTheWriter() throws {
        let ints: [Int64] = [0, 9, 10, -1, -10, Int64.max, Int64.min]
        for v in ints {
            var a = JSONWriter(), b = JSONWriter()
            a.value(room: JSONCursor.intRoom) { $0.int(v) }
            b.int(v)
            #expect(a.string == b.string)
        }
        var c = JSONWriter()
        c.value(room: JSONCursor.intRoom) { $0.int(UInt64.max) }
        #expect(c.string == "18446744073709551615")
        let all = String(decoding: (0...127).map { UInt8($0) }, as: UTF8.self) + "é🖐"
        var a = JSONWriter(), b = JSONWriter()
        a.value(room: JSONCursor.stringRoom(all)) { $0.string(all) }
        b.string(all)
        #expect(a.string == b.string)
        #expect(a.string.contains(#"\u001f"#) && a.string.contains(##"\"#"##) && a.string.contains(#"\\]"#))
    }

    /// A line longer than the room its encoder reserved stops the process
    /// instead of writing past the buffer.
    @Test func tooLittleRoomStops() async {
        await #expect(processExitsWith: .failure) {
            var w = JSONWriter(capacity: 0)
            w.value(room: 4) { c in
                for _ in 0..<100 { c.raw("0123456789") }
            }
        }
    }
}
