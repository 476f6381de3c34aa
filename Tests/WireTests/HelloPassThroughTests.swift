// SPDX-License-Identifier: MIT
import Testing
@testable import Wire

/// `hello` says per device whether touchd stands in front of the compositor
/// for it (`touchctl devices --running`; docs/pass-through.md).
@Suite struct HelloPassThroughTests {
    @Test func aDeviceWithAMirrorListsItsNodeNameAndEnding() {
        var d = HelloDevice(id: 0, name: "Panel", touchTypes: [.direct], slots: 10, widthMM: 200, heightMM: 100, sizeSource: "resolution", screen: 0)
        var w = JSONWriter()
        MessageEncoder.device(d, into: &w)
        #expect(!w.string.contains("passThrough"))
        d.passThrough = HelloPassThrough(mirrorNode: "/dev/input/event7", mirrorName: "Panel", ending: "lift")
        var v = JSONWriter()
        MessageEncoder.device(d, into: &v)
        #expect(v.string.hasSuffix(#""screen":0,"passThrough":{"mirror":"/dev/input/event7","name":"Panel","ending":"lift"}}"#))
    }

    @Test("the reason of the ending is an added field after ending; without one the entry is as before")
    func endingReason() {
        var d = HelloDevice(id: 0, name: "Panel", touchTypes: [.direct], slots: 10, widthMM: 200, heightMM: 100, sizeSource: "resolution", screen: 0)
        d.passThrough = HelloPassThrough(mirrorNode: "/dev/input/event7", mirrorName: "Panel", ending: "cancel",
                                         endingReason: "auto: kwin_wayland 5.27.5 passes cancels")
        var w = JSONWriter()
        MessageEncoder.device(d, into: &w)
        #expect(w.string.hasSuffix(#""passThrough":{"mirror":"/dev/input/event7","name":"Panel","ending":"cancel","endingReason":"auto: kwin_wayland 5.27.5 passes cancels"}}"#), "\(w.string)")
    }
}
