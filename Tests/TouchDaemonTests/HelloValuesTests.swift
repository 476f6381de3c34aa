// SPDX-License-Identifier: MIT
import Session
import Testing
import TouchDaemon
import Wire

/// The screens in force as `hello` and `screens` list them: as the user sees each screen.
@Suite struct HelloValuesTests {
    @Test func aTurnedScreenIsListedAsTheUserSeesIt() throws {
        let c = try TouchdConfiguration.parse(yaml: """
            screens:
              - {name: main, width: 1600, height: 1000, sizeMM: {width: 320, height: 200}, rotation: 90, insets: {top: 48}}
              - {name: side, width: 800, height: 480}
            """, file: "t.yaml")
        let screens = c.helloScreens
        #expect(screens.map { [$0.index, $0.width, $0.height, $0.rotation] } == [[0, 1000, 1600, 90], [1, 800, 480, 0]])
        #expect(screens.map(\.name) == ["main", "side"])
        #expect(screens[0].sizeMM == WireSize(width: 200, height: 320) && screens[1].sizeMM == nil)
        #expect(screens[0].insets == WireInsets(top: 48) && screens[1].insets.isEmpty)
        var w = JSONWriter()
        MessageEncoder.screens(screens, time: 1, into: &w)
        #expect(w.string == #"{"type":"screens","time":1,"screens":[{"id":0,"name":"main","width":1000,"height":1600,"rotation":90,"size":{"width":200,"height":320},"insets":{"top":48,"right":0,"bottom":0,"left":0}},{"id":1,"name":"side","width":800,"height":480}]}"#)
    }
}
