// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting
import Trace
@testable import Session

/// What a session tells of drag sessions, in order with the frames.
struct DragSink: SessionSink {
    var log: [(time: Int64, what: String)] = []
    var drags: [DragSessionEvent] = []

    mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine) {
        log.append((frame.time.microseconds, "frame"))
    }
    mutating func engineOutputs(_ outputs: [EngineOutput]) {}
    mutating func device(_ event: SessionDeviceEvent) {}
    mutating func dragSessionEvents(_ events: [DragSessionEvent]) {
        drags += events
        for e in events { log.append((e.time.microseconds, "drag")) }
    }
}

/// Semantics §12 through the one session core: the derived hold-then-drag
/// from a source surface (left half) onto a target (right half).
@Suite struct TouchSessionDragTests {
    static let trace = #filePath.split(separator: "/").dropLast(3).joined(separator: "/")
    static func recording() throws -> Recording {
        try TraceReader.read(path: "/" + trace + "/Tests/Fixtures/derived/Atmel maXTouch Touchscreen.hold-then-drag.events")
    }

    static func session(_ recording: Recording, into sink: inout DragSink) throws -> TouchSession {
        var session = TouchSession(recordsDebug: false)
        session.addDevice(DeviceID(0), description: recording.devices[0].description, at: .zero, into: &sink)
        let screen = session.configuration.screens[0]
        let (w, h) = (Double(screen.viewWidth), Double(screen.viewHeight))
        let drag = RecognizerConfiguration(name: "drag", kind: .drag(DragParameters()))
        try session.upsertSurface(SurfaceConfiguration(id: "a/list", owner: "a", frame: ScreenRect(x: 0, y: 0, width: w / 2, height: h),
                                                       recognizers: [drag]), into: &sink)
        try session.upsertSurface(SurfaceConfiguration(id: "b/map", owner: "b", frame: ScreenRect(x: w / 2, y: 0, width: w / 2, height: h)),
                                  into: &sink)
        session.setDragRoles(DragRoles(offersItems: true), of: "a/list", owner: "a")
        session.setDragRoles(DragRoles(dropTypes: ["text/plain"]), of: "b/map", owner: "b")
        return session
    }

    /// The recording's events, one frame (up to its SYN_REPORT) at a time.
    static func frames(_ recording: Recording) -> [[InputEvent]] {
        var out: [[InputEvent]] = [], current: [InputEvent] = []
        for e in recording.events {
            current.append(e.event)
            if e.event.isSynReport { out.append(current); current = [] }
        }
        return out
    }

    @Test("§12.8 drag-surface's compact reaches the engine, and leaves with the surface")
    func compactFollowsTheSurface() throws {
        let recording = try Self.recording()
        var sink = DragSink()
        var session = try Self.session(recording, into: &sink)
        #expect(session.engine.compactSurfaces.isEmpty)
        session.setDragRoles(DragRoles(offersItems: true, compact: true), of: "a/list", owner: "a")
        #expect(session.engine.compactSurfaces == ["a/list"])
        session.setDragRoles(DragRoles(offersItems: true), of: "a/list", owner: "a")
        #expect(session.engine.compactSurfaces.isEmpty)
        session.setDragRoles(DragRoles(compact: true), of: "a/list", owner: "a")
        session.removeSurface("a/list", into: &sink)
        #expect(session.engine.compactSurfaces.isEmpty)
    }

    @Test("§12 a source answering in time, a target proposing copy: the data at the lift, the end to both")
    func dropThroughTheSession() throws {
        let recording = try Self.recording()
        var sink = DragSink()
        var session = try Self.session(recording, into: &sink)
        var handled = 0
        for frame in Self.frames(recording) {
            if let d = session.nextDeadline, let t = frame.last?.time, d <= t { session.advance(to: d, into: &sink) }
            session.handle(frame, from: DeviceID(0), into: &sink)
            // The clients answer what they were just told.
            for e in sink.drags[handled...] {
                switch e.kind {
                case .itemsRequested(let r):
                    try session.offerDragItems([DragItem([DragRepresentation(type: "text/plain", data: "Lyon")])], request: r, from: "a", into: &sink)
                case .entered:
                    try session.proposeDrop(.copy, session: e.session, from: "b")
                default: break
                }
            }
            handled = sink.drags.count
        }
        session.runDownDeadlines(into: &sink)
        let toB = sink.drags.filter { $0.owner == "b" }
        #expect(toB.first?.kind == .entered(types: ["text/plain"], items: 1))
        #expect(toB.suffix(2).map(\.kind) == [.perform(operation: .copy, items: [DragItem([DragRepresentation(type: "text/plain", data: "Lyon")])]),
                                              .ended(outcome: .copy, reason: .lifted)])
        #expect(sink.drags.filter { $0.owner == "a" }.last?.kind == .ended(outcome: .copy, reason: .lifted))
        #expect(session.dragSessions.openSessions.isEmpty)
    }

    @Test("§12 a source that never answers: the session ends at its deadline, before any later frame, without advance being called")
    func deadlineBeforeALaterFrame() throws {
        let recording = try Self.recording()
        var sink = DragSink()
        var session = try Self.session(recording, into: &sink)
        for frame in Self.frames(recording) { session.handle(frame, from: DeviceID(0), into: &sink) }
        let asked = try #require(sink.drags.first { if case .itemsRequested = $0.kind { return true } else { return false } })
        let ended = try #require(sink.drags.last)
        #expect(ended.kind == .ended(outcome: .cancelled, reason: .timedOut))
        let deadline = asked.time.microseconds + DragSessions.answerTimeoutMicroseconds
        #expect(ended.time.microseconds == deadline)
        // Every frame later than the deadline came after the end.
        let endAt = try #require(sink.log.lastIndex { $0.what == "drag" })
        #expect(sink.log[..<endAt].allSatisfy { $0.what == "drag" || $0.time <= deadline })
        #expect(sink.log[endAt...].contains { $0.what == "frame" && $0.time > deadline })
        #expect(!sink.drags.contains { $0.owner == "b" })
    }
}
