// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOEmbedded
import Testing
import Wire

@testable import Publisher

/// A client's one writer (Sources/Publisher/ClientOutput.swift and
/// DirectWriter.swift; docs/architecture.md, "Threads"), on a socket pair:
/// what goes straight into the socket, what waits in the backlog for the
/// flusher, and how a frame cut by a full socket reaches the client whole,
/// in order with the answers.
@Suite struct ClientOutputTests {
    static let client = ClientID(rawValue: 7)

    static func touches() -> RecipientRule {
        var subscriptions = SubscriptionSet()
        subscriptions.add(Subscription(events: [.touch]))
        return RecipientRule(id: client, subscriptions: subscriptions, seesAllTouches: false)
    }

    static func text(_ batch: [PublishedEvent], wanted: (PublishedEvent) -> Bool = { _ in true }) -> [UInt8] {
        batch.filter(wanted).flatMap { $0.line + [0x0a] }
    }

    /// Reads and flushes until nothing waits: what the client reads.
    static func readAll(_ pair: SocketPair, _ output: ClientOutput, _ flusher: ManualFlusher) -> [UInt8] {
        var received = pair.drain()
        while !output.isDrained {
            flusher.flushAll()
            received += pair.drain()
        }
        return received + pair.drain()
    }

    @Test func aClientKeepingUpGetsTheBatchWrittenAtOnce() throws {
        let pair = try SocketPair()
        let output = try ClientOutput.standalone(id: Self.client, descriptor: pair.a, rule: Self.touches())
        var writer = DirectWriter()
        let batch = (0..<10).map { event($0, $0 % 3 == 0 ? .gesture : .touch) }
        writer.offer(batch, to: output)
        // Only the touches, in order: two runs of consecutive lines, one `sendmsg`.
        #expect(pair.drain() == Self.text(batch) { $0.stream == .touch })
        #expect(output.isDrained)
        #expect(writer.takeQueued() == 0)
    }

    @Test func aClientBehindGetsItsLinesFromTheBacklogInOrder() throws {
        let pair = try SocketPair()
        let flusher = ManualFlusher()
        let output = try ClientOutput.standalone(id: Self.client, descriptor: pair.a, rule: Self.touches(), flusher: flusher)
        var writer = DirectWriter()
        pair.fill()
        let first = (0..<6).map { event($0, $0 == 2 ? .gesture : .touch) }
        let second = (6..<9).map { event($0, .touch) }
        writer.offer(first, to: output)
        #expect(!output.isDrained)
        #expect(output.backlogBytes == Self.text(first) { $0.stream == .touch }.count)
        #expect(flusher.waiting.withLock { $0.count } == 1)
        // Behind the backlog, even once the socket has room: nothing overtakes it.
        _ = pair.drain()
        writer.offer(second, to: output)
        #expect(pair.drain().isEmpty)
        #expect(writer.takeQueued() == 2)
        flusher.flushAll()
        #expect(pair.drain() == Self.text(first + second) { $0.stream == .touch })
        #expect(output.isDrained)
        #expect(flusher.waiting.withLock { $0.isEmpty })
        // Drained: the next batch goes straight into the socket again.
        writer.offer([event(9, .touch)], to: output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [9])
        #expect(writer.takeQueued() == 0)
    }

    @Test func anEndedSessionsBacklogIsDroppedAndTheFlusherLetsGo() throws {
        let pair = try SocketPair()
        let flusher = ManualFlusher()
        let output = try ClientOutput.standalone(id: Self.client, descriptor: pair.a, rule: Self.touches(), flusher: flusher)
        pair.fill()
        var writer = DirectWriter()
        writer.offer([event(1, .touch)], to: output)
        #expect(flusher.waiting.withLock { $0.count } == 1)
        output.shutDown()
        #expect(flusher.waiting.withLock { $0.isEmpty })
        #expect(!output.hasBacklog && output.isDrained)
        _ = pair.drain()
        flusher.flushAll()
        #expect(pair.drain().isEmpty)
    }

    @Test func aClientWantingNothingOfTheBatchCostsNoWrite() throws {
        let pair = try SocketPair()
        let output = try ClientOutput.standalone(id: Self.client, descriptor: pair.a, rule: Self.touches())
        var writer = DirectWriter()
        writer.offer([event(1, .gesture), event(2, .system)], to: output)
        #expect(pair.drain().isEmpty)
        #expect(output.isDrained)
    }

    @Test func anEndedSessionGetsNothingAndItsDescriptorIsClosed() throws {
        let pair = try SocketPair()
        let output = try ClientOutput.standalone(id: Self.client, descriptor: pair.a, rule: Self.touches())
        output.shutDown()
        var writer = DirectWriter()
        writer.offer([event(1, .touch)], to: output)
        output.reply(ByteBuffer(string: "{}\n"))
        #expect(pair.drain().isEmpty)
        let fd = output.state.withLock { $0.fd }
        #expect(fd == -1)
    }

    /// A frame larger than the socket takes, then a request answered: the
    /// socket gets what fits, the rest of the line it cut and the lines after
    /// it wait in the backlog, and the answer waits behind them. The client
    /// reads every line whole, once, in order, and the answer after the frame.
    @Test func aFrameCutByAFullSocketReachesTheClientWholeBeforeALaterReply() throws {
        let pair = try SocketPair(sendBufferBytes: 4096)
        let p = EmbeddedPublisher()
        let channel = try p.connect(pair: pair)
        let output = try p.output(of: channel)
        try p.send(channel, #"{"op":"subscribe","id":1,"events":["touch"]}"# + "\n")
        #expect(String(decoding: pair.drain(), as: UTF8.self) == #"{"type":"ack","id":1}"# + "\n")

        let batch = (0..<60).map { n in
            PublishedEvent(
                stream: n == 4 ? .gesture : .touch, time: Double(n),
                line: Array(#"{"type":"touch","n":\#(n),"pad":"\#(String(repeating: "x", count: 600 + n))"}"#.utf8))
        }
        p.hub.route(batch)
        var received = pair.drain()
        #expect(!received.isEmpty)
        #expect(!output.isDrained)
        try p.send(channel, #"{"op":"ping","id":2}"# + "\n")
        received += Self.readAll(pair, output, p.flusher)

        var lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        lines.removeLast()
        let ack = #"{"type":"ack","id":2}"#
        let events = batch.filter { $0.stream == .touch }.map { String(decoding: $0.line, as: UTF8.self) }
        #expect(lines == events + [ack])
    }

    /// Wherever the socket cut the runs (inside a line, on a line's end, at a
    /// run's end), the tail and the runs not started are exactly the rest.
    @Test func theCutLeavesExactlyTheRest() throws {
        let batch = (0..<7).map { event($0, $0 == 2 || $0 == 3 ? .gesture : .touch) }
        let runs = [0..<2, 4..<7]
        let expected = Self.text(batch) { $0.stream == .touch }
        let encoded = EventBatch(batch)
        let all = encoded.bytes, ends = encoded.ends
        for written in 0...expected.count {
            let (tail, rest) = DirectWriter.cut(runs: runs, ends: ends, after: written)
            var received = Array(expected[..<written])
            if let tail { received += all[tail] }
            for run in rest {
                for i in run { received += all[(i == 0 ? 0 : ends[i - 1])..<ends[i]] }
            }
            #expect(String(decoding: received, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "cut after \(written) bytes")
            // A tail is always part of one line, never a whole one.
            if let tail { #expect(tail.count > 0 && !all[tail].dropLast().contains(0x0a)) }
        }
    }

    // MARK: Coalescing (docs/protocol.md, "coalesce")

    static func touch(_ id: UInt32, _ n: Int, at time: Double, update: Bool = true) -> PublishedEvent {
        PublishedEvent(stream: .touch, device: 0, time: time, touchID: id, isUpdate: update,
                       line: Array(#"{"type":"touch","id":\#(id),"n":\#(n)}"#.utf8))
    }

    /// A session on an embedded loop whose output writes to `pair.a`,
    /// subscribed to touches and coalescing at `milliseconds`.
    static func coalescingSession(_ pair: SocketPair, _ p: EmbeddedPublisher, milliseconds: Int) throws -> (EmbeddedChannel, ClientOutput) {
        let channel = try p.connect(pair: pair)
        let output = try p.output(of: channel)
        try p.send(channel, #"{"op":"subscribe","id":1,"events":["touch"]}"# + "\n")
        try p.send(channel, #"{"op":"coalesce","id":2,"intervalMs":\#(milliseconds)}"# + "\n")
        #expect(String(decoding: pair.drain(), as: UTF8.self) == #"{"type":"ack","id":1}"# + "\n" + #"{"type":"ack","id":2}"# + "\n")
        let interval = output.state.withLock { $0.interval }
        #expect(interval == Double(milliseconds) / 1000)
        return (channel, output)
    }

    /// Offers one frame to the output; nothing may wait in its backlog.
    static func offer(_ frame: [PublishedEvent], _ writer: inout DirectWriter, _ output: ClientOutput) {
        writer.offer(frame, to: output)
        #expect(output.isDrained)
    }

    @Test func updatesWithinTheIntervalAreHeldAndTheLatestOfEachGoesOut() throws {
        let pair = try SocketPair()
        let p = EmbeddedPublisher()
        let (_, output) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        // Two touches begin: not updates, written at once.
        Self.offer([Self.touch(1, 1, at: 0, update: false), Self.touch(2, 2, at: 0, update: false)], &writer, output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [1, 2])
        // Moves 4, 8 and 12 ms later: held, nothing written.
        Self.offer([Self.touch(1, 3, at: 0.004), Self.touch(2, 4, at: 0.004)], &writer, output)
        Self.offer([Self.touch(1, 5, at: 0.008), Self.touch(2, 6, at: 0.008)], &writer, output)
        Self.offer([Self.touch(1, 7, at: 0.012)], &writer, output)
        #expect(pair.drain().isEmpty)
        // Due a quarter interval after they could have gone: 16 x 1.25 ms after the last delivery.
        #expect(abs(writer.earliestHeld - 0.020) < 1e-9)
        // A move 17 ms after the last delivery goes out at once, after the
        // held lines it does not replace: touch 1's latest (7), then 8 (touch 2's 6 is replaced).
        Self.offer([Self.touch(2, 8, at: 0.017)], &writer, output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [7, 8])
        #expect(writer.earliestHeld == .infinity)
        // A lift is not an update: at once, even 3 ms later.
        Self.offer([Self.touch(1, 9, at: 0.020, update: false)], &writer, output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [9])
    }

    @Test func aBeginningOrEndWithinTheIntervalGoesOutAtOnceAfterWhatIsHeld() throws {
        let pair = try SocketPair()
        let p = EmbeddedPublisher()
        let (_, output) = try Self.coalescingSession(pair, p, milliseconds: 50)
        var writer = DirectWriter()
        Self.offer([Self.touch(1, 1, at: 1.0)], &writer, output)
        Self.offer([Self.touch(1, 2, at: 1.01)], &writer, output)
        Self.offer([Self.touch(1, 3, at: 1.02), Self.touch(2, 4, at: 1.02)], &writer, output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [1])
        // Touch 3 begins 30 ms after the last delivery: it goes now, after the
        // held moves (touch 1's latest and touch 2's), in one read.
        Self.offer([Self.touch(3, 5, at: 1.03, update: false)], &writer, output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [3, 4, 5])
    }

    @Test func heldUpdatesGoOutOnTheirOwnAtTheirDeadline() throws {
        let pair = try SocketPair()
        let p = EmbeddedPublisher()
        let (_, output) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        Self.offer([Self.touch(1, 1, at: 2.0)], &writer, output)
        Self.offer([Self.touch(1, 2, at: 2.004)], &writer, output)
        _ = pair.drain()
        // Due at 2.020: nothing before.
        writer.release([output], upTo: 2.0199)
        #expect(pair.drain().isEmpty)
        #expect(abs(writer.earliestHeld - 2.020) < 1e-9)
        writer.release([output], upTo: 2.020)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [2])
        #expect(output.isDrained)
        #expect(writer.earliestHeld == .infinity)
        // The release counts as a delivery: the next move within 16 ms of it is held.
        Self.offer([Self.touch(1, 3, at: 2.030)], &writer, output)
        #expect(pair.drain().isEmpty)
        #expect(abs(writer.earliestHeld - 2.040) < 1e-9)
    }

    /// What is held goes out before the answer to a request, and turning
    /// coalescing off lets every update through at once.
    @Test func heldUpdatesGoOutBeforeTheAnswerToALaterRequest() throws {
        let pair = try SocketPair()
        let p = EmbeddedPublisher()
        let (channel, output) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        Self.offer([Self.touch(1, 1, at: 0)], &writer, output)
        Self.offer([Self.touch(1, 2, at: 0.001)], &writer, output)
        Self.offer([Self.touch(1, 3, at: 0.002)], &writer, output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [1])
        try p.send(channel, #"{"op":"coalesce","id":3,"intervalMs":0}"# + "\n")
        #expect(EmbeddedPublisher.split(String(decoding: pair.drain(), as: UTF8.self)) == [#"{"type":"touch","id":1,"n":3}"#, #"{"type":"ack","id":3}"#])
        let interval = output.state.withLock { $0.interval }
        #expect(interval == 0)
        Self.offer([Self.touch(1, 4, at: 0.003)], &writer, output)
        Self.offer([Self.touch(1, 5, at: 0.004)], &writer, output)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [4, 5])
    }

    /// A socket that takes only part of the held lines and the frame: the
    /// rest reaches the client from the backlog, whole and in order.
    @Test func aCoalescedWriteCutByAFullSocketIsFinishedFromTheBacklog() throws {
        let pair = try SocketPair(sendBufferBytes: 4096)
        let p = EmbeddedPublisher()
        let (_, output) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        let pad = String(repeating: "x", count: 700)
        func big(_ id: UInt32, _ n: Int, at time: Double, update: Bool = true) -> PublishedEvent {
            PublishedEvent(stream: .touch, device: 0, time: time, touchID: id, isUpdate: update,
                           line: Array(#"{"type":"touch","id":\#(id),"n":\#(n),"pad":"\#(pad)"}"#.utf8))
        }
        Self.offer([big(1, 1, at: 0)], &writer, output)
        var received = pair.drain()
        // Forty touches' moves held, then a lift that carries them out.
        var frame: [PublishedEvent] = []
        for id in UInt32(2)...41 { frame.append(big(id, Int(id), at: 0.001)) }
        Self.offer(frame, &writer, output)
        #expect(pair.drain().isEmpty)
        let lift = [big(1, 100, at: 0.002, update: false)]
        writer.offer(lift, to: output)
        #expect(!output.isDrained)
        received += Self.readAll(pair, output, p.flusher)
        #expect(numbers(inText: String(decoding: received, as: UTF8.self)) == [1] + Array(2...41) + [100])
        #expect(String(decoding: received, as: UTF8.self).hasSuffix("}\n"))
        #expect(output.isDrained)
    }
}
