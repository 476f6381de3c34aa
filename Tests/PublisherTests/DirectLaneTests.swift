// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOEmbedded
import Testing
import Wire

@testable import Publisher

/// The publishing thread's direct writes (Sources/Publisher/DirectLane.swift;
/// docs/daemon.md, "Threads"), on a socket pair: what goes straight into the
/// socket, what is handed to the event loop, and how a frame cut by a full
/// socket is completed there.
@Suite struct DirectLaneTests {
    /// A connected pair of Unix stream sockets: the lane writes to `a`, the test reads `b`.
    final class Pair {
        let a: CInt
        let b: CInt
        init(sendBufferBytes: Int32? = nil) throws {
            var fds: [CInt] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0 else { throw TestFailure("socketpair: errno \(errno)") }
            a = fds[0]
            b = fds[1]
            if var size = sendBufferBytes {
                setsockopt(a, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            }
        }
        deinit {
            close(a)
            close(b)
        }

        /// Everything readable on `b` now.
        func drain() -> [UInt8] {
            var out: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(b, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                guard n > 0 else { return out }
                out += chunk[..<n]
            }
        }

        /// Writes to `a` until the socket takes no more.
        func fill() {
            let junk = [UInt8](repeating: 0x2e, count: 4096)
            while junk.withUnsafeBytes({ send(a, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        }
    }

    static let client = ClientID(rawValue: 7)

    static func touches() -> RecipientRule {
        var subscriptions = SubscriptionSet()
        subscriptions.add(Subscription(events: [.touch]))
        return RecipientRule(id: client, subscriptions: subscriptions, seesAllTouches: false)
    }

    static func text(_ batch: [PublishedEvent], wanted: (PublishedEvent) -> Bool = { _ in true }) -> [UInt8] {
        batch.filter(wanted).flatMap { $0.line + [0x0a] }
    }

    @Test func anOpenLaneWritesTheWholeBatchAndHandsNothingOver() throws {
        let pair = try Pair()
        let lane = DirectLane(id: Self.client, duplicating: pair.a, rule: Self.touches())
        lane.reopen()
        var writer = DirectWriter()
        let batch = (0..<10).map { event($0, $0 % 3 == 0 ? .gesture : .touch) }
        do { let h = writer.offer(batch, to: lane); #expect(h == nil) }
        // Only the touches, in order: two runs of consecutive lines, one `sendmsg`.
        #expect(pair.drain() == Self.text(batch) { $0.stream == .touch })
        #expect(lane.handedOver == 0)
    }

    @Test func aClosedLaneHandsItsRunsOverWithNothingWritten() throws {
        let pair = try Pair()
        let lane = DirectLane(id: Self.client, duplicating: pair.a, rule: Self.touches())
        var writer = DirectWriter()
        let batch = (0..<6).map { event($0, $0 == 2 ? .gesture : .touch) }
        let offered = writer.offer(batch, to: lane)
        let handover = try #require(offered)
        #expect(handover.runs == [0..<2, 3..<6])
        #expect(lane.handedOver == 1)
        #expect(pair.drain().isEmpty)
        // Until the event loop has delivered it, the lane cannot reopen.
        lane.reopen()
        do { let h = writer.offer(batch, to: lane); #expect(h?.runs == [0..<2, 3..<6]) }
        lane.handOverDone()
        lane.handOverDone()
        lane.reopen()
        do { let h = writer.offer(batch, to: lane); #expect(h == nil) }
    }

    @Test func aClientWantingNothingOfTheBatchCostsNoWrite() throws {
        let pair = try Pair()
        let lane = DirectLane(id: Self.client, duplicating: pair.a, rule: Self.touches())
        var writer = DirectWriter()
        let batch = [event(1, .gesture), event(2, .system)]
        do { let h = writer.offer(batch, to: lane); #expect(h == nil) }
        #expect(lane.handedOver == 0)
    }

    @Test func anEndedSessionGetsNothingAndItsDescriptorIsClosed() throws {
        let pair = try Pair()
        let lane = DirectLane(id: Self.client, duplicating: pair.a, rule: Self.touches())
        lane.reopen()
        lane.shutDown()
        var writer = DirectWriter()
        let batch = [event(1, .touch)]
        do { let h = writer.offer(batch, to: lane); #expect(h == nil) }
        #expect(pair.drain().isEmpty)
        #expect(!lane.isUsable)
    }

    /// A frame larger than the socket takes, with a request answered before
    /// the handed-over part is delivered: the lane writes what fits and keeps
    /// the rest of the line it cut; the event loop writes that rest first,
    /// then the reply, then the lines the socket took none of. The client
    /// reads every line whole, once, in order, and the reply between two of them.
    @Test func aFrameCutByAFullSocketReachesTheClientWholeAroundAReply() throws {
        let pair = try Pair(sendBufferBytes: 4096)
        let p = EmbeddedPublisher()
        let channel = try p.connect(descriptor: pair.a)
        let session = try channel.pipeline.syncOperations.handler(type: ClientConnectionHandler.self)
        let lane = try #require(session.lane)
        try p.send(channel, #"{"op":"subscribe","id":1,"events":["touch"]}"# + "\n")
        #expect(try p.lines(channel) == [#"{"type":"ack","id":1}"#])
        // The reply is in the socket: the lane is open.
        let openAfterReply = lane.state.withLock { $0.open }
        #expect(openAfterReply)

        let batch = (0..<60).map { n in
            PublishedEvent(
                stream: n == 4 ? .gesture : .touch, time: Double(n),
                line: Array(#"{"type":"touch","n":\#(n),"pad":"\#(String(repeating: "x", count: 600 + n))"}"#.utf8))
        }
        var writer = DirectWriter()
        let offered = writer.offer(batch, to: lane)
        let handover = try #require(offered)
        var received = pair.drain()
        #expect(!received.isEmpty)
        let cut = lane.state.withLock { $0.tail != nil }
        #expect(cut)

        // A request answered before the handover reaches the loop.
        try p.send(channel, #"{"op":"ping","id":2}"# + "\n")
        let encoded = EventBatch(batch)
        p.hub.deliver(batch, encoded: ByteBuffer(bytes: encoded.bytes), ends: encoded.ends, handovers: [handover], queuedAt: nil)
        while let b = try channel.readOutbound(as: ByteBuffer.self) { received += b.readableBytesView }

        var lines = String(decoding: received, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.last == "")
        lines.removeLast()
        let ack = #"{"type":"ack","id":2}"#
        #expect(lines.filter { $0 == ack }.count == 1)
        #expect(lines.filter { $0 != ack } == batch.filter { $0.stream == .touch }.map { String(decoding: $0.line, as: UTF8.self) })
        // Everything is written: the lane is open again.
        #expect(lane.handedOver == 0)
        let reopened = lane.state.withLock { $0.open && $0.tail == nil }
        #expect(reopened)
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

    /// A session on an embedded loop with a lane on `pair.a`, subscribed to
    /// touches and coalescing at `milliseconds`; the lane open.
    static func coalescingSession(_ pair: Pair, _ p: EmbeddedPublisher, milliseconds: Int) throws -> (EmbeddedChannel, DirectLane) {
        let channel = try p.connect(descriptor: pair.a)
        let lane = try #require(try channel.pipeline.syncOperations.handler(type: ClientConnectionHandler.self).lane)
        try p.send(channel, #"{"op":"subscribe","id":1,"events":["touch"]}"# + "\n")
        try p.send(channel, #"{"op":"coalesce","id":2,"intervalMs":\#(milliseconds)}"# + "\n")
        #expect(try p.lines(channel) == [#"{"type":"ack","id":1}"#, #"{"type":"ack","id":2}"#])
        let open = lane.state.withLock { $0.open && $0.interval == Double(milliseconds) / 1000 }
        #expect(open)
        return (channel, lane)
    }

    /// Offers one frame to the lane; nothing may be handed over.
    static func offer(_ frame: [PublishedEvent], _ writer: inout DirectWriter, _ lane: DirectLane) {
        let handover = writer.offer(frame, to: lane)
        #expect(handover == nil)
    }

    @Test func updatesWithinTheIntervalAreHeldAndTheLatestOfEachGoesOut() throws {
        let pair = try Pair()
        let p = EmbeddedPublisher()
        let (_, lane) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        // Two touches begin: not updates, written at once.
        Self.offer([Self.touch(1, 1, at: 0, update: false), Self.touch(2, 2, at: 0, update: false)], &writer, lane)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [1, 2])
        // Moves 4, 8 and 12 ms later: held, nothing written.
        Self.offer([Self.touch(1, 3, at: 0.004), Self.touch(2, 4, at: 0.004)], &writer, lane)
        Self.offer([Self.touch(1, 5, at: 0.008), Self.touch(2, 6, at: 0.008)], &writer, lane)
        Self.offer([Self.touch(1, 7, at: 0.012)], &writer, lane)
        #expect(pair.drain().isEmpty)
        // Due a quarter interval after they could have gone: 16 x 1.25 ms after the last delivery.
        #expect(abs(writer.earliestHeld - 0.020) < 1e-9)
        // A move 17 ms after the last delivery goes out at once, after the
        // held lines it does not replace: touch 1's latest (7), then 8 (touch 2's 6 is replaced).
        Self.offer([Self.touch(2, 8, at: 0.017)], &writer, lane)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [7, 8])
        #expect(writer.earliestHeld == .infinity)
        // A lift is not an update: at once, even 3 ms later.
        Self.offer([Self.touch(1, 9, at: 0.020, update: false)], &writer, lane)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [9])
    }

    @Test func aBeginningOrEndWithinTheIntervalGoesOutAtOnceAfterWhatIsHeld() throws {
        let pair = try Pair()
        let p = EmbeddedPublisher()
        let (_, lane) = try Self.coalescingSession(pair, p, milliseconds: 50)
        var writer = DirectWriter()
        Self.offer([Self.touch(1, 1, at: 1.0)], &writer, lane)
        Self.offer([Self.touch(1, 2, at: 1.01)], &writer, lane)
        Self.offer([Self.touch(1, 3, at: 1.02), Self.touch(2, 4, at: 1.02)], &writer, lane)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [1])
        // Touch 3 begins 30 ms after the last delivery: it goes now, after the
        // held moves (touch 1's latest and touch 2's), in one read.
        Self.offer([Self.touch(3, 5, at: 1.03, update: false)], &writer, lane)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [3, 4, 5])
    }

    @Test func heldUpdatesGoOutOnTheirOwnAtTheirDeadline() throws {
        let pair = try Pair()
        let p = EmbeddedPublisher()
        let (_, lane) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        Self.offer([Self.touch(1, 1, at: 2.0)], &writer, lane)
        Self.offer([Self.touch(1, 2, at: 2.004)], &writer, lane)
        _ = pair.drain()
        var handovers: [LaneHandover] = []
        // Due at 2.020: nothing before.
        writer.release([lane], upTo: 2.0199, handovers: &handovers)
        #expect(pair.drain().isEmpty)
        #expect(abs(writer.earliestHeld - 2.020) < 1e-9)
        writer.release([lane], upTo: 2.020, handovers: &handovers)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [2])
        #expect(handovers.isEmpty)
        #expect(writer.earliestHeld == .infinity)
        // The release counts as a delivery: the next move within 16 ms of it is held.
        Self.offer([Self.touch(1, 3, at: 2.030)], &writer, lane)
        #expect(pair.drain().isEmpty)
        #expect(abs(writer.earliestHeld - 2.040) < 1e-9)
    }

    /// A request closes the lane: what it holds is written by the event
    /// loop before the answer, and turning coalescing off lets every update
    /// through at once.
    @Test func heldUpdatesGoOutBeforeTheAnswerToALaterRequest() throws {
        let pair = try Pair()
        let p = EmbeddedPublisher()
        let (channel, lane) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        Self.offer([Self.touch(1, 1, at: 0)], &writer, lane)
        Self.offer([Self.touch(1, 2, at: 0.001)], &writer, lane)
        Self.offer([Self.touch(1, 3, at: 0.002)], &writer, lane)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [1])
        try p.send(channel, #"{"op":"coalesce","id":3,"intervalMs":0}"# + "\n")
        #expect(try p.lines(channel) == [#"{"type":"touch","id":1,"n":3}"#, #"{"type":"ack","id":3}"#])
        // The event loop's writes confirmed: the lane is open again, without coalescing.
        p.loop.run()
        let open = lane.state.withLock { $0.open && $0.interval == 0 }
        #expect(open)
        Self.offer([Self.touch(1, 4, at: 0.003)], &writer, lane)
        Self.offer([Self.touch(1, 5, at: 0.004)], &writer, lane)
        #expect(numbers(inText: String(decoding: pair.drain(), as: UTF8.self)) == [4, 5])
    }

    /// A socket that takes only part of the held lines and the frame: the
    /// rest reaches the client through the event loop, whole and in order.
    @Test func aCoalescedWriteCutByAFullSocketIsFinishedByTheLoop() throws {
        let pair = try Pair(sendBufferBytes: 4096)
        let p = EmbeddedPublisher()
        let (channel, lane) = try Self.coalescingSession(pair, p, milliseconds: 16)
        var writer = DirectWriter()
        let pad = String(repeating: "x", count: 700)
        func big(_ id: UInt32, _ n: Int, at time: Double, update: Bool = true) -> PublishedEvent {
            PublishedEvent(stream: .touch, device: 0, time: time, touchID: id, isUpdate: update,
                           line: Array(#"{"type":"touch","id":\#(id),"n":\#(n),"pad":"\#(pad)"}"#.utf8))
        }
        Self.offer([big(1, 1, at: 0)], &writer, lane)
        var received = pair.drain()
        // Forty touches' moves held, then a lift that carries them out.
        var frame: [PublishedEvent] = []
        for id in UInt32(2)...41 { frame.append(big(id, Int(id), at: 0.001)) }
        Self.offer(frame, &writer, lane)
        #expect(pair.drain().isEmpty)
        let lift = [big(1, 100, at: 0.002, update: false)]
        let offered = writer.offer(lift, to: lane)
        let handover = try #require(offered)
        #expect(handover.runs.isEmpty)
        received += pair.drain()
        p.hub.deliver([], encoded: ByteBuffer(), ends: [], handovers: [handover], queuedAt: nil)
        while let b = try channel.readOutbound(as: ByteBuffer.self) { received += b.readableBytesView }
        #expect(numbers(inText: String(decoding: received, as: UTF8.self)) == [1] + Array(2...41) + [100])
        #expect(String(decoding: received, as: UTF8.self).hasSuffix("}\n"))
        #expect(lane.handedOver == 0)
    }
}
