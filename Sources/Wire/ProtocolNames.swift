// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

// The protocol's names of the enums on every touch and gesture line, as
// static strings: the touch and gesture encoders (`JSONCursor.quoted`,
// `JSONWriter.field(_:literal:)`) copy them without looking
// for characters to escape. Each is the enum's raw value (ProtocolNamesTests
// checks every case).

extension TouchPhase {
    /// ``rawValue`` as a static string.
    public var protocolName: StaticString {
        switch self {
        case .began: return "began"
        case .moved: return "moved"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        case .hover: return "hover"
        }
    }
}

extension TouchType {
    /// ``rawValue`` as a static string.
    public var protocolName: StaticString {
        switch self {
        case .direct: return "direct"
        case .indirect: return "indirect"
        case .stylus: return "stylus"
        }
    }
}

extension Tool {
    /// ``rawValue`` as a static string.
    public var protocolName: StaticString {
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

extension GestureKind {
    /// ``rawValue`` as a static string.
    public var protocolName: StaticString {
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

extension GestureState {
    /// ``rawValue`` as a static string.
    public var protocolName: StaticString {
        switch self {
        case .recognized: return "recognized"
        case .began: return "began"
        case .changed: return "changed"
        case .ended: return "ended"
        case .cancelled: return "cancelled"
        }
    }
}

extension ToolButtons {
    /// Each button with its protocol name, in bit order: the order and names
    /// of ``names``, as static strings.
    public static let protocolNames: [(button: ToolButtons, name: StaticString)] = [
        (.stylus, "stylus"), (.stylus2, "stylus2"), (.stylus3, "stylus3"),
        (.left, "left"), (.right, "right"), (.middle, "middle"),
    ]
}

extension SwipeDirection {
    /// ``rawValue`` as a static string.
    public var protocolName: StaticString {
        switch self {
        case .left: return "left"
        case .right: return "right"
        case .up: return "up"
        case .down: return "down"
        }
    }
}

extension SurfaceEdge {
    /// ``rawValue`` as a static string.
    public var protocolName: StaticString {
        switch self {
        case .left: return "left"
        case .right: return "right"
        case .top: return "top"
        case .bottom: return "bottom"
        }
    }
}
