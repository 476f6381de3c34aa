// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import TouchMotion
import Wire

// The engine's values as the protocol's, and back: the one mapping between the two. Each is an
// exhaustive switch, so a case added to the engine does not build until it has its protocol
// value (EngineValuesTests checks that every case maps to the name it had).

extension TouchPhase {
    /// The protocol's phase.
    @inlinable package var wire: WireTouchPhase {
        switch self {
        case .began: return .began
        case .moved: return .moved
        case .ended: return .ended
        case .cancelled: return .cancelled
        case .hover: return .hover
        }
    }
}

extension TouchType {
    /// The protocol's touch type.
    @inlinable package var wire: WireTouchType {
        switch self {
        case .direct: return .direct
        case .indirect: return .indirect
        case .stylus: return .stylus
        }
    }
}

extension Tool {
    /// The protocol's tool.
    @inlinable package var wire: WireTool {
        switch self {
        case .finger: return .finger
        case .palm: return .palm
        case .pen: return .pen
        case .eraser: return .eraser
        case .brush: return .brush
        case .pencil: return .pencil
        case .airbrush: return .airbrush
        case .mouse: return .mouse
        case .lens: return .lens
        }
    }
}

extension ToolButtons {
    /// The engine's buttons with the protocol's, in bit order (what EngineValuesTests checks ``wire`` against).
    package static let wirePairs: [(ToolButtons, WireToolButtons)] = [
        (.stylus, .stylus), (.stylus2, .stylus2), (.stylus3, .stylus3), (.left, .left), (.right, .right), (.middle, .middle),
    ]

    /// The protocol's button set.
    @inlinable package var wire: WireToolButtons {
        // Both sets use the same bits (EngineValuesTests checks each); the set is copied as it is.
        WireToolButtons(rawValue: rawValue)
    }
}

extension GestureKind {
    /// The protocol's gesture kind.
    @inlinable package var wire: WireGestureKind {
        switch self {
        case .tap: return .tap
        case .longPress: return .longPress
        case .pan: return .pan
        case .swipe: return .swipe
        case .pinch: return .pinch
        case .rotate: return .rotate
        case .edgePan: return .edgePan
        case .hover: return .hover
        case .drag: return .drag
        case .edgeSwipe: return .edgeSwipe
        }
    }
}

extension GestureState {
    /// The protocol's gesture state.
    @inlinable package var wire: WireGestureState {
        switch self {
        case .recognized: return .recognized
        case .began: return .began
        case .changed: return .changed
        case .ended: return .ended
        case .cancelled: return .cancelled
        }
    }
}

extension SwipeDirection {
    /// The protocol's swipe direction.
    @inlinable package var wire: WireSwipeDirection {
        switch self {
        case .left: return .left
        case .right: return .right
        case .up: return .up
        case .down: return .down
        }
    }
}

extension SurfaceEdge {
    /// The protocol's edge.
    @inlinable package var wire: WireEdge {
        switch self {
        case .left: return .left
        case .right: return .right
        case .top: return .top
        case .bottom: return .bottom
        }
    }
}

extension Rotation {
    /// The protocol's rotation.
    package var wire: WireRotation {
        switch self {
        case .none: return .degrees0
        case .quarter: return .degrees90
        case .half: return .degrees180
        case .threeQuarters: return .degrees270
        }
    }

    /// A rotation the protocol gave.
    package init(_ wire: WireRotation) {
        switch wire {
        case .degrees0: self = .none
        case .degrees90: self = .quarter
        case .degrees180: self = .half
        case .degrees270: self = .threeQuarters
        }
    }
}

extension ScreenInsets {
    /// The protocol's insets.
    package var wire: WireInsets { WireInsets(top: top, right: right, bottom: bottom, left: left) }

    /// Insets the protocol gave.
    package init(_ wire: WireInsets) { self.init(top: wire.top, right: wire.right, bottom: wire.bottom, left: wire.left) }
}

extension SizeMM {
    /// The protocol's size.
    package var wire: WireSize { WireSize(width: width, height: height) }

    /// A size the protocol gave.
    package init(_ wire: WireSize) { self.init(width: wire.width, height: wire.height) }
}

extension DropOperation {
    /// The protocol's drop operation.
    package var wire: WireDropOperation {
        switch self {
        case .copy: return .copy
        case .move: return .move
        case .forbidden: return .forbidden
        case .cancel: return .cancel
        }
    }

    /// A drop operation the protocol gave.
    package init(_ wire: WireDropOperation) {
        switch wire {
        case .copy: self = .copy
        case .move: self = .move
        case .forbidden: self = .forbidden
        case .cancel: self = .cancel
        }
    }
}

extension DragOutcome {
    /// The protocol's outcome.
    package var wire: WireDragOutcome {
        switch self {
        case .copy: return .copy
        case .move: return .move
        case .cancelled: return .cancelled
        }
    }
}

extension DragEndReason {
    /// The protocol's reason.
    package var wire: WireDragEndReason {
        switch self {
        case .lifted: return .lifted
        case .touchCancelled: return .touchCancelled
        case .sourceGone: return .sourceGone
        case .noItems: return .noItems
        case .timedOut: return .timedOut
        }
    }
}

extension DragRoles {
    /// Roles a `drag-surface` request gave.
    package init(_ wire: WireDragRoles) {
        self.init(offersItems: wire.offersItems, addsItems: wire.addsItems, dropTypes: wire.dropTypes, compact: wire.compact)
    }

    /// The protocol's roles.
    package var wire: WireDragRoles {
        WireDragRoles(offersItems: offersItems, addsItems: addsItems, dropTypes: dropTypes, compact: compact)
    }
}

extension DragItem {
    /// An item a `drag-items` request gave.
    package init(_ wire: WireDragItem) {
        self.init(wire.representations.map { DragRepresentation(type: $0.type, data: $0.data) })
    }

    /// The protocol's item.
    package var wire: WireDragItem { WireDragItem(representations.map { WireDragRepresentation(type: $0.type, data: $0.data) }) }
}

extension HelloDevice {
    /// A device as `hello` and `device` messages describe it.
    package init(_ info: DeviceInfo) {
        self.init(
            id: info.id.rawValue, name: info.description.name, touchTypes: info.classification.touchTypes.map(\.wire),
            slots: info.description.slotCount, widthMM: info.geometry.width, heightMM: info.geometry.height,
            sizeSource: info.geometry.source.rawValue, screen: info.mapping.screen)
    }
}

extension ResampledKind {
    /// The protocol's sample kind.
    @inlinable package var wire: WireResampledKind {
        switch self {
        case .real: return .real
        case .interpolated: return .interpolated
        case .extrapolated: return .extrapolated
        case .held: return .held
        }
    }
}

extension ServedMotion {
    /// The frame as its `motion` line (docs/protocol.md, "frames").
    package var message: MotionMessage {
        let s = resampled.sample
        return MotionMessage(
            microseconds: s.time.microseconds, frameMicroseconds: frame.microseconds, device: device, id: id,
            touchType: type.wire, tool: tool.wire, screen: Int(screen),
            location: WirePoint(x: s.location.x, y: s.location.y), sample: resampled.kind.wire,
            force: s.force, altitude: s.altitude, azimuth: s.azimuth,
            predicted: predicted.map { WirePrediction(microseconds: $0.time.microseconds, location: WirePoint(x: $0.location.x, y: $0.location.y)) })
    }
}
