// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import JSON
import NIOCore
import Testing
import TouchCore
import TouchMotion
import Wire

@testable import Publisher

/// A client's `motion` lines (`frames`, docs/protocol.md) as the publishing
/// thread serves them, on virtual time: fed only the touches routed to that
/// client, written after the batch's lines, never to another client, never
/// among the engine's lines (gestures), and queued behind the batch's lines
/// for a client that is behind.
@Suite struct ClientFramesTests {
    static let drawer = ClientID(rawValue: 1)
    static let bystander = ClientID(rawValue: 2)

    /// Frames every 10 ms from 0 s, predicted 8 ms ahead.
    static let frames = FramesRequest(periodMilliseconds: 10, time: 0, predictionHorizonMilliseconds: 8)

    static func rule(_ id: ClientID) -> RecipientRule {
        var subscriptions = SubscriptionSet()
        subscriptions.add(Subscription(events: [.touch, .gesture]))
        return RecipientRule(id: id, subscriptions: subscriptions, seesAllTouches: false)
    }

    /// A finger report of touch 1 at `ms` milliseconds, at x = `ms` pixels, and its line.
    static func touch(_ phase: TouchPhase, _ ms: Double) -> PublishedEvent {
        let time = Timestamp(microseconds: 1_000_000).adding(milliseconds: ms)
        let report = ServedReport(device: 0, id: 1, phase: phase, type: .direct, tool: .finger, screen: 0,
                                  sample: MotionSample(time: time, location: Point(x: ms, y: 0)))
        return PublishedEvent(stream: .touch, device: 0, touchType: "direct", time: time.seconds, touchID: 1,
                              isUpdate: phase == .moved, motion: report,
                              line: Array(#"{"type":"touch","phase":"\#(phase.rawValue)","t":\#(ms)}"#.utf8))
    }

    /// A gesture line at `ms`.
    static func gesture(_ ms: Double) -> PublishedEvent {
        PublishedEvent(stream: .gesture, kind: "pan", recognizer: "pan", device: 0, touchType: "direct",
                       time: 1 + ms / 1000, line: Array(#"{"type":"gesture","t":\#(ms)}"#.utf8))
    }

    /// The lines read, parsed.
    static func lines(_ bytes: [UInt8]) throws -> [JSONValue] {
        try bytes.split(separator: UInt8(ascii: "\n")).map { try JSONParser.parse(Array($0)) }
    }

    /// A stroke: began at 1 ms, a report every 4 ms with a gesture beside each, lifted at 23 ms.
    static let stroke: [[PublishedEvent]] = [[touch(.began, 1)]]
        + stride(from: 5.0, through: 21, by: 4).map { [touch(.moved, $0), gesture($0)] }
        + [[touch(.ended, 23)]]

    @Test func motionLinesGoToTheClientThatAskedAfterTheReportThatCompletedThem() throws {
        let mine = try SocketPair(), theirs = try SocketPair()
        let drawer = try ClientOutput.standalone(id: Self.drawer, descriptor: mine.a, rule: Self.rule(Self.drawer))
        let bystander = try ClientOutput.standalone(id: Self.bystander, descriptor: theirs.a, rule: Self.rule(Self.bystander))
        drawer.setFrames(ClientFrames(Self.frames))
        var writer = DirectWriter()
        var drawn: [JSONValue] = []
        for events in Self.stroke {
            writer.offer(EventBatch(events), to: [drawer, bystander])
            let got = try Self.lines(mine.drain())
            // The batch's own lines first, unchanged, then its motion lines.
            let own = got.prefix { $0["type"]?.stringValue != "motion" }
            #expect(own.count == events.count)
            #expect(got.dropFirst(own.count).allSatisfy { $0["type"]?.stringValue == "motion" })
            drawn += got.dropFirst(own.count)
        }
        #expect(drawer.isDrained && bystander.isDrained)
        // Frames at 10 and 20 ms (sampled at 5 and 15 ms), each once, within the touch's life.
        #expect(drawn.map { $0["frame"]?.doubleValue } == [1.010, 1.020])
        #expect(drawn.map { $0["time"]?.doubleValue } == [1.005, 1.015])
        #expect(drawn.map { $0["location"]?["x"]?.doubleValue } == [5, 15])
        #expect(drawn.allSatisfy { $0["predicted"] != nil })
        // The other client got every line of the stroke and nothing else.
        let other = try Self.lines(theirs.drain())
        #expect(other.count == Self.stroke.joined().count)
        #expect(!other.contains { $0["type"]?.stringValue == "motion" || $0["predicted"] != nil })
    }

    @Test func gesturesAndTheBatchAreNeverChangedByTheFrames() throws {
        let pair = try SocketPair()
        let output = try ClientOutput.standalone(id: Self.drawer, descriptor: pair.a, rule: Self.rule(Self.drawer))
        output.setFrames(ClientFrames(Self.frames))
        var writer = DirectWriter()
        var gestures: [JSONValue] = []
        for events in Self.stroke {
            let batch = EventBatch(events)
            let before = batch.bytes
            writer.offer(batch, to: output)
            // The engine's batch (shared by every client) is left as it was.
            #expect(batch.bytes == before)
            gestures += try Self.lines(pair.drain()).filter { $0["type"]?.stringValue == "gesture" }
        }
        let expected = try Self.stroke.joined().filter { $0.stream == .gesture }.map { try JSONParser.parse($0.line) }
        #expect(gestures.map(\.jsonString) == expected.map(\.jsonString))
    }

    @Test func aClientBehindGetsTheMotionLinesQueuedAfterTheRuns() throws {
        let pair = try SocketPair()
        let flusher = ManualFlusher()
        let output = try ClientOutput.standalone(id: Self.drawer, descriptor: pair.a, rule: Self.rule(Self.drawer), flusher: flusher)
        output.setFrames(ClientFrames(Self.frames))
        var writer = DirectWriter()
        writer.offer(EventBatch(Self.stroke[0]), to: output)
        _ = pair.drain()
        // The client stops reading: the next batch and its motion line wait in the backlog.
        pair.fill()
        writer.offer(EventBatch(Self.stroke[1]), to: output)
        #expect(!output.isDrained)
        #expect(pair.drain().isEmpty)
        flusher.flushAll()
        let lines = try Self.lines(pair.drain())
        #expect(lines.map { $0["type"]?.stringValue } == ["touch", "gesture", "motion"])
        #expect(lines.last?["frame"]?.doubleValue == 1.010)
        #expect(output.isDrained)
    }

    @Test func framesOffStopsTheLinesAndACoalescingClientGetsThemAtOnce() throws {
        let pair = try SocketPair()
        let output = try ClientOutput.standalone(id: Self.drawer, descriptor: pair.a, rule: Self.rule(Self.drawer))
        output.setFrames(ClientFrames(Self.frames))
        output.setCoalescing(interval: 0.050)
        var writer = DirectWriter()
        var motion = 0
        // The move at 5 ms alone is an update the interval would hold; the frame it completes is not.
        for events in [[Self.touch(.began, 1)], [Self.touch(.moved, 5)]] {
            writer.offer(EventBatch(events), to: output)
            motion += try Self.lines(pair.drain()).filter { $0["type"]?.stringValue == "motion" }.count
        }
        // The frame at 10 ms went out with the report that completed it, not held for 50 ms.
        #expect(motion == 1)
        output.setFrames(nil)
        for events in Self.stroke.dropFirst(2) { writer.offer(EventBatch(events), to: output) }
        output.reply(ByteBuffer(string: "{}\n"))
        #expect(try !Self.lines(pair.drain()).contains { $0["type"]?.stringValue == "motion" })
    }
}
