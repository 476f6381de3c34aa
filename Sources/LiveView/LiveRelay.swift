// SPDX-License-Identifier: MIT
import TouchClient
import Wire

/// Relays the daemon's socket stream into a ``LiveFeed``: subscribes a
/// ``TouchClient`` to touches, gestures and system events and publishes every
/// message it receives, plus `status` lines when the connection comes and goes.
package struct LiveRelay: Sendable {
    /// The client (connected by ``connectAndSubscribe()``).
    package let client: TouchClient
    /// Where messages go.
    package let feed: LiveFeed

    /// Creates a relay.
    package init(client: TouchClient, feed: LiveFeed) {
        self.client = client
        self.feed = feed
    }

    /// The streams the view shows.
    package static let streams: [EventStream] = [.touch, .gesture, .system]
    /// The frames the view asks touchd for (60 Hz) and how far ahead it shows predictions.
    package static let framePeriodMilliseconds = 16.667
    package static let predictionHorizonMilliseconds = 16.0

    /// Connects and subscribes; throws when the daemon is not there.
    package func connectAndSubscribe() async throws {
        try await client.connect()
        try await client.subscribe(Self.streams)
        // touchd's resampled and predicted positions beside the reports, at
        // frames of its own (the page's are the browser's, on another clock):
        // a touchd without `frames` answers `unknown-op`, and the view goes on without them.
        try? await client.frames(periodMilliseconds: Self.framePeriodMilliseconds, time: 0,
                                 predictionHorizonMilliseconds: Self.predictionHorizonMilliseconds)
        feed.publish(Self.status(connected: true, "connected to \(client.socketPath)"))
    }

    /// Publishes the client's events until its stream finishes (closed, or reconnection gave up).
    package func pump() async {
        for await event in client.events {
            switch event {
            case .hello(let m): feed.publish(m.json.jsonString, isHello: true)
            case .touch(let m), .gesture(let m), .system(let m), .device(let m), .drag(let m), .motion(let m): feed.publish(m.json.jsonString)
            case .overflow(let lost, _):
                feed.publish(Self.status(connected: true, "the daemon dropped \(lost) events for this view"))
            case .goodbye(let reason):
                feed.publish(Self.status(connected: false, "the daemon said goodbye: \(reason)"))
            case .disconnected:
                feed.publish(Self.status(connected: false, "lost the connection to \(client.socketPath); reconnecting"))
            case .reconnected:
                feed.publish(Self.status(connected: true, "reconnected to \(client.socketPath)"))
            case .error(let e):
                feed.publish(Self.status(connected: true, "the daemon reported: \(e.message)"))
            case .screens(let m):
                // The screens turned or changed (semantics §11.3): the page lays them out again.
                feed.publish(m.json.jsonString)
            case .other(let m):
                // A drag session's decisions (semantics §12), seen as an observer: the page draws the session.
                if m.type == "drag-session" { feed.publish(m.json.jsonString) }
            }
        }
        feed.publish(Self.status(connected: false, "the connection to \(client.socketPath) ended"))
    }

    /// A `status` line for the page: `{"type":"status","connected":B,"message":S}`.
    package static func status(connected: Bool, _ message: String) -> String {
        var w = JSONWriter()
        w.beginObject()
        w.key("type"); w.string("status")
        w.key("connected"); w.bool(connected)
        w.key("message"); w.string(message)
        w.endObject()
        return w.string
    }
}
