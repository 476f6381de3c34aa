// SPDX-License-Identifier: MIT
import Testing
import Wire

/// The `screens` request (docs/protocol.md, "screens") and the `screens` message.
@Suite struct ScreenRequestsTests {
    @Test("every field of a screens request decodes, and the request encodes back to the same")
    func decodesAndEncodesEveryField() throws {
        let line = #"{"op":"screens","id":8,"screens":[{"name":"main","rotation":90,"insets":{"top":48,"right":0,"bottom":0,"left":12.5}},{"name":"side","width":1280,"height":800,"sizeMM":{"width":217,"height":136}},{"name":"old","remove":true}],"devices":[{"name":"ELAN*","screen":"side"},{"device":3,"screen":0}]}"#
        let e = try RequestDecoder.decode(line)
        let expected = ScreenChange(
            screens: [
                ScreenUpdate(name: "main", rotation: .degrees90, insets: WireInsets(top: 48, left: 12.5)),
                ScreenUpdate(name: "side", width: 1280, height: 800, sizeMM: WireSize(width: 217, height: 136)),
                ScreenUpdate(name: "old", remove: true),
            ],
            devices: [DeviceScreenAssignment(name: "ELAN*", screen: .name("side")), DeviceScreenAssignment(device: 3, screen: .index(0))])
        #expect(e == RequestEnvelope(id: .int(8), request: .screens(expected)))
        #expect(try RequestDecoder.decode(e.bytes) == e)
    }

    @Test("a bad screens request names its field")
    func badFieldsAreNamed() {
        let cases: [(String, String)] = [
            (#"{"op":"screens","id":1}"#, "screens: expected at least one entry in \"screens\" or \"devices\""),
            (#"{"op":"screens","screens":[{"name":"main","rotation":45}]}"#, "screens[0].rotation: expected 0, 90, 180 or 270"),
            (#"{"op":"screens","screens":[{"name":"main","width":0}]}"#, "screens[0].width: expected 1 to 65536 pixels"),
            (#"{"op":"screens","screens":[{"rotation":90}]}"#, "screens[0].name: missing"),
            (#"{"op":"screens","screens":[{"name":"a","insets":{"top":-1}}]}"#, "screens[0].insets.top: expected 0 to 65536 pixels"),
            (#"{"op":"screens","screens":[{"name":"a","sizeMM":{"width":0,"height":1}}]}"#, "screens[0].sizeMM.width: must be positive"),
            (#"{"op":"screens","devices":[{"screen":"side"}]}"#, "devices[0]: needs \"device\" or \"name\""),
            (#"{"op":"screens","devices":[{"device":1,"screen":true}]}"#, "devices[0].screen: expected a screen index or name, not a boolean"),
        ]
        for (line, message) in cases {
            do {
                _ = try RequestDecoder.decode(line)
                Issue.record("accepted: \(line)")
            } catch {
                #expect(error.code == .badField, "\(line)")
                #expect(error.message == message, "\(line)")
            }
        }
    }

    @Test("the screens message lists the screens as hello does, with rotation, size and insets when set")
    func screensMessage() {
        var w = JSONWriter(capacity: 256)
        MessageEncoder.screens([
            HelloScreen(index: 0, name: "main", width: 1080, height: 1920, rotation: 90, insets: WireInsets(top: 48),
                        sizeMM: WireSize(width: 68, height: 121)),
            HelloScreen(index: 1, name: "side", width: 800, height: 480),
        ], time: 12.5, into: &w)
        #expect(String(decoding: w.bytes, as: UTF8.self) == #"{"type":"screens","time":12.5,"screens":[{"id":0,"name":"main","width":1080,"height":1920,"rotation":90,"size":{"width":68,"height":121},"insets":{"top":48,"right":0,"bottom":0,"left":0}},{"id":1,"name":"side","width":800,"height":480}]}"#)
    }
}
