// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
@testable import Publisher
import JSON
import Synchronization
import Testing
import TouchCore
import TouchMotion
import Wire

@testable import TouchClient

private final class SurfaceLog: PublisherDelegate {
    private let log = Mutex<[String]>([])
    var calls: [String] { log.withLock { $0 } }
    private let surfaces = Mutex<Set<String>>([])
    func register(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        log.withLock { $0.append("register \(surface.id)") }
        surfaces.withLock { _ = $0.insert(surface.id) }
    }
    func update(surface: SurfaceDescription, from client: ClientInfo, checks: SurfaceChecks) async throws(RequestError) {
        log.withLock { $0.append("update \(surface.id)") }
    }
    func unregister(surface: String, from client: ClientInfo) async throws(RequestError) {
        log.withLock { $0.append("unregister \(surface)") }
        guard surfaces.withLock({ $0.remove(surface) }) != nil else {
            throw ClientSurfaceError.unknown(ClientSurfaceID(client: client.id, local: surface), field: nil).requestError
        }
    }
    func clientDisconnected(_ client: ClientInfo) async {
        let remaining = surfaces.withLock { s in
            defer { s.removeAll() }
            return s.sorted()
        }
        log.withLock { $0.append("disconnected \(remaining)") }
    }
    func drag(_ request: DragRequest, from client: ClientInfo) async throws(RequestError) {
        if case let .roles(surface, roles) = request { log.withLock { $0.append("drag-surface \(surface) \(roles.dropTypes)") } }
    }
}

private let hello = HelloSnapshot(devices: [], screens: [HelloScreen(index: 0, name: "default", width: 800, height: 480)])

private func temporaryDirectory() -> String {
    var template = Array("/tmp/touchclient-test-XXXXXX".utf8CString)
    let path = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
    return String(cString: path!)
}

private func line(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite(.serialized, .timeLimit(.minutes(1))) struct TouchClientTests {
    @Test func requestsAreAnsweredAndEventsArriveTyped() async throws {
        let dir = temporaryDirectory()
        defer { unlink(dir + "/s.sock"); rmdir(dir) }
        let delegate = SurfaceLog()
        let publisher = try await Publisher.listen(socketPath: dir + "/s.sock", delegate: delegate, hello: { hello })
        let client = TouchClient(socketPath: dir + "/s.sock", reconnect: nil)
        try await client.connect()
        var events = client.events.makeAsyncIterator()
        guard case let .hello(h)? = await events.next() else { Issue.record("no hello"); return }
        #expect(h["protocol"] == 1)
        try await client.subscribe([.gesture, .touch, .device], filter: SubscriptionFilter(touchTypes: ["direct"]))
        try await client.register(SurfaceDescription(id: "main", rect: SurfaceRect(x: 0, y: 0, width: 10, height: 10), recognizers: [["name": "tap", "kind": "tap"]]))
        do {
            try await client.unregister("nope")
            Issue.record("unregistering an unknown surface succeeded")
        } catch let error as RequestError {
            #expect(error.code == .unknownSurface)
        }
        try await client.ping()
        publisher.publish([
            PublishedEvent(stream: .touch, touchType: "direct", time: 1, line: line(#"{"type":"touch","time":1,"device":0,"id":3,"phase":"began","touchType":"direct","location":{"x":1.5,"y":2}}"#)),
            PublishedEvent(stream: .gesture, kind: "tap", time: 2, line: line(#"{"type":"gesture","time":2,"kind":"tap","recognizer":"tap","surface":"main","state":"recognized"}"#)),
            PublishedEvent(stream: .device, time: 3, line: line(#"{"type":"futuristic","time":3}"#)),
        ])
        guard case let .touch(t)? = await events.next() else { Issue.record("no touch"); return }
        #expect(t.phase == "began")
        #expect(t.id == 3)
        #expect(t.location?.x == 1.5)
        #expect(t.touchType == "direct")
        #expect(t.device == 0)
        guard case let .gesture(g)? = await events.next() else { Issue.record("no gesture"); return }
        #expect(g.kind == "tap" && g.recognizer == "tap" && g.surface == "main" && g.state == "recognized" && g.time == 2)
        // The line as sent, keys in the server's order (re-encoding the JSON would sort them).
        #expect(g.line == #"{"type":"gesture","time":2,"kind":"tap","recognizer":"tap","surface":"main","state":"recognized"}"#)
        guard case let .other(o)? = await events.next() else { Issue.record("unknown type not passed through"); return }
        #expect(o.type == "futuristic")
        await client.close()
        await publisher.shutdown()
        #expect(delegate.calls == ["register main", "unregister nope", "disconnected [\"main\"]"])
    }

    @Test func reconnectsAfterARestartAndRestoresItsState() async throws {
        let dir = temporaryDirectory()
        let path = dir + "/s.sock"
        defer { unlink(path); rmdir(dir) }
        let first = try await Publisher.listen(socketPath: path, delegate: SurfaceLog(), hello: { hello })
        let client = TouchClient(socketPath: path, reconnect: ReconnectPolicy(initialDelay: .milliseconds(10), maxDelay: .milliseconds(50)))
        try await client.connect()
        var events = client.events.makeAsyncIterator()
        guard case .hello? = await events.next() else { Issue.record("no hello"); return }
        try await client.subscribe([.gesture])
        try await client.coalesce(milliseconds: 50)
        try await client.register(SurfaceDescription(id: "main", rect: SurfaceRect(x: 0, y: 0, width: 1, height: 1)))
        try await client.setDragRoles(WireDragRoles(dropTypes: ["text/plain"]), of: "main")
        await first.shutdown(reason: .restart)
        guard case let .goodbye(reason)? = await events.next() else { Issue.record("no goodbye"); return }
        #expect(reason == "restart")
        guard case .disconnected? = await events.next() else { Issue.record("no disconnected"); return }
        let secondLog = SurfaceLog()
        let second = try await Publisher.listen(socketPath: path, delegate: secondLog, hello: { hello })
        guard case .hello? = await events.next() else { Issue.record("no second hello"); return }
        guard case .reconnected? = await events.next() else { Issue.record("no reconnected"); return }
        #expect(secondLog.calls == ["register main", "drag-surface main [\"text/plain\"]"])
        // Coalescing came back too: of three pan changes within 50 ms, the
        // middle one is replaced by the last, which goes out with the end.
        for (time, state) in [(5.0, "changed"), (5.01, "changed"), (5.02, "changed"), (5.03, "ended")] {
            second.publish([PublishedEvent(stream: .gesture, kind: "pan", recognizer: "pan", time: time, isUpdate: state == "changed",
                                           line: line(#"{"type":"gesture","kind":"pan","recognizer":"pan","state":"\#(state)","time":\#(time)}"#))])
        }
        var times: [Double] = []
        while times.count < 3 {
            guard case let .gesture(g)? = await events.next() else { Issue.record("no gesture after reconnecting"); return }
            #expect(g.kind == "pan")
            times.append(g.time ?? -1)
        }
        #expect(times == [5.0, 5.02, 5.03])
        await client.close()
        if let extra = await events.next() { Issue.record("event after close: \(extra)") }
        await second.shutdown()
    }

    @Test func framesComeBackAfterAReconnectAndTheirLinesAreTyped() async throws {
        let dir = temporaryDirectory()
        let path = dir + "/s.sock"
        defer { unlink(path); rmdir(dir) }
        let first = try await Publisher.listen(socketPath: path, delegate: SurfaceLog(), hello: { hello })
        let client = TouchClient(socketPath: path, reconnect: ReconnectPolicy(initialDelay: .milliseconds(10), maxDelay: .milliseconds(50)))
        try await client.connect()
        var events = client.events.makeAsyncIterator()
        guard case .hello? = await events.next() else { Issue.record("no hello"); return }
        try await client.subscribe([.touch])
        try await client.frames(periodMilliseconds: 10, time: 0, predictionHorizonMilliseconds: 8)
        await first.shutdown(reason: .restart)
        guard case .goodbye? = await events.next(), case .disconnected? = await events.next() else { Issue.record("no goodbye"); return }
        let second = try await Publisher.listen(socketPath: path, delegate: SurfaceLog(), hello: { hello })
        guard case .hello? = await events.next(), case .reconnected? = await events.next() else { Issue.record("no reconnection"); return }
        // A finger at x = 1 px/ms from 1 s: the report at 1.009 s completes the frame at 1.010 s (taken at 1.005 s).
        for (phase, ms) in [(TouchPhase.began, 1.0), (.moved, 9.0)] {
            let time = Timestamp(microseconds: 1_000_000).adding(milliseconds: ms)
            let report = ServedReport(device: 0, id: 4, phase: phase, type: .direct, tool: .finger, screen: 0,
                                      sample: MotionSample(time: time, location: Point(x: ms, y: 2)))
            second.publish([PublishedEvent(stream: .touch, device: 0, touchType: "direct", time: time.seconds, touchID: 4,
                                           isUpdate: phase == .moved, motion: report,
                                           line: line(#"{"type":"touch","time":\#(time.seconds),"id":4,"phase":"\#(phase.rawValue)"}"#))])
        }
        var motion: MotionMessage?
        while motion == nil {
            guard let event = await events.next() else { Issue.record("no motion line"); return }
            if case let .motion(m) = event { motion = MotionMessage(m) }
        }
        let m = try #require(motion)
        #expect(m.frameMicroseconds == 1_010_000 && m.microseconds == 1_005_000)
        #expect(m.id == 4 && m.touchType == .direct && m.tool == .finger && m.sample == .interpolated)
        #expect(m.location == WirePoint(x: 5, y: 2))
        // The line through the two reports, 8 ms past the newest.
        #expect(m.predicted == WirePrediction(microseconds: 1_017_000, location: WirePoint(x: 17, y: 2)))
        await client.close()
        await second.shutdown()
    }

    @Test func failsToConnectWithoutAServer() async {
        let client = TouchClient(socketPath: "/tmp/touchclient-no-such-dir/s.sock", reconnect: nil)
        await #expect(throws: (any Error).self) { try await client.connect() }
        await #expect(throws: TouchClientError.self) { try await client.ping() }
    }

    @Test func backoffGrowsToItsMaximum() {
        let p = ReconnectPolicy(initialDelay: .milliseconds(100), maxDelay: .seconds(1), multiplier: 2)
        #expect(p.delay(attempt: 1) == .milliseconds(100))
        #expect(p.delay(attempt: 2) == .milliseconds(200))
        #expect(p.delay(attempt: 4) == .milliseconds(800))
        #expect(p.delay(attempt: 5) == .seconds(1))
        #expect(p.delay(attempt: 50) == .seconds(1))
    }

    @Test func classifiesServerMessages() throws {
        func event(_ text: String) throws -> TouchEvent { TouchEvent(ServerMessage(json: try JSONParser.parse(text))) }
        guard case let .overflow(lost, time) = try event(#"{"type":"overflow","lost":4,"time":1.5}"#) else { Issue.record("not overflow"); return }
        #expect(lost == 4 && time == 1.5)
        guard case let .error(e) = try event(#"{"type":"error","code":"line-too-long","message":"m"}"#) else { Issue.record("not error"); return }
        #expect(e == RequestError(.lineTooLong, "m"))
        guard case let .device(d) = try event(#"{"type":"device","change":"added","device":{"id":1}}"#) else { Issue.record("not device"); return }
        #expect(d["change"] == "added")
        guard case .system = try event(#"{"type":"system","kind":"edge"}"#) else { Issue.record("not system"); return }
        guard case let .drag(m) = try event(#"{"type":"drag","event":"entered","session":2,"types":["text/plain"],"itemCount":1}"#) else {
            Issue.record("not drag")
            return
        }
        #expect(m["event"] == "entered" && m["session"]?.int64Value == 2)
    }
}

/// Every server message of the protocol's corpus (docs/schemas/examples.jsonl, valid and with a
/// `type`) through the client's own reading: its event by type, and the typed fields as the JSON has them.
@Suite struct ProtocolCorpusTests {
    static func corpus() throws -> [JSONValue] {
        var path = #filePath
        for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
        path += "/docs/schemas/examples.jsonl"
        guard let file = fopen(path, "r") else { throw TouchClientError("cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = fread(&chunk, 1, chunk.count, file)
            if n <= 0 { break }
            bytes += chunk[..<n]
        }
        return try bytes.split(separator: UInt8(ascii: "\n")).map { try JSONParser.parse(Array($0)) }
            .filter { $0["valid"] == true && $0["message"]?["type"] != nil }.compactMap { $0["message"] }
    }

    @Test func everyServerMessageOfTheCorpusIsReadAsItsType() throws {
        let messages = try Self.corpus()
        #expect(messages.count >= 15)
        var types: Set<String> = []
        for json in messages {
            let m = ServerMessage(json: json)
            let type = try #require(json["type"]?.stringValue)
            types.insert(type)
            #expect(m.type == type)
            #expect(m.time == json["time"]?.doubleValue)
            #expect(m.phase == json["phase"]?.stringValue && m.state == json["state"]?.stringValue)
            #expect(m.kind == json["kind"]?.stringValue && m.recognizer == json["recognizer"]?.stringValue)
            if let device = json["device"]?.int64Value { #expect(m.device == UInt32(device)) }
            if let x = json["location"]?["x"]?.doubleValue { #expect(m.location?.x == x) }
            let event = TouchEvent(m)
            switch (type, event) {
            case ("hello", .hello), ("touch", .touch), ("gesture", .gesture), ("system", .system), ("device", .device),
                 ("screens", .screens), ("drag", .drag), ("overflow", .overflow), ("goodbye", .goodbye), ("error", .error):
                break
            case ("motion", .motion(let motion)):
                // Typed, every field as the JSON has it.
                let typed = try #require(MotionMessage(motion))
                #expect(Double(typed.microseconds) / 1e6 == json["time"]?.doubleValue)
                #expect(Double(typed.frameMicroseconds) / 1e6 == json["frame"]?.doubleValue)
                #expect(Int64(typed.id) == json["id"]?.int64Value && typed.sample.rawValue == json["sample"]?.stringValue)
                #expect(typed.location.y == json["location"]?["y"]?.doubleValue && typed.force == json["force"]?.doubleValue)
                #expect(typed.predicted?.location.x == json["predicted"]?["location"]?["x"]?.doubleValue)
                #expect(typed.predicted.map { Double($0.microseconds) / 1e6 } == json["predicted"]?["time"]?.doubleValue)
            case ("ack", .other), ("debug", .other), ("session", .other), ("drag-session", .other):
                break  // answers are taken by the client before events; debug, session and drag-session lines are passed on as they are
            default:
                Issue.record("\(type) read as \(event)")
            }
            if case let .overflow(lost, time) = event { #expect(Int64(lost) == json["lost"]?.int64Value && time == json["time"]?.doubleValue) }
            if case let .goodbye(reason) = event { #expect(reason == json["reason"]?.stringValue) }
            if case let .error(e) = event { #expect(e.code.rawValue == json["code"]?.stringValue && e.message == json["message"]?.stringValue) }
        }
        #expect(types.isSuperset(of: ["hello", "touch", "gesture", "system", "device", "screens", "drag", "overflow", "goodbye", "error", "ack", "motion"]))
    }
}

