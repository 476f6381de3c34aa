#if canImport(Glibc)
import Glibc
#endif
import NIOCore
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
        writer.encode(batch)
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
        writer.encode(batch)
        let offered = writer.offer(batch, to: lane)
        let handover = try #require(offered)
        #expect(handover.runs == [0..<2, 3..<6])
        #expect(handover.written == 0)
        #expect(lane.handedOver == 1)
        #expect(pair.drain().isEmpty)
        // Until the event loop has delivered it, the lane cannot reopen.
        lane.reopen()
        do { let h = writer.offer(batch, to: lane); #expect(h?.written == 0) }
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
        writer.encode(batch)
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
        writer.encode(batch)
        do { let h = writer.offer(batch, to: lane); #expect(h == nil) }
        #expect(pair.drain().isEmpty)
        #expect(!lane.isUsable)
    }

    @Test func theEventLoopMustNotWriteWhileAHandoverIsOnItsWay() throws {
        let pair = try Pair()
        let lane = DirectLane(id: Self.client, duplicating: pair.a, rule: Self.touches())
        lane.reopen()
        #expect(lane.holdUnlessHandedOver())
        var writer = DirectWriter()
        let batch = [event(1, .touch)]
        writer.encode(batch)
        do { let h = writer.offer(batch, to: lane); #expect(h != nil) }
        #expect(!lane.holdUnlessHandedOver())
        lane.handOverDone()
        #expect(lane.holdUnlessHandedOver())
    }

    /// A frame larger than the socket takes: the lane writes what fits and
    /// hands the rest over; the session completes the cut line before
    /// anything else, then the other lines: the client reads the frame
    /// whole, once.
    @Test func aFrameLargerThanTheSocketTakesIsCutAndCompletedByTheEventLoop() throws {
        let pair = try Pair(sendBufferBytes: 4096)
        let lane = DirectLane(id: Self.client, duplicating: pair.a, rule: Self.touches())
        lane.reopen()
        let batch = (0..<60).map { n in
            PublishedEvent(
                stream: n == 4 ? .gesture : .touch, time: Double(n),
                line: Array(#"{"type":"touch","n":\#(n),"pad":"\#(String(repeating: "x", count: 600 + n))"}"#.utf8))
        }
        let expected = Self.text(batch) { $0.stream == .touch }
        var writer = DirectWriter()
        writer.encode(batch)
        let offered = writer.offer(batch, to: lane)
        let handover = try #require(offered)
        #expect(handover.runs == [0..<4, 5..<60])
        #expect(handover.written > 0 && handover.written < expected.count)
        var received = pair.drain()
        #expect(received.count == handover.written)

        let p = EmbeddedPublisher()
        let channel = try p.connect()
        let session = try channel.pipeline.syncOperations.handler(type: SessionHandler.self)
        try p.send(channel, #"{"op":"subscribe","id":1,"events":["touch"]}"# + "\n")
        #expect(try p.lines(channel) == [#"{"type":"ack","id":1}"#])
        session.deliver(writer.all, runs: handover.runs, skipping: handover.written, ends: writer.ends, batch: batch, now: 0)
        session.flushQueue(routing: true)
        while let b = try channel.readOutbound(as: ByteBuffer.self) { received += b.readableBytesView }
        #expect(String(decoding: received, as: UTF8.self) == String(decoding: expected, as: UTF8.self))
    }

    /// Wherever the socket cut the runs (inside a line, on a line's end,
    /// at a run's end), what the session writes is exactly the rest.
    @Test func theRestFollowsExactlyWhereverTheCut() throws {
        let batch = (0..<7).map { event($0, $0 == 2 || $0 == 3 ? .gesture : .touch) }
        let runs = [0..<2, 4..<7]
        let expected = Self.text(batch) { $0.stream == .touch }
        var writer = DirectWriter()
        writer.encode(batch)
        for written in 0..<expected.count {
            let p = EmbeddedPublisher()
            let channel = try p.connect()
            let session = try channel.pipeline.syncOperations.handler(type: SessionHandler.self)
            try p.send(channel, #"{"op":"subscribe","id":1,"events":["touch"]}"# + "\n")
            _ = try p.lines(channel)
            session.deliver(writer.all, runs: runs, skipping: written, ends: writer.ends, batch: batch, now: 0)
            session.flushQueue(routing: true)
            var received = Array(expected[..<written])
            while let b = try channel.readOutbound(as: ByteBuffer.self) { received += b.readableBytesView }
            #expect(String(decoding: received, as: UTF8.self) == String(decoding: expected, as: UTF8.self), "cut after \(written) bytes")
        }
    }
}
