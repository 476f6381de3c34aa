// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import TouchTesting

/// A 400 x 300 mm screen at 5 px/mm.
let testScreen = ScreenGeometry(width: 2000, height: 1500, pixelsPerMillimetre: 5)

/// One full-screen surface `s` with the given recognizers.
func oneSurface(_ recognizers: [RecognizerConfiguration], multipleTouch: Bool = true) -> GestureConfiguration {
    GestureConfiguration(
        surfaces: [SurfaceConfiguration(id: "s", owner: "app", frame: ScreenRect(x: 0, y: 0, width: 2000, height: 1500),
                                        multipleTouch: multipleTouch, recognizers: recognizers)],
        screens: [testScreen])
}

func engine(_ recognizers: [RecognizerConfiguration], multipleTouch: Bool = true) -> Engine {
    Engine(configuration: oneSurface(recognizers, multipleTouch: multipleTouch))
}

func defaultEngine() -> Engine {
    Engine(configuration: .default(screens: [testScreen]))
}

let tap = RecognizerConfiguration(name: "tap", kind: .tap(TapParameters()))
let pan = RecognizerConfiguration(name: "pan", kind: .pan(PanParameters()))

/// A quick tap of finger `id` at (x, y) mm, down at `at` ms for 80 ms.
func tapScript(_ script: inout GestureScript, _ id: Int = 1, at ms: Double = 0, x: Double = 100, y: Double = 100) {
    script.down(id, at: ms, x: x, y: y)
    script.move(id, at: ms + 40, x: x + 0.3, y: y)
    script.up(id, at: ms + 80)
}

/// Finger `id` goes down at (x, y) and moves `dx, dy` mm over `duration` ms, then lifts.
func strokeScript(_ script: inout GestureScript, _ id: Int = 1, at ms: Double = 0, x: Double = 100, y: Double = 100,
                  dx: Double, dy: Double, duration: Double, lift: Bool = true) {
    script.down(id, at: ms, x: x, y: y)
    script.move(id, to: (x + dx, y + dy), start: ms, duration: duration)
    if lift { script.up(id, at: ms + duration + 8) }
}

/// The frame of `testScreen`.
let fullFrame = ScreenRect(x: 0, y: 0, width: 2000, height: 1500)

/// `testScreen` with the four system edge swipes (semantics §6) and the given surfaces.
func systemConfiguration(_ surfaces: [SurfaceConfiguration],
                         _ system: SystemGestureConfiguration = SystemGestureConfiguration()) -> GestureConfiguration {
    GestureConfiguration(surfaces: surfaces, screens: [testScreen], systemGestures: [system])
}

/// A full-screen surface `game` owned by `game` with a pan and a tap, deferring `deferEdges`.
func gameSurface(deferEdges: Set<SurfaceEdge> = [.bottom], fullScreen: Bool = true) -> SurfaceConfiguration {
    SurfaceConfiguration(id: "game", owner: "game", frame: fullFrame, recognizers: [pan, tap],
                         deferEdges: deferEdges, fullScreen: fullScreen)
}

/// A swipe up from the bottom edge of `testScreen` (starts 2 mm from it, 60 mm in 200 ms).
func bottomSwipe(_ script: inout GestureScript, _ id: Int = 1, at ms: Double, x: Double = 200) {
    strokeScript(&script, id, at: ms, x: x, y: 298, dx: 0, dy: -60, duration: 200)
}

extension Array where Element == EngineOutput {
    /// The system events.
    var systemEvents: [SystemEvent] {
        compactMap { if case .system(let e) = $0 { return e } else { return nil } }
    }
    /// The edges of the hints, in order.
    var hints: [SurfaceEdge] {
        systemEvents.compactMap { if case .edgeHint(let edge, _, _) = $0.kind { return edge } else { return nil } }
    }
    /// The deferral decisions, in order.
    var deferralDecisions: [DeferralDecision] {
        systemEvents.compactMap { if case .deferral(let d) = $0.kind { return d } else { return nil } }
    }
    /// The debug records as lines.
    var debugLines: [String] { debugRecords.map(\.description) }
}
