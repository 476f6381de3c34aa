// SPDX-License-Identifier: MIT
import TouchCore

/// One output of the ``Engine``, in the order things happened.
package enum EngineOutput: Hashable, Sendable {
    /// An action of a recognizer.
    case gesture(GestureEvent)
    /// A raw touch delivered to a surface's responder stream (semantics section 5).
    case touch(RawTouchEvent)
    /// An explanation: touches in play, state transitions, arbitration decisions (semantics section 8).
    case debug(DebugRecord)
    /// A system event: a deferral decision, or the hint of a deferred edge (semantics section 6).
    case system(SystemEvent)
    /// What the app world behind a pass-through mirror sees of a contact (semantics §9): only
    /// for touches of the devices in ``Engine/mirroredDevices``.
    case mirror(MirrorTouchEvent)
}

/// A contact as a pass-through mirror delivers it to the app world (semantics §9).
///
/// A contact nothing can claim is delivered in the frame it was read; one that
/// began where a system edge gesture is in play is withheld until that gesture
/// fails (then `began` at its first position and `moved` to where it is), and
/// never delivered if it succeeds; a delivered contact that a claiming
/// recognizer takes is `cancelled`. A pen's hover (proximity without
/// contact) is `hover`, delivered as it comes: nothing claims it.
package struct MirrorTouchEvent: Hashable, Sendable {
    /// When it was delivered (the frame or deadline that released it).
    package var time: Timestamp
    /// The phase delivered: `began`, `moved`, `ended`, `cancelled`, or a pen's `hover`.
    package var phase: TouchPhase
    /// The touch: as it began for a `began`, as last seen otherwise.
    package var touch: Touch

    /// Creates a mirror event.
    package init(time: Timestamp, phase: TouchPhase, touch: Touch) {
        self.time = time
        self.phase = phase
        self.touch = touch
    }
}

/// A touch as delivered to one surface's raw ("responder") stream.
///
/// The delivered phase can differ from the touch's own: a recognizer that
/// recognizes turns the raw stream's `ended` into `cancelled`, and delayed
/// phases are delivered when the recognizer holding them decides.
@usableFromInline package struct RawTouchEvent: Hashable, Sendable {
    /// When it was delivered (the frame or deadline that released it).
    @usableFromInline package var time: Timestamp
    /// The surface whose stream this is.
    @usableFromInline package var surface: SurfaceID
    /// The surface's owner.
    package var owner: String
    /// The phase delivered: `began`, `moved`, `ended` or `cancelled`.
    @usableFromInline package var phase: TouchPhase
    /// The touch, as last seen (its own `phase` and `time` are the input's).
    @usableFromInline package var touch: Touch

    /// Creates a raw touch event.
    package init(time: Timestamp, surface: SurfaceID, owner: String, phase: TouchPhase, touch: Touch) {
        self.time = time
        self.surface = surface
        self.owner = owner
        self.phase = phase
        self.touch = touch
    }
}

/// The state of a recognizer's state machine (semantics section 3).
package enum RecognizerState: String, Hashable, Sendable, CaseIterable, Codable {
    /// Undecided (also the resting state).
    case possible
    /// Discrete gesture happened (terminal).
    case recognized
    /// Continuous gesture started.
    case began
    /// Continuous gesture went on.
    case changed
    /// Continuous gesture finished (terminal).
    case ended
    /// Continuous gesture called off (terminal).
    case cancelled
    /// Cannot succeed in this interaction (terminal).
    case failed

    /// True for recognized, ended, cancelled and failed.
    @inlinable package var isTerminal: Bool {
        switch self {
        case .recognized, .ended, .cancelled, .failed: return true
        case .possible, .began, .changed: return false
        }
    }

    /// True for began and changed.
    @inlinable package var isActive: Bool {
        switch self {
        case .began, .changed: return true
        case .possible, .recognized, .ended, .cancelled, .failed: return false
        }
    }
}

/// One line of the engine's explanation of an interaction (semantics section 8).
package struct DebugRecord: Hashable, Sendable, CustomStringConvertible {
    /// What the record says.
    package enum Kind: Hashable, Sendable {
        /// A touch began: the surface it hit and the recognizers in play for it (qualified names).
        case inPlay(surface: SurfaceID?, recognizers: [String])
        /// A touch reached no surface and no recognizer (outside every visible surface, or blocked).
        case unhandled(reason: String)
        /// A recognizer in play did not take a touch (touch type not allowed, outside its region...).
        case refused(reason: String)
        /// A recognizer changed state.
        case transition(from: RecognizerState, to: RecognizerState)
        /// The recognizer failed because `by` began or recognized.
        case excluded(by: String)
        /// The recognizer and `with` were allowed to go on together.
        case simultaneous(with: String)
        /// The recognizer's action is withheld until `on` fails.
        case waiting(on: String)
        /// `by` failed, so the recognizer's withheld action is delivered (as `began`, or `recognized`).
        case released(by: String)
        /// `by` recognized, so the recognizer's withheld actions are never delivered.
        case dropped(by: String)
        /// The recognizer was cancelled: its touch was cancelled upstream, taken by a drag, or it was disabled.
        case cancelled(reason: String)
        /// The gate `shouldBegin` is false: failed at the moment it would have begun.
        case gated
        /// A raw touch phase was held back and is now delivered.
        case withheldDelivered(phase: TouchPhase)
        /// A recognizer was in a state the machine does not expect; it failed safely. This is our bug.
        case bug(String)
        /// Why the recognizer fails (system edge swipes say which rule: along the edge, too slow, lifted...).
        case failing(reason: String)
        /// A touch began in the zone of an edge that `surface` asked to defer; what the system does with it.
        case edgeDeferral(edge: SurfaceEdge, surface: SurfaceID, outcome: EdgeDeferralOutcome)
        /// A deferred system edge swipe would have begun: the hint is shown; a second swipe until `windowEnd` goes to the system.
        case edgeHint(edge: SurfaceEdge, windowEnd: Timestamp)
        /// A raw touch held back for the system edge swipe is never delivered: the system gesture took it.
        case withheldDiscarded
    }

    /// When.
    package var time: Timestamp
    /// The interaction (a group of touches and the recognizers engaged by them), when known.
    package var interaction: Int?
    /// The touch concerned, when one is.
    package var touch: TouchID?
    /// The recognizer concerned (`surface/name`, or `owner:name` for system recognizers), when one is.
    package var recognizer: String?
    /// What happened.
    package var kind: Kind

    /// Creates a record.
    package init(time: Timestamp, interaction: Int?, touch: TouchID?, recognizer: String?, kind: Kind) {
        self.time = time
        self.interaction = interaction
        self.touch = touch
        self.recognizer = recognizer
        self.kind = kind
    }

    /// One line: `time [i<interaction>] [t<touch>] [recognizer]: what`.
    package var description: String {
        var s = time.description
        if let interaction { s += " i\(interaction)" }
        if let touch { s += " t\(touch)" }
        if let recognizer { s += " " + recognizer }
        s += ": "
        switch kind {
        case .inPlay(let surface, let names):
            s += "hit \(surface.map { $0.rawValue } ?? "no surface"); in play: "
            s += names.isEmpty ? "none" : names.joined(separator: ", ")
        case .unhandled(let reason): s += "unhandled (\(reason))"
        case .refused(let reason): s += "refused touch (\(reason))"
        case .transition(let from, let to): s += "\(from.rawValue) -> \(to.rawValue)"
        case .excluded(let by): s += "excluded by \(by)"
        case .simultaneous(let with): s += "simultaneous with \(with)"
        case .waiting(let on): s += "waiting on \(on) to fail"
        case .released(let by): s += "released by \(by) failing"
        case .dropped(let by): s += "withheld actions dropped: \(by) recognized"
        case .cancelled(let reason): s += "cancelled (\(reason))"
        case .gated: s += "shouldBegin is false: failed"
        case .withheldDelivered(let phase): s += "withheld raw \(phase.rawValue) delivered"
        case .bug(let what): s += "BUG: \(what)"
        case .failing(let reason): s += "fails: \(reason)"
        case .edgeDeferral(let edge, let surface, let outcome):
            switch outcome {
            case .deferred: s += "\(edge.rawValue) edge deferred by \(surface): the app gets the touch first"
            case .secondSwipe: s += "\(edge.rawValue) edge deferred by \(surface), second swipe within the window: system first"
            case .refused: s += "\(edge.rawValue) edge deferral asked by \(surface) refused by policy: system first"
            }
        case .edgeHint(let edge, let end): s += "\(edge.rawValue) edge hint; a second swipe until \(end) goes to the system"
        case .withheldDiscarded: s += "withheld raw touch never delivered (taken by the system)"
        }
        return s
    }
}
