// SPDX-License-Identifier: MIT
import PassThroughMachine
import Testing
import TouchCore

private typealias Machine = PassThroughStateMachine
private typealias S = PassThroughStateMachine.State
private typealias E = PassThroughStateMachine.Event
private typealias A = PassThroughStateMachine.Action

/// One row of the transition table, written out by hand (not derived from the machine).
private struct Row: CustomTestStringConvertible, Sendable {
    var from: S
    var event: E
    var to: S
    var actions: [A]
    var testDescription: String { "\(from.rawValue) + \(event) -> \(to.rawValue)" }
}

private let t = Timestamp(microseconds: 5_000_000)

/// Every variant of every input (each payload value).
private let events: [E] = [
    .added(wanted: false, contactDown: false), .added(wanted: false, contactDown: true),
    .added(wanted: true, contactDown: false), .added(wanted: true, contactDown: true),
    .adopted,
    .changed(wanted: false, contactDown: false), .changed(wanted: false, contactDown: true),
    .changed(wanted: true, contactDown: false), .changed(wanted: true, contactDown: true),
    .contactsLifted,
    .mirrorResult(ok: true), .mirrorResult(ok: false),
    .grabResult(ok: true), .grabResult(ok: false),
    .released(by: .watchdog), .released(by: .guard),
    .removed,
    .shutdown(keepsForNextTouchd: true), .shutdown(keepsForNextTouchd: false),
]

private func bug(_ s: S, _ e: E) -> Row { Row(from: s, event: e, to: s, actions: [.log(.impossible(event: e, state: s))]) }
private func row(_ s: S, _ e: E, _ to: S, _ a: [A] = []) -> Row { Row(from: s, event: e, to: to, actions: a) }

private let offTo: [A] = [.unwatch, .endContacts(at: t), .destroyMirror, .forgetStored, .restoreRuleGrab, .log(.off)]

/// The table of docs/state-machines/pass-through.md, every (state, event) pair.
private let table: [Row] = [
    // off
    row(.off, .added(wanted: false, contactDown: false), .off),
    row(.off, .added(wanted: false, contactDown: true), .off),
    row(.off, .added(wanted: true, contactDown: false), .taking, [.createMirror]),
    row(.off, .added(wanted: true, contactDown: true), .waitingForLift, [.log(.waitingForLift)]),
    row(.off, .adopted, .taking, [.keepMirror(at: t)]),
    row(.off, .changed(wanted: false, contactDown: false), .off),
    row(.off, .changed(wanted: false, contactDown: true), .off),
    row(.off, .changed(wanted: true, contactDown: false), .taking, [.createMirror]),
    row(.off, .changed(wanted: true, contactDown: true), .waitingForLift, [.log(.waitingForLift)]),
    row(.off, .contactsLifted, .off),
    bug(.off, .mirrorResult(ok: true)), bug(.off, .mirrorResult(ok: false)),
    bug(.off, .grabResult(ok: true)), bug(.off, .grabResult(ok: false)),
    row(.off, .released(by: .watchdog), .suspended),
    row(.off, .released(by: .guard), .suspended),
    row(.off, .removed, .off),
    row(.off, .shutdown(keepsForNextTouchd: true), .givenBack),
    row(.off, .shutdown(keepsForNextTouchd: false), .givenBack),
    // waiting for the contacts down to lift
    bug(.waitingForLift, .added(wanted: false, contactDown: false)), bug(.waitingForLift, .added(wanted: false, contactDown: true)),
    bug(.waitingForLift, .added(wanted: true, contactDown: false)), bug(.waitingForLift, .added(wanted: true, contactDown: true)),
    bug(.waitingForLift, .adopted),
    row(.waitingForLift, .changed(wanted: false, contactDown: false), .off, [.restoreRuleGrab, .log(.off)]),
    row(.waitingForLift, .changed(wanted: false, contactDown: true), .off, [.restoreRuleGrab, .log(.off)]),
    row(.waitingForLift, .changed(wanted: true, contactDown: false), .taking, [.createMirror]),
    row(.waitingForLift, .changed(wanted: true, contactDown: true), .waitingForLift),
    row(.waitingForLift, .contactsLifted, .taking, [.createMirror]),
    bug(.waitingForLift, .mirrorResult(ok: true)), bug(.waitingForLift, .mirrorResult(ok: false)),
    bug(.waitingForLift, .grabResult(ok: true)), bug(.waitingForLift, .grabResult(ok: false)),
    row(.waitingForLift, .released(by: .watchdog), .suspended),
    row(.waitingForLift, .released(by: .guard), .suspended),
    row(.waitingForLift, .removed, .off),
    row(.waitingForLift, .shutdown(keepsForNextTouchd: true), .givenBack),
    row(.waitingForLift, .shutdown(keepsForNextTouchd: false), .givenBack),
    // taking: the mirror made, the grab asked for (within one call of the controller)
    bug(.taking, .added(wanted: false, contactDown: false)), bug(.taking, .added(wanted: false, contactDown: true)),
    bug(.taking, .added(wanted: true, contactDown: false)), bug(.taking, .added(wanted: true, contactDown: true)),
    bug(.taking, .adopted),
    bug(.taking, .changed(wanted: false, contactDown: false)), bug(.taking, .changed(wanted: false, contactDown: true)),
    bug(.taking, .changed(wanted: true, contactDown: false)), bug(.taking, .changed(wanted: true, contactDown: true)),
    row(.taking, .contactsLifted, .taking),
    row(.taking, .mirrorResult(ok: true), .taking, [.grab]),
    row(.taking, .mirrorResult(ok: false), .off),
    row(.taking, .grabResult(ok: true), .active, [.routeToMirror, .watch, .storeDescriptors, .log(.on)]),
    row(.taking, .grabResult(ok: false), .off, [.endContacts(at: t), .destroyMirror]),
    row(.taking, .released(by: .watchdog), .suspended, [.endContacts(at: t), .destroyMirror, .releaseGrab]),
    row(.taking, .released(by: .guard), .suspended, [.endContacts(at: t), .destroyMirror, .releaseGrab]),
    row(.taking, .removed, .off, [.endContacts(at: t), .destroyMirror]),
    row(.taking, .shutdown(keepsForNextTouchd: true), .givenBack, [.endContacts(at: t), .destroyMirror]),
    row(.taking, .shutdown(keepsForNextTouchd: false), .givenBack, [.endContacts(at: t), .destroyMirror]),
    // active
    bug(.active, .added(wanted: false, contactDown: false)), bug(.active, .added(wanted: false, contactDown: true)),
    bug(.active, .added(wanted: true, contactDown: false)), bug(.active, .added(wanted: true, contactDown: true)),
    bug(.active, .adopted),
    row(.active, .changed(wanted: false, contactDown: false), .off, offTo),
    row(.active, .changed(wanted: false, contactDown: true), .off, offTo),
    row(.active, .changed(wanted: true, contactDown: false), .active),
    row(.active, .changed(wanted: true, contactDown: true), .active),
    row(.active, .contactsLifted, .active),
    bug(.active, .mirrorResult(ok: true)), bug(.active, .mirrorResult(ok: false)),
    bug(.active, .grabResult(ok: true)), bug(.active, .grabResult(ok: false)),
    row(.active, .released(by: .watchdog), .suspended, [.endContacts(at: t), .destroyMirror, .releaseGrab, .forgetStored]),
    row(.active, .released(by: .guard), .suspended, [.endContacts(at: t), .destroyMirror, .releaseGrab, .forgetStored]),
    row(.active, .removed, .off, [.unwatch, .forgetStored, .endContacts(at: t), .destroyMirror]),
    row(.active, .shutdown(keepsForNextTouchd: true), .handedOver, [.leaveForNextTouchd]),
    row(.active, .shutdown(keepsForNextTouchd: false), .givenBack, [.unwatch, .endContacts(at: t), .destroyMirror, .forgetStored]),
    // suspended: off until touchd restarts
    row(.suspended, .added(wanted: false, contactDown: false), .suspended),
    row(.suspended, .added(wanted: false, contactDown: true), .suspended),
    row(.suspended, .added(wanted: true, contactDown: false), .suspended),
    row(.suspended, .added(wanted: true, contactDown: true), .suspended),
    bug(.suspended, .adopted),
    row(.suspended, .changed(wanted: false, contactDown: false), .suspended),
    row(.suspended, .changed(wanted: false, contactDown: true), .suspended),
    row(.suspended, .changed(wanted: true, contactDown: false), .suspended),
    row(.suspended, .changed(wanted: true, contactDown: true), .suspended),
    row(.suspended, .contactsLifted, .suspended),
    bug(.suspended, .mirrorResult(ok: true)), bug(.suspended, .mirrorResult(ok: false)),
    bug(.suspended, .grabResult(ok: true)), bug(.suspended, .grabResult(ok: false)),
    row(.suspended, .released(by: .watchdog), .suspended),
    row(.suspended, .released(by: .guard), .suspended),
    row(.suspended, .removed, .suspended),
    row(.suspended, .shutdown(keepsForNextTouchd: true), .givenBack),
    row(.suspended, .shutdown(keepsForNextTouchd: false), .givenBack),
] + terminal(.handedOver) + terminal(.givenBack)

/// A state after shutdown: the devices' closing is expected, anything else is a bug.
private func terminal(_ s: S) -> [Row] {
    events.map { e in
        switch e {
        case .removed, .shutdown: row(s, e, s)
        case .added, .adopted, .changed, .contactsLifted, .mirrorResult, .grabResult, .released: bug(s, e)
        }
    }
}

/// A machine in `state`, reached through inputs as the daemon gives them.
private func machine(in state: S) -> Machine {
    var m = Machine()
    let paths: [S: [E]] = [
        .off: [],
        .waitingForLift: [.added(wanted: true, contactDown: true)],
        .taking: [.added(wanted: true, contactDown: false)],
        .active: [.added(wanted: true, contactDown: false), .mirrorResult(ok: true), .grabResult(ok: true)],
        .suspended: [.released(by: .watchdog)],
        .handedOver: [.adopted, .mirrorResult(ok: true), .grabResult(ok: true), .shutdown(keepsForNextTouchd: true)],
        .givenBack: [.shutdown(keepsForNextTouchd: false)],
    ]
    for e in paths[state]! { _ = m.handle(e, at: Timestamp(microseconds: 1_000_000)) }
    return m
}

@Suite struct PassThroughStateMachineTests {
    @Test func theTableHasEveryPairOnce() {
        var seen: [String: Int] = [:]
        for r in table { seen["\(r.from) \(r.event)", default: 0] += 1 }
        #expect(table.count == S.allCases.count * events.count)
        #expect(seen.values.allSatisfy { $0 == 1 })
        for s in S.allCases {
            for e in events { #expect(seen["\(s) \(e)"] == 1, "\(s) + \(e) missing from the table") }
        }
    }

    @Test(arguments: table)
    fileprivate func transition(_ r: Row) {
        var m = machine(in: r.from)
        #expect(m.state == r.from)
        let actions = m.handle(r.event, at: t)
        #expect(m.state == r.to)
        #expect(actions == r.actions)
    }

    @Test func aDeviceWithAFingerDownIsTakenWhenItLifts() {
        var m = Machine()
        #expect(m.handle(.added(wanted: true, contactDown: true), at: Timestamp(microseconds: 0)) == [.log(.waitingForLift)])
        #expect(m.isWaitingForLift)
        // More frames with the finger still down change nothing (the controller does not ask).
        #expect(m.handle(.changed(wanted: true, contactDown: true), at: Timestamp(microseconds: 8_000)) == [])
        #expect(m.handle(.contactsLifted, at: Timestamp(microseconds: 16_000)) == [.createMirror])
        #expect(!m.isWaitingForLift)
        #expect(m.handle(.mirrorResult(ok: true), at: Timestamp(microseconds: 16_000)) == [.grab])
        #expect(m.handle(.grabResult(ok: true), at: Timestamp(microseconds: 16_000)) == [.routeToMirror, .watch, .storeDescriptors, .log(.on)])
        #expect(m.state == .active)
    }

    @Test func aRefusedGrabLeavesTheDeviceToTheCompositorAndAReloadTriesAgain() {
        var m = Machine()
        _ = m.handle(.added(wanted: true, contactDown: false), at: Timestamp(microseconds: 0))
        _ = m.handle(.mirrorResult(ok: true), at: Timestamp(microseconds: 0))
        #expect(m.handle(.grabResult(ok: false), at: Timestamp(microseconds: 10)) == [.endContacts(at: Timestamp(microseconds: 10)), .destroyMirror])
        #expect(m.state == .off)
        #expect(m.handle(.changed(wanted: true, contactDown: false), at: Timestamp(microseconds: 20)) == [.createMirror])
    }

    @Test func aRestartHandsTheDeviceOverAndTheNextTouchdTakesItWithoutWaiting() {
        var old = Machine()
        _ = old.handle(.added(wanted: true, contactDown: false), at: Timestamp(microseconds: 0))
        _ = old.handle(.mirrorResult(ok: true), at: Timestamp(microseconds: 0))
        _ = old.handle(.grabResult(ok: true), at: Timestamp(microseconds: 0))
        #expect(old.handle(.shutdown(keepsForNextTouchd: true), at: Timestamp(microseconds: 50)) == [.leaveForNextTouchd])
        // The devices close after the handover: nothing is ended nor destroyed.
        #expect(old.handle(.removed, at: Timestamp(microseconds: 60)) == [])
        #expect(old.state == .handedOver)
        var next = Machine()
        let start = Timestamp(microseconds: 2_000_000)
        #expect(next.handle(.adopted, at: start) == [.keepMirror(at: start)])
        #expect(next.handle(.mirrorResult(ok: true), at: start) == [.grab])
        #expect(next.handle(.grabResult(ok: true), at: start) == [.routeToMirror, .watch, .storeDescriptors, .log(.on)])
    }

    @Test func aStallSuspendsPassThroughUntilRestartEvenForDevicesAddedLater() {
        var m = machine(in: .active)
        let actions = m.handle(.released(by: .guard), at: t)
        #expect(actions == [.endContacts(at: t), .destroyMirror, .releaseGrab, .forgetStored])
        #expect(m.handle(.changed(wanted: true, contactDown: false), at: t) == [])
        var later = Machine(suspended: true)
        #expect(later.handle(.added(wanted: true, contactDown: false), at: t) == [])
        #expect(later.state == .suspended)
    }
}
