// SPDX-License-Identifier: MIT
import Wire

/// The rules of one client connection (docs/daemon.md, "A connection's
/// rules"): whether it is counted, whether it is served, which request runs
/// next, when it closes and when its end is reported. Plain values only: each
/// input returns what ``ClientConnectionHandler`` is to do, and the handler
/// does it (the channel, the hub, the output and the delegate are its).
/// Every (state, input) pair is spelled out; a pair that cannot happen is
/// answered with nothing to do.
struct ClientConnectionStateMachine {
    /// A connection that is counted (active, revoked or stuck).
    struct Counted: Equatable {
        /// A request is with the delegate: the ones behind it wait.
        var requestInFlight = false
        /// The client shut down its write side: answer what was read, then close.
        var inputClosed = false
        /// Every request read is answered and written: closing.
        var closingAfterInput = false
        /// The daemon is shutting down: `goodbye` is queued behind what was
        /// queued before it; no event is delivered after it.
        var goodbyeQueued = false
        /// `goodbye` and everything before it are written: closing.
        var closingAfterGoodbye = false
    }

    /// Where the connection is in its life.
    enum State: Equatable {
        /// Connected, not yet counted.
        case idle
        /// Counted by the hub, serving requests and events.
        case active(Counted)
        /// Refused (not permitted, or over the connection limit): told so, being closed.
        case refused
        /// Was active; a new access policy no longer admits it: told so, being closed.
        case revoked(Counted)
        /// Was active; stuck past its timeout or its socket failed: being closed
        /// (its output took no event since).
        case stuck(Counted)
        /// Closed; `reportPending` while a request was in flight when it closed
        /// (its end is reported once that request returns).
        case closed(reportPending: Bool)
    }

    /// What a request line became.
    enum Work: Equatable {
        case request(RequestEnvelope)
        case failure(RequestError)
    }

    private(set) var state = State.idle
    /// Requests read and not yet answered (or started), oldest first.
    private(set) var pending: [Work] = []

    /// Whether the connection is served (requests, events, writes).
    var isActive: Bool {
        if case .active = state { return true }
        return false
    }

    /// Requests read and waiting.
    var pendingCount: Int { pending.count }

    // MARK: Inputs

    /// What to do when the channel is up.
    enum ActivateAction: Equatable {
        /// Decide whether the client may be counted, then call ``admission(refused:)``.
        case decideAdmission
        case none
    }

    /// The channel is active (or the handler was added to an active one).
    mutating func activate() -> ActivateAction {
        switch state {
        case .idle: return .decideAdmission
        case .active, .refused, .revoked, .stuck, .closed: return .none
        }
    }

    /// What to do once admission is decided.
    enum AdmissionAction: Equatable {
        /// Counted: make the output, send `hello`.
        case serve
        /// Send this error and close once it is written; never counted.
        case refuse(RequestError)
        case none
    }

    /// Admission was decided: `refusal` is why the client may not be counted (nil: it is counted).
    mutating func admission(refused refusal: RequestError?) -> AdmissionAction {
        switch state {
        case .idle:
            guard let refusal else {
                state = .active(Counted())
                return .serve
            }
            state = .refused
            return .refuse(refusal)
        case .active, .refused, .revoked, .stuck, .closed:
            return .none
        }
    }

    /// A request line was read; ignored unless the connection is served.
    mutating func read(_ work: Work) {
        switch state {
        case .active: pending.append(work)
        case .idle, .refused, .revoked, .stuck, .closed: return
        }
    }

    /// The next request to answer, taken off the queue: nil while one is
    /// with the delegate, none waits, or the connection is not served.
    mutating func nextRequest() -> Work? {
        switch state {
        case let .active(c):
            guard !c.requestInFlight, !pending.isEmpty else { return nil }
            return pending.removeFirst()
        case .idle, .refused, .revoked, .stuck, .closed:
            return nil
        }
    }

    /// A request went to the delegate: the ones behind it wait for its answer.
    mutating func delegateCallStarted() {
        switch state {
        case var .active(c):
            c.requestInFlight = true
            state = .active(c)
        case .idle, .refused, .revoked, .stuck, .closed:
            return
        }
    }

    /// What to do when the delegate answered.
    enum DelegateAnswerAction: Equatable {
        /// Write the answer (ack or error) and go on with the requests behind it.
        case answer
        /// The connection closed meanwhile: report its end now.
        case reportDisconnect
        case none
    }

    /// The delegate answered the request in flight.
    mutating func delegateCallFinished() -> DelegateAnswerAction {
        switch state {
        case var .active(c):
            c.requestInFlight = false
            state = .active(c)
            return .answer
        case var .revoked(c):
            c.requestInFlight = false
            state = .revoked(c)
            return .none
        case var .stuck(c):
            c.requestInFlight = false
            state = .stuck(c)
            return .none
        case let .closed(reportPending):
            state = .closed(reportPending: false)
            return reportPending ? .reportDisconnect : .none
        case .idle, .refused:
            return .none
        }
    }

    /// The client shut down its write side (every complete line was read before).
    mutating func inputClosed() {
        switch state {
        case var .active(c):
            c.inputClosed = true
            state = .active(c)
        case .idle, .refused, .revoked, .stuck, .closed:
            return
        }
    }

    /// Whether a half-closed connection is done: `drained` when its queue is
    /// empty. True once: close it after what is written.
    mutating func closeIfInputDone(drained: Bool) -> Bool {
        switch state {
        case var .active(c):
            guard c.inputClosed, !c.closingAfterInput, !c.requestInFlight, pending.isEmpty, drained else { return false }
            c.closingAfterInput = true
            state = .active(c)
            return true
        case .idle, .refused, .revoked, .stuck, .closed:
            return false
        }
    }

    /// The daemon is shutting down: true once, when the client is served
    /// (queue `goodbye` after what is queued, seal the output).
    mutating func sayGoodbye() -> Bool {
        switch state {
        case var .active(c):
            guard !c.goodbyeQueued else { return false }
            c.goodbyeQueued = true
            state = .active(c)
            return true
        case .idle, .refused, .revoked, .stuck, .closed:
            return false
        }
    }

    /// Whether the connection is done after `goodbye`: `drained` when its
    /// queue is empty. True once: close it after what is written.
    mutating func closeIfGoodbyeWritten(drained: Bool) -> Bool {
        switch state {
        case var .active(c):
            guard c.goodbyeQueued, !c.closingAfterGoodbye, drained else { return false }
            c.closingAfterGoodbye = true
            state = .active(c)
            return true
        case .idle, .refused, .revoked, .stuck, .closed:
            return false
        }
    }

    /// A new access policy leaves the client out: true when it was served
    /// (tell it `not-permitted` and close); nothing is delivered after this.
    mutating func revoke() -> Bool {
        switch state {
        case let .active(c):
            state = .revoked(c)
            return true
        case .idle, .refused, .revoked, .stuck, .closed:
            return false
        }
    }

    /// The client's queue found it stuck: true when it was served (close it
    /// after this routing); nothing is delivered after this.
    mutating func markStuck() -> Bool {
        switch state {
        case let .active(c):
            state = .stuck(c)
            return true
        case .idle, .refused, .revoked, .stuck, .closed:
            return false
        }
    }

    /// What to do when the channel went inactive.
    struct InactiveAction: Equatable {
        /// The client was counted: the hub forgets it.
        var wasCounted: Bool
        /// Report its end to the delegate now (later, when a request is in flight).
        var reportDisconnect: Bool
    }

    /// The channel is closed; the requests read are dropped.
    mutating func channelInactive() -> InactiveAction {
        pending.removeAll()
        switch state {
        case let .active(c), let .revoked(c), let .stuck(c):
            state = .closed(reportPending: c.requestInFlight)
            return InactiveAction(wasCounted: true, reportDisconnect: !c.requestInFlight)
        case .idle, .refused:
            state = .closed(reportPending: false)
            return InactiveAction(wasCounted: false, reportDisconnect: false)
        case .closed:
            return InactiveAction(wasCounted: false, reportDisconnect: false)
        }
    }
}
