// SPDX-License-Identifier: MIT
import Wire

// The locked session (semantics §13): what logind says of the seat in, whether touchd quiets the
// system out. Pure: the daemon's follower (TouchDaemon's LogindFollower) does the D-Bus.

/// The seat as logind describes it: its active session and that session's `LockedHint`.
package struct LoginSeat: Hashable, Sendable {
    /// The active session's id (`Seat.ActiveSession`), nil when none is active.
    package var activeSession: String?
    /// The active session's `LockedHint` (false when there is no active session).
    package var locked: Bool

    /// Creates a seat state.
    package init(activeSession: String?, locked: Bool) {
        self.activeSession = activeSession
        self.locked = locked
    }
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
/// - Locked, or no active session on the seat: quiet. Shortcuts, their keys and the edge swipes
///   not marked `whenLocked` are off, so a locker (or a greeter) gets every touch.
/// - Unlocked: not quiet.
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
                next = LoginSessionStatus(state: seat.locked ? .locked : .unlocked, session: id, quiet: seat.locked)
            } else {
                next = LoginSessionStatus(state: .none, quiet: true)
            }
        }
        guard next != status else { return nil }
        status = next
        return next
    }
}
