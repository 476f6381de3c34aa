// SPDX-License-Identifier: MIT
import DrawingStyle
import Gestures
import TouchCore

/// Draws a ``TraceScene`` as a standalone SVG document: the screens at a fixed
/// width (aspect kept) with edge zones, surfaces, touch tracks and gesture
/// labels, then a timeline strip with one lane per recognizer.
///
/// Elements carry classes and `data-` attributes (`g.touch-path[data-touch]`,
/// `g.gesture[data-recognizer][data-state]`, `g.lane[data-recognizer]`,
/// `rect.edge-zone[data-edge]`, `rect.surface[data-surface]`) so that tests,
/// stylesheets and scripts can find them.
package struct TraceRenderer: Sendable {
    /// Width of the screen area in picture pixels; the picture adds margins.
    package var width: Double

    /// Creates a renderer.
    package init(width: Double = 960) {
        self.width = max(width, 200)
    }

    static let margin = 20.0
    static let headerHeight = 46.0
    static let screenGap = 20.0

    /// The SVG document.
    package func svg(_ scene: TraceScene) -> String {
        var w = SVGWriter()
        let layout = ScreenLayout(scene: scene, width: width, top: Self.margin + Self.headerHeight)
        let timeline = Timeline(scene: scene, width: width, top: layout.bottom + 36)
        let totalWidth = width + 2 * Self.margin
        let totalHeight = timeline.bottom + Self.margin
        w.declaration()
        w.open("svg", [
            ("xmlns", "http://www.w3.org/2000/svg"), ("version", "1.1"),
            ("width", svgNumber(totalWidth)), ("height", svgNumber(totalHeight)),
            ("viewBox", "0 0 \(svgNumber(totalWidth)) \(svgNumber(totalHeight))"),
            ("class", "touchd-trace"), ("font-family", "DejaVu Sans, Helvetica, Arial, sans-serif"),
        ])
        w.title(scene.title)
        w.empty("rect", [("class", "background"), ("width", "100%"), ("height", "100%"), ("fill", "#ffffff")])
        header(scene, into: &w)
        for screen in scene.screens { layout.draw(screen, scene: scene, into: &w) }
        timeline.draw(scene, into: &w)
        w.closeAll()
        return w.text
    }

    private func header(_ scene: TraceScene, into w: inout SVGWriter) {
        w.element("text", [("class", "title"), ("x", svgNumber(Self.margin)), ("y", svgNumber(Self.margin + 14)),
                           ("font-size", "15"), ("font-weight", "bold"), ("fill", "#24292f")], text: scene.title)
        let ms = scene.end.milliseconds(since: scene.start)
        var sub = scene.devices.joined(separator: ", ")
        if !sub.isEmpty { sub += " · " }
        sub += "\(scene.tracks.count) touches · \(scene.gestures.filter { $0.state != .changed }.count) gesture events · "
        sub += svgNumber(ms) + " ms"
        w.element("text", [("class", "subtitle"), ("x", svgNumber(Self.margin)), ("y", svgNumber(Self.margin + 34)),
                           ("font-size", "11"), ("fill", "#57606a")], text: sub)
    }
}

/// Where each screen goes in the picture, and how screen pixels map to picture pixels.
struct ScreenLayout {
    var scale: Double
    var origins: [Int: Point] = [:]
    var bottom: Double

    init(scene: TraceScene, width: Double, top: Double) {
        let total = scene.screens.reduce(0) { $0 + $1.width }
        let gaps = Double(max(scene.screens.count - 1, 0)) * TraceRenderer.screenGap
        scale = total > 0 ? (width - gaps) / total : 1
        var x = TraceRenderer.margin
        var tallest = 0.0
        for s in scene.screens {
            origins[s.index] = Point(x: x, y: top)
            x += s.width * scale + TraceRenderer.screenGap
            tallest = max(tallest, s.height * scale)
        }
        bottom = top + tallest
    }

    func point(_ p: Point) -> Point { p * scale }

    func draw(_ screen: TraceScene.Screen, scene: TraceScene, into w: inout SVGWriter) {
        let origin = origins[screen.index] ?? Point(x: TraceRenderer.margin, y: 0)
        let sw = screen.width * scale, sh = screen.height * scale
        w.open("g", [("class", "screen"), ("data-screen", String(screen.index)),
                     ("transform", "translate(\(svgNumber(origin.x)),\(svgNumber(origin.y)))")])
        w.open("clipPath", [("id", "screen-clip-\(screen.index)")])
        w.empty("rect", [("width", svgNumber(sw)), ("height", svgNumber(sh))])
        w.close()
        w.empty("rect", [("class", "screen-outline"), ("width", svgNumber(sw)), ("height", svgNumber(sh)),
                         ("fill", RenderStyle.screenFill), ("stroke", "#24292f"), ("stroke-width", "1.5")])
        for zone in scene.edgeZones where zone.screen == screen.index { draw(zone, into: &w) }
        for surface in scene.surfaces where surface.screen == screen.index { draw(surface, into: &w) }
        w.element("text", [("class", "screen-label"), ("x", svgNumber(sw)), ("y", "-5"), ("text-anchor", "end"),
                           ("font-size", "11"), ("fill", "#57606a")],
                  text: "\(screen.name) \(svgNumber(screen.width))×\(svgNumber(screen.height))")
        w.open("g", [("class", "tracks"), ("clip-path", "url(#screen-clip-\(screen.index))")])
        for track in scene.tracks where track.screen == screen.index { TrackDrawing(track: track, layout: self).draw(into: &w) }
        w.close()
        var labels = LabelPlacer(bounds: ScreenRect(x: 0, y: 0, width: sw, height: sh))
        drawTrails(scene.gestures, into: &w)
        for g in scene.gestures where g.state != .changed && screenOf(g, scene) == screen.index {
            drawGesture(g, since: scene.start, labels: &labels, into: &w)
        }
        for e in scene.systemEvents { drawSystemEvent(e, screen: screen, labels: &labels, into: &w) }
        drawSessions(scene.dragRecords.filter { $0.screen == screen.index }, since: scene.start, labels: &labels, into: &w)
        w.close()
    }

    /// A drag session's label, as the live view writes it: items, types, the target and its proposal, or the end.
    static func sessionLabel(_ records: ArraySlice<DragSessionRecord>) -> String {
        guard let last = records.last else { return "" }
        var target: SurfaceID?, proposal: DropOperation?, ended: String?
        for r in records {
            switch r.kind {
            case .entered(_, let s): target = s; proposal = .cancel
            case .exited: target = nil; proposal = nil
            case .proposal(_, _, let op): proposal = op
            case .ended(let outcome, let reason): ended = "\(outcome.rawValue) (\(reason.rawValue))"
            default: break
            }
        }
        var t = "session \(last.session): \(last.items) \(last.items == 1 ? "item" : "items")"
        if !last.types.isEmpty { t += " (" + last.types.joined(separator: ", ") + ")" }
        if let ended { return t + " ended " + ended }
        if let target, let proposal { t += " → \(target): \(proposal.rawValue)" }
        return t
    }

    /// Each drag session (semantics §12): a square where a target was entered or the items dropped,
    /// a line through its decisions, and its label at the last one. Never the items' data.
    private func drawSessions(_ records: [DragSessionRecord], since start: Timestamp, labels: inout LabelPlacer, into w: inout SVGWriter) {
        var ids: [Int] = []
        for r in records where !ids.contains(r.session) { ids.append(r.session) }
        for id in ids {
            let mine = ArraySlice(records.filter { $0.session == id })
            guard let last = mine.last else { continue }
            let text = Self.sessionLabel(mine)
            var attributes = [("class", "drag-session"), ("data-session", String(id)), ("data-source", last.sourceSurface.rawValue),
                              ("data-items", String(last.items)), ("data-types", last.types.joined(separator: " "))]
            if case let .ended(outcome, reason) = last.kind { attributes.append(("data-ended", "\(outcome.rawValue) (\(reason.rawValue))")) }
            w.open("g", attributes)
            w.title(mine.map { $0.description }.joined(separator: "\n"))
            let points = mine.map { point($0.location) }
            w.empty("path", [("class", "drag-session-path"),
                             ("d", points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(svgNumber($0.element.x)) \(svgNumber($0.element.y))" }.joined(separator: " ")),
                             ("fill", "none"), ("stroke", "#1a7f37"), ("stroke-width", "1"), ("stroke-dasharray", "4 2")])
            for r in mine {
                let kind: String
                switch r.kind {
                case .entered: kind = "entered"
                case .dropped: kind = "dropped"
                default: continue
                }
                let p = point(r.location)
                w.empty("rect", [("class", "drag-session-mark"), ("data-event", kind), ("x", svgNumber(p.x - 3.5)), ("y", svgNumber(p.y - 3.5)),
                                 ("width", "7"), ("height", "7"), ("fill", kind == "dropped" ? "#1a7f37" : "#ffffff"), ("stroke", "#1a7f37")])
            }
            let p = point(last.location)
            let label = text + " " + svgNumber(last.time.milliseconds(since: start).rounded()) + " ms"
            let at = labels.place(near: p, text: label)
            w.element("text", [("class", "drag-session-label"), ("x", svgNumber(at.x)), ("y", svgNumber(at.y)), ("font-size", "11"),
                               ("fill", RenderStyle.gestureText), ("stroke", "#ffffff"), ("stroke-width", "3"),
                               ("paint-order", "stroke")], text: label)
            w.close()
        }
    }

    private func draw(_ zone: TraceScene.EdgeZone, into w: inout SVGWriter) {
        w.open("rect", [("class", "edge-zone"), ("data-edge", zone.edge.rawValue), ("data-screen", String(zone.screen)),
                        ("data-purpose", zone.purpose),
                        ("x", svgNumber(zone.rect.x * scale)), ("y", svgNumber(zone.rect.y * scale)),
                        ("width", svgNumber(zone.rect.width * scale)), ("height", svgNumber(zone.rect.height * scale)),
                        ("fill", RenderStyle.edgeZoneFill), ("fill-opacity", "0.8")])
        w.title("\(zone.edge.rawValue) edge zone: \(zone.purpose) (\(svgNumber(zone.rect.width))×\(svgNumber(zone.rect.height)) px)")
        w.close()
    }

    private func draw(_ s: TraceScene.Surface, into w: inout SVGWriter) {
        let x = s.frame.x * scale, y = s.frame.y * scale
        w.open("g", [("class", "surface-group"), ("data-surface", s.id.rawValue)])
        w.open("rect", [("class", "surface"), ("data-surface", s.id.rawValue), ("data-owner", s.owner),
                        ("x", svgNumber(x + 1)), ("y", svgNumber(y + 1)),
                        ("width", svgNumber(max(s.frame.width * scale - 2, 0))), ("height", svgNumber(max(s.frame.height * scale - 2, 0))),
                        ("fill", "none"), ("stroke", RenderStyle.surfaceStroke), ("stroke-dasharray", "4 3")])
        w.title("surface \(s.id.rawValue) (owner \(s.owner)): " + s.recognizers.joined(separator: ", "))
        w.close()
        w.element("text", [("class", "surface-label"), ("x", svgNumber(x + 5)), ("y", svgNumber(y + 14)),
                           ("font-size", "10"), ("fill", RenderStyle.surfaceStroke)],
                  text: "\(s.id.rawValue) (\(s.owner))")
        w.close()
    }

    private func screenOf(_ g: GestureEvent, _ scene: TraceScene) -> Int {
        scene.tracks.first { $0.device == g.device }?.screen ?? 0
    }

    /// The centroid path of each continuous gesture, from `began` to its end.
    private func drawTrails(_ gestures: [GestureEvent], into w: inout SVGWriter) {
        var open: [String: [Point]] = [:]
        var order: [String] = []
        func flush(_ key: String, _ g: GestureEvent) {
            guard let points = open.removeValue(forKey: key), points.count > 1 else { return }
            var d = ""
            for (k, p) in points.enumerated() {
                let q = point(p)
                d += (k == 0 ? "M" : " L") + svgNumber(q.x) + " " + svgNumber(q.y)
            }
            w.empty("path", [("class", "gesture-trail"), ("data-recognizer", g.recognizer), ("d", d), ("fill", "none"),
                             ("stroke", "#24292f"), ("stroke-opacity", "0.45"), ("stroke-width", "1"), ("stroke-dasharray", "2 2")])
        }
        for g in gestures where !g.kind.isDiscrete {
            let key = (g.surface?.rawValue ?? "") + "/" + g.recognizer
            switch g.state {
            case .began:
                open[key] = [g.location]
                order.append(key)
            case .changed:
                open[key]?.append(g.location)
            case .ended, .cancelled:
                open[key]?.append(g.location)
                flush(key, g)
            case .recognized:
                continue
            }
        }
    }

    /// The label of a gesture event: recognizer, state symbol, what it measured, and when (ms from the start).
    static func label(_ g: GestureEvent, since start: Timestamp) -> String {
        var s = g.recognizer + " " + RenderStyle.symbol(of: g.state)
        if let d = g.direction { s += " " + RenderStyle.arrow(of: d) }
        if let taps = g.taps, taps > 1 { s += " ×\(taps)" }
        if g.touches > 1 { s += " \(g.touches) touches" }
        if let p = g.purpose { s += " " + p }
        return s + " " + svgNumber(g.time.milliseconds(since: start).rounded()) + " ms"
    }

    private func drawGesture(_ g: GestureEvent, since start: Timestamp, labels: inout LabelPlacer, into w: inout SVGWriter) {
        let p = point(g.location)
        let text = Self.label(g, since: start)
        let at = labels.place(near: p, text: text)
        var attributes = [("class", "gesture"), ("data-recognizer", g.recognizer), ("data-kind", g.kind.rawValue),
                          ("data-state", g.state.rawValue), ("data-owner", g.owner),
                          ("data-time-ms", svgNumber(g.time.milliseconds(since: start)))]
        if let s = g.surface { attributes.append(("data-surface", s.rawValue)) }
        if g.isSystem { attributes.append(("data-system", "true")) }
        w.open("g", attributes)
        w.title("\(g.owner) \(g.surface?.rawValue ?? "system") \(g.recognizer): \(g.kind.rawValue) \(g.state.rawValue), \(g.touches) touch(es) at (\(svgNumber(g.location.x)), \(svgNumber(g.location.y))), t = \(g.time)")
        let r = 4.5
        w.empty("path", [("class", "gesture-mark"),
                         ("d", "M\(svgNumber(p.x)) \(svgNumber(p.y - r)) L\(svgNumber(p.x + r)) \(svgNumber(p.y)) L\(svgNumber(p.x)) \(svgNumber(p.y + r)) L\(svgNumber(p.x - r)) \(svgNumber(p.y))Z"),
                         ("fill", RenderStyle.gestureText), ("fill-opacity", "0.8")])
        if abs(at.y - 4 - p.y) > LabelPlacer.lineHeight {
            let anchorX = at.x > p.x ? at.x : at.x + LabelPlacer.width(text)
            w.empty("line", [("class", "gesture-leader"), ("x1", svgNumber(p.x)), ("y1", svgNumber(p.y)),
                             ("x2", svgNumber(anchorX)), ("y2", svgNumber(at.y - 4)), ("stroke", "#8c959f"), ("stroke-width", "0.75")])
        }
        w.element("text", [("class", "gesture-label"), ("x", svgNumber(at.x)), ("y", svgNumber(at.y)), ("font-size", "11"),
                           ("fill", RenderStyle.gestureText), ("stroke", "#ffffff"), ("stroke-width", "3"),
                           ("paint-order", "stroke"), ("stroke-linejoin", "round")], text: text)
        w.close()
    }

    private func drawSystemEvent(_ e: SystemEvent, screen: TraceScene.Screen, labels: inout LabelPlacer, into w: inout SVGWriter) {
        guard case let .edgeHint(edge, index, _) = e.kind, index == screen.index else { return }
        let sw = screen.width * scale, sh = screen.height * scale
        let p: Point
        switch edge {
        case .left: p = Point(x: 8, y: sh / 2)
        case .right: p = Point(x: sw - 8, y: sh / 2)
        case .top: p = Point(x: sw / 2, y: 8)
        case .bottom: p = Point(x: sw / 2, y: sh - 8)
        }
        let text = "edge hint \(edge.rawValue)"
        let at = labels.place(near: p, text: text)
        w.open("g", [("class", "system-event"), ("data-event", "edge-hint"), ("data-edge", edge.rawValue)])
        w.element("text", [("x", svgNumber(at.x)), ("y", svgNumber(at.y)), ("font-size", "11"), ("fill", "#9a6700"),
                           ("stroke", "#ffffff"), ("stroke-width", "3"), ("paint-order", "stroke")], text: text)
        w.close()
    }
}

/// Places labels next to their point without overlapping earlier labels.
struct LabelPlacer {
    var bounds: ScreenRect
    var placed: [ScreenRect] = []
    static let lineHeight = 14.0

    /// Estimated width of `text` at 11 px (labels are short; exact metrics are the viewer's).
    static func width(_ text: String) -> Double { Double(text.count) * 6.6 }

    /// The baseline origin for a label near `p`: beside it on the right (else the left), moved up or
    /// down, nearest first, until it overlaps no earlier label.
    mutating func place(near p: Point, text: String) -> Point {
        let w = Self.width(text), h = Self.lineHeight
        let right = p.x + 7, left = p.x - 7 - w
        let maxX = bounds.x + bounds.width, maxY = bounds.y + bounds.height
        var sides: [Double] = []
        if right + w <= maxX { sides.append(right) }
        if left >= bounds.x { sides.append(left) }
        if sides.isEmpty { sides.append(max(bounds.x, min(right, maxX - w))) }
        func box(_ x: Double, _ y: Double) -> ScreenRect { ScreenRect(x: x, y: y - h + 3, width: w, height: h) }
        for step in 0..<60 {
            // 0, -1, +1, -2, +2... lines from the point.
            let offset = Double((step + 1) / 2) * (step % 2 == 0 ? 1 : -1) * h
            let y = p.y + 4 + offset
            guard y - h + 3 >= bounds.y, y <= maxY else { continue }
            for x in sides where !placed.contains(where: { $0.intersects(box(x, y)) }) {
                placed.append(box(x, y))
                return Point(x: x, y: y)
            }
        }
        let y = min(max(p.y + 4, bounds.y + h), maxY)
        placed.append(box(sides[0], y))
        return Point(x: sides[0], y: y)
    }
}

extension ScreenRect {
    func intersects(_ o: ScreenRect) -> Bool {
        x < o.x + o.width && o.x < x + width && y < o.y + o.height && o.y < y + height
    }
}
