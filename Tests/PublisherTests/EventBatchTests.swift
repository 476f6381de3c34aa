// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import Wire

@testable import Publisher

/// A frame's events encoded into one buffer (Sources/Publisher/EventBatch.swift):
/// lines, ends, the attributes filters read, reuse, and what a client of the
/// publishing thread receives from it.
@Suite struct EventBatchTests {
    @Test func linesAreWrittenBackToBackEachWithItsNewline() {
        var batch = EventBatch()
        batch.append(PublishedEvent(stream: .touch, device: 3, time: 1, line: [])) { w in
            w.beginObject(); w.key("n"); w.int(1); w.endObject()
        }
        batch.append(event(2, .gesture, kind: "pan"))
        batch.append(PublishedEvent(stream: .system, time: 2, line: [])) { w in
            w.beginObject(); w.key("s"); w.string("x"); w.endObject()
        }
        #expect(String(decoding: batch.bytes, as: UTF8.self) == "{\"n\":1}\n{\"type\":\"gesture\",\"n\":2}\n{\"s\":\"x\"}\n")
        #expect(batch.ends == [8, 33, 43])
        #expect(batch.count == 3)
        // Attributes stay with the events; their lines live in the buffer only.
        #expect(batch.events.map(\.stream) == [.touch, .gesture, .system])
        #expect(batch.events[1].kind == "pan")
        #expect(batch.events.allSatisfy { $0.line.isEmpty })
        #expect(String(decoding: batch.line(1), as: UTF8.self) == #"{"type":"gesture","n":2}"#)
        #expect(batch.eventsWithLines.map { String(decoding: $0.line, as: UTF8.self) }
            == [#"{"n":1}"#, #"{"type":"gesture","n":2}"#, #"{"s":"x"}"#])
    }

    /// A frame's names are kept once: ten touches and a pan name two
    /// strings; each event reads back with its own.
    @Test func aFramesNamesAreKeptOnce() {
        var batch = EventBatch()
        for n in 0..<10 {
            batch.append(stream: .touch, device: 1, touchType: "direct", time: 0, touchID: UInt32(n), isUpdate: true) { $0.raw("{}") }
        }
        batch.append(stream: .gesture, kind: "pan", recognizer: "pan", device: 1, touchType: "direct", time: 0) { $0.raw("{}") }
        #expect(batch.names == ["direct", "pan"])
        #expect(batch.attributes.allSatisfy { $0.touchType == BatchName(index: 0) })
        let pan = batch.event(10)
        #expect(pan.kind == "pan" && pan.recognizer == "pan" && pan.touchType == "direct" && pan.surface == nil)
        #expect(batch.event(3).touchID == 3 && batch.event(3).kind == nil)
        batch.removeAll()
        #expect(batch.names.isEmpty && batch.attributes.isEmpty)
    }

    /// More names in a frame than are compared before adding one: a name may
    /// then be kept twice, and events carrying either copy still read and
    /// filter as that name.
    @Test func aNameSeenLongAgoInTheFrameMayBeKeptAgain() {
        var batch = EventBatch()
        let recognizers = (0...EventBatch.namesCompared).map { "recognizer-\($0)" } + ["recognizer-0"]
        for r in recognizers { batch.append(stream: .gesture, recognizer: r, time: 0) { $0.raw("{}") } }
        #expect(batch.names.count == recognizers.count)
        #expect(batch.events.map(\.recognizer) == recognizers)
        let filter = SubscriptionFilter(recognizers: ["recognizer-0"])
        let passing = batch.attributes.indices.filter { filter.matches(batch.attributes[$0], names: batch.names) }
        #expect(passing == [0, recognizers.count - 1])
    }

    @Test func aReusedBatchStartsEmptyAndKeepsItsStorage() {
        var batch = EventBatch()
        for n in 0..<20 { batch.append(event(n, .touch)) }
        let capacity = batch.bytes.capacity
        batch.removeAll()
        #expect(batch.isEmpty && batch.bytes.isEmpty && batch.ends.isEmpty)
        batch.append(event(99, .touch))
        #expect(String(decoding: batch.bytes, as: UTF8.self) == "{\"type\":\"touch\",\"n\":99}\n")
        #expect(batch.bytes.capacity == capacity)
    }

    /// A batch of events that carry their own lines holds those lines, each
    /// with its newline, and the publishing thread sends them from it as they are.
    @Test func eventsWithTheirOwnLinesMakeTheSameBatch() throws {
        let events = (0..<12).map { event($0, $0 % 4 == 0 ? .gesture : .touch) }
        let batch = EventBatch(events)
        #expect(batch.bytes == events.flatMap { $0.line + [0x0a] })
        var end = 0
        #expect(batch.ends == events.map { end += $0.line.count + 1; return end })

        let pair = try SocketPair()
        let output = try ClientOutput.standalone(id: ClientOutputTests.client, descriptor: pair.a, rule: ClientOutputTests.touches())
        var writer = DirectWriter()
        writer.offer(batch, to: output)
        #expect(pair.drain() == ClientOutputTests.text(events) { $0.stream == .touch })
        #expect(output.isDrained)
    }
}
