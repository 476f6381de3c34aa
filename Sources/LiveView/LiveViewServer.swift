// SPDX-License-Identifier: MIT
import NIOCore
import NIOHTTP1
import NIOPosix

/// The live view's HTTP server: `GET /` is the page (``LiveViewPage``),
/// `GET /events` a Server-Sent Events stream of the ``LiveFeed``'s lines.
///
/// It listens on loopback unless told otherwise, and then also refuses
/// requests whose `Host` is not a loopback name, so that a web site cannot
/// read the touch stream through DNS rebinding.
package final class LiveViewServer: Sendable {
    /// The address actually bound (with the port picked when 0 was asked).
    package let endpoint: HTTPEndpoint
    /// What the pages receive.
    package let feed: LiveFeed
    private let channel: Channel
    private let group: MultiThreadedEventLoopGroup

    private init(endpoint: HTTPEndpoint, feed: LiveFeed, channel: Channel, group: MultiThreadedEventLoopGroup) {
        self.endpoint = endpoint
        self.feed = feed
        self.channel = channel
        self.group = group
    }

    /// Starts listening; a non-loopback address is refused unless `allowRemote`.
    package static func start(at endpoint: HTTPEndpoint, feed: LiveFeed, allowRemote: Bool = false) async throws -> LiveViewServer {
        guard allowRemote || endpoint.isLoopback else {
            throw LiveViewError("\(endpoint) is not a loopback address: the live view shows every touch, so it listens on 127.0.0.1 or [::1] only (--allow-remote to override)")
        }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let checksHost = !allowRemote
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 32)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                channel.pipeline.configureHTTPServerPipeline(withErrorHandling: true).flatMapThrowing {
                    try channel.pipeline.syncOperations.addHandler(LiveViewHTTPHandler(feed: feed, checksHost: checksHost))
                }
            }
        do {
            let channel = try await bootstrap.bind(host: endpoint.host, port: endpoint.port).get()
            let port = channel.localAddress?.port ?? endpoint.port
            return LiveViewServer(endpoint: HTTPEndpoint(host: endpoint.host, port: port), feed: feed, channel: channel, group: group)
        } catch {
            try? await group.shutdownGracefully()
            throw LiveViewError("cannot listen on \(endpoint): \(error)")
        }
    }

    /// The page's address.
    package var url: String { "http://\(endpoint)/" }

    /// Closes the listening socket and every open page's stream.
    package func shutdown() async {
        try? await channel.close()
        try? await group.shutdownGracefully()
    }
}

/// One HTTP connection: serves the page, the event stream, or an error.
final class LiveViewHTTPHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    private let feed: LiveFeed
    private let checksHost: Bool
    private var listener: LiveFeed.ListenerID?
    private var pending: HTTPRequestHead?

    init(feed: LiveFeed, checksHost: Bool) {
        self.feed = feed
        self.checksHost = checksHost
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head):
            pending = head
        case .body:
            return
        case .end:
            guard let head = pending else { return }
            pending = nil
            respond(to: head, context: context)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let id = listener { feed.removeListener(id) }
        listener = nil
        context.fireChannelInactive()
    }

    /// True when the `Host` header names this machine's loopback (or is absent, as from HTTP/1.0 tools).
    static func isLoopbackHost(_ value: String?) -> Bool {
        guard let value, !value.isEmpty else { return true }
        if let endpoint = try? HTTPEndpoint(parsing: value) { return endpoint.isLoopback }
        let bare = value.hasPrefix("[") && value.hasSuffix("]") ? String(value.dropFirst().dropLast()) : value
        return HTTPEndpoint(host: bare, port: 0).isLoopback
    }

    private func respond(to head: HTTPRequestHead, context: ChannelHandlerContext) {
        let parts = head.uri.split(separator: "?", maxSplits: 1)
        let path = parts.first.map(String.init) ?? "/"
        let query = parts.count > 1 ? String(parts[1]) : ""
        guard !checksHost || Self.isLoopbackHost(head.headers.first(name: "host")) else {
            return send(.forbidden, "text/plain; charset=utf-8", "the live view answers loopback host names only\n", context: context)
        }
        guard head.method == .GET || head.method == .HEAD else {
            return send(.methodNotAllowed, "text/plain; charset=utf-8", "GET only\n", context: context)
        }
        switch path {
        case "/", "/index.html":
            send(.ok, "text/html; charset=utf-8", LiveViewPage.html, context: context, head: head.method == .HEAD)
        case "/events":
            startEventStream(context: context, snapshot: query.split(separator: "&").contains("snapshot"))
        default:
            send(.notFound, "text/plain; charset=utf-8", "not found: \(path)\n", context: context)
        }
    }

    private func send(_ status: HTTPResponseStatus, _ type: String, _ body: String, context: ChannelHandlerContext, head onlyHead: Bool = false) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: type)
        headers.add(name: "content-length", value: String(body.utf8.count))
        headers.add(name: "cache-control", value: "no-store")
        headers.add(name: "x-content-type-options", value: "nosniff")
        headers.add(name: "connection", value: "close")
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))), promise: nil)
        if !onlyHead {
            context.write(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
        }
        // One response per connection keeps the handler simple; a page makes two requests in all.
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }

    /// The live stream; with `snapshot`, the hello and backlog only, then the response ends
    /// (a still picture of the recent events, e.g. for a headless browser that waits for the network to go idle).
    private func startEventStream(context: ChannelHandlerContext, snapshot: Bool) {
        var headers = HTTPHeaders()
        headers.add(name: "content-type", value: "text/event-stream; charset=utf-8")
        headers.add(name: "cache-control", value: "no-store")
        if snapshot { headers.add(name: "connection", value: "close") }
        context.write(wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil)
        // An hour before a browser retries a stream that ended.
        context.writeAndFlush(wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: "retry: 3600000\n\n")))), promise: nil)
        let channel = context.channel
        @Sendable func event(_ line: String) -> ByteBuffer {
            // SSE: one `data:` line per event (our JSON lines never contain a newline).
            var buffer = channel.allocator.buffer(capacity: line.utf8.count + 8)
            buffer.writeString("data: ")
            buffer.writeString(line)
            buffer.writeString("\n\n")
            return buffer
        }
        if snapshot {
            // No listener: a line published meanwhile from the relay's thread would reach the
            // event loop after the response's end (NIO's HTTP handler stops the process for that).
            for line in feed.snapshot() { context.write(wrapOutboundOut(.body(.byteBuffer(event(line)))), promise: nil) }
            context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        listener = feed.addListener { line in
            channel.writeAndFlush(HTTPServerResponsePart.body(.byteBuffer(event(line))), promise: nil)
        }
    }
}
