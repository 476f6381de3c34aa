// SPDX-License-Identifier: MIT
import Wire

/// The visual language shared by `touchctl render` and the live view: colours,
/// stroke styles and symbols. The live page receives the same values as JSON
/// (``RenderStyle/javaScriptConstants``), so both draw a touch the same way.
/// In the protocol's values, so the live view links no engine (Render adds the
/// engine's: recognizer states, and its touch values through the server's edge).
package enum RenderStyle {
    /// Touch colours, picked by touch id (Tableau 10: distinguishable, also in print).
    package static let touchColors: [String] = [
        "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
        "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac",
    ]

    /// The colour of a touch.
    package static func color(ofTouch id: UInt32) -> String {
        touchColors[Int(id % UInt32(touchColors.count))]
    }

    /// Stroke width of direct and indirect touch paths, in pixels of the picture.
    package static let pathWidth = 2.5

    /// `stroke-dasharray` per touch type for contact (dotted indirect); nil draws solid.
    package static func dashes(for type: WireTouchType) -> String? {
        switch type {
        case .direct: return nil
        case .indirect: return "1 5"
        case .stylus: return nil
        }
    }

    /// `stroke-dasharray` of hover (a stylus in proximity, not touching).
    package static let hoverDashes = "6 4"

    /// Stroke width of a stylus segment drawn with `force` (0...1); 2.5 px when the pen reports no pressure.
    package static func stylusWidth(force: Double?) -> Double {
        guard let f = force, f.isFinite else { return pathWidth }
        let clamped = min(max(f, 0), 1)
        // Quarter-pixel steps let neighbouring segments of equal width merge into one path.
        return ((0.75 + clamped * 7.25) * 4).rounded() / 4
    }

    /// Symbol of a gesture state in labels (`tap ✓`, `pan ▶`, `pan ■`).
    package static func symbol(of state: WireGestureState) -> String {
        switch state {
        case .recognized: return "✓"
        case .began: return "▶"
        case .changed: return "…"
        case .ended: return "■"
        case .cancelled: return "✕"
        }
    }

    /// Arrow of a swipe direction.
    package static func arrow(of direction: WireSwipeDirection) -> String {
        switch direction {
        case .left: return "←"
        case .right: return "→"
        case .up: return "↑"
        case .down: return "↓"
        }
    }

    /// Fill of edge zones, surfaces' outline colour, screen background.
    package static let edgeZoneFill = "#fff1c2"
    /// Outline of configured surfaces.
    package static let surfaceStroke = "#8c959f"
    /// Screen background.
    package static let screenFill = "#fbfbfc"
    /// Gesture labels.
    package static let gestureText = "#24292f"

    /// The constants above as a JavaScript object literal, for the live page.
    package static var javaScriptConstants: String {
        var s = "{touchColors:["
        s += touchColors.map { "\"" + $0 + "\"" }.joined(separator: ",")
        s += "],pathWidth:" + String(pathWidth)
        s += ",indirectDashes:\"" + (dashes(for: .indirect) ?? "") + "\""
        s += ",hoverDashes:\"" + hoverDashes + "\""
        s += ",symbols:{"
        s += WireGestureState.allCases.map { "\"" + $0.rawValue + "\":\"" + symbol(of: $0) + "\"" }.joined(separator: ",")
        s += "},arrows:{"
        s += WireSwipeDirection.allCases.map { "\"" + $0.rawValue + "\":\"" + arrow(of: $0) + "\"" }.joined(separator: ",")
        s += "},edgeZoneFill:\"" + edgeZoneFill + "\",surfaceStroke:\"" + surfaceStroke
        s += "\",screenFill:\"" + screenFill + "\",gestureText:\"" + gestureText + "\"}"
        return s
    }
}
