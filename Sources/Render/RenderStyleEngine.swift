// SPDX-License-Identifier: MIT
import DrawingStyle
import EngineMessages
import Gestures
import TouchCore

// The visual language for the engine's values: the protocol's through the server's edge, and
// the recognizer states, which only traces show.
extension RenderStyle {
    /// The colour of a touch.
    package static func color(of touch: TouchID) -> String { color(ofTouch: touch.rawValue) }

    /// `stroke-dasharray` per touch type for contact (dotted indirect); nil draws solid.
    package static func dashes(for type: TouchType) -> String? { dashes(for: type.wire) }

    /// Symbol of a gesture state in labels (`tap ✓`, `pan ▶`, `pan ■`).
    package static func symbol(of state: GestureState) -> String { symbol(of: state.wire) }

    /// Arrow of a swipe direction.
    package static func arrow(of direction: SwipeDirection) -> String { arrow(of: direction.wire) }

    /// Fill of a recognizer state in the timeline.
    package static func color(of state: RecognizerState) -> String {
        switch state {
        case .possible: return "#d0d7de"
        case .recognized: return "#2da44e"
        case .began: return "#54aeff"
        case .changed: return "#0969da"
        case .ended: return "#1a7f37"
        case .cancelled: return "#bc4c00"
        case .failed: return "#cf222e"
        }
    }
}
