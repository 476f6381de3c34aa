// SPDX-License-Identifier: MIT
import Testing
import Wire

@Suite struct MessagesTests {
    @Test func touchEventHasTheIssueFields() {
        let t = TouchMessage(
            microseconds: 3_000_250, device: 0, id: 7, phase: .moved, touchType: .stylus, tool: .eraser, screen: 0,
            location: WirePoint(x: 10.123, y: 20), locationMM: WirePoint(x: 0, y: 0),
            force: 0.5, altitude: 1.2, buttons: [.stylus, .stylus2]
        )
        var w = JSONWriter()
        MessageEncoder.touch(t, into: &w)
        #expect(w.string == #"{"type":"touch","time":3.00025,"device":0,"id":7,"phase":"moved","touchType":"stylus","tool":"eraser","screen":0,"location":{"x":10.12,"y":20},"locationMM":{"x":0,"y":0},"force":0.5,"altitude":1.2,"buttons":["stylus","stylus2"]}"#)
    }

    @Test func helloListsDevicesAndScreens() {
        var w = JSONWriter()
        MessageEncoder.hello(
            devices: [HelloDevice(id: 0, name: "Pad \"1\"", touchTypes: [.stylus, .direct], slots: 10, widthMM: 293.6, heightMM: 165, sizeSource: "resolution", screen: 0)],
            screens: [HelloScreen(index: 0, name: "default", width: 1920, height: 1080)], into: &w)
        #expect(w.string == #"{"type":"hello","protocol":1,"server":"touchd 0.1.0","devices":[{"id":0,"name":"Pad \"1\"","touchType":"stylus","touchTypes":["stylus","direct"],"slots":10,"size":{"width":293.6,"height":165,"source":"resolution"},"screen":0}],"screens":[{"id":0,"name":"default","width":1920,"height":1080}]}"#)
    }
}
