// SPDX-License-Identifier: MIT
import EngineMessages
import Foundation
import Gestures
import JSON
import Testing
import TouchClient
import TouchCore
import Trace
import Wire
import Session
@testable import TouchDaemon

/// touchd end to end: the built binary on real recordings, real sockets,
/// several kinds of clients, compared with the offline replay.
@Suite(.serialized) struct DaemonEndToEndTests {
    /// Gesture and touch lines the offline replay produces for a trace.
    static func offline(_ path: String, configuration: TouchdConfiguration = TouchdConfiguration()) throws -> (gestures: [String], touches: [String], events: [GestureEvent]) {
        let session = ReplaySession(recordings: [try TraceReader.read(path: path)], configuration: configuration)
        var gestures: [String] = [], touches: [String] = [], events: [GestureEvent] = []
        session.run(recordsDebug: false) { out in
            var w = JSONWriter()
            switch out {
            case .touch(let t):
                MessageEncoder.touch(t, into: &w)
                touches.append(w.string)
            case .engine(.gesture(let g)):
                MessageEncoder.gesture(g, into: &w)
                gestures.append(w.string)
                events.append(g)
            case .engine(.touch), .engine(.debug), .engine(.system), .engine(.mirror), .drag:
                break
            }
        }
        return (gestures, touches, events)
    }

    /// Two fingers dragging at 100 Hz on the Atmel panel: the first lifts
    /// while the second goes on moving, then the second lifts (an evemu trace
    /// written next to the daemon's socket).
    static func twoFingerTrace(in directory: String) throws -> String {
        let header = try String(contentsOfFile: PackagePaths.drag4, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("E:") }.joined(separator: "\n")
        var lines: [String] = []
        func e(_ t: Int, _ type: Int, _ code: Int, _ value: Int) {
            // `t` in milliseconds.
            lines.append(String(format: "E: %d.%06d %04x %04x %d", t / 1000, t % 1000 * 1000, type, code, value))
        }
        let abs = 3, slot = 0x2f, id = 0x39, x = 0x35, y = 0x36
        e(1, abs, slot, 0); e(1, abs, id, 1); e(1, abs, x, 200); e(1, abs, y, 100)
        e(1, abs, slot, 1); e(1, abs, id, 2); e(1, abs, x, 500); e(1, abs, y, 100)
        e(1, 1, 0x14a, 1); e(1, 0, 0, 0)
        for i in 1...40 {
            let t = 1 + i * 10
            if i == 30 {
                e(t, abs, slot, 0); e(t, abs, id, -1)
            } else if i < 30 {
                e(t, abs, slot, 0); e(t, abs, y, 100 + i * 5)
            }
            e(t, abs, slot, 1); e(t, abs, y, 100 + i * 5)
            e(t, 0, 0, 0)
        }
        e(420, abs, slot, 1); e(420, abs, id, -1); e(420, 1, 0x14a, 0); e(420, 0, 0, 0)
        let path = directory + "/two-fingers.events"
        try (header + "\n" + lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// docs/protocol.md, "coalesce", through the daemon: a replay at its
    /// recorded pace to a client taking every update and one at 50 ms. The
    /// second gets every beginning and end the first gets, in the same order,
    /// fewer moves, each one the first also got, and each touch's last move
    /// before its end: the first finger lifts while moves of both are held,
    /// and they go out before its end.
    @Test func aCoalescingClientGetsEveryBeginningAndEndAndTheLastMoveOfEachTouch() throws {
        let directory = TemporaryDirectory()
        let trace = try Self.twoFingerTrace(in: directory.path)
        let daemon = try DaemonProcess(["--replay", trace, "--wait-for-subscribers", "2", "--exit-after-replay"])
        let every = try WireSocket(path: daemon.socketPath)
        let paced = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try every.readLine() ?? "") == "hello")
        #expect(messageType(try paced.readLine() ?? "") == "hello")
        try paced.request(#"{"op":"coalesce","id":2,"intervalMs":50}"#, id: 2)
        try every.request(#"{"op":"subscribe","id":1,"events":["touch","gesture"]}"#, id: 1)
        try paced.request(#"{"op":"subscribe","id":1,"events":["touch","gesture"]}"#, id: 1)
        func events(_ socket: WireSocket) throws -> [String] {
            try socket.lines { messageType($0) == "goodbye" }.filter { messageType($0) == "touch" || messageType($0) == "gesture" }
        }
        let all = try events(every)
        let coalesced = try events(paced)
        func isUpdate(_ line: String) -> Bool { line.contains(#""phase":"moved""#) || line.contains(#""state":"changed""#) }
        #expect(all.contains(where: isUpdate) && all.contains { !isUpdate($0) })
        #expect(coalesced.filter { !isUpdate($0) } == all.filter { !isUpdate($0) })
        let moves = coalesced.filter(isUpdate)
        #expect(moves.count < all.filter(isUpdate).count / 2)
        #expect(moves.allSatisfy { all.contains($0) })
        // Each touch's last move before it ended, in both.
        func lastMoves(_ lines: [String]) -> [String] {
            var last: [Int64: String] = [:], out: [String] = []
            for line in lines where messageType(line) == "touch" {
                guard let json = try? JSONParser.parse(line), let id = json["id"]?.int64Value else { continue }
                if line.contains(#""phase":"moved""#) { last[id] = line }
                if line.contains(#""phase":"ended""#), let move = last[id] { out.append(move) }
            }
            return out
        }
        #expect(lastMoves(all).count == 2)
        #expect(lastMoves(coalesced) == lastMoves(all))
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func severalClientsGetExactlyWhatTheySubscribedTo() async throws {
        let expected = try Self.offline(PackagePaths.drag4)
        #expect(expected.gestures.count > 10)
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--speed", "0", "--wait-for-subscribers", "3", "--exit-after-replay"])

        // A raw socket on the touch stream.
        let raw = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try raw.readLine() ?? "") == "hello")
        try raw.request(#"{"op":"subscribe","id":1,"events":["touch"]}"#, id: 1)

        // The Swift client on swipes only.
        let client = TouchClient(socketPath: daemon.socketPath, reconnect: nil)
        try await client.connect()
        try await client.subscribe([.gesture], filter: SubscriptionFilter(kinds: ["swipe"]))

        // The Python example on gestures and devices.
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", PackagePaths.root + "/docs/examples/python_client.py", "--socket", daemon.socketPath, "--events", "gesture,device"]
        let pipe = Pipe()
        python.standardOutput = pipe
        try python.run()

        let rawLines = try raw.lines { messageType($0) == "goodbye" }
        #expect(rawLines.filter { messageType($0) == "touch" } == expected.touches)
        #expect(rawLines.last == #"{"type":"goodbye","reason":"shutdown"}"#)

        var swipes: [String] = []
        for await event in client.events {
            if case .gesture(let m) = event { swipes.append(m.json.jsonString) }
            if case .goodbye = event { break }
        }
        await client.close()
        let expectedSwipes = expected.gestures.filter { $0.contains("\"kind\":\"swipe\"") }
        #expect(!expectedSwipes.isEmpty)
        #expect(swipes.count == expectedSwipes.count)
        #expect(swipes.map { try? JSONParser.parse($0) } == expectedSwipes.map { try? JSONParser.parse($0) })

        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0)
        let pyLines = output.split(separator: "\n").map(String.init)
        #expect(pyLines.first.flatMap(messageType) == "hello")
        let pyGestures = pyLines.filter { messageType($0) == "gesture" }.map { try? JSONParser.parse($0) }
        #expect(pyGestures == expected.gestures.map { try? JSONParser.parse($0) })
        #expect(pyLines.last.flatMap(messageType) == "goodbye")
        #expect(try daemon.waitForExit() == 0)
    }

    /// The shell commands of docs/examples/socat.md, pointed at `socket`.
    static func socatExamples(socket: String) throws -> [String] {
        let text = try String(contentsOfFile: PackagePaths.root + "/docs/examples/socat.md", encoding: .utf8)
        let blocks = text.components(separatedBy: "```sh\n").dropFirst().map { String($0.prefix { $0 != "`" }) }
        return blocks.map { $0.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(of: "/run/touchd/touchd.sock", with: socket) }
    }

    /// Runs a shell command; `stdin` stays open until `until` accepts the output so far.
    static func shell(_ command: String, until: @escaping (String) -> Bool) throws -> (output: [String], status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        var text = ""
        while !until(text) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            text += String(decoding: chunk, as: UTF8.self)
        }
        try input.fileHandleForWriting.close()
        text += String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (text.split(separator: "\n").map(String.init), process.terminationStatus)
    }

    // docs/examples/socat.md, run as written (socket path aside).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/socat"), "needs socat (make test installs it)"))
    func socatExamplesWork() throws {
        let expected = try Self.offline(PackagePaths.drag4)
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--speed", "0", "--wait-for-subscribers", "1", "--exit-after-replay"])
        let examples = try Self.socatExamples(socket: daemon.socketPath)
        #expect(examples.count == 2)
        guard examples.count == 2 else { return }

        // The round trip first (it does not subscribe, so the replay waits).
        let ping = try Self.shell(examples[1]) { _ in false }
        #expect(ping.status == 0)
        #expect(ping.output.map(messageType) == ["hello", "ack"])
        #expect(ping.output.last == #"{"type":"ack","id":1}"#)

        // The subscription: every gesture of the replay, then goodbye.
        let subscribed = try Self.shell(examples[0]) { $0.contains(#""type":"goodbye""#) }
        #expect(subscribed.output.first.flatMap(messageType) == "hello")
        #expect(subscribed.output.dropFirst().first == #"{"type":"ack","id":1}"#)
        let gestures = subscribed.output.filter { messageType($0) == "gesture" }.map { try? JSONParser.parse($0) }
        #expect(gestures == expected.gestures.map { try? JSONParser.parse($0) })
        #expect(subscribed.output.last.flatMap(messageType) == "goodbye")
        #expect(try daemon.waitForExit() == 0)
    }

    static let tapThenPan = #"{"op":"register","id":2,"surface":{"id":"main","rect":{"x":0,"y":0,"width":1920,"height":1080},"z":1,"recognizers":[{"name":"tap","kind":"tap","taps":1},{"name":"pan","kind":"pan","requiresFailureOf":["tap"]}]}}"#

    /// The configuration equivalent of ``tapThenPan`` registered by the first client (`client-1`).
    static var tapThenPanConfiguration: TouchdConfiguration {
        var configuration = TouchdConfiguration()
        configuration.gestureFile.surfaces = [SurfaceConfiguration(
            id: "client-1/main", owner: "client-1", frame: ScreenRect(x: 0, y: 0, width: 1920, height: 1080), z: 1,
            recognizers: [
                RecognizerConfiguration(name: "tap", kind: .tap(TapParameters(taps: 1))),
                RecognizerConfiguration(name: "pan", kind: .pan(PanParameters()), requiresFailureOf: ["tap"]),
            ])]
        return configuration
    }

    @Test func surfaceRecognizersOverTheSocketMatchTheOfflineEngine() throws {
        let expected = try Self.offline(PackagePaths.drag1, configuration: Self.tapThenPanConfiguration).events
            .filter { $0.owner == "client-1" }.map { "\($0.recognizer) \($0.state.rawValue) \($0.time)" }
        #expect(expected.first?.hasPrefix("pan began") == true)
        #expect(expected.last?.hasPrefix("pan ended") == true)

        let daemon = try DaemonProcess(["--replay", PackagePaths.drag1, "--speed", "0", "--wait-for-subscribers", "1", "--exit-after-replay"])
        let s = try WireSocket(path: daemon.socketPath)
        _ = try s.readLine()
        let answer = try s.request(Self.tapThenPan, id: 2)
        #expect(answer == [#"{"type":"ack","id":2}"#])
        try s.request(#"{"op":"subscribe","id":3,"events":["debug"]}"#, id: 3)
        let lines = try s.lines { messageType($0) == "goodbye" }
        let gestures = lines.compactMap { try? JSONParser.parse($0) }.filter { $0["type"]?.stringValue == "gesture" }
        #expect(gestures.allSatisfy { $0["surface"]?.stringValue == "main" && $0["owner"]?.stringValue == "client-1" })
        let received = gestures.map {
            "\($0["recognizer"]!.stringValue!) \($0["state"]!.stringValue!) \(Timestamp(microseconds: Int64(($0["time"]!.doubleValue! * 1e6).rounded())))"
        }
        #expect(received == expected)
        // Withheld, then began: pan waits on tap, tap fails, pan's began is released and arrives after that.
        let waiting = lines.firstIndex { $0.contains(#""record":"waiting""#) && $0.contains("pan") }
        let released = lines.firstIndex { $0.contains(#""record":"released""#) && $0.contains("pan") }
        let began = lines.firstIndex { messageType($0) == "gesture" && $0.contains(#""state":"began""#) }
        #expect(waiting != nil && released != nil && began != nil)
        if let waiting, let released, let began { #expect(waiting < released && released < began) }
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func unregisterMidGestureCancelsIt() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag1, "--speed", "0.5", "--wait-for-subscribers", "1", "--exit-after-replay"])
        let s = try WireSocket(path: daemon.socketPath)
        _ = try s.readLine()
        try s.request(#"{"op":"register","id":1,"surface":{"id":"main","rect":{"x":0,"y":0,"width":1920,"height":1080},"z":1,"recognizers":[{"name":"pan","kind":"pan"}]}}"#, id: 1)
        try s.request(#"{"op":"subscribe","id":2,"events":["device"]}"#, id: 2)
        let before = try s.lines { $0.contains(#""state":"changed""#) }
        #expect(before.contains { $0.contains(#""state":"began""#) })
        let around = try s.request(#"{"op":"unregister","id":3,"surface":"main"}"#, id: 3)
        #expect(around.last == #"{"type":"ack","id":3}"#)
        #expect(around.contains { $0.contains(#""recognizer":"pan""#) && $0.contains(#""state":"cancelled""#) })
        let after = try s.lines { messageType($0) == "goodbye" }
        #expect(!after.contains { messageType($0) == "gesture" })
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func malformedInputGetsAnswersAndTheDaemonKeepsServing() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop", "--speed", "4"])
        let healthy = try daemon.gestureSubscriber()
        let baseline = daemon.descriptorCount()

        let bad = try WireSocket(path: daemon.socketPath)
        _ = try bad.readLine()
        try bad.send("this is not json\n")
        #expect(try bad.message()["code"] as? String == "bad-json")
        try bad.send(#"{"op":"dance","id":1}"# + "\n")
        #expect(try bad.message()["code"] as? String == "unknown-op")
        try bad.send(#"{"op":"subscribe","id":2,"events":"gesture"}"# + "\n")
        #expect(try bad.message()["code"] as? String == "bad-field")
        try bad.send(String(repeating: "x", count: 10 << 20) + "\n")
        #expect(try bad.message()["code"] as? String == "line-too-long")
        try bad.send(#"{"op":"register","id":4,"surface":{"id":"m","rect":{"x":0,"y":0,"width":10,"height":10},"recognizers":[{"name":"a","kind":"tap"},{"name":"b","kind":"tapp"}]}}"# + "\n")
        let unknown = try bad.message()
        #expect(unknown["code"] as? String == "unknown-recognizer")
        #expect((unknown["message"] as? String)?.hasPrefix(#"surface.recognizers[1].kind: unknown kind "tapp""#) == true)
        try bad.send(#"{"op":"register","id":5,"surface":{"id":"m","rect":{"x":0,"y":0,"width":10,"height":10},"recognizers":[{"name":"a","kind":"tap","taps":"two"}]}}"# + "\n")
        let wrongType = try bad.message()
        #expect(wrongType["code"] as? String == "bad-field")
        #expect((wrongType["message"] as? String)?.hasPrefix("surface.recognizers[0].taps") == true)
        try bad.send(#"{"op":"ping","id":6}"# + "\n")
        #expect(try bad.message()["type"] as? String == "ack")

        // A client that never reads, subscribed to everything.
        let stuck = try WireSocket(path: daemon.socketPath)
        try stuck.send(#"{"op":"subscribe","id":1,"events":["gesture","touch","debug"]}"# + "\n")

        for _ in 0..<1000 {
            _ = try WireSocket(path: daemon.socketPath)
        }
        // The healthy client is still served: a round trip and fresh gestures.
        try healthy.request(#"{"op":"ping","id":99}"#, id: 99)
        _ = try healthy.lines { messageType($0) == "gesture" }
        withExtendedLifetime(bad) {}
        withExtendedLifetime(stuck) {}
        try poll("descriptors back to the baseline") { daemon.descriptorCount() <= baseline + 2 }
        #expect(daemon.process.isRunning)
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }
}
