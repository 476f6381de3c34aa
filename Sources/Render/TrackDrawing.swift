// SPDX-License-Identifier: MIT
import DrawingStyle
import TouchCore

/// One touch track as SVG: its path (solid direct, dotted indirect, stylus
/// width from pressure, hover dashed), start and end markers, and its id.
struct TrackDrawing {
    var track: TraceScene.Track
    var layout: ScreenLayout

    /// The kind of one drawn stretch of a track.
    enum Stretch: Equatable {
        case contact(width: Double)
        case hover
    }

    /// Consecutive segments of equal style merged into runs of points.
    static func runs(_ track: TraceScene.Track) -> [(stretch: Stretch, points: [Point])] {
        var out: [(Stretch, [Point])] = []
        let samples = track.samples
        guard samples.count > 1 else { return [] }
        for k in 1..<samples.count {
            let a = samples[k - 1], b = samples[k]
            let stretch: Stretch
            if a.phase == .hover || b.phase == .hover {
                stretch = .hover
            } else if track.type == .stylus {
                stretch = .contact(width: RenderStyle.stylusWidth(force: b.force))
            } else {
                stretch = .contact(width: RenderStyle.pathWidth)
            }
            if let last = out.last, last.0 == stretch {
                out[out.count - 1].1.append(b.location)
            } else {
                out.append((stretch, [a.location, b.location]))
            }
        }
        return out
    }

    func draw(into w: inout SVGWriter) {
        let color = RenderStyle.color(of: track.id)
        w.open("g", [("class", "touch-path"), ("data-touch", String(track.id.rawValue)), ("data-track", String(track.index)),
                     ("data-type", track.type.rawValue), ("data-tool", track.tool.rawValue), ("data-end", track.end.rawValue),
                     ("data-samples", String(track.samples.count))])
        if let first = track.samples.first, let last = track.samples.last {
            w.title("touch \(track.id) (\(track.type.rawValue), \(track.tool.rawValue)): \(track.samples.count) states, \(svgNumber(last.time.milliseconds(since: first.time))) ms, \(track.end.rawValue)")
        }
        for run in Self.runs(track) {
            var attributes: [(String, String)] = [("d", pathData(run.points)), ("fill", "none"), ("stroke", color),
                                                  ("stroke-linecap", "round"), ("stroke-linejoin", "round")]
            switch run.stretch {
            case .contact(let width):
                attributes.insert(("class", "segment contact"), at: 0)
                attributes.append(("stroke-width", svgNumber(width)))
                if let dashes = RenderStyle.dashes(for: track.type) { attributes.append(("stroke-dasharray", dashes)) }
            case .hover:
                attributes.insert(("class", "segment hover"), at: 0)
                attributes.append(("stroke-width", "1.25"))
                attributes.append(("stroke-dasharray", RenderStyle.hoverDashes))
                attributes.append(("stroke-opacity", "0.8"))
            }
            w.empty("path", attributes)
        }
        markers(color, into: &w)
        w.close()
    }

    private func pathData(_ points: [Point]) -> String {
        var d = ""
        d.reserveCapacity(points.count * 12)
        var previous: Point? = nil
        for p in points {
            let q = layout.point(p)
            // Points closer than a tenth of a picture pixel add nothing but bytes.
            if let prev = previous, abs(prev.x - q.x) < 0.1, abs(prev.y - q.y) < 0.1 { continue }
            d += (previous == nil ? "M" : " L") + svgNumber(q.x) + " " + svgNumber(q.y)
            previous = q
        }
        return d
    }

    private func markers(_ color: String, into w: inout SVGWriter) {
        guard let first = track.samples.first, let last = track.samples.last else { return }
        if first.phase == .hover {
            let p = layout.point(first.location)
            w.empty("circle", [("class", "marker proximity-in"), ("cx", svgNumber(p.x)), ("cy", svgNumber(p.y)), ("r", "3.5"),
                               ("fill", "#ffffff"), ("stroke", color), ("stroke-width", "1.25")])
        }
        if let contact = track.samples.first(where: { $0.phase == .began }) {
            let p = layout.point(contact.location)
            w.empty("circle", [("class", "marker began"), ("cx", svgNumber(p.x)), ("cy", svgNumber(p.y)), ("r", "4.5"),
                               ("fill", color), ("stroke", "#ffffff"), ("stroke-width", "1")])
            w.element("text", [("class", "touch-label"), ("x", svgNumber(p.x - 6)), ("y", svgNumber(p.y - 7)),
                               ("text-anchor", "end"), ("font-size", "9"), ("fill", color)], text: "t\(track.id)")
        }
        let e = layout.point(last.location)
        switch track.end {
        case .ended:
            // The lift point; a hovering pen's last state may be elsewhere, so use the ended sample.
            let lift = track.samples.last(where: { $0.phase == .ended }).map { layout.point($0.location) } ?? e
            w.empty("rect", [("class", "marker ended"), ("x", svgNumber(lift.x - 3.5)), ("y", svgNumber(lift.y - 3.5)),
                             ("width", "7"), ("height", "7"), ("fill", color), ("stroke", "#ffffff"), ("stroke-width", "1")])
        case .cancelled:
            let r = 4.5
            w.empty("path", [("class", "marker cancelled"),
                             ("d", "M\(svgNumber(e.x - r)) \(svgNumber(e.y - r)) L\(svgNumber(e.x + r)) \(svgNumber(e.y + r)) M\(svgNumber(e.x - r)) \(svgNumber(e.y + r)) L\(svgNumber(e.x + r)) \(svgNumber(e.y - r))"),
                             ("stroke", color), ("stroke-width", "2.5"), ("stroke-linecap", "round")])
        case .proximityOut:
            if let lift = track.samples.last(where: { $0.phase == .ended }) {
                let p = layout.point(lift.location)
                w.empty("rect", [("class", "marker ended"), ("x", svgNumber(p.x - 3.5)), ("y", svgNumber(p.y - 3.5)),
                                 ("width", "7"), ("height", "7"), ("fill", color), ("stroke", "#ffffff"), ("stroke-width", "1")])
            }
            w.empty("rect", [("class", "marker proximity-out"), ("x", svgNumber(e.x - 3)), ("y", svgNumber(e.y - 3)),
                             ("width", "6"), ("height", "6"), ("fill", "#ffffff"), ("stroke", color), ("stroke-width", "1.25")])
        case .open:
            return
        }
    }
}
