// SPDX-License-Identifier: MIT
import Foundation
import NIOCore
import NIOPosix
import Testing

@testable import LiveView

/// Sends one raw HTTP request and reads until `done` says the text so far is enough (or the server closes).
private func exchange(port: Int, _ request: String, until done: @escaping @Sendable (String) -> Bool = { _ in false },
                      after sent: (@Sendable () -> Void)? = nil) async throws -> String {
    let channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
        .connect(host: "127.0.0.1", port: port) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
    return try await channel.executeThenClose { inbound, outbound in
        try await outbound.write(ByteBuffer(string: request))
        var text = ""
        var notified = false
        for try await chunk in inbound {
            text += String(buffer: chunk)
            if !notified, text.contains("\r\n\r\n") { notified = true; sent?() }
            if done(text) { break }
        }
        return text
    }
}

private func get(_ path: String, host: String = "127.0.0.1") -> String {
    "GET \(path) HTTP/1.1\r\nHost: \(host)\r\nConnection: close\r\n\r\n"
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct LiveViewServerTests {
    @Test func servesThePageWithTheSharedStyle() async throws {
        let server = try await LiveViewServer.start(at: HTTPEndpoint(host: "127.0.0.1", port: 0), feed: LiveFeed())
        #expect(server.endpoint.port != 0)
        #expect(server.url == "http://127.0.0.1:\(server.endpoint.port)/")
        let response = try await exchange(port: server.endpoint.port, get("/"))
        await server.shutdown()
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
        #expect(response.contains("content-type: text/html; charset=utf-8"))
        #expect(response.contains("new EventSource("))
        #expect(response.contains("#4e79a7"))
        #expect(response.contains("class: \"touch-path\""))
        // Drag sessions (semantics §12): drawn from `drag-session` lines, never with data.
        #expect(response.contains("case \"drag-session\": onDragSession(m)"))
        #expect(response.contains("class: \"drag-session\""))
    }

    @Test func streamsTheFeedAsServerSentEvents() async throws {
        let feed = LiveFeed()
        feed.publish(#"{"type":"hello","screens":[]}"#, isHello: true)
        let server = try await LiveViewServer.start(at: HTTPEndpoint(host: "127.0.0.1", port: 0), feed: feed)
        let response = try await exchange(
            port: server.endpoint.port, get("/events"),
            until: { $0.contains(#"data: {"type":"touch","id":7}"#) },
            after: { feed.publish(#"{"type":"touch","id":7}"#) })
        #expect(feed.listenerCount <= 1)
        await server.shutdown()
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
        #expect(response.contains("content-type: text/event-stream"))
        let hello = try #require(response.range(of: #"data: {"type":"hello","screens":[]}"#))
        let touch = try #require(response.range(of: #"data: {"type":"touch","id":7}"#))
        #expect(hello.upperBound <= touch.lowerBound)
    }

    @Test func aSnapshotSendsTheBacklogAndEnds() async throws {
        let feed = LiveFeed()
        feed.publish(#"{"type":"hello"}"#, isHello: true)
        feed.publish(#"{"type":"gesture","recognizer":"tap"}"#)
        let server = try await LiveViewServer.start(at: HTTPEndpoint(host: "127.0.0.1", port: 0), feed: feed)
        let response = try await exchange(port: server.endpoint.port, get("/events?snapshot"))
        let listeners = feed.listenerCount
        await server.shutdown()
        #expect(response.contains(#"data: {"type":"hello"}"#))
        #expect(response.contains(#"data: {"type":"gesture","recognizer":"tap"}"#))
        #expect(listeners == 0)
    }

    @Test func refusesForeignHostsUnknownPathsAndOtherMethods() async throws {
        let server = try await LiveViewServer.start(at: HTTPEndpoint(host: "127.0.0.1", port: 0), feed: LiveFeed())
        let port = server.endpoint.port
        let foreign = try await exchange(port: port, get("/", host: "attacker.example:\(port)"))
        let missing = try await exchange(port: port, get("/nope"))
        let post = try await exchange(port: port, "POST / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        await server.shutdown()
        #expect(foreign.hasPrefix("HTTP/1.1 403 Forbidden"))
        #expect(missing.hasPrefix("HTTP/1.1 404 Not Found"))
        #expect(post.hasPrefix("HTTP/1.1 405 Method Not Allowed"))
    }

    @Test func listensOnLoopbackOnlyUnlessAllowed() async throws {
        await #expect(throws: LiveViewError.self) {
            _ = try await LiveViewServer.start(at: HTTPEndpoint(host: "0.0.0.0", port: 0), feed: LiveFeed())
        }
        let server = try await LiveViewServer.start(at: HTTPEndpoint(host: "0.0.0.0", port: 0), feed: LiveFeed(), allowRemote: true)
        // With remote access allowed, any Host is answered.
        let response = try await exchange(port: server.endpoint.port, get("/", host: "touch-panel.lan"))
        await server.shutdown()
        #expect(response.hasPrefix("HTTP/1.1 200 OK"))
    }
}
