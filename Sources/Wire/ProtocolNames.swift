// SPDX-License-Identifier: MIT

// The protocol's enums on touch and gesture lines, each with its names as
// static strings: the line encoders (`JSONCursor.quoted`,
// `JSONWriter.field(_:literal:)`) copy them without looking for characters
// to escape. These are the only place each name is written (ProtocolNamesTests
// checks every case's name against its raw value; the server edge maps the
// engine's enums onto these, and EngineMessagesTests checks every engine case).

/// A `touch` line's `phase`: where the touch is in its life.
public enum WireTouchPhase: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    case began, moved, ended, cancelled, hover

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
    case direct, indirect, stylus

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
    case finger, palm, pen, eraser, brush, pencil, airbrush, mouse, lens

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
    case tap
    case longPress = "long-press"
    case pan, swipe, pinch, rotate
    case edgePan = "edge-pan"
    case hover, drag
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
    case recognized, began, changed, ended, cancelled

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
    case left, right, up, down

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
    case left, right, top, bottom

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
