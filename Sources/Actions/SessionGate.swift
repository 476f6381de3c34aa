// SPDX-License-Identifier: MIT
import JSON
import Wire

/// Whether the agent's bindings may run, from the seat's session as touchd reports it (`hello`'s
/// `session` and the `session` messages; semantics §13).
///
/// - The seat's active session is not the agent's own (`XDG_SESSION_ID`, set by pam_systemd in
///   every logind session): nothing runs. Another user's session is on screen.
/// - No session is active on the seat: nothing runs for an agent started in a session (its own is
///   not on screen); an agent started outside any session (a panel's service) runs everything, as
///   touchd acts then: there is no user to protect.
/// - Locked, or a greeter or lock screen on the seat: only bindings marked `whenLocked` run.
/// - Unlocked, or touchd does not follow logind (`unknown`, or a touchd that does not say):
///   everything runs; there is no lock state to go by.
package struct SessionGate: Hashable, Sendable {
    /// The agent's own logind session (nil: not started in one; only the lock state counts).
    package var ownSession: String?
    /// The seat's session as touchd last said (nil: not said).
    package private(set) var status: LoginSessionStatus?

    /// A gate for an agent in `ownSession`.
    package init(ownSession: String?) {
        self.ownSession = ownSession?.isEmpty == true ? nil : ownSession
    }

    /// Learns from a `hello` (its `session` object) or a `session` message; returns the new
    /// status when it changed.
    package mutating func learn(_ message: JSONValue) -> LoginSessionStatus? {
        let found: LoginSessionStatus?
        switch message["type"]?.stringValue {
        case "hello": found = message["session"].flatMap(LoginSessionStatus.init(json:))
        case "session": found = LoginSessionStatus(json: message)
        default: return nil
        }
        guard found != status else { return nil }
        status = found
        return found
    }

    /// Whether a binding (marked `whenLocked` or not) may run now.
    package func allows(whenLocked: Bool) -> Bool {
        guard let status, status.state != .unknown else { return true }
        if status.state == .none { return ownSession == nil }
        if let own = ownSession, status.session != own { return false }
        return status.state == .unlocked || whenLocked
    }

    /// Why bindings are held back now, for the log (nil: they are not).
    package var holdReason: String? {
        guard let status, status.state != .unknown else { return nil }
        switch status.state {
        case .none: return ownSession == nil ? nil : "no session is active on the seat"
        case _ where ownSession != nil && status.session != ownSession:
            return "the seat's active session is \(status.session ?? "?"), not this agent's (\(ownSession!))"
        case .locked: return "the session is locked: only whenLocked bindings run"
        case .greeter: return "a greeter or lock screen is on the seat: only whenLocked bindings run"
        default: return nil
        }
    }
}
