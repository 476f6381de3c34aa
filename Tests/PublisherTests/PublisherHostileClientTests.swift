// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import JSON
import Wire

@testable import Publisher

// Nested in PublisherSocketTests so that the two never run at the same
// time: both block test threads in recv while the publisher's delegate calls
// need the concurrency pool.
extension PublisherSocketTests {
/// Hostile and broken clients on a real socket (docs/protocol.md, "Limits"):
/// each gets the documented answer, and a healthy client next to it keeps
/// getting its events.
@Suite struct HostileClients {
    /// A client subscribed to the touch stream.
    private func healthyClient(_ path: String) throws -> LineSocket {
        let c = try LineSocket(path: path)
        #expect(try c.expectLine() == helloLine)
        #expect(try c.request(#"{"op":"subscribe","id":"h","events":["touch"]}"#) == #"{"type":"ack","id":"h"}"#)
        return c
    }

    /// Publishes touch events `numbers` and expects the healthy client to get exactly them.
    private func expectServed(_ healthy: LineSocket, by publisher: Publisher, _ range: Range<Int>) throws {
        publisher.publish(range.map { event($0, .touch) })
        var got: [Int] = []
        while got.count < range.count { got += numbers([try healthy.expectLine()]) }
        #expect(got == Array(range))
    }

    private func code(_ line: String) -> String? {
        (try? JSONParser.parse(line))?["code"]?.stringValue
    }

    @Test func overlongLinesAreCutAtTheDocumentedLimit() async throws {
        try await withSocketPublisher { publisher, path, _ in
            let healthy = try healthyClient(path)
            let c = try LineSocket(path: path)
            _ = try c.expectLine()
            // Exactly 65 536 bytes is a request; one more is too long.
            func ping(id: Int, length: Int) -> String {
                let head = #"{"op":"ping","id":\#(id),"pad":""#
                return head + String(repeating: "p", count: length - head.utf8.count - 2) + #""}"#
            }
            #expect(ping(id: 1, length: 65_536).utf8.count == 65_536)
            #expect(try c.request(ping(id: 1, length: 65_536)) == #"{"type":"ack","id":1}"#)
            #expect(code(try c.request(ping(id: 2, length: 65_537))) == "line-too-long")
            // The error comes as soon as the limit is passed, before the line ends.
            try c.send(String(repeating: "x", count: 100_000))
            #expect(try c.expectLine() == #"{"type":"error","code":"line-too-long","message":"a request line is longer than 65536 bytes; it is skipped up to its newline"}"#)
            // 10 MB more of the same line are skipped without another answer.
            let chunk = String(repeating: "y", count: 1 << 20)
            for _ in 0..<10 { try c.send(chunk) }
            #expect(try c.request("\n" + #"{"op":"ping","id":3}"#) == #"{"type":"ack","id":3}"#)
            try expectServed(healthy, by: publisher, 0..<50)
            #expect(await publisher.clientCount() == 2)
        }
    }

    @Test(arguments: [
        [0x80],  // a lone continuation byte
        [0xC0, 0xAF],  // an overlong '/'
        [0xED, 0xA0, 0x80],  // a UTF-16 surrogate
        [0xF4, 0x90, 0x80, 0x80],  // past U+10FFFF
        [0xF5],  // never valid
        [0xE2, 0x82],  // cut short
        [0xFF, 0xFE],
    ] as [[UInt8]])
    func invalidUTF8GetsBadUTF8(_ garbage: [UInt8]) async throws {
        try await withSocketPublisher { publisher, path, _ in
            let healthy = try healthyClient(path)
            let c = try LineSocket(path: path)
            _ = try c.expectLine()
            try c.send(bytes: Array(#"{"op":"ping","id":"#.utf8) + garbage + Array("\"}\n".utf8))
            let answer = try c.expectLine()
            #expect(code(answer) == "bad-utf8")
            #expect(answer.contains("(byte 19)"))
            #expect(try c.request(#"{"op":"ping","id":2}"#) == #"{"type":"ack","id":2}"#)
            try expectServed(healthy, by: publisher, 0..<10)
        }
    }

    @Test func deepNestingGetsBadJSONAndNeverOverflowsTheStack() async throws {
        try await withSocketPublisher { publisher, path, _ in
            let healthy = try healthyClient(path)
            let c = try LineSocket(path: path)
            _ = try c.expectLine()
            // The request object is level 1: 63 arrays inside it reach the limit of 64.
            func nested(_ arrays: Int) -> String {
                #"{"op":"ping","id":\#(arrays),"x":"# + String(repeating: "[", count: arrays) + String(repeating: "]", count: arrays) + "}"
            }
            #expect(try c.request(nested(63)) == #"{"type":"ack","id":63}"#)
            let tooDeep = try c.request(nested(64))
            #expect(code(tooDeep) == "bad-json")
            #expect(tooDeep.contains("nesting deeper than 64 levels"))
            // Lines as deep as the line limit allows, unterminated and terminated.
            for hostile in [String(repeating: "[", count: 65_000), String(repeating: #"{"a":"#, count: 13_000), String(repeating: "[{\"a\":", count: 9_000) + "1"] {
                let answer = try c.request(hostile)
                #expect(code(answer) == "bad-json")
                #expect(answer.contains("nesting deeper than 64 levels"))
            }
            #expect(try c.request(#"{"op":"ping","id":"after"}"#) == #"{"type":"ack","id":"after"}"#)
            try expectServed(healthy, by: publisher, 0..<10)
        }
    }

    /// Sends requests in batches small enough for the socket buffers and returns the answers.
    private func pipeline(_ c: LineSocket, _ requests: [String], batch: Int = 50) throws -> [String] {
        var answers: [String] = []
        for start in stride(from: 0, to: requests.count, by: batch) {
            let part = requests[start..<min(start + batch, requests.count)]
            try c.send(part.map { $0 + "\n" }.joined())
            while answers.count < start + part.count {
                let line = try c.expectLine()
                if messageType(line) == "ack" || messageType(line) == "error" { answers.append(line) }
            }
        }
        return answers
    }

    private func messageType(_ line: String) -> String? {
        (try? JSONParser.parse(line))?["type"]?.stringValue
    }

    @Test func thousandsOfSurfacesRecognizersAndSubscriptionsHitTheLimits() async throws {
        try await withSocketPublisher { publisher, path, delegate in
            let healthy = try healthyClient(path)
            let c = try LineSocket(path: path)
            _ = try c.expectLine()
            let rect = #""rect":{"x":0,"y":0,"width":10,"height":10}"#
            let registers = (0..<2000).map { #"{"op":"register","id":\#($0),"surface":{"id":"s\#($0)",\#(rect)}}"# }
            let answers = try pipeline(c, registers)
            #expect(answers[..<64] == ArraySlice((0..<64).map { #"{"type":"ack","id":\#($0)}"# }))
            #expect(answers[64...] == ArraySlice((64..<2000).map {
                #"{"type":"error","id":\#($0),"code":"limit-exceeded","message":"at most 64 surfaces per connection"}"#
            }))
            try expectServed(healthy, by: publisher, 0..<20)

            // A surface with 5000 recognizers (about 150 kB) is longer than a line may be;
            // 1000 fit in a line and are over the per-surface limit; 64 are accepted.
            func surface(_ id: String, recognizers: Int) -> String {
                let list = (0..<recognizers).map { #"{"name":"r\#($0)","kind":"tap"}"# }.joined(separator: ",")
                return #"{"op":"update","id":"\#(id)","surface":{"id":"s0",\#(rect),"recognizers":[\#(list)]}}"#
            }
            #expect(code(try c.request(surface("huge", recognizers: 5000))) == "line-too-long")
            #expect(try c.request(surface("many", recognizers: 1000))
                == #"{"type":"error","id":"many","code":"limit-exceeded","message":"surface.recognizers: at most 64 recognizers per surface"}"#)
            #expect(try c.request(surface("max", recognizers: 64)) == #"{"type":"ack","id":"max"}"#)

            // The limit counts the surfaces held now: after one unregister, one more fits.
            #expect(try c.request(#"{"op":"unregister","id":"u","surface":"s63"}"#) == #"{"type":"ack","id":"u"}"#)
            #expect(try c.request(#"{"op":"register","id":"again","surface":{"id":"new",\#(rect)}}"#) == #"{"type":"ack","id":"again"}"#)

            let subscribes = (0..<1000).map { #"{"op":"subscribe","id":\#($0),"events":["device"]}"# }
            let subscribed = try pipeline(c, subscribes)
            #expect(subscribed.filter { $0.contains(#""type":"ack""#) }.count == 32)
            #expect(subscribed[32...].allSatisfy { $0.hasSuffix(#""code":"limit-exceeded","message":"at most 32 subscriptions per connection"}"#) })
            try expectServed(healthy, by: publisher, 20..<40)

            // Every surface request within a line reached the delegate, which owns the
            // surfaces and their limit (the answers above say which it accepted).
            let calls = delegate.calls
            #expect(calls.filter { $0.hasPrefix("register") }.count == 2001)
            #expect(calls.filter { $0.hasPrefix("update") }.count == 2)
            #expect(await publisher.clientCount() == 2)
        }
    }

    @Test func subscribeUnsubscribeStormsLeaveNothingBehind() async throws {
        try await withSocketPublisher { publisher, path, _ in
            let healthy = try healthyClient(path)
            let storm = try LineSocket(path: path)
            _ = try storm.expectLine()
            var next = 0
            for round in 0..<50 {
                // 200 requests per round, events published while they are handled.
                let requests = (0..<200).map { k -> String in
                    let id = round * 200 + k
                    return k % 2 == 0
                        ? #"{"op":"subscribe","id":\#(id),"events":["touch","gesture"],"filter":{"touchTypes":["direct"]}}"#
                        : #"{"op":"unsubscribe","id":\#(id)}"#
                }
                try storm.send(requests.map { $0 + "\n" }.joined())
                try expectServed(healthy, by: publisher, next..<next + 20)
                next += 20
                var acks: [String] = []
                while acks.count < 200 {
                    let line = try storm.expectLine()
                    if line.hasPrefix(#"{"type":"ack""#) || line.hasPrefix(#"{"type":"error""#) { acks.append(line) }
                }
                #expect(acks == (0..<200).map { #"{"type":"ack","id":\#(round * 200 + $0)}"# })
            }
            // Every subscription was removed: only the healthy client counts as subscribed,
            // and the storm client may hold its full quota again.
            #expect(await publisher.subscribedClientCount() == 1)
            let again = try pipeline(storm, (0..<33).map { #"{"op":"subscribe","id":\#($0),"events":["device"]}"# })
            #expect(again.filter { $0.contains(#""type":"ack""#) }.count == 32)
            #expect(again.last?.contains("limit-exceeded") == true)
            try expectServed(healthy, by: publisher, next..<next + 20)
        }
    }

    @Test func aClientThatNeverReadsIsDisconnectedOnceStuckAndNobodyWaits() async throws {
        let clock = ManualClock()
        var configuration = PublisherConfiguration(clock: { clock.now })
        configuration.limits.maxQueuedEvents = 10
        try await withSocketPublisher(configuration: configuration) { publisher, path, _ in
            let healthy = try healthyClient(path)
            let sleeper = try LineSocket(path: path, receiveBufferBytes: 4096)
            #expect(try sleeper.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#) == helloLine)
            #expect(try sleeper.expectLine() == #"{"type":"ack","id":1}"#)
            let padding = String(repeating: "p", count: 1000)
            func batch(_ range: Range<Int>) -> [PublishedEvent] {
                range.map { PublishedEvent(stream: .touch, time: Double($0), line: Array(#"{"type":"touch","n":\#($0),"pad":"\#(padding)"}"#.utf8)) }
            }
            // 2 MB for a client whose socket holds a small part of it: it starts dropping.
            // Small batches, each read before the next: the reader's queue never fills.
            var got: [Int] = []
            for start in stride(from: 0, to: 2000, by: 10) {
                publisher.publish(batch(start..<start + 10))
                while got.count < start + 10 { got += numbers([try healthy.expectLine()]) }
            }
            #expect(await publisher.clientCount() == 2)
            // Still dropping after the stuck timeout: disconnected at the next event.
            clock.advance(by: configuration.limits.stuckTimeout + 1)
            publisher.publish(batch(2000..<2010))
            while got.count < 2010 { got += numbers([try healthy.expectLine()]) }
            #expect(got == Array(0..<2010))
            try await waitUntil("only the healthy client is left") { await publisher.clientCount() == 1 }
            // What it had in its socket buffer, then the end: no goodbye, it is not reading.
            var lines: [String] = []
            while let line = try sleeper.readLine() { lines.append(line) }
            #expect(!lines.contains { $0.contains("goodbye") })
            #expect(numbers(lines) == numbers(lines).sorted())
            #expect(numbers(lines).count < 2010)
        }
    }

    @Test func aHalfClosedClientGetsEveryAnswerAndQueuedEventThenTheEnd() async throws {
        try await withSocketPublisher { publisher, path, delegate in
            let healthy = try healthyClient(path)
            let c = try LineSocket(path: path)
            _ = try c.expectLine()
            #expect(try c.request(#"{"op":"subscribe","id":0,"events":["touch"]}"#) == #"{"type":"ack","id":0}"#)
            let id = try #require(await publisher.clients().last).id.rawValue
            publisher.publish((0..<1000).map { event($0, .touch) })
            // Requests the delegate answers later, then the write side goes, with a last line unterminated.
            let rect = #""rect":{"x":0,"y":0,"width":10,"height":10}"#
            try c.send(#"{"op":"register","id":1,"surface":{"id":"a",\#(rect)}}"# + "\n" + #"{"op":"ping","id":2}"# + "\n"
                + #"{"op":"unregister","id":3,"surface":"a"}"# + "\n" + #"{"op":"ping","id":4}"#)
            c.shutdownWrite()
            var lines: [String] = []
            while let line = try c.readLine() { lines.append(line) }
            #expect(numbers(lines) == Array(0..<1000))
            var healthyGot: [Int] = []
            while healthyGot.count < 1000 { healthyGot += numbers([try healthy.expectLine()]) }
            #expect(lines.filter { !$0.hasPrefix(#"{"type":"touch""#) }
                == [#"{"type":"ack","id":1}"#, #"{"type":"ack","id":2}"#, #"{"type":"ack","id":3}"#])
            try await waitUntil("only the healthy client is left") { await publisher.clientCount() == 1 }
            try expectServed(healthy, by: publisher, 1000..<1010)
            try await waitUntil("the disconnection reported") { delegate.calls.contains("disconnected \(id) []") }
        }
    }

    @Test func connectionsPastTheLimitAreToldAndClosedWhileOthersAreServed() async throws {
        try await withSocketPublisher { publisher, path, _ in
            let healthy = try healthyClient(path)
            let before = openDescriptorCount()
            var crowd: [LineSocket] = []
            for _ in 0..<1000 { crowd.append(try LineSocket(path: path)) }
            var firsts: [String] = []
            for c in crowd { firsts.append(try c.expectLine()) }
            // The documented limit of 256, the healthy client included.
            #expect(firsts.filter { $0 == helloLine }.count == 255)
            let refusal = #"{"type":"error","code":"limit-exceeded","message":"too many connections (the limit is 256)"}"#
            #expect(firsts.filter { $0 == refusal }.count == 745)
            for (c, first) in zip(crowd, firsts) where first == refusal {
                #expect(try c.readLine() == nil)
            }
            try expectServed(healthy, by: publisher, 0..<100)
            #expect(await publisher.clientCount() == 256)
            crowd.removeAll()
            try await waitUntil("only the healthy client is left") { await publisher.clientCount() == 1 }
            // The connections the crowd held are free again.
            let late = try LineSocket(path: path)
            #expect(try late.expectLine() == helloLine)
            // Other suites open descriptors meanwhile; a leak would be hundreds.
            #expect(openDescriptorCount() <= before + 2 + 32)
            try expectServed(healthy, by: publisher, 100..<110)
        }
    }
}
}

/// Waits (yielding) until `condition` holds; fails after 30 seconds so that a broken test cannot hang.
func waitUntil(_ what: String, _ condition: () async throws -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(30)
    while try await !condition() {
        guard ContinuousClock.now < deadline else { throw TestFailure("timed out waiting until \(what)") }
        await Task.yield()
    }
}
