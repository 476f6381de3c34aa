// SPDX-License-Identifier: MIT
import CSystemd
import Logging
import Publisher
import Session
import Trace
import Wire

#if canImport(Glibc)
import Glibc
#endif

/// The client whose `focus` report is in force.
struct FocusReporter: Hashable, Sendable {
    /// The reporting client.
    var client: ClientID
    /// Its logind session when it reported (nil: it runs in none).
    var loginSession: String?

    /// The logind session a process belongs to (`sd_pid_get_session`), nil when it is in none.
    static func loginSession(ofProcess pid: Int32) -> String? {
        var text: UnsafeMutablePointer<CChar>?
        guard sd_pid_get_session(pid, &text) >= 0, let text else { return nil }
        defer { free(text) }
        return String(cString: text)
    }
}

/// The focused app, reported by a follower in the user's session (docs/protocol.md, "focus").
extension TouchSessionActor {
    /// Takes a client's `focus` report. Only the seat's active session may report: the client's
    /// logind session must be the seat's active one; with no session on the seat (a panel's app
    /// from a service) or logind not followed, only a client in no session may (the panel's own
    /// processes; a user's session elsewhere is not on screen). Others get `not-permitted`.
    package func reportFocus(_ report: FocusReport, from client: ClientID, loginSession: String?) throws(RequestError) {
        let seat = session.lockPolicy.status
        guard Self.seatPermits(seat, loginSession: loginSession) else {
            throw RequestError(.notPermitted, "only a client in the seat's active session may report the focus (the seat's: \(seat.session ?? seat.state.rawValue), this client's: \(loginSession ?? "none"))")
        }
        focusReporter = FocusReporter(client: client, loginSession: loginSession)
        applyFocus(report, from: client)
    }

    /// The reporting client went away: the focus it reported is forgotten (unknown), not kept.
    package func focusReporterGone(_ client: ClientID) {
        guard focusReporter?.client == client else { return }
        focusReporter = nil
        applyFocus(.unknown, from: client)
    }

    /// The seat's active session changed: a report from a session no longer active is forgotten.
    func dropFocusOfInactiveSession() {
        guard let r = focusReporter, let own = r.loginSession, own != session.lockPolicy.status.session else { return }
        focusReporter = nil
        applyFocus(.unknown, from: r.client)
    }

    /// Puts a focus in force (a client's report, or one replayed from a trace), records it, and
    /// logs the change.
    func applyFocus(_ report: FocusReport, from client: ClientID?) {
        let before = session.engine.focus
        prepareRound()
        session.changeFocus(report, into: &router)
        if recorder != nil {
            // The trace replays the change at its time (docs/trace-format.md, `focus` lines).
            let request = String(decoding: RequestEnvelope(id: nil, request: .focus(report)).bytes, as: UTF8.self)
            let time = session.lastTime
            record { r throws(TraceError) in try r.focus(request: request, at: time) }
        }
        flush()
        let after = report.appID
        if before?.appID != after || before?.fullScreen != report.fullScreen {
            logger.info("focus \(after ?? "unknown")", metadata: [
                "client": "\(client.map { String($0.rawValue) } ?? "-")",
                "fullScreen": "\(report.fullScreen)",
            ])
        }
    }
}
