// SPDX-License-Identifier: MIT
import EngineMessages
import Foundation
import Gestures
import JSON
import LiveInput
import Logging
import Session
import Synchronization
import Testing
import TouchCore
import TouchTesting
import Trace
import Wire
@testable import TouchDaemon

/// The same recording through every driver of the session core that runs on
/// the host gives the same touch and gesture lines, to the letter: offline
/// replay (`touchctl replay`), the daemon's engine owner fed frame by frame
/// (the live daemon's path without a kernel), and `touchd --replay` (the
/// paced driver) read by a client. The guest runs the live drivers against
/// offline replay (`LiveTouchSessionTests`, `DaemonLiveTests`).
@Suite(.serialized) struct DriverAgreementTests {
    /// A native trace of a used panel (`touchd --record` writes such a device
    /// line): slot 1's previous contact lifted at (400, 300), and its next
    /// contact repeats no axis, so it begins there only on a path that starts
    /// the device from its recorded state.
    static let midLife = #"{"type":"header","format":"touchd-trace","version":1}"# + "\n"
        + #"{"type":"device","id":0,"name":"Mid-life panel","bus":3,"vendor":1,"product":2,"version":0,"properties":[1],"#
        + #""codes":{"0":[0],"1":[330],"3":[0,1,47,53,54,57]},"#
        + #""absinfo":{"0":[0,1000,0,0,10],"1":[0,1000,0,0,10],"47":[0,1,0,0,0],"53":[0,1000,0,0,10],"54":[0,1000,0,0,10],"57":[0,65535,0,0,0]},"#
        + #""state":{"slot":0,"slots":{"0":{"53":0,"54":0,"57":-1},"1":{"53":400,"54":300,"57":-1}},"abs":{"0":400,"1":300}}}"# + "\n"
        + #"{"type":"frame","device":0,"time":1000,"events":[[3,47,1],[3,57,5],[1,330,1],[0,0,0]]}"# + "\n"
        + #"{"type":"frame","device":0,"time":30000,"events":[[3,57,-1],[1,330,0],[0,0,0]]}"# + "\n"

    static func recordings() throws -> [(name: String, recording: Recording, path: String?)] {
        let pinch = try TraceReader.read(text: SyntheticTraces.pinchOutEvents(), name: "pinch-out.events",
                                         format: .evemu, description: DeviceFixtures.touchscreen())
        return [
            ("pinch-out", pinch, nil),
            ("mid-life panel (recorded state)", try TraceReader.read(text: midLife, name: "mid-life.jsonl"), nil),
        ]
    }

    /// Every bundled recording (real, derived and synthetic fixtures) that reads.
    static let fixtures: [String] = {
        let root = PackagePaths.root + "/Tests/Fixtures"
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? []
        return all.filter { ["events", "event", "evemu", "yml", "touchd"].contains(URL(fileURLWithPath: $0).pathExtension) }
            .sorted()
            .filter { (try? TraceReader.read(path: root + "/" + $0)) != nil }
            .map { root + "/" + $0 }
    }()

    static func offline(_ recording: Recording) -> [String] {
        var lines: [String] = []
        ReplaySession(recordings: [recording]).run(recordsDebug: false) { out in
            var w = JSONWriter()
            switch out {
            case .touch(let t): MessageEncoder.touch(t, into: &w)
            case .engine(.gesture(let g)): MessageEncoder.gesture(g, into: &w)
            case .engine, .drag: return
            }
            lines.append(w.string)
        }
        return lines
    }

    static func engineOwner(_ recording: Recording) async throws -> [String] {
        let collected = Mutex<[String]>([])
        let engine = try TouchSessionActor(configuration: TouchdConfiguration(), board: HelloBoard(),
                                      logger: Logger(label: "test"), recordsDebug: false)
        await engine.attach { batch in
            collected.withLock { lines in
                // The system's gestures (edge swipes, shortcuts) are gesture lines on the system stream.
                for e in batch.eventsWithLines where e.stream == .touch || e.stream == .gesture || e.stream == .system {
                    guard e.stream != .system || e.line.starts(with: Array(#"{"type":"gesture""#.utf8)) else { continue }
                    lines.append(String(decoding: e.line, as: UTF8.self))
                }
            }
        }
        let feed = ReplayFeed(recordings: [recording])
        for (id, d) in feed.devices { await engine.addRecordedDevice(id, d, at: feed.startTime) }
        var group: [InputEvent] = []
        var steps = feed
        var lastEnd = Timestamp.zero
        loop: while true {
            let step = steps.next(into: &group)
            // As the live input fires them: a deadline due before a frame, before it.
            if let limit = ReplayFeed.deadlineLimit(before: step, group: group, lastEnd: lastEnd) {
                while let d = await engine.nextDeadline, d <= limit { await engine.advance(to: d) }
            }
            switch step {
            case .events(let device): await engine.handle(group, from: device)
            case .recordingEnded(let time):
                await engine.finishTouches(at: time)
                lastEnd = time
            case .screens(let request, _): await engine.applyRecordedScreenChange(request)
            case .passBegins, .finished: break loop
            }
        }
        while let deadline = await engine.nextDeadline { await engine.advance(to: deadline) }
        return collected.withLock { $0 }
    }

    /// The live daemon's path without a kernel: the engine owner fed the
    /// ``LiveInputEvent``s a ``LiveDeviceSource`` reports (each device added
    /// with the settings the configuration decides and the state it had when
    /// opened, then its frames), through ``TouchSessionActor/apply(_:)``.
    static func liveInput(_ recording: Recording) async throws -> [String] {
        let collected = Mutex<[String]>([])
        let configuration = TouchdConfiguration()
        let engine = try TouchSessionActor(configuration: configuration, board: HelloBoard(),
                                           logger: Logger(label: "test"), recordsDebug: false)
        await engine.attach { batch in
            collected.withLock { lines in
                for e in batch.eventsWithLines where e.stream == .touch || e.stream == .gesture { lines.append(String(decoding: e.line, as: UTF8.self)) }
            }
        }
        for (i, device) in recording.devices.enumerated() {
            let d = device.description
            let settings = try #require(configuration.deviceSettings(for: d, udevProperties: d.udevProperties).settings)
            let info = LiveDeviceInfo(node: "/dev/input/event\(i)", syspath: "/sys/devices/virtual/input/input\(i)/event\(i)",
                                      kind: nil, udevProperties: d.udevProperties, settings: settings,
                                      stateAtOpen: device.initialState)
            #expect(await engine.apply(.deviceAdded(DeviceID(rawValue: UInt32(i)), d, info: info)) == nil)
        }
        var group: [InputEvent] = []
        var steps = ReplayFeed(recordings: [recording])
        loop: while true {
            switch steps.next(into: &group) {
            case .events(let device): await engine.apply(.events(device, group))
            case .recordingEnded(let time):
                for i in recording.devices.indices { await engine.apply(.deviceRemoved(DeviceID(rawValue: UInt32(i)), at: time)) }
            case .screens, .passBegins, .finished: break loop
            }
        }
        while let deadline = await engine.nextDeadline { await engine.advance(to: deadline) }
        return collected.withLock { $0 }
    }

    static func paced(_ recording: Recording, path: String?) throws -> [String] {
        let directory = TemporaryDirectory()
        let trace = path ?? directory.path + "/trace.jsonl"
        // Native: the only format that carries a device's recorded state.
        if path == nil { try TraceWriter.render(recording, as: .native).write(toFile: trace, atomically: true, encoding: .utf8) }
        let daemon = try DaemonProcess(["--replay", trace, "--speed", "0", "--wait-for-subscribers", "1", "--exit-after-replay"])
        let socket = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try socket.readLine() ?? "") == "hello")
        try socket.request(#"{"op":"subscribe","id":1,"events":["touch","gesture","system"]}"#, id: 1)
        let lines = try socket.lines { messageType($0) == "goodbye" }.filter { messageType($0) == "touch" || messageType($0) == "gesture" }
        #expect(try daemon.waitForExit() == 0)
        return lines
    }

    /// Where two line lists part (nil when equal): the index, the two lines
    /// and the counts, short enough to read in a failure.
    static func firstDifference(_ a: [String], _ b: [String]) -> String? {
        guard a != b else { return nil }
        let i = (0..<min(a.count, b.count)).first { a[$0] != b[$0] } ?? min(a.count, b.count)
        return "line \(i) of \(a.count) vs \(b.count): \(i < a.count ? a[i] : "(none)") vs \(i < b.count ? b[i] : "(none)")"
    }

    @Test func everyHostDriverGivesTheSameLines() async throws {
        for (name, recording, path) in try Self.recordings() {
            let offline = Self.offline(recording)
            #expect(offline.contains { $0.contains(#""type":"touch""#) }, "\(name)")
            let owner = try await Self.engineOwner(recording)
            #expect(Self.firstDifference(owner, offline) == nil, "\(name): the daemon's engine owner")
            let live = try await Self.liveInput(recording)
            #expect(Self.firstDifference(live, offline) == nil, "\(name): the live input's events")
            let paced = try Self.paced(recording, path: path)
            #expect(Self.firstDifference(paced, offline) == nil, "\(name): touchd --replay")
        }
    }

    @Test("the first contact of a used panel begins where its slot was, on every path")
    func recordedStateOnEveryPath() async throws {
        let recording = try TraceReader.read(text: Self.midLife, name: "mid-life.jsonl")
        let began = #""phase":"began""#
        for (path, lines) in [("offline", Self.offline(recording)),
                              ("engine owner", try await Self.engineOwner(recording)),
                              ("live input", try await Self.liveInput(recording)),
                              ("touchd --replay", try Self.paced(recording, path: nil))] {
            let first = try #require(lines.first { $0.contains(began) }, "\(path)")
            // 400, 300 device units of 10 per mm: 40 mm, 30 mm.
            #expect(first.contains(#""locationMM":{"x":40,"y":30}"#), "\(path): \(first)")
        }
    }

    @Test("every bundled recording gives the same lines offline, through the engine owner and through touchd --replay",
          arguments: fixtures)
    func everyFixtureOnEveryHostPath(_ path: String) async throws {
        let recording = try TraceReader.read(path: path)
        let offline = Self.offline(recording)
        let owner = try await Self.engineOwner(recording)
        #expect(Self.firstDifference(owner, offline) == nil, "the daemon's engine owner")
        let paced = try Self.paced(recording, path: path)
        #expect(Self.firstDifference(paced, offline) == nil, "touchd --replay")
    }
}
