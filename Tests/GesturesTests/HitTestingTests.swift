// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting

@Suite("Hit testing and recognizers in play (semantics §2)")
struct HitTestingTests {
    func named(_ name: String, _ kind: RecognizerConfiguration.Kind = .tap(TapParameters())) -> RecognizerConfiguration {
        RecognizerConfiguration(name: name, kind: kind)
    }

    /// The surface hit and the recognizers in play for the first touch of `out`.
    func inPlay(_ out: [EngineOutput]) -> (SurfaceID?, [String])? {
        for r in out.debugRecords {
            if case .inPlay(let surface, let names) = r.kind { return (surface, names) }
        }
        return nil
    }

    func touch(_ e: inout Engine, x: Double, y: Double, type: TouchType = .direct) -> [EngineOutput] {
        var script = GestureScript()
        script.down(1, at: 0, x: x, y: y, type: type)
        script.up(1, at: 50)
        return e.run(script)
    }

    var nested: GestureConfiguration {
        GestureConfiguration(surfaces: [
            SurfaceConfiguration(id: "window", owner: "app", frame: ScreenRect(x: 0, y: 0, width: 1000, height: 1000), z: 0,
                                 recognizers: [named("window-tap")]),
            SurfaceConfiguration(id: "list", owner: "app", frame: ScreenRect(x: 0, y: 0, width: 500, height: 1000), parent: "window",
                                 recognizers: [named("list-pan", .pan(PanParameters()))]),
            SurfaceConfiguration(id: "row", owner: "app", frame: ScreenRect(x: 0, y: 0, width: 500, height: 100), parent: "list",
                                 recognizers: [named("row-tap")]),
            SurfaceConfiguration(id: "popup", owner: "other", frame: ScreenRect(x: 400, y: 0, width: 400, height: 400), z: 5,
                                 recognizers: [named("popup-tap")]),
        ], screens: [testScreen])
    }

    @Test("§2.1 deepest: a child is hit before its parent; §2.2 nested surfaces collect their ancestors' recognizers")
    func deepestAndAncestors() {
        var e = Engine(configuration: nested)
        let hit = inPlay(touch(&e, x: 10, y: 10))  // 50,50 px: row inside list inside window
        #expect(hit?.0 == "row")
        #expect(hit?.1 == ["row/row-tap", "list/list-pan", "window/window-tap"])
        let list = inPlay(touch(&e, x: 10, y: 100))  // 50,500 px: list only
        #expect(list?.0 == "list")
        #expect(list?.1 == ["list/list-pan", "window/window-tap"])
    }

    @Test("§2.1 topmost: the surface with the higher z wins where surfaces overlap; ties go to the smaller id")
    func topmost() {
        var e = Engine(configuration: nested)
        let out = touch(&e, x: 90, y: 10)  // 450,50 px: row (z 0 tree) and popup (z 5)
        #expect(inPlay(out)?.0 == "popup")
        #expect(inPlay(out)?.1 == ["popup/popup-tap"])
        #expect(out.gestures.map(\.recognizer) == ["popup-tap"])

        var tie = GestureConfiguration(surfaces: [
            SurfaceConfiguration(id: "b", frame: ScreenRect(x: 0, y: 0, width: 100, height: 100)),
            SurfaceConfiguration(id: "a", frame: ScreenRect(x: 0, y: 0, width: 100, height: 100)),
        ])
        var e2 = Engine(configuration: tie)
        #expect(inPlay(touch(&e2, x: 1, y: 1))?.0 == "a")
        tie.surfaces.reverse()
        var e3 = Engine(configuration: tie)
        #expect(inPlay(touch(&e3, x: 1, y: 1))?.0 == "a")
    }

    @Test("§2.1 hidden or disabled surfaces, and their children, are skipped")
    func hiddenAndDisabled() {
        var config = nested
        config.surfaces[1].hidden = true  // list (and its row) hidden
        var e = Engine(configuration: config)
        let hit = inPlay(touch(&e, x: 10, y: 10))
        #expect(hit?.0 == "window")
        #expect(hit?.1 == ["window/window-tap"])

        config.surfaces[1].hidden = false
        config.surfaces[0].enabled = false  // window disabled: everything under it
        e.setConfiguration(config)
        let none = touch(&e, x: 10, y: 10)
        #expect(inPlay(none)?.0 == nil)
        #expect(none.gestures.isEmpty && none.rawTouches.isEmpty)
    }

    @Test("§2.1 a child only gets touches inside its parent")
    func clippedByParent() {
        var config = nested
        config.surfaces[2].frame = ScreenRect(x: 400, y: 0, width: 300, height: 100)  // row sticks out of list (500 wide)
        config.surfaces[3].hidden = true
        var e = Engine(configuration: config)
        #expect(inPlay(touch(&e, x: 90, y: 10))?.0 == "row")     // 450 px: inside list
        #expect(inPlay(touch(&e, x: 110, y: 10))?.0 == "window") // 550 px: outside list
    }

    @Test("§2.2 163 recognizers narrowed to the hit chain: a touch meets only its surface's and ancestors' recognizers")
    func narrowed() {
        // A screen surface with 9 recognizers, 22 cells with 7 each: 9 + 154 = 163.
        var surfaces = [SurfaceConfiguration(id: "screen", frame: ScreenRect(x: 0, y: 0, width: 2000, height: 1500),
                                             recognizers: (0..<9).map { named("screen-\($0)") })]
        for cell in 0..<22 {
            let x = Double(cell % 11) * 180, y = Double(cell / 11) * 700
            surfaces.append(SurfaceConfiguration(
                id: SurfaceID("cell-\(cell)"), frame: ScreenRect(x: x, y: y, width: 170, height: 650), parent: "screen",
                recognizers: (0..<7).map { named("c\(cell)-\($0)", $0 % 2 == 0 ? .tap(TapParameters()) : .pan(PanParameters())) }))
        }
        let config = GestureConfiguration(surfaces: surfaces, screens: [testScreen])
        #expect(config.surfaces.reduce(0) { $0 + $1.recognizers.count } == 163)
        var e = Engine(configuration: config)
        let out = touch(&e, x: 37, y: 150)  // 185,750 px: cell 12
        let hit = inPlay(out)
        #expect(hit?.0 == "cell-12")
        #expect(hit?.1.count == 16)
        #expect(hit?.1.allSatisfy { $0.hasPrefix("cell-12/") || $0.hasPrefix("screen/") } == true)
        // Nothing outside the chain was touched: no record names another cell's recognizer.
        #expect(out.debugRecords.allSatisfy { r in r.recognizer.map { $0.hasPrefix("cell-12/") || $0.hasPrefix("screen/") } ?? true })
    }

    @Test("§2.3 allowedTouchTypes: a stylus-only recognizer refuses a finger")
    func allowedTouchTypes() {
        let penTap = RecognizerConfiguration(name: "pen", kind: .tap(TapParameters()), allowedTouchTypes: [.stylus])
        var e = engine([penTap])
        let finger = touch(&e, x: 10, y: 10)
        #expect(finger.gestures.isEmpty)
        #expect(finger.debugRecords.contains { $0.kind == .refused(reason: "touch type direct not allowed") })
        let pen = touch(&e, x: 10, y: 10, type: .stylus)
        #expect(pen.gestureSummary == ["pen:recognized"])
        #expect(pen.gestures.first?.touchType == .stylus)
    }

    func penAndFingerPinch(exclusive: Bool) -> [EngineOutput] {
        let pinch = RecognizerConfiguration(name: "pinch", kind: .pinch(PinchParameters()), requiresExclusiveTouchType: exclusive)
        var e = engine([pinch])
        var script = GestureScript()
        script.down(1, at: 0, x: 100, y: 100, type: .stylus)
        script.down(2, at: 10, x: 120, y: 100)
        script.move(1, to: (90, 100), start: 20, duration: 100)
        script.move(2, to: (130, 100), start: 20, duration: 100)
        script.up(1, at: 150); script.up(2, at: 150)
        return e.run(script)
    }

    @Test("§2.4 requiresExclusiveTouchType: a pinch tracks one touch type unless it is false")
    func exclusiveTouchType() {
        let exclusive = penAndFingerPinch(exclusive: true)
        #expect(exclusive.gestures.isEmpty)
        #expect(exclusive.debugRecords.contains { $0.kind == .refused(reason: "tracking stylus touches (requiresExclusiveTouchType)") })
        let mixed = penAndFingerPinch(exclusive: false)
        #expect(mixed.gestureOutline == ["pinch:began", "pinch:changed", "pinch:ended"])
        #expect(mixed.gestures.first?.touches == 2)
    }

    @Test("§2.3 region: a recognizer only takes touches beginning in its region (relative to its surface)")
    func region() {
        let corner = RecognizerConfiguration(name: "corner", kind: .tap(TapParameters()), region: ScreenRect(x: 0, y: 0, width: 100, height: 100))
        var e = engine([corner])
        #expect(touch(&e, x: 10, y: 10).gestureSummary == ["corner:recognized"])  // 50,50 px
        #expect(touch(&e, x: 30, y: 10).gestures.isEmpty)                          // 150,50 px
    }

    @Test("touches outside every surface reach nobody")
    func outside() {
        var e = Engine(configuration: nested)
        let out = touch(&e, x: 300, y: 250)
        #expect(inPlay(out)?.0 == nil)
        #expect(out.gestures.isEmpty && out.rawTouches.isEmpty)
        #expect(e.isIdle)
    }
}

extension HitTestingTests {
    @Test("§2.2 system recognizers are in play for every touch that begins in their region, on any surface or none")
    func systemRecognizers() {
        var config = nested
        config.systemRecognizers = [RecognizerConfiguration(
            name: "home", kind: .edgePan(EdgePanParameters(edges: [.bottom])), simultaneousWith: .all,
            region: ScreenRect(x: 0, y: 1400, width: 2000, height: 100))]
        var e = Engine(configuration: config)
        #expect(inPlay(touch(&e, x: 10, y: 10))?.1.contains("system:home") == false)
        var script = GestureScript()
        strokeScript(&script, x: 300, y: 298, dx: 0, dy: -40, duration: 150)  // no surface there
        let out = e.run(script)
        #expect(inPlay(out)?.0 == nil)
        #expect(inPlay(out)?.1 == ["system:home"])
        #expect(out.gestures.first.map { $0.recognizer == "home" && $0.owner == "system" && $0.surface == nil && $0.edge == .bottom } == true)
    }

    @Test("removing a touched surface cancels its raw touch and its recognizers")
    func removedWhileTouched() {
        var e = Engine(configuration: nested)
        var script = GestureScript()
        strokeScript(&script, x: 10, y: 10, dx: 20, dy: 0, duration: 100, lift: false)
        let before = e.run(script, settleMS: 0)
        #expect(before.gestureOutline == ["list-pan:began", "list-pan:changed"])
        #expect(before.rawOutline == ["row:1:began", "row:1:moved", "row:1:cancelled"])
        var config = nested
        config.surfaces.removeAll { $0.id == "list" || $0.id == "row" }
        let after = e.setConfiguration(config)
        #expect(after.gestureSummary == ["list-pan:cancelled"])

        var still = Engine(configuration: nested)
        var hold = GestureScript()
        hold.down(1, at: 0, x: 10, y: 10)
        #expect(still.run(hold, settleMS: 0).rawSummary == ["row:1:began"])
        let removed = still.removeSurface("row")
        #expect(removed.rawSummary == ["row:1:cancelled"])
        #expect(removed.debugRecords.contains { $0.recognizer == "row/row-tap" && $0.kind == .cancelled(reason: "removed") })
    }
}
