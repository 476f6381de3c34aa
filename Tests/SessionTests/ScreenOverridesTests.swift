// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting
import Wire
@testable import Session

/// Collects touches, gestures, device events and screen changes of a session.
private struct GeometrySink: SessionSink {
    var touches: [Touch] = []
    var gestures: [GestureEvent] = []
    var changedDevices: [DeviceInfo] = []
    var screens: [[ScreenEntry]] = []

    mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine) {
        touches += frame.touches
        engineOutputs(outputs)
    }

    mutating func engineOutputs(_ outputs: [EngineOutput]) {
        for case .gesture(let g) in outputs { gestures.append(g) }
    }

    mutating func device(_ event: SessionDeviceEvent) {
        if case .changed(let info, _) = event { changedDevices.append(info) }
    }

    mutating func screensChanged(_ screens: [ScreenEntry], at time: Timestamp) { self.screens.append(screens) }

    /// The system edge swipes that began, by recognizer name.
    var edgeSwipes: [String] { gestures.filter { $0.isSystem && $0.state == .began }.map(\.recognizer) }
}

/// Screens changed while touchd runs (semantics §11), on virtual time: the
/// touchscreen fixture spans 0...4095 on both axes; screens are 5 px/mm so
/// that edge zones (5 mm) are 25 px.
@Suite struct ScreenOverridesTests {
    static func configuration(_ yaml: String) throws -> TouchdConfiguration {
        try TouchdConfiguration.parse(yaml: yaml, file: "test.yaml")
    }

    static let landscape = """
        screens:
          - {name: main, width: 1600, height: 1000, sizeMM: {width: 320, height: 200}}
        """

    static func device(_ name: String) -> DeviceDescription {
        var d = DeviceFixtures.touchscreen()
        d.name = name
        return d
    }

    /// A session with one touchscreen per name, devices 0, 1...
    private static func session(_ yaml: String, devices: [String] = ["Panel"], sink: inout GeometrySink) throws -> TouchSession {
        var s = TouchSession(configuration: try configuration(yaml), recordsDebug: false)
        for (i, name) in devices.enumerated() {
            s.addDevice(DeviceID(rawValue: UInt32(i)), description: device(name), at: Timestamp(microseconds: 0), into: &sink)
        }
        return s
    }

    /// A one-finger swipe on device `id` from device point `from` to `to` in 10 steps, 10 ms apart.
    private static func swipe(_ s: inout TouchSession, device id: UInt32 = 0, from: (Int32, Int32), to: (Int32, Int32),
                              start: Timestamp, sink: inout GeometrySink) {
        var script = EventScript(start: start)
        script.frame { $0.slot(0); $0.trackingID(Int32(start.microseconds / 1000)); $0.position(from.0, from.1) }
        for k in 1...10 {
            let x = from.0 + (to.0 - from.0) * Int32(k) / 10, y = from.1 + (to.1 - from.1) * Int32(k) / 10
            script.frame { $0.slot(0); $0.position(x, y) }
        }
        script.frame { $0.slot(0); $0.trackingID(-1) }
        s.handle(script.events, from: DeviceID(rawValue: id), into: &sink)
        s.advance(to: script.time.adding(milliseconds: 1000), into: &sink)
    }

    static func rotate(_ degrees: Int, _ name: String = "main") -> ScreenChange {
        ScreenChange(screens: [ScreenUpdate(name: name, rotation: WireRotation(rawValue: degrees))])
    }

    @Test("a turn while one finger is down: it keeps its mapping to its end, a finger put down after uses the new one")
    func touchDownKeepsItsGeometry() throws {
        var sink = GeometrySink()
        var s = try Self.session(Self.landscape, sink: &sink)
        var script = EventScript()
        script.frame { $0.slot(0); $0.trackingID(1); $0.position(2048, 1000) }
        s.handle(script.events, from: DeviceID(rawValue: 0), into: &sink)
        let first = try #require(sink.touches.last)
        #expect(first.phase == .began)
        #expect(abs(first.location.x - 800.2) < 0.5 && abs(first.location.y - 244.2) < 0.5)

        try s.changeScreens(Self.rotate(90), into: &sink)
        #expect(sink.screens.last?.first.map { [$0.viewWidth, $0.viewHeight, $0.rotation.rawValue] } == [1000, 1600, 90])

        script = EventScript(start: script.time)
        script.frame { $0.slot(0); $0.position(2048, 1100) }
        script.frame { $0.slot(1); $0.trackingID(2); $0.position(1000, 2048) }
        script.frame { $0.slot(0); $0.trackingID(-1); $0.slot(1); $0.position(1100, 2048) }
        script.frame { $0.slot(1); $0.trackingID(-1) }
        s.handle(script.events, from: DeviceID(rawValue: 0), into: &sink)

        let a = sink.touches.filter { $0.id == first.id }
        #expect(a.map(\.phase) == [.began, .moved, .ended])
        // Unturned: x stays at the middle of 1600, y follows the device's y over 1000.
        for t in a { #expect(abs(t.location.x - 800.2) < 0.5, "touch A stays in the geometry it began in: \(t.location)") }
        #expect(abs(a[1].location.y - 268.6) < 0.5)
        let b = sink.touches.filter { $0.id != first.id }
        #expect(b.map(\.phase) == [.began, .moved, .ended])
        // Turned: x = device y over 1000, y = (1 - device x) over 1600.
        #expect(abs(b[0].location.x - 500.1) < 0.5 && abs(b[0].location.y - 1209.4) < 0.5)
        #expect(abs(b[1].location.y - 1170.2) < 0.5)
        #expect(b.allSatisfy { $0.screen == 0 })
    }

    @Test("after a quarter turn a swipe from the physical left side is the bottom edge swipe; one from the physical bottom is not")
    func edgesFollowTheTurn() throws {
        var sink = GeometrySink()
        var s = try Self.session(Self.landscape, sink: &sink)
        // Before the turn the physical left side is the left edge.
        Self.swipe(&s, from: (20, 2048), to: (800, 2048), start: Timestamp(microseconds: 1_000_000), sink: &sink)
        #expect(sink.edgeSwipes == ["edge-left"])

        try s.changeScreens(Self.rotate(90), into: &sink)
        sink.gestures = []
        Self.swipe(&s, from: (20, 2048), to: (800, 2048), start: Timestamp(microseconds: 3_000_000), sink: &sink)
        #expect(sink.edgeSwipes == ["edge-bottom"])
        sink.gestures = []
        Self.swipe(&s, from: (2048, 4080), to: (2048, 3300), start: Timestamp(microseconds: 5_000_000), sink: &sink)
        #expect(!sink.edgeSwipes.contains("edge-bottom"))
        #expect(sink.edgeSwipes == ["edge-right"])
    }

    @Test("insets move the edge zone: it starts at the inset's inner edge, and a touch in the inset is no edge swipe")
    func insetsMoveTheZone() throws {
        var sink = GeometrySink()
        var s = try Self.session(Self.landscape, sink: &sink)
        // 890 px down is 110 px from the bottom: outside the 25 px zone.
        Self.swipe(&s, from: (2048, 3645), to: (2048, 2800), start: Timestamp(microseconds: 1_000_000), sink: &sink)
        #expect(sink.edgeSwipes.isEmpty)

        try s.changeScreens(ScreenChange(screens: [ScreenUpdate(name: "main", insets: WireInsets(bottom: 100))]), into: &sink)
        #expect(sink.screens.last?.first?.insets == ScreenInsets(bottom: 100))
        Self.swipe(&s, from: (2048, 3645), to: (2048, 2800), start: Timestamp(microseconds: 3_000_000), sink: &sink)
        #expect(sink.edgeSwipes == ["edge-bottom"])
        sink.gestures = []
        // 990 px down: inside the status bar the system keeps.
        Self.swipe(&s, from: (2048, 4054), to: (2048, 3200), start: Timestamp(microseconds: 5_000_000), sink: &sink)
        #expect(sink.edgeSwipes.isEmpty)
    }

    static let twoScreens = """
        screens:
          - {name: left, width: 1000, height: 1000, sizeMM: {width: 200, height: 200}}
          - {name: right, width: 1000, height: 1000, sizeMM: {width: 200, height: 200}}
        devices:
          - {match: {name: "Right*"}, screen: right}
        """

    @Test("two screens with a touchscreen each have their own system edges; a device mapped at runtime moves to its screen")
    func twoScreensHaveTheirOwnEdges() throws {
        var sink = GeometrySink()
        var s = try Self.session(Self.twoScreens, devices: ["Left Panel", "Right Panel"], sink: &sink)
        #expect(s.devices.map(\.mapping.screen) == [0, 1])
        Self.swipe(&s, device: 0, from: (2048, 4080), to: (2048, 3000), start: Timestamp(microseconds: 1_000_000), sink: &sink)
        Self.swipe(&s, device: 1, from: (2048, 4080), to: (2048, 3000), start: Timestamp(microseconds: 3_000_000), sink: &sink)
        #expect(sink.edgeSwipes == ["edge-bottom", "edge-bottom-1"])

        try s.changeScreens(ScreenChange(devices: [DeviceScreenAssignment(device: 0, screen: .name("right"))]), into: &sink)
        #expect(sink.changedDevices.map(\.mapping.screen) == [1])
        sink.gestures = []
        Self.swipe(&s, device: 0, from: (2048, 4080), to: (2048, 3000), start: Timestamp(microseconds: 5_000_000), sink: &sink)
        #expect(sink.edgeSwipes == ["edge-bottom-1"])
        #expect(sink.touches.last?.screen == 1)
    }

    @Test("a screen added at runtime takes its devices and edges; removing it sends them back to screen 0")
    func screensComeAndGo() throws {
        var sink = GeometrySink()
        var s = try Self.session(Self.landscape, devices: ["Main Panel", "Side Panel"], sink: &sink)
        try s.changeScreens(ScreenChange(
            screens: [ScreenUpdate(name: "side", width: 800, height: 1280, sizeMM: WireSize(width: 160, height: 256))],
            devices: [DeviceScreenAssignment(name: "Side*", screen: .name("side"))]), into: &sink)
        #expect(sink.screens.last?.map(\.name) == ["main", "side"])
        #expect(s.devices.map(\.mapping.screen) == [0, 1])
        Self.swipe(&s, device: 1, from: (20, 2048), to: (1000, 2048), start: Timestamp(microseconds: 1_000_000), sink: &sink)
        #expect(sink.edgeSwipes == ["edge-left-1"])

        try s.changeScreens(ScreenChange(screens: [ScreenUpdate(name: "side", remove: true)]), into: &sink)
        #expect(sink.screens.last?.map(\.name) == ["main"])
        #expect(s.devices.map(\.mapping.screen) == [0, 0])
    }

    @Test("removing a screen moves the configuration's surfaces, system gestures and device rules of later screens down with it")
    func removalRenumbersTheConfiguration() throws {
        var sink = GeometrySink()
        var s = try Self.session("""
            screens:
              - {name: a, width: 800, height: 600}
              - {name: b, width: 800, height: 600}
              - {name: c, width: 800, height: 600}
            devices:
              - {match: {name: "C*"}, screen: 2}
            surfaces:
              - {id: on-b, owner: shell, frame: {x: 0, y: 0, width: 10, height: 10}, screen: 1}
              - {id: on-c, owner: shell, frame: {x: 0, y: 0, width: 10, height: 10}, screen: 2}
            systemGestures:
              - {screen: 2, edges: [left]}
            """, devices: ["C Panel"], sink: &sink)
        #expect(s.devices.map(\.mapping.screen) == [2])
        try s.changeScreens(ScreenChange(screens: [ScreenUpdate(name: "b", remove: true)]), into: &sink)
        let g = s.configuration.gestureFile
        #expect(g.surfaces.map { "\($0.id.rawValue)@\($0.screen)" } == ["on-c@1"])
        #expect(g.systemGestures.map { "\($0.screen) \($0.edges.map(\.rawValue).sorted())" } == ["1 [\"left\"]"])
        #expect(s.devices.map(\.mapping.screen) == [1])
        #expect(sink.changedDevices.map(\.mapping.screen) == [1])
        sink.gestures = []
        // Screen "c" (now 1) has only its left edge; its touchscreen's left swipe is edge-left-1.
        Self.swipe(&s, from: (20, 2048), to: (1500, 2048), start: Timestamp(microseconds: 1_000_000), sink: &sink)
        #expect(sink.edgeSwipes == ["edge-left-1"])
    }

    @Test("a change that cannot be made names its entry and changes nothing")
    func badChangesAreRefused() throws {
        var sink = GeometrySink()
        var s = try Self.session(Self.landscape, sink: &sink)
        let cases: [(ScreenChange, String)] = [
            (ScreenChange(screens: [ScreenUpdate(name: "nope", remove: true)]), "screens[0].name: no screen named \"nope\""),
            (ScreenChange(screens: [ScreenUpdate(name: "new", rotation: .degrees180)]), "screens[0]: a new screen needs width and height"),
            (ScreenChange(screens: [ScreenUpdate(name: "main", remove: true)]), "screens: cannot remove the last screen"),
            (ScreenChange(devices: [DeviceScreenAssignment(device: 0, screen: .index(3))]), "devices[0].screen: no screen 3 (there are 1)"),
        ]
        for (change, message) in cases {
            var thrown: ScreenChangeError?
            do { try s.changeScreens(change, into: &sink) } catch { thrown = error }
            #expect(thrown?.description == message)
        }
        #expect(s.configuration.screens == (try Self.configuration(Self.landscape)).screens)
        #expect(s.screenOverrides.isEmpty)
        #expect(sink.screens.isEmpty)
    }

    @Test("reload and runtime change in either order: the latest change of each value wins")
    func latestChangeWins() throws {
        var sink = GeometrySink()
        var s = try Self.session(Self.landscape, sink: &sink)
        func rotation() -> Rotation? { s.configuration.screens.first?.rotation }

        // Runtime, then a reload whose file left the rotation as it was: the runtime rotation stays.
        try s.changeScreens(Self.rotate(90), into: &sink)
        try s.reload(try Self.configuration(Self.landscape + "\nrecognizers: []\n"), into: &sink)
        #expect(rotation() == .quarter)
        // A reload whose file changed the rotation: the file's is the latest.
        let turned = Self.landscape.replacing("height: 200}}", with: "height: 200}, rotation: 180}")
        try s.reload(try Self.configuration(turned), into: &sink)
        #expect(rotation() == .half)
        #expect(sink.screens.last?.first?.rotation == .half)
        // Runtime after the reload wins, and stays through a reload of the same file.
        try s.changeScreens(Self.rotate(270), into: &sink)
        try s.reload(try Self.configuration(turned), into: &sink)
        #expect(rotation() == .threeQuarters)
        // Runtime screens survive a reload that does not name them; a file that defines one takes over.
        try s.changeScreens(ScreenChange(screens: [ScreenUpdate(name: "side", width: 800, height: 600)]), into: &sink)
        try s.reload(try Self.configuration(turned), into: &sink)
        #expect(s.configuration.screens.map(\.name) == ["main", "side"])
        try s.reload(try Self.configuration(turned + "\n  - {name: side, width: 1024, height: 768}\n"), into: &sink)
        #expect(s.configuration.screens.map { "\($0.name) \($0.width)x\($0.height)" } == ["main 1600x1000", "side 1024x768"])
    }
}
