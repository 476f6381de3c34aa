// SPDX-License-Identifier: MIT
@testable import Gestures
import Testing
import TouchCore
import TouchTesting

/// The arena on its own: members, declared relations and claims in, actions out.
@Suite("Gesture arena (semantics §4, §6, §7)")
struct ArenaTests {
    static let a = ArenaMember(rawValue: 0), b = ArenaMember(rawValue: 1), c = ArenaMember(rawValue: 2)

    /// An arena with one member per declaration, in canonical order.
    static func arena(_ declarations: [ArenaDeclaration]) -> GestureArena {
        var arena = GestureArena()
        var order: [ArenaMember] = []
        for (i, d) in declarations.enumerated() {
            let m = ArenaMember(rawValue: i)
            arena.admit(m)
            arena.declare(m, d)
            order.append(m)
        }
        arena.setCanonicalOrder(order)
        return arena
    }

    /// Touch `key` goes down and every member listed takes it.
    static func touch(_ arena: inout GestureArena, _ key: Int, _ members: [ArenaMember]) {
        for m in members {
            _ = arena.engage(m)
            arena.take(key, by: m)
        }
    }

    /// The actions so far, then forgets them.
    static func drain(_ arena: inout GestureArena) -> [ArenaAction] {
        defer { arena.clearActions() }
        return arena.actions
    }

    @Test("§4 exclusion: when one member begins, the undecided members sharing its touch fail")
    func exclusion() {
        var arena = Self.arena([ArenaDeclaration(), ArenaDeclaration(), ArenaDeclaration()])
        Self.touch(&arena, 1, [Self.a, Self.b])
        Self.touch(&arena, 2, [Self.c])
        arena.step(.begin, of: Self.a)
        #expect(Self.drain(&arena) == [
            .transition(Self.a, from: .possible, to: .began), .deliver(Self.a, .began),
            .note(Self.b, .excluded(by: Self.a)), .transition(Self.b, from: .possible, to: .failed),
            .succeeded(Self.a),
        ])
        #expect(arena.state(of: Self.c) == .possible)
        // An active member also stops a later one from beginning.
        arena.step(.recognize, of: Self.b)
        #expect(Self.drain(&arena).first == .note(Self.b, .impossibleStep(.recognize, in: .failed)))
    }

    @Test("§4 simultaneous (either side) and canPrevent/canBePreventedBy (both sides) keep the other going")
    func simultaneousAndPrevention() {
        var together = ArenaDeclaration()
        together.simultaneousWith = [Self.a]
        var arena = Self.arena([ArenaDeclaration(), together])
        Self.touch(&arena, 1, [Self.a, Self.b])
        arena.step(.begin, of: Self.a)
        #expect(Self.drain(&arena).contains(.note(Self.b, .simultaneous(with: Self.a))))
        #expect(arena.state(of: Self.b) == .possible)

        var unpreventable = ArenaDeclaration()
        unpreventable.preventableByAll = false
        arena = Self.arena([ArenaDeclaration(), unpreventable])
        Self.touch(&arena, 1, [Self.a, Self.b])
        arena.step(.begin, of: Self.a)
        _ = Self.drain(&arena)
        #expect(arena.state(of: Self.b) == .possible)
        arena.step(.begin, of: Self.b)
        #expect(arena.state(of: Self.b) == .began)
    }

    @Test("§4 failure requirement: withheld until the required member fails, then delivered as began")
    func requiresFailureOfReleases() {
        var waits = ArenaDeclaration()
        waits.requiresFailureOf = [Self.b]
        var arena = Self.arena([waits, ArenaDeclaration()])
        Self.touch(&arena, 1, [Self.a, Self.b])
        arena.step(.begin, of: Self.a)
        arena.step(.change, of: Self.a)
        #expect(Self.drain(&arena) == [
            .transition(Self.a, from: .possible, to: .began), .note(Self.a, .waiting(on: Self.b)),
            .transition(Self.a, from: .began, to: .changed),
        ])
        #expect(arena.delivery(of: Self.a) == .withheld)
        arena.step(.fail, of: Self.b)
        #expect(Self.drain(&arena) == [
            .transition(Self.b, from: .possible, to: .failed), .note(Self.a, .released(by: Self.b)),
            .deliver(Self.a, .began), .succeeded(Self.a),
        ])
    }

    @Test("§4 failure requirement: if the required member recognizes, the withheld one never sends anything")
    func requiresFailureOfDrops() {
        var waits = ArenaDeclaration()
        waits.requiresFailureOf = [Self.b]
        var together = ArenaDeclaration()
        together.simultaneousWithAll = true
        waits.simultaneousWithAll = true
        var arena = Self.arena([waits, together])
        Self.touch(&arena, 1, [Self.a, Self.b])
        arena.step(.begin, of: Self.a)
        arena.step(.recognize, of: Self.b)
        let actions = Self.drain(&arena)
        #expect(actions.contains(.note(Self.a, .dropped(by: Self.b))))
        #expect(!actions.contains { if case .deliver(Self.a, _) = $0 { return true } else { return false } })
        #expect(arena.state(of: Self.a) == .failed)
    }

    @Test("§7 a declared wait (long press for drag) holds only while the other shares a touch and is undecided")
    func waitsFor() {
        var press = ArenaDeclaration()
        press.waitsFor = [Self.b]
        var arena = Self.arena([press, ArenaDeclaration()])
        Self.touch(&arena, 1, [Self.a])
        Self.touch(&arena, 2, [Self.b])
        arena.step(.begin, of: Self.a)
        #expect(arena.delivery(of: Self.a) == .delivering, "no common touch: no wait")

        arena = Self.arena([press, ArenaDeclaration()])
        Self.touch(&arena, 1, [Self.a, Self.b])
        arena.step(.begin, of: Self.a)
        #expect(arena.delivery(of: Self.a) == .withheld)
        _ = Self.drain(&arena)
        arena.step(.begin, of: Self.b)
        #expect(Self.drain(&arena).contains(.note(Self.a, .dropped(by: Self.b))))
        #expect(arena.state(of: Self.a) == .failed)
    }

    @Test("§6 a watcher signals instead of beginning, then fails; nobody waits for it")
    func watcher() {
        var pan = ArenaDeclaration()
        pan.waitsFor = [Self.b]
        var edge = ArenaDeclaration()
        edge.preventableByAll = false
        var arena = Self.arena([pan, edge])
        Self.touch(&arena, 1, [Self.a, Self.b])
        arena.watch(Self.b)
        arena.step(.begin, of: Self.a)
        #expect(arena.delivery(of: Self.a) == .delivering)
        _ = Self.drain(&arena)
        arena.step(.begin, of: Self.b)
        #expect(Self.drain(&arena) == [.signal(Self.b), .transition(Self.b, from: .possible, to: .failed)])
    }

    @Test("§7 §10 a member that claims its touches cancels them for every other member and the raw stream")
    func claim() {
        var drag = ArenaDeclaration()
        drag.claimsTouchesOnBegin = true
        var scroll = ArenaDeclaration()
        scroll.simultaneousWithAll = true
        var arena = Self.arena([drag, scroll, scroll])
        Self.touch(&arena, 1, [Self.a, Self.b])
        Self.touch(&arena, 2, [Self.a, Self.c])
        arena.step(.begin, of: Self.b)
        arena.touchLeft(2, member: Self.a)
        arena.touchLeft(2, member: Self.c)
        _ = Self.drain(&arena)
        arena.step(.begin, of: Self.a)
        #expect(Self.drain(&arena) == [
            .note(Self.a, .simultaneous(with: Self.b)),
            .transition(Self.a, from: .possible, to: .began), .deliver(Self.a, .began),
            .note(Self.c, .simultaneous(with: Self.a)), .succeeded(Self.a),
            .note(Self.b, .cancelled(.claimed(by: Self.a))), .transition(Self.b, from: .began, to: .cancelled),
            .deliver(Self.b, .cancelled), .tookTouch(1, from: Self.b), .claimed(touch: 1, by: Self.a),
        ], "touch 2 lifted: nothing left to claim")
    }

    /// Each way a member can fail, applied to `b`, which `a` requires to fail.
    enum FailPath: CaseIterable {
        case step, cancel, undelivered, gated, excluded
    }

    @Test("§4 every way of failing goes through one path: the member waiting for it is released", arguments: FailPath.allCases)
    func oneFailPath(_ path: FailPath) {
        var waits = ArenaDeclaration()
        waits.requiresFailureOf = [Self.b]
        var required = ArenaDeclaration()
        required.shouldBegin = path != .gated
        var arena = Self.arena([waits, required, ArenaDeclaration()])
        Self.touch(&arena, 1, [Self.a, Self.b])
        arena.step(.begin, of: Self.a)
        _ = Self.drain(&arena)
        switch path {
        case .step: arena.step(.fail, of: Self.b)
        case .cancel: arena.cancel(Self.b, reason: .disabled)
        case .undelivered: arena.failUndelivered(Self.b)
        case .gated: arena.step(.begin, of: Self.b)
        case .excluded:
            // `c` holds a touch of `b` and is active: `b` cannot begin.
            Self.touch(&arena, 2, [Self.b, Self.c])
            arena.step(.begin, of: Self.c)
            arena.step(.begin, of: Self.b)
        }
        let actions = Self.drain(&arena)
        #expect(arena.state(of: Self.b) == .failed)
        #expect(actions.contains(.note(Self.a, .released(by: Self.b))))
        #expect(arena.delivery(of: Self.a) == .delivering)
    }

    @Test("§4 a delivering member is not failed by exclusion; cancelled, it sends cancelled")
    func deliveringKeepsItsWin() {
        var arena = Self.arena([ArenaDeclaration()])
        Self.touch(&arena, 1, [Self.a])
        arena.step(.begin, of: Self.a)
        _ = Self.drain(&arena)
        arena.failUndelivered(Self.a)
        #expect(Self.drain(&arena).isEmpty)
        arena.cancel(Self.a, reason: .touchCancelled(TouchID(1)))
        #expect(Self.drain(&arena) == [
            .note(Self.a, .cancelled(.touchCancelled(TouchID(1)))), .transition(Self.a, from: .began, to: .cancelled),
            .deliver(Self.a, .cancelled),
        ])
    }

    @Test("§7 the engine tells which recognizer claimed a contact")
    func engineReportsClaimant() {
        let drag = RecognizerConfiguration(name: "drag", kind: .drag(DragParameters()))
        let pan = RecognizerConfiguration(name: "pan", kind: .pan(PanParameters(slop: 50)))
        var e = engine([drag, pan])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100)
        script.move(1, at: 300, x: 100.5, y: 100)
        _ = e.run(script, within: 0...300)
        #expect(e.claimant(ofContact: TouchID(1)) == nil)
        script.move(1, to: (115, 100), start: 600, duration: 100)
        _ = e.run(script, within: 301...700)
        let claimant = e.claimant(ofContact: TouchID(1))
        #expect(claimant?.recognizer == "s/drag" && claimant?.isSystem == false)
    }
}
