import TouchCore

/// How a recognizer's actions reach clients in the current interaction (semantics section 4).
enum Delivery: Sendable, Equatable {
    /// Nothing sent yet (still possible, or failed before sending anything).
    case none
    /// It began or recognized, but a recognizer it requires to fail has not failed yet.
    case withheld
    /// Its actions are being sent.
    case delivering
}

/// A recognizer as the engine keeps it: its declaration, where it lives, its
/// resolved relations, its machine and base, and its part in the current interaction.
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
    /// Pan, swipe, edge-pan and drag of apps: they get touches that began in an edge zone only
    /// once the system edge swipe failed (an implicit failure requirement, semantics section 6).
    let waitsForSystemEdges: Bool

    // Relations, resolved to slot indices.
    var requires: [Int] = []
    var simultaneousAll = false
    var simultaneous: [Int] = []
    var preventsAll = true
    var prevents: [Int] = []
    var preventableByAll = true
    var preventableBy: [Int] = []

    // The current interaction.
    var engaged = false
    var interaction = 0
    var delivery = Delivery.none
    /// Touch keys it has taken since it last reset (also the lifted ones).
    var seen: [Int] = []
    /// It began or recognized, and that was delivered, in this interaction.
    var succeeded = false
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
        switch config.kind {
        case .pinch: core.measuresScale = true
        case .rotate: core.measuresRotation = true
        case .tap, .longPress, .pan, .swipe, .edgePan, .hover, .drag, .edgeSwipe: break
        }
        if case .edgeSwipe(let p) = config.kind, owner == "system" { systemEdge = p.edge } else { systemEdge = nil }
        switch config.kind.gestureKind {
        case .pan, .swipe, .edgePan, .drag: waitsForSystemEdges = owner != "system"
        case .tap, .longPress, .pinch, .rotate, .hover, .edgeSwipe: waitsForSystemEdges = false
        }
        seen.reserveCapacity(10)
    }

    var kind: GestureKind { config.kind.gestureKind }

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
    /// `mutating` (it changes nothing) so that `slots[s].refusal(of:)` works on the slot in place:
    /// as a plain method the call copied the whole slot, configuration and all (callgrind).
    mutating func refusal(of touch: Touch) -> Refusal? {
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
    /// A system edge swipe that arbitrates (not deferred).
    var isArbitratingSystemEdge: Bool { systemEdge != nil && deferredBy == nil }
    var state: RecognizerState { core.state }

    /// Still undecided as far as the others can tell: possible, or succeeded but withheld.
    var isUndecided: Bool {
        switch core.state {
        case .possible: return true
        case .began, .changed, .recognized, .ended: return delivery == .withheld
        case .cancelled, .failed: return false
        }
    }

    /// Began and delivering (an active continuous gesture the others must respect).
    var isActivelyDelivering: Bool { delivery == .delivering && core.state.isActive }

    func shares(_ other: RecognizerSlot) -> Bool {
        for k in seen where other.seen.contains(k) { return true }
        return false
    }
}

extension Array where Element == RecognizerSlot {
    /// Either side allowing is enough (semantics section 4).
    func simultaneous(_ a: Int, _ b: Int) -> Bool {
        self[a].simultaneousAll || self[a].simultaneous.contains(b) || self[b].simultaneousAll || self[b].simultaneous.contains(a)
    }

    /// A may prevent B and B may be prevented by A.
    func prevents(_ a: Int, _ b: Int) -> Bool {
        (self[a].preventsAll || self[a].prevents.contains(b)) && (self[b].preventableByAll || self[b].preventableBy.contains(a))
    }
}
