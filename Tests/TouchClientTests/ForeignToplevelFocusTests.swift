// SPDX-License-Identifier: MIT
import Testing
import Wire
@testable import TouchClient

/// Events as a compositor writes them (the same wire format as requests).
private func event(_ object: UInt32, _ opcode: UInt16, _ arguments: [WaylandWire.Argument] = []) -> [UInt8] {
    WaylandWire.request(object: object, opcode: opcode, arguments)
}

/// A `state` event: an array of 32-bit states.
private func state(_ object: UInt32, _ states: [UInt32]) -> [UInt8] {
    var body: [UInt8] = []
    WaylandWire.append(UInt32(states.count * 4), to: &body)
    for s in states { WaylandWire.append(s, to: &body) }
    var out: [UInt8] = []
    WaylandWire.append(object, to: &out)
    WaylandWire.append(UInt32(8 + body.count) << 16 | 4, to: &out)
    return out + body
}

private let manager: UInt32 = 4
private let activated: UInt32 = 2, fullScreen: UInt32 = 3, maximized: UInt32 = 0

/// The globals of a wlroots compositor, the manager among them, then the sync's `done`.
private let globals = event(2, 0, [.uint(1), .string("wl_compositor"), .uint(5)])
    + event(2, 0, [.uint(7), .string("zwlr_foreign_toplevel_manager_v1"), .uint(3)])
    + event(2, 0, [.uint(8), .string("wl_seat"), .uint(7)])
    + event(3, 0, [.uint(42)])

/// Feeds bytes (in chunks of `chunk` bytes, to cross message boundaries) and collects what comes out.
private func feed(_ follower: inout ForeignToplevelFollower, _ reader: inout WaylandWire.Reader, _ bytes: [UInt8],
                  chunk: Int = 7) throws -> (send: [UInt8], reports: [FocusReport]) {
    var send: [UInt8] = [], reports: [FocusReport] = []
    var at = 0
    while at < bytes.count {
        let end = min(at + chunk, bytes.count)
        for m in try reader.take(bytes[at..<end]) {
            let taken = try follower.take(m)
            send += taken.send
            if let r = taken.report { reports.append(r) }
        }
        at = end
    }
    return (send, reports)
}

@Suite("The focused app from wlr-foreign-toplevel-management") struct ForeignToplevelFocusTests {
    @Test("the greeting asks for the registry and a sync; the manager is bound by the name announced, at version 3 at most")
    func bindsTheManager() throws {
        // get_registry(new_id 2) on the display, then sync(new_id 3).
        #expect(ForeignToplevelFollower.greeting == event(1, 1, [.uint(2)]) + event(1, 0, [.uint(3)]))
        var f = ForeignToplevelFollower(), r = WaylandWire.Reader()
        let out = try feed(&f, &r, globals)
        #expect(out.send == WaylandWire.request(object: 2, opcode: 0,
                                                [.uint(7), .string("zwlr_foreign_toplevel_manager_v1"), .uint(3), .uint(manager)]))
        // No toplevel yet: the focus is unknown, once.
        #expect(out.reports == [.unknown])
    }

    @Test("the activated toplevel's app id, title and full-screen state, committed at done; a switch and a close")
    func followsTheActivatedToplevel() throws {
        var f = ForeignToplevelFollower(), r = WaylandWire.Reader()
        _ = try feed(&f, &r, globals)
        let h1: UInt32 = 0xff00_0000, h2: UInt32 = 0xff00_0001
        var bytes = event(manager, 0, [.uint(h1)]) + event(h1, 1, [.string("org.example.game")]) + event(h1, 0, [.string("Game")])
            + state(h1, [activated, fullScreen])
        // Nothing before done.
        #expect(try feed(&f, &r, bytes).reports.isEmpty)
        var out = try feed(&f, &r, event(h1, 5))
        #expect(out.reports == [FocusReport(appID: "org.example.game", title: "Game", fullScreen: true)])

        // A second window takes the focus: the first loses `activated`, the second gains it.
        bytes = event(manager, 0, [.uint(h2)]) + event(h2, 1, [.string("foot")]) + event(h2, 0, [.string("~")])
            + state(h2, []) + event(h2, 5)
        #expect(try feed(&f, &r, bytes).reports.isEmpty)
        bytes = state(h1, []) + event(h1, 5) + state(h2, [activated, maximized]) + event(h2, 5)
        out = try feed(&f, &r, bytes, chunk: 5)
        #expect(out.reports == [.unknown, FocusReport(appID: "foot", title: "~", fullScreen: false)])

        // A title change of the focused window is a new report; one of another window is not.
        #expect(try feed(&f, &r, event(h1, 0, [.string("Game 2")]) + event(h1, 5)).reports.isEmpty)
        #expect(try feed(&f, &r, event(h2, 0, [.string("~/src")]) + event(h2, 5)).reports
                == [FocusReport(appID: "foot", title: "~/src", fullScreen: false)])

        // The focused window closes: unknown, and its handle is destroyed (request 7).
        out = try feed(&f, &r, event(h2, 6))
        #expect(out.reports == [.unknown])
        #expect(out.send == WaylandWire.request(object: h2, opcode: 7))
        #expect(f.current == .unknown)
    }

    @Test("a compositor without the manager (GNOME, KDE), finished, a protocol error and bad bytes end the follower with what happened")
    func failures() throws {
        var f = ForeignToplevelFollower(), r = WaylandWire.Reader()
        let noManager = event(2, 0, [.uint(1), .string("wl_compositor"), .uint(5)]) + event(3, 0, [.uint(1)])
        #expect(throws: ForeignToplevelError.notOffered) { _ = try feed(&f, &r, noManager) }

        f = ForeignToplevelFollower(); r = WaylandWire.Reader()
        _ = try feed(&f, &r, globals)
        #expect(throws: ForeignToplevelError.finished) { _ = try feed(&f, &r, event(manager, 1)) }

        f = ForeignToplevelFollower(); r = WaylandWire.Reader()
        #expect(throws: ForeignToplevelError.protocolError(object: 4, code: 1, message: "invalid method")) {
            _ = try feed(&f, &r, event(1, 0, [.uint(4), .uint(1), .string("invalid method")]))
        }

        // A header whose size is under its own.
        r = WaylandWire.Reader()
        #expect(throws: WaylandWireError.self) { _ = try r.take([1, 0, 0, 0, 0, 0, 4, 0]) }
        // A string longer than its message.
        f = ForeignToplevelFollower(); r = WaylandWire.Reader()
        _ = try feed(&f, &r, globals + event(manager, 0, [.uint(0xff00_0000)]))
        var bad: [UInt8] = []
        WaylandWire.append(0xff00_0000, to: &bad)
        WaylandWire.append(12 << 16 | 1, to: &bad)
        WaylandWire.append(200, to: &bad)
        let error = #expect(throws: ForeignToplevelError.self) { _ = try feed(&f, &r, bad) }
        guard case .malformed = error else {
            Issue.record("expected malformed, got \(String(describing: error))")
            return
        }
    }
}
