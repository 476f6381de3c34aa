// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

/// The input thread with a drag session active (semantics §12): every
/// frame of a one-finger drag goes through the engine, then the session
/// follows it (the drag's `changed`, the hit test of the drop targets across
/// every surface, the target's `entered`/`moved`/`exited`). The touch sweeps
/// back and forth at 480 Hz across a source, a target and 200 small surfaces
/// that are drop targets for another type (each hit is walked up its parents).
/// Reported: per-frame latency (engine and session together) and the
/// session's share, and allocations per frame once warm.
func benchmarkDragSession(strokes: Int = 20, moves: Int = 960) {
    var configuration = manySurfacesConfiguration()
    let drag = RecognizerConfiguration(name: "drag", kind: .drag(DragParameters()))
    configuration.surfaces.append(SurfaceConfiguration(id: "src", owner: "a", frame: ScreenRect(x: 0, y: 900, width: 960, height: 180),
                                                       z: 100, recognizers: [drag]))
    configuration.surfaces.append(SurfaceConfiguration(id: "dst", owner: "b", frame: ScreenRect(x: 960, y: 900, width: 960, height: 180), z: 100))
    var roles: [(SurfaceID, DragRoles, String)] = [("src", DragRoles(offersItems: true), "a"), ("dst", DragRoles(dropTypes: ["text/plain"]), "b")]
    for s in configuration.surfaces where s.owner != "a" && s.owner != "b" { roles.append((s.id, DragRoles(dropTypes: ["image/png"]), s.owner)) }
    let item = DragItem([DragRepresentation(type: "text/plain", data: "bench")])

    // Frames: down, held 600 ms (two still frames), then `moves` frames sweeping x, then the lift.
    var frames: [TouchFrame] = []
    var t: Int64 = 0
    func frame(_ phase: TouchPhase, x: Double, y: Double) {
        let touch = Touch(id: TouchID(1), device: DeviceID(0), phase: phase, type: .direct, tool: .finger, time: Timestamp(microseconds: t),
                          location: Point(x: x, y: y), previousLocation: nil, locationMM: Point(x: x / 4, y: y / 4), screen: 0, inProximity: true)
        frames.append(TouchFrame(device: DeviceID(0), time: Timestamp(microseconds: t), touches: [touch]))
    }
    for _ in 0..<strokes {
        frame(.began, x: 300, y: 990)
        t += 300_000; frame(.moved, x: 300.5, y: 990)
        t += 300_000
        for i in 0..<moves {
            let phase = Double(i % 480) / 480
            frame(.moved, x: 300 + 1400 * (phase < 0.5 ? phase * 2 : 2 - phase * 2), y: 990 - Double(i % 240))
            t += 2083
        }
        frame(.ended, x: 300, y: 990)
        t += 1_000_000
    }

    /// Runs the frames; `measure` gets each frame's work while a session is active.
    func run(_ measure: (_ index: Int, _ active: Bool, _ work: () -> Void) -> Void) {
        var engine = Engine(configuration: configuration)
        engine.recordsDebug = false
        var drags = DragSessions()
        for (id, r, owner) in roles { drags.setRoles(r, of: id, owner: owner) }
        var outputs: [EngineOutput] = []
        outputs.reserveCapacity(256)
        var events: [DragSessionEvent] = []
        events.reserveCapacity(64)
        for (i, f) in frames.enumerated() {
            if let d = engine.nextDeadline, d <= f.time {
                outputs.removeAll(keepingCapacity: true)
                engine.advance(to: f.time, into: &outputs)
                drags.observe(outputs, engine: engine, into: &events)
            }
            let active = drags.openSessions.first?.isActive == true
            measure(i, active) {
                outputs.removeAll(keepingCapacity: true)
                events.removeAll(keepingCapacity: true)
                engine.handle(f, into: &outputs)
                drags.observe(outputs, engine: engine, into: &events)
                // What TouchSession does after each observation: the decisions go to the sink, then are forgotten.
                drags.clearRecords()
            }
            // The source answers at once.
            for e in events {
                if case .itemsRequested(let request) = e.kind {
                    var answered: [DragSessionEvent] = []
                    try? drags.offerItems([item], request: request, from: "a", at: f.time, engine: engine, into: &answered)
                }
            }
        }
    }

    var latency = Latency()
    var activeFrames = 0
    run { _, active, work in
        let t0 = nowNanoseconds()
        work()
        if active { latency.record(nowNanoseconds() - t0); activeFrames += 1 }
    }
    guard activeFrames > strokes * moves / 2 else { benchFailed("drag session: only \(activeFrames) frames with an active session") }
    report("drag session active, 202 drop targets: per-frame latency (engine + session)", latency.summary)

    // Allocations per active frame after the first stroke.
    let warm = frames.count / strokes
    var mallocs = 0, counted = 0
    run { i, active, work in
        guard i >= warm, active else { work(); return }
        mallocs += countAllocations(work)
        counted += 1
    }
    report("drag session active: allocations per frame", "\(fixed(Double(mallocs) / Double(max(counted, 1)), 2)) (\(mallocs) in \(counted) frames)")
}
