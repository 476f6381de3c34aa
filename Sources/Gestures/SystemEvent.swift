// SPDX-License-Identifier: MIT
import TouchCore

/// How the system answered a surface's request to defer edges (semantics section 6):
/// published as `{"type":"system","event":"deferral","surface":ID,"requested":[...],"granted":[...]}`.
package struct DeferralDecision: Hashable, Sendable {
    /// The surface that asked.
    package var surface: SurfaceID
    /// Its owner (who must learn the decision).
    package var owner: String
    /// The edges it asked to defer, in the order left, right, top, bottom.
    package var requested: [SurfaceEdge]
    /// The edges the policy lets it defer (a subset of `requested`), same order.
    package var granted: [SurfaceEdge]

    /// Creates a decision.
    package init(surface: SurfaceID, owner: String, requested: [SurfaceEdge], granted: [SurfaceEdge]) {
        self.surface = surface
        self.owner = owner
        self.requested = requested
        self.granted = granted
    }
}

/// Something the system gesture layer tells the shell and the surfaces' owners (semantics section 6).
package struct SystemEvent: Hashable, Sendable {
    /// What happened.
    package enum Kind: Hashable, Sendable {
        /// A surface's deferral request was evaluated: when a surface with `deferEdges` is added or
        /// changed, when its request changes, and when the policy changes.
        case deferral(DeferralDecision)
        /// The first swipe from a deferred edge went to the app: a shell draws its hint now; a second
        /// swipe from `edge` of `screen` before `windowEnd` goes to the system.
        /// Published as `{"type":"system","event":"edge-hint","edge":E,"time":S}`.
        case edgeHint(edge: SurfaceEdge, screen: Int, windowEnd: Timestamp)
    }

    /// When (the frame or the configuration change that caused it; zero for configuration changes
    /// made before any input).
    package var time: Timestamp
    /// What happened.
    package var kind: Kind

    /// Creates a system event.
    package init(time: Timestamp, kind: Kind) {
        self.time = time
        self.kind = kind
    }
}

/// What the system did with a touch that began in the zone of an edge a surface asked to defer.
package enum EdgeDeferralOutcome: String, Hashable, Sendable, CaseIterable {
    /// Deferral granted, no window open: the touch goes to the app first; the system only watches for the hint.
    case deferred
    /// Deferral granted, but within the window after a hint: the system gesture comes first.
    case secondSwipe = "second-swipe"
    /// The policy does not grant the deferral: the system gesture comes first.
    case refused
}
