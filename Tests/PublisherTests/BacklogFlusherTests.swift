// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization
import Testing
import Wire

@testable import Publisher

/// The `touchd-flush` thread (Sources/Publisher/BacklogFlusher.swift) on a
/// real socket pair: a client behind gets its backlog written once it reads
/// again, whole and in order, and its output says so once.
@Suite struct BacklogFlusherTests {
    /// Reads `pair.b` until `count` lines have come (the filler left out), waiting in `poll` up to 20 s.
    static func readLines(_ pair: SocketPair, count: Int) -> [String] {
        var text = ""
        var fd = pollfd(fd: pair.b, events: Int16(POLLIN), revents: 0)
        while text.split(separator: "\n").count < count {
            fd.revents = 0
            guard poll(&fd, 1, 20_000) > 0 else { break }
            text += String(decoding: pair.drain(), as: UTF8.self)
        }
        return EmbeddedPublisher.split(text)
    }

    @Test func aBacklogIsWrittenOnceTheClientReadsAgain() throws {
        let flusher = try BacklogFlusher()
        defer { flusher.stop() }
        let pair = try SocketPair(sendBufferBytes: 4096)
        let drained = Mutex(0)
        let told = DispatchSemaphore(value: 0)
        let output = try ClientOutput(
            id: ClientOutputTests.client, duplicating: pair.a, rule: ClientOutputTests.touches(), limits: PublisherLimits(),
            flusher: flusher, clock: { 0 }, drained: { drained.withLock { $0 += 1 }; told.signal() }, failed: {})
        defer { output.shutDown() }
        pair.fill()
        var writer = DirectWriter()
        let batches = (0..<20).map { b in (0..<10).map { event(b * 10 + $0, .touch) } }
        for batch in batches { writer.offer(batch, to: output) }
        #expect(!output.isDrained)
        // The client reads: the flusher writes the rest as the socket takes it.
        let lines = Self.readLines(pair, count: 200)
        #expect(numbers(lines) == Array(0..<200))
        #expect(output.isDrained)
        // Told once the backlog was written whole (the notice comes after the last write).
        #expect(told.wait(timeout: .now() + 20) == .success)
        #expect(drained.withLock { $0 } == 1)
    }

    @Test func aClientThatIsGoneFailsItsOutputInsteadOfSpinning() throws {
        let flusher = try BacklogFlusher()
        defer { flusher.stop() }
        var pair: SocketPair? = try SocketPair(sendBufferBytes: 4096)
        let failed = Mutex(0)
        let told = DispatchSemaphore(value: 0)
        let output = try ClientOutput(
            id: ClientOutputTests.client, duplicating: pair!.a, rule: ClientOutputTests.touches(), limits: PublisherLimits(),
            flusher: flusher, clock: { 0 }, drained: {}, failed: { failed.withLock { $0 += 1 }; told.signal() })
        defer { output.shutDown() }
        pair!.fill()
        var writer = DirectWriter()
        writer.offer([event(1, .touch)], to: output)
        #expect(!output.isDrained)
        // The client closes its end: the flusher's next write fails, and the output says so once.
        pair = nil
        #expect(told.wait(timeout: .now() + 20) == .success)
        #expect(failed.withLock { $0 } == 1)
        #expect(output.hasFailed)
        #expect(!output.hasBacklog)
    }
}
