// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Publisher
import JSON
import Synchronization
import Testing
import TouchClient
import TouchCore
import TouchMotion
import Wire

@testable import LiveView

private final class NoSurfaces: PublisherDelegate {
    func register(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {}
    func update(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {}
    func unregister(surface: String, from client: ClientInfo) async throws(RequestError) {}
    func clientDisconnected(_ client: ClientInfo) async {}
}

private func temporaryDirectory() -> String {
    var template = Array("/tmp/liveview-test-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
}

@Suite(.serialized, .timeLimit(.minutes(1))) struct LiveRelayTests {
    /// A finger report of touch 3 at `seconds`, at x = `x` pixels.
    static func report(_ phase: TouchPhase, _ seconds: Double, x: Double) -> ServedReport {
        ServedReport(device: 0, id: 3, phase: phase, type: .direct, tool: .finger, screen: 0,
                     sample: MotionSample(time: Timestamp(microseconds: Int64((seconds * 1e6).rounded())), location: Point(x: x, y: 0)))
    }

    @Test func relaysTheDaemonsStreamIntoTheFeed() async throws {
        let dir = temporaryDirectory()
        defer { unlink(dir + "/s.sock"); rmdir(dir) }
        let hello = HelloSnapshot(devices: [], screens: [HelloScreen(index: 0, name: "panel", width: 800, height: 480)])
        let publisher = try await Publisher.listen(socketPath: dir + "/s.sock", delegate: NoSurfaces(), hello: { hello })
        let feed = LiveFeed()
        let (lines, sink) = AsyncStream.makeStream(of: String.self)
        feed.addListener { sink.yield($0) }
        let relay = LiveRelay(client: TouchClient(socketPath: dir + "/s.sock", reconnect: nil), feed: feed)
        try await relay.connectAndSubscribe()
        let pump = Task { await relay.pump() }
        // To every client whatever it subscribes to (the relay does not ask for `device`): the page lays the screens out again.
        var turned = PublishedEvent(stream: .device, time: 3.5, line: Array(#"{"type":"screens","time":3.5,"screens":[{"id":0,"name":"panel","width":480,"height":800,"rotation":90}]}"#.utf8))
        turned.toEveryone = true
        publisher.publish([
            PublishedEvent(stream: .touch, touchType: "direct", time: 1, touchID: 3, motion: Self.report(.began, 1, x: 100),
                           line: Array(#"{"type":"touch","time":1,"id":3,"phase":"began"}"#.utf8)),
            // Completes the 60 Hz frame at 1.016687 s (taken at 1.011687 s): touchd's `motion` line for the view.
            PublishedEvent(stream: .touch, touchType: "direct", time: 1.02, touchID: 3, isUpdate: true, motion: Self.report(.moved, 1.02, x: 120),
                           line: Array(#"{"type":"touch","time":1.02,"id":3,"phase":"moved"}"#.utf8)),
        ])
        // Its `motion` line comes after the batch's lines, before the next batch's.
        publisher.publish([
            PublishedEvent(stream: .gesture, kind: "tap", time: 2, line: Array(#"{"type":"gesture","time":2,"recognizer":"tap","state":"recognized"}"#.utf8)),
            // Not subscribed: the relay asks for touch, gesture and system only.
            PublishedEvent(stream: .debug, time: 3, line: Array(#"{"type":"debug","time":3}"#.utf8)),
            turned,
            // A drag session's decision, as the daemon sends it to observers: the page draws the session.
            PublishedEvent(stream: .touch, time: 3.75, line: Array(#"{"type":"drag-session","event":"entered","time":3.75,"session":1,"source":"list","screen":0,"location":{"x":900,"y":300},"itemCount":1,"types":["text/plain"],"surface":"map"}"#.utf8)),
            PublishedEvent(stream: .system, time: 4, line: Array(#"{"type":"system","event":"edge-hint","time":4}"#.utf8)),
        ])
        var seen: [String] = []
        for await line in lines {
            seen.append(line)
            if line.contains("edge-hint") { break }
        }
        await relay.client.close()
        await pump.value
        await publisher.shutdown()
        let types = seen.compactMap { try? JSONParser.parse(Array($0.utf8))["type"]?.stringValue }
        #expect(types == ["status", "hello", "touch", "touch", "motion", "gesture", "screens", "drag-session", "system"])
        let motion = try #require(seen.first { $0.contains(#""type":"motion""#) })
        #expect(motion.contains(#""frame":1.016687"#) && motion.contains(#""predicted""#))
        #expect(seen.contains { $0.contains(#""name":"panel""#) })
        #expect(!seen.contains { $0.contains("debug") })
    }
}
