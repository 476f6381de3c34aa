// SPDX-License-Identifier: MIT

// The protocol's enums on touch and gesture lines, each with its names as
// static strings: the line encoders (`JSONCursor.quoted`,
// `JSONWriter.field(_:literal:)`) copy them without looking for characters
// to escape. These are the only place each name is written (ProtocolNamesTests
// checks every case's name against its raw value; the server edge maps the
// engine's enums onto these, and EngineMessagesTests checks every engine case).

/// A `touch` line's `phase`: where the touch is in its life.
public enum WireTouchPhase: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// The contact started.
    case began
    /// The contact moved (or changed pressure, size, tilt or buttons).
    case moved
    /// The contact lifted.
    case ended
    /// The contact was taken away (palm, device removed, a recognizer or the system took it).
    case cancelled
    /// A stylus in proximity without contact.
    case hover

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .began: return "began"
        case .moved: return "moved"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        case .hover: return "hover"
        }
    }
}

/// `touchType` of touch and gesture lines and devices: `direct` (a touchscreen), `indirect` (a
/// touchpad) or `stylus`.
public enum WireTouchType: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// A finger on a touchscreen.
    case direct
    /// A finger on a touchpad.
    case indirect
    /// A pen tool.
    case stylus

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .direct: return "direct"
        case .indirect: return "indirect"
        case .stylus: return "stylus"
        }
    }
}

/// A `touch` line's `tool`: a finger, a palm or a pen tool.
public enum WireTool: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// A finger.
    case finger
    /// A palm.
    case palm
    /// A pen's tip.
    case pen
    /// A pen's eraser end.
    case eraser
    /// A brush tool.
    case brush
    /// A pencil tool.
    case pencil
    /// An airbrush tool.
    case airbrush
    /// A tablet puck.
    case mouse
    /// A tablet lens cursor.
    case lens

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .finger: return "finger"
        case .palm: return "palm"
        case .pen: return "pen"
        case .eraser: return "eraser"
        case .brush: return "brush"
        case .pencil: return "pencil"
        case .airbrush: return "airbrush"
        case .mouse: return "mouse"
        case .lens: return "lens"
        }
    }
}

/// A `touch` line's `buttons`: the stylus (or touchpad) buttons held, as a bit set.
public struct WireToolButtons: OptionSet, Hashable, Sendable, BitwiseCopyable {
    /// The bits, in the order of ``protocolNames``.
    public var rawValue: UInt8
    /// Creates a set from its bits.
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `stylus`
    public static let stylus = WireToolButtons(rawValue: 1 << 0)
    /// `stylus2`
    public static let stylus2 = WireToolButtons(rawValue: 1 << 1)
    /// `stylus3`
    public static let stylus3 = WireToolButtons(rawValue: 1 << 2)
    /// `left`
    public static let left = WireToolButtons(rawValue: 1 << 3)
    /// `right`
    public static let right = WireToolButtons(rawValue: 1 << 4)
    /// `middle`
    public static let middle = WireToolButtons(rawValue: 1 << 5)

    /// Each button with its protocol name, in bit order (the order a line lists them in).
    public static let protocolNames: [(button: WireToolButtons, name: StaticString)] = [
        (.stylus, "stylus"), (.stylus2, "stylus2"), (.stylus3, "stylus3"),
        (.left, "left"), (.right, "right"), (.middle, "middle"),
    ]

    /// The names of the buttons held, in bit order.
    public var names: [String] { Self.protocolNames.compactMap { contains($0.button) ? "\($0.name)" : nil } }
}

/// A `gesture` line's `kind`: what was recognized.
public enum WireGestureKind: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// `tap`
    case tap
    /// `long-press`
    case longPress = "long-press"
    /// `pan`
    case pan
    /// `swipe`
    case swipe
    /// `pinch`
    case pinch
    /// `rotate`
    case rotate
    /// `edge-pan`
    case edgePan = "edge-pan"
    /// `hover`
    case hover
    /// `drag`
    case drag
    /// `edge-swipe`: a system edge swipe.
    case edgeSwipe = "edge-swipe"

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .tap: return "tap"
        case .longPress: return "long-press"
        case .pan: return "pan"
        case .swipe: return "swipe"
        case .pinch: return "pinch"
        case .rotate: return "rotate"
        case .edgePan: return "edge-pan"
        case .hover: return "hover"
        case .drag: return "drag"
        case .edgeSwipe: return "edge-swipe"
        }
    }
}

/// A `gesture` line's `state`: `recognized` for discrete kinds, `began`, `changed`, `ended` or
/// `cancelled` for continuous ones.
public enum WireGestureState: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// A discrete gesture happened.
    case recognized
    /// A continuous gesture began.
    case began
    /// It changed.
    case changed
    /// It ended.
    case ended
    /// It was cancelled.
    case cancelled

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .recognized: return "recognized"
        case .began: return "began"
        case .changed: return "changed"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        }
    }
}

/// A swipe's `direction`.
public enum WireSwipeDirection: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// Towards the left.
    case left
    /// Towards the right.
    case right
    /// Upwards.
    case up
    /// Downwards.
    case down

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .left: return "left"
        case .right: return "right"
        case .up: return "up"
        case .down: return "down"
        }
    }
}

/// A screen edge: a gesture's `edge`, a system message's edges, a surface's `deferEdges`.
public enum WireEdge: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// The left edge.
    case left
    /// The right edge.
    case right
    /// The top edge.
    case top
    /// The bottom edge.
    case bottom

    /// ``rawValue`` as a static string.
    @inlinable public var protocolName: StaticString {
        switch self {
        case .left: return "left"
        case .right: return "right"
        case .top: return "top"
        case .bottom: return "bottom"
        }
    }
}
