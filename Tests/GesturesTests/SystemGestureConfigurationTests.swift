// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Testing
import TouchCore

/// Issue 4: the system gestures are configurable per screen; surfaces carry their deferral request.
@Suite("System gesture configuration (decoding, defaults, validation)")
struct SystemGestureConfigurationTests {
    func decode(_ json: String) throws -> GestureConfiguration {
        try JSONDecoder().decode(GestureConfiguration.self, from: Data(json.utf8))
    }

    @Test("defaults: all four edges, 5 mm zone, 6 mm travel, 30 degrees, 300 ms, purposes, deferral allowed, 2000 ms window")
    func defaults() throws {
        let c = try decode(#"{"systemGestures": [{}], "surfaces": [{"id": "s", "frame": {"width": 10, "height": 10}}]}"#)
        let g = c.systemGestures[0]
        #expect(g == SystemGestureConfiguration())
        #expect(g.screen == 0 && g.edges == Set(SurfaceEdge.allCases))
        #expect(g.edgeZone == 5 && g.minTravel == 6 && g.maxAngle == 30 && g.timeLimit == 300 && g.deferralWindow == 2000)
        #expect(!g.touchpads)
        #expect(SurfaceEdge.allCases.map { g.purpose(of: $0) } == ["back", "side-panel", "notifications", "home"])
        #expect(SurfaceEdge.allCases.allSatisfy { g.policy(of: $0) == .allow })
        let s = c.surfaces[0]
        #expect(s.deferEdges.isEmpty && s.delegateDeferralTo == nil && !s.fullScreen)
        #expect(try decode("{}").systemGestures.isEmpty)
    }

    @Test("every key decodes; deferral is one word for all edges or a policy per edge")
    func keys() throws {
        let c = try decode(#"""
        {"systemGestures": [
           {"screen": 0, "edges": ["bottom", "left"], "edgeZone": 7, "minTravel": 10, "maxAngle": 40, "timeLimit": 250,
            "purposes": {"bottom": "overview"}, "deferral": {"bottom": "onlyFullScreen", "left": "refuse"}, "deferralWindow": 1500,
            "touchpads": true},
           {"screen": 1, "deferral": "refuse"}],
         "surfaces": [{"id": "game", "frame": {"width": 10, "height": 10}, "deferEdges": ["bottom", "top"], "fullScreen": true,
                       "delegateDeferralTo": "view"},
                      {"id": "view", "parent": "game", "frame": {"width": 10, "height": 10}}]}
        """#)
        let g = c.systemGestures[0]
        #expect(g.edges == [.bottom, .left] && g.edgeZone == 7 && g.minTravel == 10 && g.maxAngle == 40 && g.timeLimit == 250)
        #expect(g.purpose(of: .bottom) == "overview" && g.purpose(of: .left) == "back")
        #expect(g.policy(of: .bottom) == .onlyFullScreen && g.policy(of: .left) == .refuse && g.policy(of: .top) == .allow)
        #expect(g.deferralWindow == 1500)
        #expect(g.touchpads && !c.systemGestures[1].touchpads)
        #expect(SurfaceEdge.allCases.allSatisfy { c.systemGestures[1].policy(of: $0) == .refuse })
        #expect(c.surfaces[0].deferEdges == [.bottom, .top] && c.surfaces[0].fullScreen && c.surfaces[0].delegateDeferralTo == "view")
        try c.validate()
        let again = try JSONDecoder().decode(GestureConfiguration.self, from: JSONEncoder().encode(c))
        #expect(again == c)
    }

    @Test("bad values are errors naming the key")
    func errors() {
        func message(_ json: String) -> String {
            do { _ = try decode(json); return "decoded" } catch { return "\(error)" }
        }
        #expect(message(#"{"systemGestures": [{"edgeZone": 0}]}"#).contains("edgeZone must be positive"))
        #expect(message(#"{"systemGestures": [{"maxAngle": 95}]}"#).contains("maxAngle must be between 0 and 90 degrees"))
        #expect(message(#"{"systemGestures": [{"deferral": "sometimes"}]}"#).contains("'sometimes' is not one of allow, refuse, onlyFullScreen"))
        #expect(message(#"{"systemGestures": [{"deferral": {"bottom": "never"}}]}"#).contains("deferral of bottom: 'never'"))
        #expect(message(#"{"systemGestures": [{"purposes": {"middle": "x"}}]}"#).contains("'middle' is not an edge"))
        #expect(message(#"{"systemGestures": [{"edge": ["bottom"]}]}"#).contains("unknown key 'edge' for systemGestures"))
        #expect(message(#"{"surfaces": [{"id": "a", "frame": {"width": 1, "height": 1}, "deferEdges": ["down"]}]}"#) != "decoded")
    }

    @Test("validate: one entry per screen, no edge-swipe on a surface, deferral delegated only to a nested surface")
    func validation() {
        func error(_ c: GestureConfiguration) -> String? {
            do { try c.validate(); return nil } catch { return error.description }
        }
        let f = ScreenRect(x: 0, y: 0, width: 10, height: 10)
        #expect(error(GestureConfiguration(systemGestures: [SystemGestureConfiguration(), SystemGestureConfiguration()]))
                == "systemGestures[1].screen: screen 0 configured twice")
        let swipe = RecognizerConfiguration(name: "home", kind: .edgeSwipe(EdgeSwipeParameters(edge: .bottom)))
        #expect(error(GestureConfiguration(surfaces: [SurfaceConfiguration(id: "a", frame: f, recognizers: [swipe])]))
                == "surface a: recognizers[0].kind: edge-swipe is a system gesture (configure it with systemGestures)")
        let a = SurfaceConfiguration(id: "a", frame: f, delegateDeferralTo: "b")
        #expect(error(GestureConfiguration(surfaces: [a, SurfaceConfiguration(id: "b", frame: f)])) == "surface a: delegateDeferralTo: 'b' is not a surface nested in it")
        #expect(error(GestureConfiguration(surfaces: [a])) == "surface a: delegateDeferralTo: unknown surface 'b'")
        let deep = [a, SurfaceConfiguration(id: "m", frame: f, parent: "a"), SurfaceConfiguration(id: "b", frame: f, parent: "m")]
        #expect(error(GestureConfiguration(surfaces: deep)) == nil)
    }

    @Test("the built-in configuration enables the four edge swipes on every screen; a file replaces a screen's entry")
    func builtInAndApplied() throws {
        let base = GestureConfiguration.default(screens: [ScreenGeometry(width: 100, height: 100), ScreenGeometry(width: 50, height: 50)])
        #expect(base.systemGestures == [SystemGestureConfiguration(screen: 0), SystemGestureConfiguration(screen: 1)])
        let file = try decode(#"{"systemGestures": [{"screen": 1, "edges": []}], "replaceDefaults": true}"#)
        let applied = file.applied(to: base)
        #expect(applied.systemGestures == [SystemGestureConfiguration(screen: 0), SystemGestureConfiguration(screen: 1, edges: [])])
        #expect(try decode("{}").applied(to: base).systemGestures == base.systemGestures)
    }
}
