// SPDX-License-Identifier: MIT
import Wire

// The locked session (semantics §13): what logind says of the seat in, whether touchd quiets the
// system out. Pure: the daemon's follower (TouchDaemon's LogindFollower) does the D-Bus.

/// The seat as logind describes it: its active session, that session's `LockedHint` and class.
package struct LoginSeat: Hashable, Sendable {
    /// The active session's id (`Seat.ActiveSession`), nil when none is active.
    package var activeSession: String?
    /// The active session's `LockedHint` (false when there is no active session).
    package var locked: Bool
    /// The active session's `Class` (`user`, `greeter`, `lock-screen`, ...); nil when logind
    /// does not say (read as `user`).
    package var sessionClass: String?

    /// Creates a seat state.
    package init(activeSession: String?, locked: Bool, sessionClass: String? = nil) {
        self.activeSession = activeSession
        self.locked = locked
        self.sessionClass = sessionClass
    }

    /// Whether the active session is a login or lock screen of its own (logind's classes
    /// `greeter` and `lock-screen`): it stands for a user not yet let in, so it counts as locked.
    package var isGreeter: Bool { sessionClass == "greeter" || sessionClass == "lock-screen" }
}

/// What the logind follower reports.
package enum LoginReport: Hashable, Sendable {
    /// The follower starts and has no answer yet: the system is quiet until it has one (a daemon
    /// restarted under a locked screen must not act before logind says it is unlocked).
    case connecting
    /// logind's current answer for the seat.
    case seat(LoginSeat)
    /// logind cannot be asked and was never reached (no system bus, no logind), or is not followed.
    case unavailable
    /// The connection to logind was lost after it had answered (the bus or logind restarting).
    case lost
}

/// Decides from logind's reports whether the system is quiet (semantics §13).
///
/// - Locked, or a greeter (or lock screen) session active on the seat: quiet. Shortcuts, their
///   keys and the edge swipes not marked `whenLocked` are off, so the locker or greeter gets
///   every touch.
/// - Unlocked: not quiet.
/// - No session on the seat at all: not quiet, state `none`. There is no user to protect: an
///   embedded panel's app runs from a plain service, outside any login session, and touchd
///   acting there is the panel's point.
/// - Before logind's first answer (``LoginReport/connecting``): quiet, state `unknown`.
/// - logind never reached: not quiet, state `unknown`. A machine without logind has no lock
///   state to follow; quieting it for good would turn every shortcut off on kiosks that have no
///   locker, and nothing on such a machine can say it is locked.
/// - logind lost after it answered: the last answer stands. A locked screen stays quiet while
///   the bus restarts: losing the bus must never unlock the system.
package struct SessionLockPolicy: Hashable, Sendable {
    /// The status in force.
    package private(set) var status: LoginSessionStatus = .unknown

    /// Starts at ``LoginSessionStatus/unknown`` (not quiet) until logind answers.
    package init() {}

    /// Takes a report; returns the new status when it changed.
    package mutating func observe(_ report: LoginReport) -> LoginSessionStatus? {
        let next: LoginSessionStatus
        switch report {
        case .connecting:
            next = LoginSessionStatus(state: .unknown, quiet: true)
        case .unavailable:
            next = .unknown
        case .lost:
            return nil
        case .seat(let seat):
            if let id = seat.activeSession {
                if seat.isGreeter {
                    next = LoginSessionStatus(state: .greeter, session: id, quiet: true)
                } else {
                    next = LoginSessionStatus(state: seat.locked ? .locked : .unlocked, session: id, quiet: seat.locked)
                }
            } else {
                next = LoginSessionStatus(state: .none, quiet: false)
            }
        }
        guard next != status else { return nil }
        status = next
        return next
    }
}

extension LoginSessionStatus {
    /// Why the system is quiet, or why it acts although logind is followed, in words for the
    /// journal (docs/system-gestures.md, "The locked session").
    package var explanation: String {
        switch state {
        case .locked: return "quiet: the seat's session \(session ?? "?") is locked (LockedHint); only whenLocked shortcuts and edges act"
        case .greeter: return "quiet: a greeter or lock screen (session \(session ?? "?")) is on the seat; only whenLocked shortcuts and edges act"
        case .unlocked: return "acting: the seat's session \(session ?? "?") is unlocked"
        case .none: return "acting: no session is on the seat, so no user's session to protect (a panel whose app runs from a service)"
        case .unknown:
            return quiet ? "quiet until logind first answers for seat0" : "acting: logind is not followed or never answered; there is no lock state to go by"
        }
    }
}
