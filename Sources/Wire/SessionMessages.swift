// SPDX-License-Identifier: MIT
import JSON

/// The user's session on the seat, as touchd follows it from logind (semantics §13): what the
/// `session` message and `hello`'s `session` field say.
public struct LoginSessionStatus: Hashable, Sendable {
    /// What touchd knows of the seat's session.
    public enum State: String, CaseIterable, Hashable, Sendable {
        /// The seat's active session is unlocked.
        case unlocked
        /// The seat's active session is locked (logind's `LockedHint`).
        case locked
        /// No session is active on the seat (nobody logged in, or switching): no user to protect,
        /// touchd acts.
        case none
        /// The seat's active session is a greeter or a lock screen of its own (logind's `Class`
        /// `greeter` or `lock-screen`): quiet, as when locked.
        case greeter
        /// touchd does not follow logind (`--login-state ignore`, no system bus, no logind).
        case unknown
    }

    /// What touchd knows.
    public var state: State
    /// The seat's active session's id (logind's, as in `XDG_SESSION_ID`), when there is one.
    public var session: String?
    /// Whether touchd has quieted the system for it: shortcuts, their keys and the edge swipes
    /// not marked `whenLocked` are off.
    public var quiet: Bool

    /// Creates a status.
    public init(state: State, session: String? = nil, quiet: Bool) {
        self.state = state
        self.session = session
        self.quiet = quiet
    }

    /// Not following logind: nothing is quieted.
    public static let unknown = LoginSessionStatus(state: .unknown, quiet: false)
}

extension MessageEncoder {
    /// Writes `{"type":"session","time":S,"state":...,"session":ID,"quiet":B}`: the seat's session
    /// changed (sent to every client, whatever it subscribes to).
    public static func session(_ s: LoginSessionStatus, time: Double, into w: inout JSONWriter) {
        w.beginObject()
        w.field("type", string: "session")
        w.field("time", number: time, decimals: 6)
        sessionFields(s, into: &w)
        w.endObject()
    }

    /// The status's fields, as the `session` message and `hello`'s `session` object carry them.
    static func sessionFields(_ s: LoginSessionStatus, into w: inout JSONWriter) {
        w.field("state", string: s.state.rawValue)
        if let id = s.session { w.field("session", string: id) }
        w.field("quiet", bool: s.quiet)
    }

    /// Writes `"session":{...}` into an open object (`hello`).
    static func sessionObject(_ s: LoginSessionStatus, into w: inout JSONWriter) {
        w.key("session")
        w.beginObject()
        sessionFields(s, into: &w)
        w.endObject()
    }
}

extension LoginSessionStatus {
    /// Reads a `session` message, or `hello`'s `session` object; nil when it is not one
    /// (an unknown `state` of a later server reads as ``State/unknown``).
    public init?(json: JSONValue) {
        guard case .object(let o) = json, case .string(let state)? = o["state"] else { return nil }
        self.state = State(rawValue: state) ?? .unknown
        if case .string(let id)? = o["session"] { session = id } else { session = nil }
        if case .bool(let q)? = o["quiet"] { quiet = q } else { quiet = false }
    }
}
