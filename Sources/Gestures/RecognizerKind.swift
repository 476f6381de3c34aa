// SPDX-License-Identifier: MIT
import TouchCore

/// The `kind` of a ``GestureEvent``: the kind of the recognizer that sent it.
@usableFromInline package typealias GestureKind = RecognizerKind

/// The recognizer kinds: what a recognizer recognizes, and the `kind` of a ``GestureEvent``.
///
/// The one table of kinds. The raw value is the canonical name, used in configuration files,
/// the wire protocol and logs; everything else a kind implies for arbitration is declared in
/// the properties below, whose switches name every case, so adding a case makes the compiler
/// list what to decide. The steps: docs/recognizers.md, "Adding a recognizer kind".
@usableFromInline package enum RecognizerKind: String, Hashable, Sendable, CaseIterable, Codable {
    /// One or more quick touches (discrete).
    case tap
    /// Touches held still for a while (continuous).
    case longPress = "long-press"
    /// Touches moving together (continuous).
    case pan
    /// A quick stroke in one direction (discrete).
    case swipe
    /// Touches moving apart or together (continuous).
    case pinch
    /// Touches turning around their centroid (continuous).
    case rotate
    /// A pan that starts at an edge of the surface (continuous).
    case edgePan = "edge-pan"
    /// A stylus in proximity without contact (continuous).
    case hover
    /// Hold, then move: picks something up (continuous, semantics section 7).
    case drag
    /// The system's swipe in from a screen edge (continuous, semantics section 6; owned by `system`).
    case edgeSwipe = "edge-swipe"

    /// True for kinds that go straight from `possible` to `recognized` (tap, swipe).
    @inlinable package var isDiscrete: Bool {
        switch self {
        case .tap, .swipe: return true
        case .longPress, .pan, .pinch, .rotate, .edgePan, .hover, .drag, .edgeSwipe: return false
        }
    }

    /// It measures the span of its touches (``RecognizerCore/scale``).
    var measuresScale: Bool {
        switch self {
        case .pinch: return true
        case .tap, .longPress, .pan, .swipe, .rotate, .edgePan, .hover, .drag, .edgeSwipe: return false
        }
    }

    /// It measures the turn of its touches (``RecognizerCore/rotation``): an atan2 per touch.
    var measuresRotation: Bool {
        switch self {
        case .rotate: return true
        case .tap, .longPress, .pan, .swipe, .pinch, .edgePan, .hover, .drag, .edgeSwipe: return false
        }
    }

    /// When it begins, its touches are cancelled for every other recognizer and for the raw
    /// stream (semantics section 7: drag). System edge swipes claim theirs too (section 6),
    /// as system recognizers rather than as a kind.
    var claimsTouchesOnBegin: Bool {
        switch self {
        case .drag: return true
        case .tap, .longPress, .pan, .swipe, .pinch, .rotate, .edgePan, .hover, .edgeSwipe: return false
        }
    }

    /// The kinds it waits for when they share its touches and are undecided, and whose success
    /// drops it (semantics section 7: a long press alongside a drag requires the drag to fail).
    var waitsForKinds: [RecognizerKind] {
        switch self {
        case .longPress: return [.drag]
        case .tap, .pan, .swipe, .pinch, .rotate, .edgePan, .hover, .drag, .edgeSwipe: return []
        }
    }

    /// The touch types it takes when its configuration does not list `allowedTouchTypes`:
    /// every type, except that holds (long press, drag) leave touchpads out. On a touchpad a
    /// finger rests before it scrolls or swipes, and libinput has no long press there, so a
    /// hold would take every such gesture (docs/recognizers.md, "Touchpads").
    package var defaultTouchTypes: Set<TouchType> {
        switch self {
        case .longPress, .drag: return [.direct, .stylus]
        case .tap, .pan, .swipe, .pinch, .rotate, .edgePan, .hover, .edgeSwipe: return Set(TouchType.allCases)
        }
    }

    /// An app recognizer of this kind waits for the system edge swipes sharing its touches
    /// (semantics section 6: pans and swipes get edge touches once the system gesture failed);
    /// the other kinds follow the touches simultaneously.
    var yieldsToSystemEdges: Bool {
        switch self {
        case .pan, .swipe, .edgePan, .drag: return true
        case .tap, .longPress, .pinch, .rotate, .hover, .edgeSwipe: return false
        }
    }
}
