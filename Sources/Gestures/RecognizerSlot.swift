// SPDX-License-Identifier: MIT
import TouchCore

/// A recognizer as the engine keeps it: its declaration, where it lives, its machine
/// and base. Its relations and its part in arbitration are the arena's
/// (``GestureArena``, member `ArenaMember(rawValue: index)`).
struct RecognizerSlot: Sendable {
    var config: RecognizerConfiguration {
        didSet { allowedTypes = Self.mask(config.allowedTouchTypes) }
    }
    /// `config.allowedTouchTypes` as bits (`1 << index in TouchType.allCases`): a touch-down asks every
    /// recognizer of its chain, and hashing a `Set` each time showed in the profile.
    private(set) var allowedTypes: UInt8
    var owner: String
    /// Nil for system recognizers.
    var surface: SurfaceID?
    /// `surface/name`, or `owner:name` for system recognizers.
    var qualifiedName: String
    /// Owned by the system (its events are system gestures); decided once, not per event.
    let isSystemOwned: Bool
    var context: RecognizerContext
    var machine: RecognizerMachine
    var core = RecognizerCore()
    /// False once removed (slots are never moved, so indices held elsewhere stay valid).
    var live = true
    /// Depth of its surface (system recognizers: above every surface); part of the canonical order.
    var depth = 0
    /// Position in the canonical order: deeper surfaces first, then owner, surface and name.
    /// Independent of declaration order, so arbitration is too.
    var rank = 0
    /// The screen whose touches it takes (system edge swipes); nil for any screen.
    var screen: Int?
    /// The edge of a system edge swipe (semantics section 6); nil for every other recognizer.
    let systemEdge: SurfaceEdge?
    /// App recognizers of kinds that yield to the system: they get touches that began in an edge zone
    /// only once the system edge swipe failed (an implicit failure requirement, semantics section 6).
    let waitsForSystemEdges: Bool
    /// Its touches are cancelled for everyone else when it begins (semantics sections 6 and 7).
    let claimsTouchesOnBegin: Bool

    // The current interaction.
    var interaction = 0
    /// Marked for a step in the current frame.
    var dirty = false
    /// A system edge swipe watching a touch whose edge a surface deferred: it only decides whether to
    /// show the hint, and holds nothing back from the app.
    var deferredBy: SurfaceID?
    /// A system edge swipe on the second swipe within a deferral window.
    var secondSwipe = false

    init(config: RecognizerConfiguration, owner: String, surface: SurfaceID?, context: RecognizerContext) {
        self.config = config
        self.allowedTypes = Self.mask(config.allowedTouchTypes)
        self.owner = owner
        self.surface = surface
        self.qualifiedName = surface.map { "\($0)/\(config.name)" } ?? "\(owner):\(config.name)"
        self.isSystemOwned = owner == "system"
        self.context = context
        self.machine = RecognizerMachine(config.kind, context: context)
        let kind = config.kind.gestureKind
        core.measuresScale = kind.measuresScale
        core.measuresRotation = kind.measuresRotation
        if case .edgeSwipe(let p) = config.kind, owner == "system" { systemEdge = p.edge } else { systemEdge = nil }
        waitsForSystemEdges = kind.yieldsToSystemEdges && owner != "system"
        claimsTouchesOnBegin = kind.claimsTouchesOnBegin || systemEdge != nil || config.claimsTouches
    }

    var kind: RecognizerKind { config.kind.gestureKind }

    mutating func touchesChanged(at time: Timestamp) -> RecognizerStep { machine.touchesChanged(&core, at: time) }
    mutating func deadlinePassed(at time: Timestamp) -> RecognizerStep { machine.deadlinePassed(&core, at: time) }
    var isHover: Bool { kind == .hover }
    /// `delaysTouchesBegan` in force: a deferred system edge swipe holds nothing back.
    var delaysBegan: Bool { config.delaysTouchesBegan && deferredBy == nil }

    static func mask(_ types: Set<TouchType>) -> UInt8 {
        var bits: UInt8 = 0
        for t in types { bits |= bit(t) }
        return bits
    }

    static func bit(_ type: TouchType) -> UInt8 {
        switch type {
        case .direct: return 1
        case .indirect: return 2
        case .stylus: return 4
        }
    }

    /// Why it does not take `touch`, or nil when it does (semantics sections 2.2 to 2.4).
    /// `engaged`: it is in the current interaction (the arena knows).
    /// `mutating` (it changes nothing) so that `slots[s].refusal(of:)` works on the slot in place:
    /// as a plain method the call copied the whole slot, configuration and all (callgrind).
    mutating func refusal(of touch: Touch, engaged: Bool) -> Refusal? {
        if !config.enabled { return .disabled }
        if let screen, screen != touch.screen { return .otherScreen }
        if allowedTypes & Self.bit(touch.type) == 0 { return .touchType(touch.type) }
        if let region = config.region {
            let origin = surface == nil ? Point.zero : Point(x: context.surfaceFrame.x, y: context.surfaceFrame.y)
            if !region.contains(touch.location - origin) { return .outsideRegion }
        }
        if config.requiresExclusiveTouchType, let t = core.touchType, t != touch.type { return .trackingOtherType(t) }
        if engaged && core.state.isTerminal { return .alreadyDecided(core.state) }
        if !machine.accepts(touch, core: core) { return .notAccepted }
        return nil
    }

    /// Whether its configuration has the raw-touch switch `flag` on.
    func holds(_ flag: Engine.Hold) -> Bool {
        switch flag {
        case .delaysBegan: return config.delaysTouchesBegan
        case .delaysEnded: return config.delaysTouchesEnded
        }
    }
}
