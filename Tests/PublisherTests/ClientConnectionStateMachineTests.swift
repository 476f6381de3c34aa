// SPDX-License-Identifier: MIT
import Testing
import Wire

@testable import Publisher

/// The connection's rules as plain values: every input in every state, no socket.
@Suite struct ClientConnectionStateMachineTests {
    typealias Machine = ClientConnectionStateMachine

    static let ping = Machine.Work.request(RequestEnvelope(id: .int(1), request: .ping))
    static let refusal = RequestError(.notPermitted, "uid 1 gid 1 may not connect (access.connect)")

    /// A machine in each state the tests start from.
    static func machine(_ name: String) -> Machine {
        var m = Machine()
        switch name {
        case "idle": break
        case "active": _ = m.admission(refused: nil)
        case "refused": _ = m.admission(refused: refusal)
        case "revoked":
            _ = m.admission(refused: nil)
            _ = m.revoke()
        case "stuck":
            _ = m.admission(refused: nil)
            _ = m.markStuck()
        case "closed":
            _ = m.admission(refused: nil)
            _ = m.channelInactive()
        default: Issue.record("no state \(name)")
        }
        return m
    }

    static let states = ["idle", "active", "refused", "revoked", "stuck", "closed"]

    @Test func onlyAnIdleConnectionDecidesAdmission() {
        for name in Self.states {
            var m = Self.machine(name)
            #expect(m.activate() == (name == "idle" ? .decideAdmission : .none), "\(name)")
        }
    }

    @Test func admissionServesOrRefusesOnce() {
        var served = Machine()
        #expect(served.admission(refused: nil) == .serve)
        #expect(served.state == .active(.init()))
        #expect(served.admission(refused: nil) == .none)

        var refused = Machine()
        #expect(refused.admission(refused: Self.refusal) == .refuse(Self.refusal))
        #expect(refused.state == .refused)
        #expect(!refused.isActive)
        for name in Self.states where name != "idle" {
            var m = Self.machine(name)
            #expect(m.admission(refused: nil) == .none, "\(name)")
        }
    }

    @Test func onlyAServedConnectionTakesRequests() {
        for name in Self.states {
            var m = Self.machine(name)
            m.read(Self.ping)
            #expect(m.pendingCount == (name == "active" ? 1 : 0), "\(name)")
            #expect(m.nextRequest() == (name == "active" ? Self.ping : nil), "\(name)")
        }
    }

    /// Requests behind one with the delegate wait for its answer, in order.
    @Test func requestsWaitForTheOneInFlight() {
        var m = Self.machine("active")
        let second = Machine.Work.failure(RequestError(.badJSON, "not JSON"))
        m.read(Self.ping)
        m.read(second)
        #expect(m.nextRequest() == Self.ping)
        m.delegateCallStarted()
        #expect(m.nextRequest() == nil)
        #expect(m.delegateCallFinished() == .answer)
        #expect(m.nextRequest() == second)
        #expect(m.nextRequest() == nil)
    }

    @Test func anAnswerAfterTheEndReportsTheDisconnectOnce() {
        var m = Self.machine("active")
        m.delegateCallStarted()
        #expect(m.channelInactive() == .init(wasCounted: true, reportDisconnect: false))
        #expect(m.delegateCallFinished() == .reportDisconnect)
        #expect(m.delegateCallFinished() == .none)
        #expect(m.channelInactive() == .init(wasCounted: false, reportDisconnect: false))
    }

    @Test func theDelegatesAnswerInEveryState() {
        let expected: [String: Machine.DelegateAnswerAction] = [
            "idle": .none, "active": .answer, "refused": .none, "revoked": .none, "stuck": .none, "closed": .none,
        ]
        for name in Self.states {
            var m = Self.machine(name)
            m.delegateCallStarted()
            #expect(m.delegateCallFinished() == expected[name], "\(name)")
        }
        // A revoked or stuck connection answers nothing more, and reports its end when it closes.
        for name in ["revoked", "stuck"] {
            var m = Self.machine("active")
            m.delegateCallStarted()
            #expect((name == "revoked" ? m.revoke() : m.markStuck()) == true)
            #expect(m.delegateCallFinished() == .none)
            #expect(m.channelInactive() == .init(wasCounted: true, reportDisconnect: true))
        }
    }

    @Test func closingCountsOnlyCountedConnections() {
        let expected: [String: Machine.InactiveAction] = [
            "idle": .init(wasCounted: false, reportDisconnect: false),
            "active": .init(wasCounted: true, reportDisconnect: true),
            "refused": .init(wasCounted: false, reportDisconnect: false),
            "revoked": .init(wasCounted: true, reportDisconnect: true),
            "stuck": .init(wasCounted: true, reportDisconnect: true),
            "closed": .init(wasCounted: false, reportDisconnect: false),
        ]
        for name in Self.states {
            var m = Self.machine(name)
            m.read(Self.ping)
            #expect(m.channelInactive() == expected[name], "\(name)")
            #expect(m.state == .closed(reportPending: false), "\(name)")
            #expect(m.pendingCount == 0, "\(name)")
        }
    }

    @Test func onlyAServedConnectionIsRevokedOrStuck() {
        for name in Self.states {
            var revoked = Self.machine(name)
            #expect(revoked.revoke() == (name == "active"), "\(name)")
            var stuck = Self.machine(name)
            #expect(stuck.markStuck() == (name == "active"), "\(name)")
            #expect(!stuck.isActive, "\(name)")
        }
    }

    /// After a half-close: closed once every request is answered and the queue drained, and only once.
    @Test func aHalfClosedConnectionClosesWhenDone() {
        var m = Self.machine("active")
        #expect(m.closeIfInputDone(drained: true) == false)
        m.read(Self.ping)
        m.inputClosed()
        #expect(m.closeIfInputDone(drained: true) == false)
        #expect(m.nextRequest() == Self.ping)
        m.delegateCallStarted()
        #expect(m.closeIfInputDone(drained: true) == false)
        #expect(m.delegateCallFinished() == .answer)
        #expect(m.closeIfInputDone(drained: false) == false)
        #expect(m.closeIfInputDone(drained: true) == true)
        #expect(m.isActive)
        #expect(m.closeIfInputDone(drained: true) == false)
        for name in Self.states where name != "active" {
            var other = Self.machine(name)
            other.inputClosed()
            #expect(other.closeIfInputDone(drained: true) == false, "\(name)")
        }
    }

    @Test func goodbyeIsQueuedOnceThenClosesWhenDrained() {
        var m = Self.machine("active")
        let early = m.closeIfGoodbyeWritten(drained: true)
        #expect(!early, "no goodbye queued yet")
        let first = m.sayGoodbye()
        #expect(first)
        #expect(m.isActive, "still served: what was queued is written")
        let second = m.sayGoodbye()
        #expect(!second, "goodbye is queued once")
        let undrained = m.closeIfGoodbyeWritten(drained: false)
        #expect(!undrained, "events queued before goodbye go out first")
        let drained = m.closeIfGoodbyeWritten(drained: true)
        #expect(drained)
        let again = m.closeIfGoodbyeWritten(drained: true)
        #expect(!again, "closed once")
        for name in Self.states where name != "active" {
            var other = Self.machine(name)
            let said = other.sayGoodbye()
            let closes = other.closeIfGoodbyeWritten(drained: true)
            #expect(!said && !closes, "\(name)")
        }
    }
}
