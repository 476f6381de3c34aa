// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import Session

/// Everything a picture of a replay shows, collected from one run of a
/// ``ReplaySession``: screens with their edge zones and surfaces, every
/// touch's track, the gestures, and per recognizer its states and the
/// arbitration decisions that concerned it.
package struct TraceScene: Sendable {
    /// One screen of the configuration.
    package struct Screen: Hashable, Sendable {
        /// Index in the configuration.
        package var index: Int
        /// Its name.
        package var name: String
        /// Size in pixels.
        package var width: Double
        /// Size in pixels.
        package var height: Double
    }

    /// The zone along one screen edge where a system edge swipe must start.
    package struct EdgeZone: Hashable, Sendable {
        /// The screen.
        package var screen: Int
        /// The edge.
        package var edge: SurfaceEdge
        /// What the edge's gesture is for (`home`...).
        package var purpose: String
        /// The zone, in screen pixels.
        package var rect: ScreenRect
    }

    /// A configured surface.
    package struct Surface: Hashable, Sendable {
        /// Its id.
        package var id: SurfaceID
        /// Its owner (`default`, `config`...).
        package var owner: String
        /// The screen.
        package var screen: Int
        /// Where it is, in screen pixels.
        package var frame: ScreenRect
        /// Names of its recognizers.
        package var recognizers: [String]
    }

    /// One state of a touch along its track.
    package struct Sample: Hashable, Sendable {
        /// When.
        package var time: Timestamp
        /// Where, in screen pixels.
        package var location: Point
        /// `began`, `moved`, `ended`, `cancelled` or `hover`.
        package var phase: TouchPhase
        /// Normalised pressure, when reported.
        package var force: Double?
    }

    /// How a track ends.
    package enum TrackEnd: String, Hashable, Sendable {
        /// The contact lifted.
        case ended
        /// The touch was cancelled.
        case cancelled
        /// A hovering stylus left proximity.
        case proximityOut = "proximity-out"
        /// The trace ended first.
        case open
    }

    /// One touch from its first state to its last (a stylus's hover before and
    /// after contact belongs to the same track while the pen stays in proximity).
    package struct Track: Hashable, Sendable {
        /// The touch id (ids are reused: several tracks may have one id).
        package var id: TouchID
        /// Position of the track in the scene, from 0.
        package var index: Int
        /// The device.
        package var device: DeviceID
        /// The screen.
        package var screen: Int
        /// Direct, indirect or stylus.
        package var type: TouchType
        /// The tool.
        package var tool: Tool
        /// Its states, in order.
        package var samples: [Sample]
        /// How it ends.
        package var end: TrackEnd

        /// True when the stylus or finger touched the surface at some point (not only hovered).
        package var hasContact: Bool { samples.contains { $0.phase != .hover } }
    }

    /// One stretch of a recognizer in one state.
    package struct StateInterval: Hashable, Sendable {
        /// The state.
        package var state: RecognizerState
        /// When it was entered.
        package var start: Timestamp
        /// When it was left: the next transition, the reset after a terminal state, or the end of the scene.
        package var end: Timestamp
    }

    /// An arbitration decision or explanation attached to a recognizer.
    package struct Decision: Hashable, Sendable {
        /// When.
        package var time: Timestamp
        /// `excluded`, `waiting`, `released`, `simultaneous`, `dropped`, `cancelled`, `gated`, `failing` or `refused`.
        package var kind: String
        /// The other recognizer (excluded by, waiting on, ...), when there is one.
        package var other: String?
        /// The debug record as one readable line.
        package var text: String
    }

    /// One recognizer's timeline.
    package struct Lane: Hashable, Sendable {
        /// Qualified name: `surface/name`, or `system:name`.
        package var recognizer: String
        /// Its states, in order.
        package var intervals: [StateInterval]
        /// Decisions concerning it, in order.
        package var decisions: [Decision]
    }

    /// A headline for the picture (file names).
    package var title: String
    /// Names of the devices replayed.
    package var devices: [String]
    /// The screens.
    package var screens: [Screen]
    /// System edge zones.
    package var edgeZones: [EdgeZone]
    /// Configured surfaces.
    package var surfaces: [Surface]
    /// Touch tracks, in the order they began.
    package var tracks: [Track]
    /// Every gesture event, in order.
    package var gestures: [GestureEvent]
    /// System events (deferral decisions, edge hints), in order.
    package var systemEvents: [SystemEvent]
    /// Drag sessions' decisions (semantics §12), in order: never the items' data.
    package var dragRecords: [DragSessionRecord] = []
    /// One lane per recognizer that had touches in play, in order of first appearance.
    package var lanes: [Lane]
    /// Time of the first thing shown.
    package var start: Timestamp
    /// Time of the last thing shown (at least `start`).
    package var end: Timestamp

    /// Creates a scene from parts (tests, or a picture of something other than a replay).
    package init(title: String, devices: [String] = [], screens: [Screen], edgeZones: [EdgeZone] = [],
                surfaces: [Surface] = [], tracks: [Track] = [], gestures: [GestureEvent] = [],
                systemEvents: [SystemEvent] = [], lanes: [Lane] = [], start: Timestamp, end: Timestamp) {
        self.title = title
        self.devices = devices
        self.screens = screens
        self.edgeZones = edgeZones
        self.surfaces = surfaces
        self.tracks = tracks
        self.gestures = gestures
        self.systemEvents = systemEvents
        self.lanes = lanes
        self.start = start
        self.end = max(start, end)
    }

    /// Replays `session` (with debug records) and collects what it shows.
    package init(session: ReplaySession, title: String) {
        let pipeline = session.makePipeline()
        let gestures = session.configuration.withScreenSizes(from: pipeline.devices).gestures
        var collector = SceneCollector()
        session.run(recordsDebug: true) { collector.add($0) }
        collector.finish()

        self.init(
            title: title, devices: pipeline.devices.map { $0.description.name },
            screens: gestures.screens.enumerated().map { i, g in
                Screen(index: i, name: i < session.configuration.screens.count ? session.configuration.screens[i].name : "screen \(i)",
                       width: Double(g.width), height: Double(g.height))
            },
            edgeZones: Self.edgeZones(gestures),
            surfaces: gestures.surfaces.filter { !$0.hidden }.map {
                Surface(id: $0.id, owner: $0.owner, screen: $0.screen, frame: $0.frame, recognizers: $0.recognizers.map(\.name))
            },
            tracks: collector.tracks, gestures: collector.gestures, systemEvents: collector.systemEvents,
            lanes: collector.lanes.filter(\.sawTouches).map(\.lane),
            start: collector.first ?? .zero, end: collector.last ?? .zero)
        dragRecords = collector.dragRecords
    }

    /// The edge zones of a gesture configuration, in screen pixels.
    package static func edgeZones(_ g: GestureConfiguration) -> [EdgeZone] {
        var out: [EdgeZone] = []
        for entry in g.systemGestures where entry.screen < g.screens.count {
            let screen = g.screens[entry.screen]
            let density = screen.pixelsPerMillimetre ?? ScreenGeometry.fallbackPixelsPerMillimetre
            let w = Double(screen.width), h = Double(screen.height)
            let zone = entry.edgeZone * density
            for edge in SurfaceEdge.allCases where entry.edges.contains(edge) {
                let rect: ScreenRect
                switch edge {
                case .left: rect = ScreenRect(x: 0, y: 0, width: min(zone, w), height: h)
                case .right: rect = ScreenRect(x: max(w - zone, 0), y: 0, width: min(zone, w), height: h)
                case .top: rect = ScreenRect(x: 0, y: 0, width: w, height: min(zone, h))
                case .bottom: rect = ScreenRect(x: 0, y: max(h - zone, 0), width: w, height: min(zone, h))
                }
                out.append(EdgeZone(screen: entry.screen, edge: edge, purpose: entry.purpose(of: edge), rect: rect))
            }
        }
        return out
    }
}

/// Builds tracks and lanes from replay output, one output at a time.
struct SceneCollector {
    struct LaneBuilder {
        var lane: TraceScene.Lane
        var sawTouches = false
        /// The last interval is still going on (a reset to `possible` after a terminal state makes the lane idle).
        var isOpen = false
    }

    var tracks: [TraceScene.Track] = []
    var gestures: [GestureEvent] = []
    var systemEvents: [SystemEvent] = []
    /// Drag sessions' decisions (semantics §12), in order.
    var dragRecords: [DragSessionRecord] = []
    var lanes: [LaneBuilder] = []
    var first: Timestamp?
    var last: Timestamp?
    private var openTrack: [TouchID: Int] = [:]
    private var laneIndex: [String: Int] = [:]

    mutating func add(_ output: ReplayOutput) {
        switch output {
        case .touch(let t):
            see(t.time)
            add(t)
        case .engine(.gesture(let g)):
            see(g.time)
            gestures.append(g)
        case .engine(.system(let e)):
            systemEvents.append(e)
        case .engine(.debug(let d)):
            add(d)
        case .engine(.touch), .engine(.mirror):
            // A surface's raw stream and a mirror repeat touches already drawn from the pipeline.
            return
        case .drag(let r):
            see(r.time)
            dragRecords.append(r)
        }
    }

    mutating func finish() {
        guard let end = last else { return }
        for i in lanes.indices where lanes[i].isOpen {
            close(lane: i, at: end)
        }
    }

    private mutating func see(_ time: Timestamp) {
        if first == nil || time < first! { first = time }
        if last == nil || time > last! { last = time }
    }

    private mutating func add(_ t: Touch) {
        let sample = TraceScene.Sample(time: t.time, location: t.location, phase: t.phase, force: t.force)
        let k: Int
        if let open = openTrack[t.id] {
            k = open
            tracks[k].samples.append(sample)
        } else {
            k = tracks.count
            tracks.append(TraceScene.Track(id: t.id, index: k, device: t.device, screen: t.screen, type: t.type,
                                           tool: t.tool, samples: [sample], end: .open))
            openTrack[t.id] = k
        }
        switch t.phase {
        case .ended:
            tracks[k].end = .ended
            openTrack[t.id] = nil
        case .cancelled:
            tracks[k].end = .cancelled
            openTrack[t.id] = nil
        case .hover:
            if !t.inProximity {
                tracks[k].end = .proximityOut
                openTrack[t.id] = nil
            }
        case .began, .moved:
            return
        }
    }

    private mutating func lane(_ name: String) -> Int {
        if let i = laneIndex[name] { return i }
        lanes.append(LaneBuilder(lane: TraceScene.Lane(recognizer: name, intervals: [], decisions: [])))
        laneIndex[name] = lanes.count - 1
        return lanes.count - 1
    }

    private mutating func close(lane i: Int, at time: Timestamp) {
        let k = lanes[i].lane.intervals.count - 1
        lanes[i].lane.intervals[k].end = max(time, lanes[i].lane.intervals[k].start)
        lanes[i].isOpen = false
    }

    private mutating func enter(_ state: RecognizerState, lane i: Int, at time: Timestamp) {
        if lanes[i].isOpen { close(lane: i, at: time) }
        lanes[i].lane.intervals.append(TraceScene.StateInterval(state: state, start: time, end: time))
        lanes[i].isOpen = true
    }

    private mutating func decide(_ d: DebugRecord, _ kind: String, other: String?) {
        guard let name = d.recognizer else { return }
        let i = lane(name)
        lanes[i].lane.decisions.append(TraceScene.Decision(time: d.time, kind: kind, other: other, text: d.description))
    }

    private mutating func add(_ d: DebugRecord) {
        switch d.kind {
        case .inPlay(_, let names):
            for name in names {
                let i = lane(name)
                lanes[i].sawTouches = true
                if !lanes[i].isOpen { enter(.possible, lane: i, at: d.time) }
            }
        case .transition(let from, let to):
            guard let name = d.recognizer else { return }
            let i = lane(name)
            lanes[i].sawTouches = true
            if from.isTerminal && to == .possible {
                // The reset after an interaction: idle until touches are in play again.
                if lanes[i].isOpen { close(lane: i, at: d.time) }
            } else {
                enter(to, lane: i, at: d.time)
            }
        case .excluded(let by): decide(d, "excluded", other: by)
        case .simultaneous(let with): decide(d, "simultaneous", other: with)
        case .waiting(let on): decide(d, "waiting", other: on)
        case .released(let by): decide(d, "released", other: by)
        case .dropped(let by): decide(d, "dropped", other: by)
        case .cancelled: decide(d, "cancelled", other: nil)
        case .gated: decide(d, "gated", other: nil)
        case .failing: decide(d, "failing", other: nil)
        case .refused: decide(d, "refused", other: nil)
        case .bug: decide(d, "bug", other: nil)
        case .unhandled, .withheldDelivered, .withheldDiscarded, .edgeDeferral, .edgeHint:
            return
        }
    }
}
