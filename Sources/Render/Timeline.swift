// SPDX-License-Identifier: MIT
import DrawingStyle
import Gestures
import TouchCore

/// The strip below the screens: when each touch was down, then one lane per
/// recognizer with its state intervals and arbitration decisions, on a
/// millisecond axis.
struct Timeline {
    static let labelWidth = 170.0
    static let laneHeight = 16.0
    static let laneGap = 5.0
    static let minimumBlock = 3.0

    var scene: TraceScene
    var width: Double
    var top: Double

    var plotWidth: Double { width - Self.labelWidth }
    var touchLaneHeight: Double { Double(max(min(scene.tracks.count, 12), 1)) * 4 + 6 }
    var lanesTop: Double { top + 18 + touchLaneHeight + Self.laneGap }
    var axisTop: Double { lanesTop + Double(scene.lanes.count) * (Self.laneHeight + Self.laneGap) + 2 }
    var legendTop: Double { axisTop + 34 }
    var bottom: Double { legendTop + 34 }

    var duration: Double { max(scene.end.milliseconds(since: scene.start), 1) }

    func x(_ t: Timestamp) -> Double {
        TraceRenderer.margin + Self.labelWidth + t.milliseconds(since: scene.start) / duration * plotWidth
    }

    /// A tick step of 1, 2 or 5 times a power of ten milliseconds giving at most about ten ticks.
    static func tickStep(forDuration ms: Double) -> Double {
        var step = 1.0
        while ms / step > 10 {
            if ms / (step * 2) <= 10 { return step * 2 }
            if ms / (step * 5) <= 10 { return step * 5 }
            step *= 10
        }
        return step
    }

    func draw(_ scene: TraceScene, into w: inout SVGWriter) {
        w.open("g", [("class", "timeline"), ("data-start", String(scene.start.microseconds)),
                     ("data-duration-ms", svgNumber(duration))])
        w.element("text", [("class", "timeline-title"), ("x", svgNumber(TraceRenderer.margin)), ("y", svgNumber(top + 10)),
                           ("font-size", "12"), ("font-weight", "bold"), ("fill", "#24292f")], text: "Timeline")
        touchLane(into: &w)
        for (k, lane) in scene.lanes.enumerated() {
            draw(lane, y: lanesTop + Double(k) * (Self.laneHeight + Self.laneGap), into: &w)
        }
        axis(into: &w)
        legend(into: &w)
        w.close()
    }

    private func touchLane(into w: inout SVGWriter) {
        let y0 = top + 18
        let rows = max(min(scene.tracks.count, 12), 1)
        w.open("g", [("class", "touch-lane")])
        w.element("text", [("class", "lane-label"), ("x", svgNumber(TraceRenderer.margin + Self.labelWidth - 8)),
                           ("y", svgNumber(y0 + touchLaneHeight / 2 + 4)), ("text-anchor", "end"), ("font-size", "11"),
                           ("fill", "#24292f")], text: "touches")
        for track in scene.tracks {
            guard let first = track.samples.first, let last = track.samples.last else { continue }
            let x0 = x(first.time), x1 = max(x(last.time), x0 + Self.minimumBlock)
            let y = y0 + 3 + Double(track.index % rows) * 4
            var attributes: [(String, String)] = [
                ("class", "touch-span"), ("data-touch", String(track.id.rawValue)), ("data-track", String(track.index)),
                ("x1", svgNumber(x0)), ("x2", svgNumber(x1)), ("y1", svgNumber(y)), ("y2", svgNumber(y)),
                ("stroke", RenderStyle.color(of: track.id)), ("stroke-width", "3"),
            ]
            if !track.hasContact { attributes.append(("stroke-dasharray", "3 2")) }
            w.open("line", attributes)
            w.title("touch \(track.id): \(svgNumber(first.time.milliseconds(since: scene.start))) to \(svgNumber(last.time.milliseconds(since: scene.start))) ms")
            w.close()
        }
        w.close()
    }

    private func draw(_ lane: TraceScene.Lane, y: Double, into w: inout SVGWriter) {
        w.open("g", [("class", "lane"), ("data-recognizer", lane.recognizer),
                     ("data-intervals", String(lane.intervals.count)), ("data-decisions", String(lane.decisions.count))])
        w.element("text", [("class", "lane-label"), ("x", svgNumber(TraceRenderer.margin + Self.labelWidth - 8)),
                           ("y", svgNumber(y + Self.laneHeight - 4)), ("text-anchor", "end"), ("font-size", "11"),
                           ("fill", "#24292f")], text: lane.recognizer)
        w.empty("rect", [("class", "lane-background"), ("x", svgNumber(TraceRenderer.margin + Self.labelWidth)),
                         ("y", svgNumber(y)), ("width", svgNumber(plotWidth)), ("height", svgNumber(Self.laneHeight)),
                         ("fill", "#f6f8fa")])
        for interval in lane.intervals {
            let x0 = x(interval.start)
            let x1 = max(x(interval.end), x0 + Self.minimumBlock)
            w.open("rect", [("class", "state"), ("data-state", interval.state.rawValue),
                            ("data-start-ms", svgNumber(interval.start.milliseconds(since: scene.start))),
                            ("x", svgNumber(x0)), ("y", svgNumber(y + 2)), ("width", svgNumber(x1 - x0)),
                            ("height", svgNumber(Self.laneHeight - 4)), ("fill", RenderStyle.color(of: interval.state))])
            w.title("\(lane.recognizer): \(interval.state.rawValue) from \(svgNumber(interval.start.milliseconds(since: scene.start))) to \(svgNumber(interval.end.milliseconds(since: scene.start))) ms")
            w.close()
        }
        for d in lane.decisions {
            let dx = x(d.time)
            var attributes: [(String, String)] = [("class", "decision"), ("data-decision", d.kind)]
            if let other = d.other { attributes.append(("data-other", other)) }
            w.open("g", attributes)
            w.title(d.text)
            w.empty("line", [("x1", svgNumber(dx)), ("x2", svgNumber(dx)), ("y1", svgNumber(y - 1)), ("y2", svgNumber(y + Self.laneHeight + 1)),
                             ("stroke", Self.color(ofDecision: d.kind)), ("stroke-width", "2")])
            w.empty("path", [("d", "M\(svgNumber(dx - 3)) \(svgNumber(y - 4)) L\(svgNumber(dx + 3)) \(svgNumber(y - 4)) L\(svgNumber(dx)) \(svgNumber(y))Z"),
                             ("fill", Self.color(ofDecision: d.kind))])
            w.close()
        }
        w.close()
    }

    /// Colour of a decision tick.
    static func color(ofDecision kind: String) -> String {
        switch kind {
        case "excluded": return "#cf222e"
        case "waiting": return "#d4a72c"
        case "released": return "#1a7f37"
        case "simultaneous": return "#8250df"
        case "dropped": return "#6e7781"
        case "cancelled": return "#bc4c00"
        case "failing", "gated": return "#a40e26"
        case "refused": return "#8c959f"
        default: return "#bf3989"
        }
    }

    private func axis(into w: inout SVGWriter) {
        let left = TraceRenderer.margin + Self.labelWidth
        w.open("g", [("class", "time-axis")])
        w.empty("line", [("x1", svgNumber(left)), ("x2", svgNumber(left + plotWidth)), ("y1", svgNumber(axisTop)),
                         ("y2", svgNumber(axisTop)), ("stroke", "#57606a"), ("stroke-width", "1")])
        let step = Self.tickStep(forDuration: duration)
        var ms = 0.0
        while ms <= duration + 1e-9 {
            let tx = left + ms / duration * plotWidth
            w.empty("line", [("class", "tick"), ("data-ms", svgNumber(ms)), ("x1", svgNumber(tx)), ("x2", svgNumber(tx)),
                             ("y1", svgNumber(axisTop)), ("y2", svgNumber(axisTop + 5)), ("stroke", "#57606a")])
            w.element("text", [("class", "tick-label"), ("x", svgNumber(tx)), ("y", svgNumber(axisTop + 17)),
                               ("text-anchor", "middle"), ("font-size", "10"), ("fill", "#57606a")], text: svgNumber(ms) + " ms")
            ms += step
        }
        w.close()
    }

    private func legend(into w: inout SVGWriter) {
        var x = TraceRenderer.margin
        let y = legendTop
        w.open("g", [("class", "legend")])
        for state in RecognizerState.allCases {
            w.empty("rect", [("x", svgNumber(x)), ("y", svgNumber(y)), ("width", "12"), ("height", "10"), ("fill", RenderStyle.color(of: state))])
            w.element("text", [("x", svgNumber(x + 16)), ("y", svgNumber(y + 9)), ("font-size", "10"), ("fill", "#24292f")], text: state.rawValue)
            x += 26 + Double(state.rawValue.count) * 6
        }
        x += 10
        for kind in ["excluded", "waiting", "released", "simultaneous", "dropped"] {
            w.empty("line", [("x1", svgNumber(x + 3)), ("x2", svgNumber(x + 3)), ("y1", svgNumber(y - 1)), ("y2", svgNumber(y + 11)),
                             ("stroke", Self.color(ofDecision: kind)), ("stroke-width", "2")])
            w.element("text", [("x", svgNumber(x + 9)), ("y", svgNumber(y + 9)), ("font-size", "10"), ("fill", "#24292f")], text: kind)
            x += 20 + Double(kind.count) * 6
        }
        let y2 = y + 20
        w.element("text", [("x", svgNumber(TraceRenderer.margin)), ("y", svgNumber(y2 + 9)), ("font-size", "10"), ("fill", "#57606a")],
                  text: "● began  ■ ended  ✕ cancelled  ○ stylus in proximity  □ out of proximity  — direct  ··· indirect  — stylus (width = pressure)  - - hover  ◆ gesture")
        w.close()
    }
}
