// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import JSON
import Wire

@testable import Publisher

/// Real sockets in a temporary directory. The test clients block in `recv`,
/// so the suite runs serialized to leave the concurrency pool free for the
/// delegate calls the publisher makes.
@Suite(.serialized) struct PublisherSocketTests {
    private func withPublisher(
        configuration: PublisherConfiguration = PublisherConfiguration(),
        _ body: (Publisher, String, RecordingDelegate) async throws -> Void
    ) async throws {
        try await withSocketPublisher(configuration: configuration, body)
    }

    @Test func eachClientGetsExactlyItsEventsInOrder() async throws {
        try await withPublisher { publisher, path, _ in
            let all = try LineSocket(path: path)
            let taps = try LineSocket(path: path)
            let stylus = try LineSocket(path: path)
            for c in [all, taps, stylus] { #expect(try c.expectLine() == helloLine) }
            #expect(try all.request(#"{"op":"subscribe","id":1,"events":["gesture","touch"]}"#) == #"{"type":"ack","id":1}"#)
            #expect(try taps.request(#"{"op":"subscribe","id":1,"events":["gesture"],"filter":{"kinds":["tap"]}}"#) == #"{"type":"ack","id":1}"#)
            #expect(try stylus.request(#"{"op":"subscribe","id":1,"events":["touch"],"filter":{"touchTypes":["stylus"]}}"#) == #"{"type":"ack","id":1}"#)
            var batch: [PublishedEvent] = []
            for n in 0..<300 {
                switch n % 3 {
                case 0: batch.append(event(n, .gesture, kind: n % 2 == 0 ? "tap" : "pan"))
                case 1: batch.append(event(n, .touch, touchType: "direct"))
                default: batch.append(event(n, .touch, touchType: "stylus"))
                }
            }
            publisher.publish(Array(batch[..<150]))
            publisher.publish(Array(batch[150...]))
            publisher.publish([event(1000, .system)])
            let expectedAll = Array(0..<300)
            let expectedTaps = (0..<300).filter { $0 % 3 == 0 && $0 % 2 == 0 }
            let expectedStylus = (0..<300).filter { $0 % 3 == 2 }
            for (client, expected) in [(all, expectedAll), (taps, expectedTaps), (stylus, expectedStylus)] {
                var got: [Int] = []
                while got.count < expected.count { got += numbers([try client.expectLine()]) }
                #expect(got == expected)
                // Nothing else was sent: the next line is the answer to a ping.
                #expect(try client.request(#"{"op":"ping","id":"end"}"#) == #"{"type":"ack","id":"end"}"#)
            }
        }
    }

    /// docs/protocol.md, "coalesce": a client that asks for 20 ms gets a
    /// touch's beginning at once and only the latest of the moves that follow
    /// within 20 ms, when the publisher's deadline for them comes; a client
    /// beside it gets every move.
    @Test func aCoalescingClientGetsTheLatestMoveWhenItsDeadlineComes() async throws {
        try await withPublisher { publisher, path, _ in
            let every = try LineSocket(path: path)
            let paced = try LineSocket(path: path)
            for c in [every, paced] {
                #expect(try c.expectLine() == helloLine)
                #expect(try c.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#) == #"{"type":"ack","id":1}"#)
            }
            #expect(try paced.request(#"{"op":"coalesce","id":2,"intervalMs":20}"#) == #"{"type":"ack","id":2}"#)
            func touch(_ n: Int, at time: Double, update: Bool) -> PublishedEvent {
                PublishedEvent(stream: .touch, device: 0, time: time, touchID: 1, isUpdate: update,
                               line: Array(#"{"type":"touch","n":\#(n)}"#.utf8))
            }
            #expect(publisher.heldDeadline == nil)
            publisher.publish([touch(1, at: 10, update: false)])
            publisher.publish([touch(2, at: 10.005, update: true)])
            publisher.publish([touch(3, at: 10.010, update: true)])
            // Held since the delivery at 10 s: due 1.25 x 20 ms after it.
            let due = try #require(publisher.heldDeadline)
            #expect(abs(due - 10.025) < 1e-9)
            publisher.releaseHeld(upTo: 10.024)
            #expect(publisher.heldDeadline == due)
            publisher.releaseHeld(upTo: due)
            #expect(publisher.heldDeadline == nil)
            var got: [Int] = []
            while got.count < 3 { got += numbers([try every.expectLine()]) }
            #expect(got == [1, 2, 3])
            #expect(numbers([try paced.expectLine(), try paced.expectLine()]) == [1, 3])
            // Nothing else came: the next line is the answer to a ping.
            #expect(try paced.request(#"{"op":"ping","id":"end"}"#) == #"{"type":"ack","id":"end"}"#)
        }
    }

    @Test func aClientThatNeverReadsDoesNotHoldUpTheOthers() async throws {
        // A clock that stands still: the sleeper is never old enough to be called stuck.
        var configuration = PublisherConfiguration(clock: { 0 })
        configuration.limits.maxQueuedEvents = 100
        try await withPublisher(configuration: configuration) { publisher, path, _ in
            let sleeper = try LineSocket(path: path, receiveBufferBytes: 4096)
            let reader = try LineSocket(path: path)
            #expect(try sleeper.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#) == helloLine)
            _ = try reader.expectLine()
            #expect(try reader.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#) == #"{"type":"ack","id":1}"#)
            // Make sure the sleeper's subscription is in place before publishing.
            #expect(try sleeper.expectLine() == #"{"type":"ack","id":1}"#)
            let padding = String(repeating: "p", count: 1000)
            let total = 5000
            var got: [Int] = []
            // The reader keeps up with each batch; the sleeper reads nothing.
            for start in stride(from: 0, to: total, by: 100) {
                publisher.publish((start..<start + 100).map { n in
                    PublishedEvent(stream: .touch, time: Double(n), line: Array(#"{"type":"touch","n":\#(n),"pad":"\#(padding)"}"#.utf8))
                })
                while got.count < start + 100 { got += numbers([try reader.expectLine()]) }
            }
            #expect(got == Array(0..<total))
            // The sleeper is still connected and will hear of its losses once it reads.
            #expect(await publisher.clientCount() == 2)
            var sleeperNumbers: [Int] = []
            var lost = 0
            while sleeperNumbers.count + lost < total {
                let line = try sleeper.expectLine()
                let v = try JSONParser.parse(line)
                if v["type"] == "overflow" { lost += Int(v["lost"]!.int64Value!) } else { sleeperNumbers += numbers([line]) }
            }
            #expect(lost > 0)
            #expect(sleeperNumbers == sleeperNumbers.sorted())
            #expect(sleeperNumbers.count + lost == total)
        }
    }

    @Test func surfaceRequestsGoToTheDelegateInOrder() async throws {
        try await withPublisher { publisher, path, delegate in
            let c = try LineSocket(path: path)
            _ = try c.expectLine()
            let rect = #""rect":{"x":0,"y":0,"width":800,"height":480}"#
            try c.send(#"{"op":"register","id":1,"surface":{"id":"main",\#(rect),"recognizers":[{"name":"tap","kind":"tap"}]}}"# + "\n")
            try c.send(#"{"op":"register","id":2,"surface":{"id":"main",\#(rect)}}"# + "\n")
            try c.send(#"{"op":"register","id":3,"surface":{"id":"bad",\#(rect),"recognizers":[{"name":"f","kind":"fly"}]}}"# + "\n")
            try c.send(#"{"op":"update","id":4,"surface":{"id":"main",\#(rect)}}"# + "\n")
            try c.send(#"{"op":"register","id":5,"surface":{"id":"side",\#(rect)}}"# + "\n")
            try c.send(#"{"op":"unregister","id":6,"surface":"side"}"# + "\n")
            try c.send(#"{"op":"unregister","id":7,"surface":"side"}"# + "\n")
            #expect(try c.expectLine() == #"{"type":"ack","id":1}"#)
            #expect(try c.expectLine() == #"{"type":"error","id":2,"code":"surface-exists","message":"surface \"main\" is already registered; use update"}"#)
            #expect(try c.expectLine() == #"{"type":"error","id":3,"code":"unknown-recognizer","message":"surface.recognizers[0].kind: unknown kind \"fly\""}"#)
            #expect(try c.expectLine() == #"{"type":"ack","id":4}"#)
            #expect(try c.expectLine() == #"{"type":"ack","id":5}"#)
            #expect(try c.expectLine() == #"{"type":"ack","id":6}"#)
            #expect(try c.expectLine() == #"{"type":"error","id":7,"code":"unknown-surface","message":"no surface \"side\" on this connection"}"#)
            let id = try #require(await publisher.clients().first).id.rawValue
            withExtendedLifetime(c) {}
            // Closing the connection reports the surfaces it still had.
            try await closeAndWait(c, publisher)
            await publisher.shutdown()
            #expect(delegate.calls == [
                "register main [\"tap\"] from \(id)", "register main [] from \(id)", "register bad [\"f\"] from \(id)",
                "update main from \(id)", "register side [] from \(id)", "unregister side from \(id)", "unregister side from \(id)",
                "disconnected \(id) [\"main\"]",
            ])
        }
    }

    private func closeAndWait(_ c: LineSocket, _ publisher: Publisher) async throws {
        shutdown(c.fd, Int32(SHUT_RDWR))
        #expect(try c.readLine() == nil)
    }

    @Test func ownedEventsReachOnlyTheOwner() async throws {
        try await withPublisher { publisher, path, _ in
            let owner = try LineSocket(path: path)
            let other = try LineSocket(path: path)
            _ = try owner.expectLine()
            _ = try other.expectLine()
            #expect(try owner.request(#"{"op":"ping","id":0}"#) == #"{"type":"ack","id":0}"#)
            #expect(try other.request(#"{"op":"subscribe","id":1,"events":["gesture","touch"]}"#) == #"{"type":"ack","id":1}"#)
            let clients = await publisher.clients()
            #expect(clients.count == 2)
            let ownerID = clients[0].id
            // Peer credentials are this process's own.
            #expect(clients[0].credentials == PeerCredentials(uid: getuid(), gid: getgid(), pid: getpid(), groups: PeerCredentialsQueryTests.processGroups()))
            publisher.publish([event(1, .gesture, surface: "main", owner: ownerID), event(2, .gesture), event(3, .touch, surface: "main", owner: ownerID)])
            #expect(numbers([try owner.expectLine()]) == [1])
            #expect(numbers([try other.expectLine()]) == [2])
            #expect(try owner.request(#"{"op":"ping","id":9}"#) == #"{"type":"ack","id":9}"#)
            #expect(try other.request(#"{"op":"ping","id":9}"#) == #"{"type":"ack","id":9}"#)
        }
    }

    @Test func aThousandShortConnectionsLeakNothing() async throws {
        try await withPublisher { publisher, path, delegate in
            let warm = try LineSocket(path: path)
            _ = try warm.expectLine()
            let before = openDescriptorCount()
            for k in 0..<1000 {
                let c = try LineSocket(path: path)
                if k % 2 == 0 { _ = try c.expectLine() }
            }
            // Every earlier close seen (only `warm` left) before the probe
            // connects: a server that is slow to see them (ThreadSanitizer)
            // would otherwise refuse the probe at the connection limit.
            var count = await publisher.clientCount()
            while count > 1 {
                await Task.yield()
                count = await publisher.clientCount()
            }
            let probe = try LineSocket(path: path)
            #expect(try probe.expectLine() == helloLine)
            #expect(try probe.request(#"{"op":"ping","id":1}"#) == #"{"type":"ack","id":1}"#)
            #expect(await publisher.clientCount() == 2)
            // Both ends of the probe are in this process. Other suites running in
            // parallel open descriptors of their own meanwhile: a leak here would be
            // one per connection (1000), far above this margin.
            #expect(openDescriptorCount() <= before + 2 + 32)
            withExtendedLifetime((warm, probe)) {}
            _ = delegate
        }
    }

    @Test func socketFileIsPrivateAndStaleFilesAreReplaced() async throws {
        let dir = makeTemporaryDirectory()
        defer { removeDirectory(dir) }
        let path = dir + "/s.sock"
        let first = try await Publisher.listen(socketPath: path, delegate: RecordingDelegate(), hello: { testHello })
        var st = stat()
        #expect(stat(path, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o660)
        // A second server on a live socket is refused.
        await #expect(throws: PublisherError.self) {
            _ = try await Publisher.listen(socketPath: path, delegate: RecordingDelegate(), hello: { testHello })
        }
        await first.shutdown()
        #expect(stat(path, &st) != 0)
        // A stale socket file (nobody listening) is replaced.
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        close(fd)
        let second = try await Publisher.listen(socketPath: path, delegate: RecordingDelegate(), hello: { testHello })
        let c = try LineSocket(path: path)
        #expect(try c.expectLine() == helloLine)
        await second.shutdown()
        #expect(try c.expectLine() == #"{"type":"goodbye","reason":"shutdown"}"#)
        #expect(try c.readLine() == nil)
        // A regular file is never replaced, and a missing directory is reported.
        let file = dir + "/plain"
        close(creat(file, 0o600))
        await #expect(throws: PublisherError.self) {
            _ = try await Publisher.listen(socketPath: file, delegate: RecordingDelegate(), hello: { testHello })
        }
        await #expect(throws: PublisherError.self) {
            _ = try await Publisher.listen(socketPath: dir + "/missing/s.sock", delegate: RecordingDelegate(), hello: { testHello })
        }
    }

    @Test func servesAnInheritedListeningDescriptor() async throws {
        let dir = makeTemporaryDirectory()
        defer { removeDirectory(dir) }
        let path = dir + "/activated.sock"
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: Array(path.utf8))
            raw[path.utf8.count] = 0
        }
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) } }
        #expect(listen(fd, 16) == 0)
        let publisher = try await Publisher.listen(descriptor: fd, delegate: RecordingDelegate(), hello: { testHello })
        let c = try LineSocket(path: path)
        #expect(try c.expectLine() == helloLine)
        #expect(try c.request(#"{"op":"ping","id":1}"#) == #"{"type":"ack","id":1}"#)
        await publisher.shutdown()
    }
}
