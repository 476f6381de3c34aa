// SPDX-License-Identifier: MIT
import NIOCore
import NIOEmbedded
import Testing
import Wire

@testable import Publisher

@Suite struct ClientConnectionHandlerTests {
    @Test func answersPipelinedRequestsInOrder() throws {
        let p = EmbeddedPublisher()
        let c = try p.connect()
        try p.send(c, #"{"op":"ping","id":1}"# + "\n" + #"{"op":"subscribe","id":"s","events":["touch"]}"# + "\n" + #"{"op":"ping"}"# + "\n")
        #expect(try p.lines(c) == [#"{"type":"ack","id":1}"#, #"{"type":"ack","id":"s"}"#, #"{"type":"ack"}"#])
    }

    @Test func recoverableErrorsKeepTheConnection() throws {
        let p = EmbeddedPublisher()
        let c = try p.connect()
        try p.send(c, "not json\n")
        try p.send(c, bytes: Array(#"{"op":"ping","id":"\#u{1}"#.utf8).dropLast() + [0xFF] + Array("\"}\n".utf8))
        try p.send(c, String(repeating: "[", count: 100) + "\n")
        try p.send(c, #"{"op":"fly","id":2}"# + "\n")
        try p.send(c, #"{"op":"subscribe","id":3,"events":["wind"]}"# + "\n")
        try p.send(c, "   \n")
        try p.send(c, #"{"op":"ping","id":4}"# + "\n")
        let lines = try p.lines(c)
        #expect(lines.count == 6)
        #expect(lines[0].hasPrefix(#"{"type":"error","code":"bad-json","message":"not JSON: unexpected character"#))
        #expect(lines[1].hasPrefix(#"{"type":"error","code":"bad-utf8","#))
        #expect(lines[2].contains("nesting deeper than 64 levels"))
        #expect(lines[3] == #"{"type":"error","id":2,"code":"unknown-op","message":"unknown op \"fly\""}"#)
        #expect(lines[4].hasPrefix(#"{"type":"error","id":3,"code":"bad-field","message":"events[0]: unknown stream \"wind\""#))
        #expect(lines[5] == #"{"type":"ack","id":4}"#)
        #expect(c.isActive)
    }

    @Test func anOverlongLineGetsAnErrorAndTheNextLineIsServed() throws {
        var limits = PublisherLimits()
        limits.maxRequestLineBytes = 1024
        let p = EmbeddedPublisher(limits: limits)
        let c = try p.connect()
        // 10 MB in chunks, as a socket would deliver it.
        let chunk = String(repeating: "x", count: 65536)
        for _ in 0..<160 { try p.send(c, chunk) }
        try p.send(c, "\n" + #"{"op":"ping","id":9}"# + "\n")
        #expect(try p.lines(c) == [
            #"{"type":"error","code":"line-too-long","message":"a request line is longer than 1024 bytes; it is skipped up to its newline"}"#,
            #"{"type":"ack","id":9}"#,
        ])
    }

    /// The surfaces are the delegate's: every surface request goes to it,
    /// one at a time and answered in order, with the connection's own
    /// refusal (recognizer limit) answered after the delegate's id checks.
    @Test func surfaceRequestsGoToTheSurfacesOwnerWithTheConnectionsRefusal() async throws {
        var limits = PublisherLimits()
        limits.maxRecognizersPerSurface = 1
        let p = EmbeddedPublisher(limits: limits)
        let c = try p.connect()
        let rect = #""rect":{"x":0,"y":0,"width":1,"height":1}"#
        let twoRecognizers = #""recognizers":[{"name":"a","kind":"tap"},{"name":"b","kind":"tap"}]"#
        try p.send(c, #"{"op":"update","id":1,"surface":{"id":"main",\#(rect)}}"# + "\n")
        try p.send(c, #"{"op":"unregister","id":2,"surface":"main"}"# + "\n")
        try p.send(c, #"{"op":"register","id":3,"surface":{"id":"m",\#(rect),\#(twoRecognizers)}}"# + "\n")
        try p.send(c, #"{"op":"register","id":4,"surface":{"id":"main",\#(rect)}}"# + "\n")
        try p.send(c, #"{"op":"register","id":5,"surface":{"id":"main",\#(rect),\#(twoRecognizers)}}"# + "\n")
        try p.send(c, #"{"op":"update","id":6,"surface":{"id":"main",\#(rect),\#(twoRecognizers)}}"# + "\n")
        var lines: [String] = []
        try await waitUntil("six answers") {
            p.runHandedBack()
            lines += try p.lines(c)
            return lines.count >= 6
        }
        #expect(lines == [
            #"{"type":"error","id":1,"code":"unknown-surface","message":"no surface \"main\" on this connection"}"#,
            #"{"type":"error","id":2,"code":"unknown-surface","message":"no surface \"main\" on this connection"}"#,
            #"{"type":"error","id":3,"code":"limit-exceeded","message":"surface.recognizers: at most 1 recognizers per surface"}"#,
            #"{"type":"ack","id":4}"#,
            #"{"type":"error","id":5,"code":"surface-exists","message":"surface \"main\" is already registered; use update"}"#,
            #"{"type":"error","id":6,"code":"limit-exceeded","message":"surface.recognizers: at most 1 recognizers per surface"}"#,
        ])
        let id = try p.id(of: c).rawValue
        #expect(p.delegate.calls == [
            "update main from \(id)", "unregister main from \(id)", "register m [\"a\", \"b\"] from \(id)", "register main [] from \(id)",
            "register main [\"a\", \"b\"] from \(id)", "update main from \(id)",
        ])
    }

    @Test func limitsSubscriptions() throws {
        var limits = PublisherLimits()
        limits.maxSubscriptionsPerClient = 2
        let p = EmbeddedPublisher(limits: limits)
        let c = try p.connect()
        for id in 1...3 { try p.send(c, #"{"op":"subscribe","id":\#(id),"events":["touch"]}"# + "\n") }
        try p.send(c, #"{"op":"unsubscribe","id":4,"events":["touch"]}"# + "\n")
        try p.send(c, #"{"op":"subscribe","id":5,"events":["touch"]}"# + "\n")
        #expect(try p.lines(c) == [
            #"{"type":"ack","id":1}"#, #"{"type":"ack","id":2}"#,
            #"{"type":"error","id":3,"code":"limit-exceeded","message":"at most 2 subscriptions per connection"}"#,
            #"{"type":"ack","id":4}"#, #"{"type":"ack","id":5}"#,
        ])
    }

    @Test func routesBySubscriptionFilterAndOwnership() throws {
        let root = PeerCredentials(uid: 0, gid: 0, pid: 1)
        let user = PeerCredentials(uid: 1000, gid: 1000, pid: 2)
        let p = EmbeddedPublisher(access: AccessPolicy(seeAllTouches: AccessGrant(gids: [0])))
        let all = try p.connect(credentials: user)
        let taps = try p.connect(credentials: user)
        let owner = try p.connect(credentials: user)
        let monitor = try p.connect(credentials: root)
        let none = try p.connect(credentials: user)
        try p.send(all, #"{"op":"subscribe","events":["gesture","touch","system","device"]}"# + "\n")
        try p.send(taps, #"{"op":"subscribe","events":["gesture"],"filter":{"kinds":["tap"],"devices":[1]}}"# + "\n")
        try p.send(owner, #"{"op":"subscribe","events":["touch"],"filter":{"surfaces":["main"]}}"# + "\n")
        try p.send(monitor, #"{"op":"subscribe","events":["touch"]}"# + "\n")
        for c in [all, taps, owner, monitor] { _ = try p.lines(c) }
        let ownerID = try p.id(of: owner)
        p.hub.route([
            event(1, .gesture, kind: "tap", device: 1),
            event(2, .gesture, kind: "pan", device: 1),
            event(3, .touch, device: 1, touchType: "direct"),
            event(4, .touch, device: 1, touchType: "direct", surface: "main", owner: ownerID),
            event(5, .gesture, kind: "tap", device: 1, surface: "main", owner: ownerID),
            event(6, .touch, device: 1, touchType: "direct", surface: "side", owner: ownerID),
            event(7, .device, device: 2),
            event(8, .gesture, kind: "tap", device: 2),
            event(9, .debug),
        ])
        #expect(numbers(try p.lines(all)) == [1, 2, 3, 7, 8])
        #expect(numbers(try p.lines(taps)) == [1])
        #expect(numbers(try p.lines(owner)) == [3, 4, 5])
        #expect(numbers(try p.lines(monitor)) == [3, 4, 6])
        #expect(numbers(try p.lines(none)) == [])
    }

    /// The hub writes each run of consecutive lines a client wants as one slice
    /// of the batch: one write for a client that wants the whole batch.
    @Test func aBatchReachesEachClientAsItsWantedLinesInOrder() throws {
        let p = EmbeddedPublisher()
        let everything = try p.connect()
        let gestures = try p.connect()
        try p.send(everything, #"{"op":"subscribe","events":["gesture","touch"]}"# + "\n")
        try p.send(gestures, #"{"op":"subscribe","events":["gesture"]}"# + "\n")
        for c in [everything, gestures] { _ = try p.lines(c) }
        p.hub.route([
            event(1, .gesture, kind: "pan"), event(2, .gesture, kind: "pan"),
            event(3, .touch), event(4, .touch),
            event(5, .gesture, kind: "tap"),
        ])
        #expect(numbers(try p.lines(everything)) == [1, 2, 3, 4, 5])
        #expect(numbers(try p.lines(gestures)) == [1, 2, 5])
    }

    @Test func aClientThatStopsReadingGetsAnOverflowLater() throws {
        var limits = PublisherLimits()
        limits.maxQueuedEvents = 3
        let p = EmbeddedPublisher(limits: limits)
        let slow = try p.connect()
        let fast = try p.connect()
        for c in [slow, fast] { try p.send(c, #"{"op":"subscribe","events":["touch"]}"# + "\n") }
        _ = try p.lines(slow)
        _ = try p.lines(fast)
        try p.stopReading(slow)
        p.hub.route((1...10).map { event($0, .touch, time: Double($0)) })
        #expect(numbers(try p.lines(fast)) == Array(1...10))
        #expect(try p.resumeReading(slow) == [])
        #expect(try p.lines(slow) == [#"{"type":"touch","n":1}"#, #"{"type":"touch","n":2}"#, #"{"type":"touch","n":3}"#, #"{"type":"overflow","lost":7,"time":10}"#])
        p.hub.route([event(11, .touch)])
        #expect(numbers(try p.lines(slow)) == [11])
        #expect(slow.isActive)
    }

    @Test func aClientStuckPastTheTimeoutIsDisconnected() throws {
        var limits = PublisherLimits()
        limits.maxQueuedEvents = 2
        limits.stuckTimeout = 5
        let p = EmbeddedPublisher(limits: limits)
        let stuck = try p.connect()
        let healthy = try p.connect()
        for c in [stuck, healthy] { try p.send(c, #"{"op":"subscribe","events":["touch"]}"# + "\n") }
        _ = try p.lines(stuck)
        _ = try p.lines(healthy)
        try p.stopReading(stuck)
        p.hub.route((1...3).map { event($0, .touch) })
        p.clock.advance(by: 5)
        p.hub.route([event(4, .touch)])
        #expect(stuck.isActive)
        p.clock.advance(by: 0.5)
        p.hub.route([event(5, .touch)])
        // Found stuck: the event loop closes it (its backlog freed then, not
        // in the middle of the frame); it gets nothing more meanwhile.
        #expect(stuck.isActive)
        #expect(try p.output(of: stuck).hasFailed)
        p.hub.route([event(6, .touch)])
        #expect(!numbers(try p.resumeReading(stuck)).contains(6))
        #expect(!numbers(try p.lines(stuck)).contains(6))
        #expect(!stuck.isActive)
        #expect(p.hub.count == 1)
        #expect(numbers(try p.lines(healthy)) == [1, 2, 3, 4, 5, 6])
    }

    @Test func refusesConnectionsPastTheLimit() throws {
        var limits = PublisherLimits()
        limits.maxConnections = 2
        let p = EmbeddedPublisher(limits: limits)
        let a = try p.connect()
        _ = try p.connect()
        let c = try p.connect(readHello: false)
        #expect(try p.lines(c) == [#"{"type":"error","code":"limit-exceeded","message":"too many connections (the limit is 2)"}"#])
        #expect(!c.isActive)
        #expect(p.hub.count == 2)
        try a.close().wait()
        #expect(p.hub.count == 1)
        let d = try p.connect()
        #expect(d.isActive)
    }

    @Test func stopsReadingWhileTheQueueIsFull() throws {
        var limits = PublisherLimits()
        limits.maxQueuedEvents = 1
        let p = EmbeddedPublisher(limits: limits)
        let c = try p.connect()
        try p.send(c, #"{"op":"subscribe","events":["touch"]}"# + "\n")
        _ = try p.lines(c)
        try p.stopReading(c)
        p.hub.route([event(1, .touch)])
        let reads = ReadCounter()
        try c.pipeline.syncOperations.addHandler(reads, position: .first)
        c.read()
        #expect(reads.count == 0)
        #expect(try p.resumeReading(c) == [])
        #expect(reads.count == 1)
        #expect(numbers(try p.lines(c)) == [1])
    }

    /// The output calls its handler back, and the handler owns the output:
    /// once the connection has closed both are freed (a cycle between them
    /// kept every closed client's buffers: a soak's RSS grew by 100 MB).
    @Test func aClosedConnectionFreesItsHandlerAndOutput() throws {
        let p = EmbeddedPublisher()
        weak var handler: ClientConnectionHandler?
        weak var output: ClientOutput?
        do {
            let c = try p.connect()
            try p.send(c, #"{"op":"subscribe","events":["touch"]}"# + "\n")
            handler = try c.pipeline.syncOperations.handler(type: ClientConnectionHandler.self)
            output = try p.output(of: c)
            try c.close().wait()
            p.runHandedBack()
        }
        p.runHandedBack()
        #expect(p.hub.count == 0)
        #expect(handler == nil)
        #expect(output == nil)
    }

    @Test func shutdownSaysGoodbyeAndCloses() throws {
        let p = EmbeddedPublisher()
        let a = try p.connect()
        let b = try p.connect()
        p.hub.beginShutdown(reason: .shutdown)
        p.runHandedBack()
        for c in [a, b] {
            #expect(try p.lines(c) == [#"{"type":"goodbye","reason":"shutdown"}"#])
            #expect(!c.isActive)
        }
        #expect(p.hub.count == 0)
        let late = try p.connect(readHello: false)
        #expect(try p.lines(late).first?.contains("limit-exceeded") == true)
    }
}

/// Counts `read` calls that reach the head of the pipeline.
final class ReadCounter: ChannelOutboundHandler {
    typealias OutboundIn = Any
    private(set) var count = 0
    func read(context: ChannelHandlerContext) {
        count += 1
        context.read()
    }
}
