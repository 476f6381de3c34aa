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
