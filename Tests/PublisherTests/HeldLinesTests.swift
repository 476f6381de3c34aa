// SPDX-License-Identifier: MIT
import NIOCore
import Testing
import Wire

@testable import Publisher

/// The lines a coalescing client's output holds back (Sources/Publisher/HeldLines.swift;
/// docs/protocol.md, "coalesce").
@Suite struct HeldLinesTests {
    static func update(touch: UInt32, _ n: Int, device: UInt32 = 0) -> PublishedEvent {
        PublishedEvent(stream: .touch, device: device, time: Double(n), touchID: touch, isUpdate: true,
                       line: Array(#"{"type":"touch","id":\#(touch),"n":\#(n)}"#.utf8) + [0x0a])
    }

    static func changed(_ recognizer: String, _ n: Int, surface: String? = nil) -> PublishedEvent {
        PublishedEvent(stream: .gesture, kind: "pan", recognizer: recognizer, device: 0, surface: surface, time: Double(n),
                       isUpdate: true, line: Array(#"{"type":"gesture","recognizer":"\#(recognizer)","n":\#(n)}"#.utf8) + [0x0a])
    }

    static func hold(_ events: [PublishedEvent], into held: inout HeldLines) {
        for e in events { e.line.withUnsafeBytes { held.hold(e, line: $0) } }
    }

    static func numbers(_ buffer: ByteBuffer) -> [Int] {
        PublisherTests.numbers(inText: String(buffer: buffer))
    }

    @Test func aLaterUpdateOfTheSameSubjectReplacesTheHeldOne() {
        var held = HeldLines()
        Self.hold([Self.update(touch: 1, 1), Self.update(touch: 2, 2), Self.changed("pan", 3),
                   Self.update(touch: 1, 4), Self.changed("pan", 5), Self.changed("pan", 6, surface: "main")], into: &held)
        // Touch 2's update, touch 1's latest, the pan's latest, and the same
        // recognizer name on another surface (another subject), in the order produced.
        #expect(held.count == 4)
        #expect(Self.numbers(held.joined()) == [2, 4, 5, 6])
    }

    @Test func theSameTouchIdOnAnotherDeviceOrStreamIsAnotherSubject() {
        var held = HeldLines()
        var system = Self.changed("edge", 3)
        system.stream = .system
        Self.hold([Self.update(touch: 1, 1, device: 0), Self.update(touch: 1, 2, device: 1), Self.changed("edge", 4), system], into: &held)
        #expect(Self.numbers(held.joined()) == [1, 2, 4, 3])
    }

    @Test func linesThatAreNotUpdatesAreNeverReplaced() {
        var held = HeldLines()
        var a = Self.update(touch: 1, 1)
        a.isUpdate = false
        var b = Self.update(touch: 1, 2)
        b.isUpdate = false
        Self.hold([a, b], into: &held)
        #expect(Self.numbers(held.joined()) == [1, 2])
    }

    @Test func writingLeavesOutWhatTheFrameReplaces() {
        var held = HeldLines()
        Self.hold([Self.update(touch: 1, 1), Self.update(touch: 2, 2), Self.changed("pan", 3)], into: &held)
        let frame = [event(9, .gesture), Self.update(touch: 2, 10), Self.changed("pan", 11)]
        var out = ByteBuffer()
        // Only the runs count: the pan's update in the frame is outside them.
        held.write(to: &out, supersededBy: frame, runs: [0..<2])
        #expect(Self.numbers(out) == [1, 3])
    }

    /// Holds every line of `batch` (each with its newline).
    static func hold(_ batch: EventBatch, into held: inout HeldLines) {
        batch.bytes.withUnsafeBytes { raw in
            for i in 0..<batch.count {
                let from = i == 0 ? 0 : batch.ends[i - 1]
                held.hold(batch.attributes[i], names: batch.names, line: UnsafeRawBufferPointer(rebasing: raw[from..<batch.ends[i]]))
            }
        }
    }

    /// A gesture update numbered `n` into `batch`.
    static func append(_ recognizer: String, _ n: Int, to batch: inout EventBatch) {
        batch.append(stream: .gesture, kind: "pan", recognizer: recognizer, device: 0, time: Double(n), isUpdate: true) {
            $0.raw(#"{"type":"gesture","n":\#(n)}"#)
        }
    }

    /// Names are positions in their own batch: the same recognizer at another
    /// position in a later batch is the same subject; another recognizer at
    /// the position a held one had is not.
    @Test func subjectsAreComparedByNameAcrossBatches() {
        var held = HeldLines()
        var first = EventBatch()
        first.append(stream: .touch, touchType: "direct", time: 1, touchID: 1, isUpdate: true) { $0.raw(#"{"type":"touch","n":1}"#) }
        Self.append("two-finger-pan", 2, to: &first)
        #expect(first.names == ["direct", "pan", "two-finger-pan"])
        Self.hold(first, into: &held)
        var second = EventBatch()
        Self.append("two-finger-pan", 3, to: &second)
        Self.append("zoom", 4, to: &second)
        #expect(second.names == ["pan", "two-finger-pan", "zoom"])
        Self.hold(second, into: &held)
        #expect(Self.numbers(held.joined()) == [1, 3, 4])
        // A frame with the zoom's next update leaves the held one out.
        var third = EventBatch()
        Self.append("zoom", 5, to: &third)
        var out = ByteBuffer()
        held.write(to: &out, supersededBy: third.attributes, names: third.names, runs: [0..<1])
        #expect(Self.numbers(out) == [1, 3])
    }

    /// Hundreds of replacements compact the buffer in place: what is held
    /// stays the latest of each subject, in order, and the bytes stay bounded.
    @Test func manyReplacementsKeepTheLatestOfEach() {
        var held = HeldLines()
        var n = 0
        for _ in 0..<500 {
            for touch in UInt32(1)...3 {
                n += 1
                Self.hold([Self.update(touch: touch, n)], into: &held)
            }
        }
        #expect(held.count == 3)
        #expect(Self.numbers(held.joined()) == [n - 2, n - 1, n])
        held.removeAll()
        #expect(held.isEmpty)
        #expect(held.joined().readableBytes == 0)
    }
}

/// The `n` of each line of `text`.
func numbers(inText text: String) -> [Int] {
    numbers(text.split(separator: "\n").map(String.init))
}
