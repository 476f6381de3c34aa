// SPDX-License-Identifier: MIT
import Testing
import TouchClient
import Wire

/// The sway follower's reading of sway-ipc(7): framing, the tree, window and workspace events.
@Suite("sway's focused window, as touchctl follow-focus reads it")
struct SwayFocusTests {
    func take(_ f: inout SwayFocusFollower, _ type: UInt32, _ json: String) -> FocusReport? {
        f.take(type: type, payload: Array(json.utf8))
    }

    @Test("framing: messages split across reads come out whole; bytes without the magic are refused")
    func framing() throws {
        let bytes = SwayIPC.message(SwayIPC.getTree, #"{"a":1}"#) + SwayIPC.message(SwayIPC.windowEvent, "{}")
        var reader = SwayIPC.Reader()
        #expect(try reader.take(bytes[0..<10]).isEmpty)
        let out = try reader.take(bytes[10...])
        #expect(out.map(\.type) == [SwayIPC.getTree, SwayIPC.windowEvent])
        #expect(String(decoding: out[0].payload, as: UTF8.self) == #"{"a":1}"#)
        var bad = SwayIPC.Reader()
        #expect(throws: SwayIPCError.self) { try bad.take(Array("not-sway-at-all".utf8)) }
    }

    @Test("the tree's focused window, then focus, title, fullscreen and close events; an empty workspace is unknown")
    func events() {
        var f = SwayFocusFollower()
        let tree = #"{"type":"root","nodes":[{"type":"output","nodes":[{"type":"workspace","nodes":[{"type":"con","app_id":"foot","name":"sh","focused":false},{"type":"con","app_id":null,"window_properties":{"class":"XTerm"},"name":"x","focused":true,"fullscreen_mode":0}],"floating_nodes":[]}]}]}"#
        #expect(take(&f, SwayIPC.getTree, tree) == FocusReport(appID: "XTerm", title: "x", fullScreen: false))
        #expect(take(&f, SwayIPC.windowEvent, #"{"change":"focus","container":{"type":"con","app_id":"foot","name":"sh","focused":true,"fullscreen_mode":0}}"#)?.appID == "foot")
        #expect(take(&f, SwayIPC.windowEvent, #"{"change":"title","container":{"app_id":"foot","name":"vim","focused":true,"fullscreen_mode":0}}"#)?.title == "vim")
        #expect(take(&f, SwayIPC.windowEvent, #"{"change":"title","container":{"app_id":"other","name":"bg","focused":false}}"#) == nil,
                "a window in the background changes nothing")
        #expect(take(&f, SwayIPC.windowEvent, #"{"change":"fullscreen_mode","container":{"app_id":"foot","name":"vim","focused":true,"fullscreen_mode":1}}"#)?.fullScreen == true)
        #expect(take(&f, SwayIPC.windowEvent, #"{"change":"close","container":{"app_id":"foot","name":"vim","focused":true}}"#) == .unknown)
        #expect(take(&f, SwayIPC.windowEvent, #"{"change":"focus","container":{"app_id":"foot","name":"vim","focused":true}}"#)?.appID == "foot")
        #expect(take(&f, SwayIPC.workspaceEvent, #"{"change":"focus","current":{"type":"workspace","nodes":[],"floating_nodes":[]}}"#) == .unknown)
        #expect(take(&f, SwayIPC.getTree, #"{"type":"root","focused":true,"nodes":[]}"#) == nil, "still unknown: no change")
    }
}
