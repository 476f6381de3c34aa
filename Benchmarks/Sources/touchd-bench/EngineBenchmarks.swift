// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

/// Frames of the synthetic 10-finger stream, assembled once by TouchCore.
func syntheticFrames(_ stream: [InputEvent], panel: DeviceDescription) -> [TouchFrame] {
    var pipeline = TouchPipeline()
    pipeline.addDevice(DeviceID(0), description: panel)
    var frames: [TouchFrame] = []
    for e in stream {
        if let f = pipeline.process(e, from: DeviceID(0)) { frames.append(f) }
    }
    return frames
}

/// Twenty recognizers on one full-screen surface: the default seven plus
/// thirteen more of every kind, all in play for every touch.
func twentyRecognizerConfiguration() -> GestureConfiguration {
    var c = GestureConfiguration.default(screens: [ScreenGeometry(width: 1920, height: 1080)])
    var extra: [RecognizerConfiguration] = []
    for i in 0..<4 { extra.append(RecognizerConfiguration(name: "swipe-\(i + 2)", kind: .swipe(SwipeParameters(minTouches: i + 2, maxTouches: i + 2)))) }
    for i in 0..<3 { extra.append(RecognizerConfiguration(name: "pan-\(i + 2)", kind: .pan(PanParameters(minTouches: i + 2, maxTouches: i + 2)), simultaneousWith: .all)) }
    for i in 0..<3 { extra.append(RecognizerConfiguration(name: "tap-\(i + 2)", kind: .tap(TapParameters(taps: 1, minTouches: i + 2, maxTouches: i + 2)))) }
    extra.append(RecognizerConfiguration(name: "long-press-2", kind: .longPress(LongPressParameters(minTouches: 2, maxTouches: 2))))
    extra.append(RecognizerConfiguration(name: "pinch-2", kind: .pinch(PinchParameters()), simultaneousWith: .all))
    extra.append(RecognizerConfiguration(name: "rotate-2", kind: .rotate(RotateParameters()), simultaneousWith: .all))
    c.surfaces[0].recognizers += extra
    return c
}

/// The five recognizers of each small surface of the many-surface configurations.
func cellRecognizers() -> [RecognizerConfiguration] {
    [
        RecognizerConfiguration(name: "tap", kind: .tap(TapParameters())),
        RecognizerConfiguration(name: "pan", kind: .pan(PanParameters(minTouches: 1, maxTouches: 10)), simultaneousWith: .all),
        RecognizerConfiguration(name: "swipe", kind: .swipe(SwipeParameters(minTouches: 1, maxTouches: 5))),
        RecognizerConfiguration(name: "long-press", kind: .longPress(LongPressParameters())),
        RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()), simultaneousWith: .all),
    ]
}

/// 200 surfaces in a 20 x 10 grid over a 1920x1080 screen, 5 recognizers each
/// (1000 in all), on top of the built-in full-screen surface.
func manySurfacesConfiguration() -> GestureConfiguration {
    var c = GestureConfiguration.default(screens: [ScreenGeometry(width: 1920, height: 1080)])
    for i in 0..<200 {
        let col = Double(i % 20), row = Double(i / 20)
        c.surfaces.append(SurfaceConfiguration(
            id: SurfaceID("cell-\(i)"), owner: "bench", frame: ScreenRect(x: col * 96, y: row * 108, width: 96, height: 108),
            z: 1, recognizers: cellRecognizers()))
    }
    return c
}

/// The twenty recognizers of ``twentyRecognizerConfiguration()`` on the
/// full-screen surface, under 199 more surfaces of 5 recognizers each (200
/// surfaces, 1015 recognizers registered) stacked above it in a strip at the
/// bottom of the screen where no touch of the stream lands: every touch-down
/// scans the 199 in hit-test order and misses them, and the hit chain is the
/// same twenty recognizers as in the 20-recognizer run. This isolates what
/// registering many surfaces costs, which is what the issue's "only the hit
/// chain in play" asks about; ``manySurfacesConfiguration()`` instead puts
/// each touch on a different surface (50 recognizers in play).
func manySurfacesSameChainConfiguration() -> GestureConfiguration {
    var c = twentyRecognizerConfiguration()
    for i in 0..<199 {
        let col = Double(i % 20), row = Double(i / 20)
        // 20 x 10 cells of 96 x 12 px in y 960-1080; the stream's touches stay above y 900.
        c.surfaces.append(SurfaceConfiguration(
            id: SurfaceID("strip-\(i)"), owner: "bench", frame: ScreenRect(x: col * 96, y: 960 + row * 12, width: 96, height: 12),
            z: 1, recognizers: cellRecognizers()))
    }
    return c
}

/// Engine figures: throughput and per-frame latency for a configuration.
func benchmarkEngine(_ label: String, configuration: GestureConfiguration, frames: [TouchFrame]) {
    var outputs: [EngineOutput] = []
    outputs.reserveCapacity(256)
    let seconds = bestTime(runs: 3) {
        var engine = Engine(configuration: configuration)
        engine.recordsDebug = false
        for f in frames {
            outputs.removeAll(keepingCapacity: true)
            engine.handle(f, into: &outputs)
        }
    }
    report("engine \(label): throughput", "\(frames.count) frames, \(fixed(Double(frames.count) / seconds / 1000, 1)) k frames/s")

    var latency = Latency()
    var engine = Engine(configuration: configuration)
    engine.recordsDebug = false
    for f in frames {
        outputs.removeAll(keepingCapacity: true)
        let t0 = nowNanoseconds()
        engine.handle(f, into: &outputs)
        latency.record(nowNanoseconds() - t0)
    }
    report("engine \(label): per-frame latency", latency.summary)

    // Allocations per frame once warm (the first stroke builds the buffers).
    var warm = Engine(configuration: configuration)
    warm.recordsDebug = false
    let split = frames.count / 10
    for f in frames[0..<split] { outputs.removeAll(keepingCapacity: true); warm.handle(f, into: &outputs) }
    let mallocs = countAllocations {
        for f in frames[split...] { outputs.removeAll(keepingCapacity: true); warm.handle(f, into: &outputs) }
    }
    report("engine \(label): allocations per frame", fixed(Double(mallocs) / Double(frames.count - split), 2))
}

/// One pass of the engine over `frames` (for instruction counts under callgrind).
func runEngineOnce(configuration: GestureConfiguration, frames: [TouchFrame]) {
    var outputs: [EngineOutput] = []
    outputs.reserveCapacity(256)
    var engine = Engine(configuration: configuration)
    engine.recordsDebug = false
    for f in frames {
        outputs.removeAll(keepingCapacity: true)
        engine.handle(f, into: &outputs)
    }
    report("engine: one pass", "\(frames.count) frames, \(frames.reduce(0) { $0 + $1.touches.count }) touches")
}

/// Where in a stroke the engine's time goes (`--only engine-20 --profile`): for each
/// frame index within the stroke, the median over the strokes. Prints the first
/// frames, every 50th, and any frame 1.5x slower than the median frame.
/// Touch-down (0) and lift (last) frames are where recognizers engage and decide.
func profileEngine(configuration: GestureConfiguration, frames: [TouchFrame], perStroke: Int) {
    var outputs: [EngineOutput] = []
    outputs.reserveCapacity(256)
    var engine = Engine(configuration: configuration)
    engine.recordsDebug = false
    var samples = [[UInt64]](repeating: [], count: perStroke)
    for (i, f) in frames.enumerated() {
        outputs.removeAll(keepingCapacity: true)
        let t0 = nowNanoseconds()
        engine.handle(f, into: &outputs)
        samples[i % perStroke].append(nowNanoseconds() - t0)
    }
    var medians: [UInt64] = []
    for s in samples { let v = s.sorted(); medians.append(v[v.count / 2]) }
    let overall = medians.sorted()[medians.count / 2]
    print("overall median of medians \(overall) ns")
    for (i, m) in medians.enumerated() where m > overall * 3 / 2 || i < 12 || i % 50 == 0 {
        print("frame \(i): median \(m) ns, max \(samples[i].max()!) touches \(frames[i].touches.count)")
    }
}
