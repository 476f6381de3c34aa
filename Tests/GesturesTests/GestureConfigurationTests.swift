// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Testing
import TouchCore

@Suite("Gesture configuration (decoding, defaults, validation)")
struct GestureConfigurationTests {
    func decode(_ json: String) throws -> GestureConfiguration {
        try JSONDecoder().decode(GestureConfiguration.self, from: Data(json.utf8))
    }

    @Test("every missing key gets its default (semantics defaults for the switches, anchors for the parameters)")
    func defaults() throws {
        let c = try decode(#"{"surfaces": [{"id": "canvas", "frame": {"width": 800, "height": 600}, "recognizers": [{"name": "t", "kind": "tap"}]}]}"#)
        let s = c.surfaces[0]
        #expect(s.owner == "config" && s.screen == 0 && s.z == 0 && s.parent == nil)
        #expect(!s.hidden && s.enabled && s.multipleTouch && !s.exclusiveTouch)
        let r = s.recognizers[0]
        #expect(r == RecognizerConfiguration(name: "t", kind: .tap(TapParameters())))
        #expect(r.allowedTouchTypes == Set(TouchType.allCases))
        #expect(r.requiresExclusiveTouchType && r.enabled && r.shouldBegin)
        #expect(r.cancelsTouchesInView && !r.delaysTouchesBegan && r.delaysTouchesEnded)
        #expect(r.simultaneousWith == .none && r.requiresFailureOf.isEmpty && r.canPrevent == .all && r.canBePreventedBy == .all)
        #expect(!c.replaceDefaults && c.recognizers.isEmpty && c.systemRecognizers.isEmpty)
    }

    @Test("kind parameters sit next to the common keys; relations accept all, none, a name or a list")
    func parameters() throws {
        let c = try decode(#"""
        {"surfaces": [{"id": "map", "owner": "maps", "frame": {"x": 10, "y": 20, "width": 800, "height": 600}, "z": 3,
          "recognizers": [
            {"name": "double-tap", "kind": "tap", "taps": 2, "maxTouches": 2, "maxInterval": 250},
            {"name": "swipe", "kind": "swipe", "directions": ["left", "up"], "minVelocity": 80, "simultaneousWith": "all"},
            {"name": "zoom", "kind": "pinch", "threshold": 5, "simultaneousWith": "spin", "allowedTouchTypes": ["direct"]},
            {"name": "spin", "kind": "rotate", "simultaneousWith": ["zoom", "swipe"], "canPrevent": "none"},
            {"name": "drawer", "kind": "edge-pan", "edges": ["left"], "edgeZone": 7, "region": {"width": 50, "height": 600}},
            {"name": "pick", "kind": "drag", "minDuration": 400},
            {"name": "press", "kind": "long-press", "minDuration": 800, "requiresFailureOf": ["pick"]},
            {"name": "move", "kind": "pan", "minTouches": 2, "slop": 1.5, "delaysTouchesBegan": true},
            {"name": "pen", "kind": "hover"}
          ]}]}
        """#)
        let r = c.surfaces[0].recognizers
        #expect(r[0].kind == .tap(TapParameters(taps: 2, maxTouches: 2, maxInterval: 250)))
        #expect(r[1].kind == .swipe(SwipeParameters(directions: [.left, .up], minVelocity: 80)))
        #expect(r[1].simultaneousWith == .all)
        #expect(r[2].kind == .pinch(PinchParameters(threshold: 5)) && r[2].simultaneousWith == .names(["spin"]))
        #expect(r[2].allowedTouchTypes == [.direct])
        #expect(r[3].canPrevent == .none && r[3].simultaneousWith == .names(["zoom", "swipe"]))
        #expect(r[4].kind == .edgePan(EdgePanParameters(edges: [.left], edgeZone: 7)))
        #expect(r[4].region == ScreenRect(x: 0, y: 0, width: 50, height: 600))
        #expect(r[5].kind == .drag(DragParameters(minDuration: 400)))
        #expect(r[6].kind == .longPress(LongPressParameters(minDuration: 800)) && r[6].requiresFailureOf == ["pick"])
        #expect(r[7].kind == .pan(PanParameters(minTouches: 2, maxTouches: 10, slop: 1.5)) && r[7].delaysTouchesBegan)
        #expect(r[8].kind == .hover(HoverParameters()))
        #expect(try c.validate() == ())
    }

    @Test("encoding then decoding gives the same configuration")
    func roundTrip() throws {
        let original = GestureConfiguration.default(screens: [ScreenGeometry(width: 1920, height: 1080)])
        let data = try JSONEncoder().encode(original)
        var decoded = try JSONDecoder().decode(GestureConfiguration.self, from: data)
        decoded.screens = original.screens
        #expect(decoded == original)
    }

    @Test("errors name the bad field")
    func errors() {
        func message(_ json: String) -> String {
            do { _ = try decode(json); return "no error" } catch { return String(describing: error) }
        }
        let frame = #""frame": {"width": 10, "height": 10}"#
        #expect(message(#"{"surfaces": [{"id": "a", \#(frame), "recognizers": [{"name": "x", "kind": "wiggle"}]}]}"#).contains("kind 'wiggle'"))
        #expect(message(#"{"surfaces": [{"id": "a", \#(frame), "recognizers": [{"name": "x", "kind": "tap", "taps": 0}]}]}"#).contains("taps must be at least 1"))
        #expect(message(#"{"surfaces": [{"id": "a", \#(frame), "recognizers": [{"name": "x", "kind": "pan", "minTouches": 3, "maxTouches": 2}]}]}"#).contains("maxTouches must be at least minTouches"))
        #expect(message(#"{"surfaces": [{"id": "a", \#(frame), "recognizers": [{"name": "x", "kind": "swipe", "directions": ["sideways"]}]}]}"#).contains("directions"))
        #expect(message(#"{"surfaces": [{"id": "a", "frame": {"width": -1, "height": 10}}]}"#).contains("width must not be negative"))
        #expect(message(#"{"surfaces": [{"id": "a"}]}"#).contains("frame"))
        #expect(message(#"{"surfaces": [{"id": "a", \#(frame), "recognizers": [{"name": "x", "kind": "tap", "maxTouch": 2}]}]}"#).contains("unknown key 'maxTouch' for a tap recognizer"))
        #expect(message(#"{"surfaces": [{"id": "a", \#(frame), "exclusive": true}]}"#).contains("unknown key 'exclusive' for surface a"))
        #expect(message(#"{"surfaces": [{"id": "a", \#(frame), "recognizers": [{"name": "x", "kind": "tap"}, {"name": "x", "kind": "pan"}]}]}"#).contains("name 'x' twice"))
    }

    @Test("validate: duplicate ids, unknown parents, parent cycles and unknown failure requirements")
    func validation() {
        func error(_ surfaces: [SurfaceConfiguration]) -> String? {
            do { try GestureConfiguration(surfaces: surfaces).validate(); return nil } catch { return error.description }
        }
        let f = ScreenRect(x: 0, y: 0, width: 10, height: 10)
        #expect(error([SurfaceConfiguration(id: "a", frame: f), SurfaceConfiguration(id: "a", frame: f)]) == "surface a: id: declared twice")
        #expect(error([SurfaceConfiguration(id: "a", frame: f, parent: "zz")]) == "surface a: parent: unknown surface 'zz'")
        #expect(error([SurfaceConfiguration(id: "a", frame: f, parent: "b"), SurfaceConfiguration(id: "b", frame: f, parent: "a")])?.contains("cycle") == true)
        let needy = RecognizerConfiguration(name: "t", kind: .tap(TapParameters()), requiresFailureOf: ["ghost"])
        #expect(error([SurfaceConfiguration(id: "a", frame: f, recognizers: [needy])]) == "surface a: recognizers[0].requiresFailureOf: no recognizer 'ghost' of owner 'config'")
        let x = RecognizerConfiguration(name: "x", kind: .tap(TapParameters()), requiresFailureOf: ["y"])
        let y = RecognizerConfiguration(name: "y", kind: .pan(PanParameters()), requiresFailureOf: ["x"])
        #expect(error([SurfaceConfiguration(id: "a", frame: f, recognizers: [x, y])]) == "surface a: recognizers[0].requiresFailureOf: 'x' ends up requiring its own failure")
    }

    @Test("built-in default: one full-screen surface per screen with the seven recognizers and their relations")
    func builtIn() throws {
        let c = GestureConfiguration.default(screens: [ScreenGeometry(width: 1920, height: 1080), ScreenGeometry(width: 800, height: 480)])
        #expect(c.surfaces.map(\.id) == ["screen", "screen-1"])
        #expect(c.surfaces[1].frame == ScreenRect(x: 0, y: 0, width: 800, height: 480) && c.surfaces[1].screen == 1)
        let r = c.surfaces[0].recognizers
        #expect(r.map(\.name) == ["tap", "double-tap", "long-press", "pan", "swipe", "pinch", "rotate"])
        #expect(r[0].requiresFailureOf == ["double-tap"])
        #expect(r[0].kind == .tap(TapParameters(taps: 1, minTouches: 1, maxTouches: 5)))
        #expect(r[1].kind == .tap(TapParameters(taps: 2, minTouches: 1, maxTouches: 5)))
        #expect(r[3].kind == .pan(PanParameters(minTouches: 1, maxTouches: 10)))
        #expect(r[4].kind == .swipe(SwipeParameters(directions: Set(SwipeDirection.allCases), minTouches: 1, maxTouches: 5)))
        #expect(r[3].simultaneousWith == .names(["swipe", "pinch", "rotate"]))
        #expect(r[6].simultaneousWith == .names(["pan", "swipe", "pinch"]))
        try c.validate()
    }

    @Test("a file extends the built-in configuration, or replaces it with replaceDefaults")
    func applied() throws {
        let base = GestureConfiguration.default(screens: [ScreenGeometry(width: 100, height: 100)])
        let file = try decode(#"""
        {"recognizers": [{"name": "tap", "kind": "tap", "maxTouches": 1}, {"name": "three-swipe", "kind": "swipe", "minTouches": 3, "maxTouches": 3}],
         "surfaces": [{"id": "osk", "owner": "keyboard", "frame": {"y": 60, "width": 100, "height": 40}, "z": 10}]}
        """#)
        let extended = file.applied(to: base)
        #expect(extended.surfaces.map(\.id) == ["screen", "osk"])
        #expect(extended.surfaces[0].recognizers.count == 8)
        #expect(extended.surfaces[0].recognizers.first { $0.name == "tap" }?.kind == .tap(TapParameters(maxTouches: 1)))
        #expect(extended.screens == base.screens)
        var replacing = file
        replacing.replaceDefaults = true
        #expect(replacing.applied(to: base).surfaces.map(\.id) == ["osk"])
    }
}
