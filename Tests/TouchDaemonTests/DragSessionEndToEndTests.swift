// SPDX-License-Identifier: MIT
import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// A socket client on its own thread that keeps every line until goodbye
/// (or the end of the stream) and may answer each line as it comes: a source
/// answering `items-requested`, a target proposing on `entered`.
final class ReactiveClient: @unchecked Sendable {
    let socket: WireSocket
    let hello: [String: Any]
    private let received = Mutex<[String]>([])
    private let done = DispatchSemaphore(value: 0)

    init(path: String) throws {
        socket = try WireSocket(path: path)
        hello = try socket.message()
    }

    /// The screen's size as `hello` gives it.
    var screen: (width: Double, height: Double) {
        let s = (hello["screens"] as? [[String: Any]])?.first
        return ((s?["width"] as? Double) ?? 0, (s?["height"] as? Double) ?? 0)
    }

    /// Starts reading; `react` gets each line with this client (on the reading thread).
    func start(_ react: @escaping @Sendable (_ line: [String: Any], _ client: ReactiveClient) throws -> Void) {
        let thread = Thread { [self] in
            defer { done.signal() }
            while let line = try? socket.readLine() {
                received.withLock { $0.append(line) }
                guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { continue }
                if object["type"] as? String == "goodbye" { return }
                try? react(object, self)
            }
        }
        thread.start()
    }

    func send(_ json: String) throws { try socket.send(json + "\n") }

    /// Closes the connection at once (a client that goes away).
    func hangUp() { shutdown(socket.fd, Int32(SHUT_RDWR)) }

    /// Every line received, once the stream ended.
    func finish() -> [[String: Any]] {
        done.wait()
        return received.withLock { $0 }.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }
}

/// Semantics §12 end to end: a real touchd replaying a hold-then-drag (a
/// derived trace, see its header) from the source client's surface on the
/// left onto the target client's surface on the right, at the recorded pace
/// (a source answers within its 250 ms, as a live one would).
@Suite(.serialized) struct DragSessionEndToEndTests {
    static let trace = PackagePaths.root + "/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.hold-then-drag.events"

    static func drags(_ lines: [[String: Any]]) -> [[String: Any]] { lines.filter { $0["type"] as? String == "drag" } }
    static func outline(_ lines: [[String: Any]]) -> [String] {
        var out: [String] = []
        for m in drags(lines) {
            let event = m["event"] as? String ?? "?"
            if event == "moved" && out.last == "moved" { continue }
            out.append(event == "ended" ? "ended:\(m["outcome"] ?? "?"):\(m["reason"] ?? "?")" : event)
        }
        return out
    }

    /// The source: a list (left, top half) whose drag offers "Lyon", a shelf
    /// (left, bottom half) whose taps add "Paris".
    static func source(_ daemon: DaemonProcess, hangUpOver x: Double? = nil) throws -> ReactiveClient {
        let c = try ReactiveClient(path: daemon.socketPath)
        let (w, h) = c.screen
        try c.socket.request(#"{"op":"register","id":1,"surface":{"id":"list","rect":{"x":0,"y":0,"width":\#(w / 2),"height":\#(h / 2)},"recognizers":[{"name":"drag","kind":"drag"}]}}"#, id: 1)
        try c.socket.request(#"{"op":"register","id":2,"surface":{"id":"shelf","rect":{"x":0,"y":\#(h / 2),"width":\#(w / 2),"height":\#(h / 2)},"recognizers":[{"name":"tap","kind":"tap"}]}}"#, id: 2)
        #expect(try c.socket.request(#"{"op":"drag-surface","id":3,"surface":"list","offersItems":true}"#, id: 3).last?.contains("ack") == true)
        #expect(try c.socket.request(#"{"op":"drag-surface","id":4,"surface":"shelf","addsItems":true}"#, id: 4).last?.contains("ack") == true)
        c.start { m, c in
            guard m["type"] as? String == "drag" else {
                if let x, m["type"] as? String == "gesture", m["state"] as? String == "changed",
                   let loc = m["location"] as? [String: Any], (loc["x"] as? Double ?? 0) > x { c.hangUp() }
                return
            }
            let request = m["request"] as? Int ?? 0
            switch m["event"] as? String {
            case "items-requested":
                try c.send(#"{"op":"drag-items","id":10,"request":\#(request),"items":[{"representations":[{"type":"text/plain","data":"Lyon"},{"type":"text/uri-list","data":"geo:45.76,4.84"}]}]}"#)
            case "add-requested":
                try c.send(#"{"op":"drag-items","id":11,"request":\#(request),"items":[{"representations":[{"type":"text/plain","data":"Paris"}]}]}"#)
            default: break
            }
        }
        try c.send(#"{"op":"subscribe","id":5,"events":["gesture"]}"#)
        return c
    }

    /// The target: a map (right half) taking text, proposing `proposal` when entered.
    static func target(_ daemon: DaemonProcess, proposal: String) throws -> ReactiveClient {
        let c = try ReactiveClient(path: daemon.socketPath)
        let (w, h) = c.screen
        try c.socket.request(#"{"op":"register","id":1,"surface":{"id":"map","rect":{"x":\#(w / 2),"y":0,"width":\#(w / 2),"height":\#(h)}}}"#, id: 1)
        #expect(try c.socket.request(#"{"op":"drag-surface","id":2,"surface":"map","dropTypes":["text/*"]}"#, id: 2).last?.contains("ack") == true)
        c.start { m, c in
            if m["type"] as? String == "drag", m["event"] as? String == "entered", let session = m["session"] as? Int {
                try c.send(#"{"op":"drop-proposal","id":20,"session":\#(session),"operation":"\#(proposal)"}"#)
            }
        }
        try c.send(#"{"op":"subscribe","id":3,"events":["gesture"]}"#)
        return c
    }

    @Test func aDropOnTheTargetCarriesTheItemsAndTheSourceLearnsTheOutcome() throws {
        let daemon = try DaemonProcess(["--replay", Self.trace, "--wait-for-subscribers", "3", "--exit-after-replay"])
        let source = try Self.source(daemon)
        let target = try Self.target(daemon, proposal: "copy")
        // A bystander whose surface the touch crosses (on top of the list) but that is no drop target.
        let bystander = try ReactiveClient(path: daemon.socketPath)
        let (w, h) = bystander.screen
        try bystander.socket.request(#"{"op":"register","id":1,"surface":{"id":"strip","z":5,"rect":{"x":\#(w * 0.4),"y":0,"width":\#(w * 0.05),"height":\#(h)}}}"#, id: 1)
        // It cannot name another client's surface, answer a request it was not asked, or propose for a session not over it.
        #expect(try bystander.socket.request(#"{"op":"drag-surface","id":3,"surface":"map","dropTypes":["text/plain"]}"#, id: 3).last?.contains(#""code":"unknown-surface""#) == true)
        #expect(try bystander.socket.request(#"{"op":"drag-items","id":4,"request":1,"items":[]}"#, id: 4).last?.contains(#""code":"unknown-request""#) == true)
        #expect(try bystander.socket.request(#"{"op":"drop-proposal","id":5,"session":1,"operation":"copy"}"#, id: 5).last?.contains(#""code":"unknown-session""#) == true)
        #expect(try bystander.socket.request(#"{"op":"drag-items","id":6,"request":1,"items":[{"representations":"x"}]}"#, id: 6).last?.contains(#""code":"bad-field""#) == true)
        bystander.start { _, _ in }
        try bystander.send(#"{"op":"subscribe","id":2,"events":["gesture","touch"]}"#)

        let sourceLines = source.finish(), targetLines = target.finish(), bystanderLines = bystander.finish()
        #expect(try daemon.waitForExit() == 0)
        // The source: asked for items when its drag began, asked again for the tap on its shelf, told the outcome once.
        #expect(Self.outline(sourceLines) == ["items-requested", "add-requested", "ended:copy:lifted"])
        #expect(sourceLines.contains { $0["type"] as? String == "gesture" && $0["recognizer"] as? String == "drag" && $0["state"] as? String == "began" })
        // The shelf's tap added an item: it was held for the answer and is no tap (semantics §12.5).
        #expect(!sourceLines.contains { $0["type"] as? String == "gesture" && $0["recognizer"] as? String == "tap" })
        // The target: entered, moves, the new item count (exited and entered again), the data once, the end once.
        let outline = Self.outline(targetLines)
        #expect(outline.first == "entered")
        #expect(outline.suffix(2) == ["perform", "ended:copy:lifted"])
        #expect(outline.filter { $0 == "perform" }.count == 1)
        let entered = Self.drags(targetLines).filter { $0["event"] as? String == "entered" }
        #expect(entered.first?["types"] as? [String] == ["text/plain", "text/uri-list"])
        #expect(entered.last?["itemCount"] as? Int == 2)
        #expect(entered.allSatisfy { $0["items"] == nil })
        let perform = try #require(Self.drags(targetLines).first { $0["event"] as? String == "perform" })
        #expect(perform["operation"] as? String == "copy")
        #expect(perform["surface"] as? String == "map")
        let data = (perform["items"] as? [[String: Any]])?.compactMap { ($0["representations"] as? [[String: Any]])?.first?["data"] as? String }
        #expect(data == ["Lyon", "Paris"])
        // Only the target saw the data; the bystander saw nothing of the session.
        #expect(!sourceLines.contains { $0["event"] as? String == "perform" })
        #expect(Self.drags(bystanderLines).isEmpty)
        // Without seeAllTouches, its touch subscription shows no session's decisions either.
        #expect(!bystanderLines.contains { $0["type"] as? String == "drag-session" })
        #expect(!sourceLines.contains { $0["type"] as? String == "drag-session" })
    }

    /// The live view's way in (protocol.md, "Drag sessions seen from outside"): a client granted
    /// `seeAllTouches` that subscribes to `touch` gets every decision as `drag-session`, never the data.
    @Test func anObserverSeesTheSessionsDecisionsButNotTheData() throws {
        let directory = TemporaryDirectory()
        try "access:\n  seeAllTouches: {users: [root]}\n".write(toFile: directory.path + "/touchd.yaml", atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--replay", Self.trace, "--wait-for-subscribers", "3", "--exit-after-replay",
                                        "--config", directory.path + "/touchd.yaml"])
        let source = try Self.source(daemon)
        let target = try Self.target(daemon, proposal: "copy")
        let observer = try ReactiveClient(path: daemon.socketPath)
        observer.start { _, _ in }
        try observer.send(#"{"op":"subscribe","id":1,"events":["touch"]}"#)
        let sourceLines = source.finish(), targetLines = target.finish(), observerLines = observer.finish()
        #expect(try daemon.waitForExit() == 0)
        let events = observerLines.filter { $0["type"] as? String == "drag-session" }.map { $0["event"] as? String ?? "?" }
        #expect(events.first == "opened")
        #expect(events.contains("items") && events.contains("entered") && events.contains("proposal"))
        #expect(events.contains("add-asked") && events.contains("added"))
        #expect(events.suffix(2) == ["dropped", "ended"])
        let ended = try #require(observerLines.last { $0["type"] as? String == "drag-session" })
        #expect(ended["outcome"] as? String == "copy" && ended["itemCount"] as? Int == 2)
        #expect(!observerLines.contains { $0["type"] as? String == "drag" }, "a party's events are not an observer's")
        #expect(!observerLines.contains { ($0["items"] as? [Any]) != nil })
        // The parties themselves, not subscribed to touch, get none.
        #expect(!(sourceLines + targetLines).contains { $0["type"] as? String == "drag-session" })
    }

    @Test func aForbiddingTargetEndsTheSessionCancelled() throws {
        let daemon = try DaemonProcess(["--replay", Self.trace, "--wait-for-subscribers", "2", "--exit-after-replay"])
        let source = try Self.source(daemon)
        let target = try Self.target(daemon, proposal: "forbidden")
        let sourceLines = source.finish(), targetLines = target.finish()
        #expect(try daemon.waitForExit() == 0)
        #expect(Self.outline(sourceLines).last == "ended:cancelled:lifted")
        #expect(Self.outline(targetLines).first == "entered")
        #expect(Self.outline(targetLines).last == "ended:cancelled:lifted")
        #expect(!Self.outline(targetLines).contains("perform"))
    }

    @Test func theSourceGoingAwayEndsTheSessionForTheTarget() throws {
        let daemon = try DaemonProcess(["--replay", Self.trace, "--wait-for-subscribers", "2", "--exit-after-replay"])
        let width = try ReactiveClient(path: daemon.socketPath).screen.width
        // The source hangs up once its drag is well over the target.
        let source = try Self.source(daemon, hangUpOver: width * 0.65)
        let target = try Self.target(daemon, proposal: "copy")
        _ = source.finish()
        let targetLines = target.finish()
        #expect(try daemon.waitForExit() == 0)
        let outline = Self.outline(targetLines)
        #expect(outline.first == "entered")
        #expect(outline.last == "ended:cancelled:source-gone")
        #expect(outline.filter { $0.hasPrefix("ended") }.count == 1)
        #expect(!outline.contains("perform"))
    }
}
