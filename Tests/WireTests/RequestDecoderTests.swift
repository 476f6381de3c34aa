// SPDX-License-Identifier: MIT
import Testing
import Wire

@Suite struct RequestDecoderTests {
    private func error(_ line: String) -> RequestError? {
        do {
            _ = try RequestDecoder.decode(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesTheIssueSubscribeExample() throws {
        let e = try RequestDecoder.decode(#"{"op":"subscribe","id":1,"events":["gesture","touch","system","device"],"filter":{"kinds":["tap","pan"],"devices":[3],"touchTypes":["direct"],"surfaces":["main"]}}"#)
        #expect(e.id == .int(1))
        #expect(e.request == .subscribe(Subscription(
            events: [.gesture, .touch, .system, .device],
            filter: SubscriptionFilter(kinds: ["tap", "pan"], devices: [3], touchTypes: ["direct"], surfaces: ["main"]))))
    }

    @Test func decodesTheIssueRegisterExample() throws {
        let e = try RequestDecoder.decode(#"{"op":"register","id":2,"surface":{"id":"main","rect":{"x":0,"y":0,"width":800,"height":480},"z":0,"parent":null,"deferEdges":["bottom"],"recognizers":[{"name":"tap","kind":"tap","taps":1},{"name":"pan","kind":"pan","requiresFailureOf":["tap"]}]}}"#)
        guard case let .register(s) = e.request else { Issue.record("not a register: \(e.request)"); return }
        #expect(s.id == "main")
        #expect(s.rect == SurfaceRect(x: 0, y: 0, width: 800, height: 480))
        #expect(s.z == 0)
        #expect(s.parent == nil)
        #expect(s.deferEdges == ["bottom"])
        #expect(s.recognizerNames == ["tap", "pan"])
        #expect(s.recognizers[0] == ["name": "tap", "kind": "tap", "taps": 1])
        #expect(s.recognizers[1]["requiresFailureOf"] == ["tap"])
        #expect(s.hidden == nil && s.screen == nil && s.fullScreen == nil)
    }

    @Test func decodesEverySurfaceField() throws {
        let e = try RequestDecoder.decode(#"{"op":"update","id":"u","surface":{"id":"child","rect":{"x":1.5,"y":2,"width":3,"height":4},"z":2,"parent":"main","screen":1,"hidden":false,"enabled":true,"multipleTouch":false,"exclusiveTouch":true,"deferEdges":[],"delegateDeferralTo":"inner","fullScreen":true}}"#)
        #expect(e.id == .string("u"))
        #expect(e.request == .update(SurfaceDescription(
            id: "child", rect: SurfaceRect(x: 1.5, y: 2, width: 3, height: 4), z: 2, parent: "main", screen: 1,
            hidden: false, enabled: true, multipleTouch: false, exclusiveTouch: true, deferEdges: [],
            delegateDeferralTo: "inner", fullScreen: true, recognizers: [])))
    }

    @Test func decodesTheOtherOps() throws {
        #expect(try RequestDecoder.decode(#"{"op":"unregister","id":4,"surface":"main"}"#) == RequestEnvelope(id: .int(4), request: .unregister(surface: "main")))
        #expect(try RequestDecoder.decode(#"{"op":"ping"}"#) == RequestEnvelope(id: nil, request: .ping))
        #expect(try RequestDecoder.decode(#"{"op":"ping","id":null}"#) == RequestEnvelope(id: nil, request: .ping))
        #expect(try RequestDecoder.decode(#"{"op":"ping","id":2.5}"#).id == .double(2.5))
        #expect(try RequestDecoder.decode(#"{"op":"unsubscribe","id":5}"#).request == .unsubscribe(events: nil))
        #expect(try RequestDecoder.decode(#"{"op":"unsubscribe","events":["touch","touch"]}"#).request == .unsubscribe(events: [.touch]))
        #expect(try RequestDecoder.decode(#"{"op":"subscribe","events":["debug"],"filter":null}"#).request == .subscribe(Subscription(events: [.debug])))
        // docs/protocol.md, "coalesce": 0 (off) to 100 ms.
        #expect(try RequestDecoder.decode(#"{"op":"coalesce","id":3,"intervalMs":16.7}"#) == RequestEnvelope(id: .int(3), request: .coalesce(intervalMilliseconds: 16.7)))
        #expect(try RequestDecoder.decode(#"{"op":"coalesce","intervalMs":0}"#).request == .coalesce(intervalMilliseconds: 0))
        #expect(try RequestDecoder.decode(#"{"op":"coalesce","intervalMs":100}"#).request == .coalesce(intervalMilliseconds: 100))
    }

    @Test func ignoresUnknownFieldsEverywhere() throws {
        let e = try RequestDecoder.decode(#"{"op":"subscribe","id":7,"future":{"x":[1]},"events":["touch"],"filter":{"devices":[1],"newKey":true}}"#)
        #expect(e.request == .subscribe(Subscription(events: [.touch], filter: SubscriptionFilter(devices: [1]))))
        let r = try RequestDecoder.decode(#"{"op":"register","surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1,"unit":"px"},"shadow":3,"recognizers":[{"name":"t","kind":"tap","extra":1}]}}"#)
        guard case let .register(s) = r.request else { Issue.record("not a register"); return }
        // Recognizer objects are kept whole: their schema is the engine's.
        #expect(s.recognizers == [["name": "t", "kind": "tap", "extra": 1]])
    }

    @Test func reportsLineLevelErrors() {
        #expect(error("{")?.code == .badJSON)
        #expect(error("[1]")?.code == .badJSON)
        #expect(error("[1]")?.message == "a request must be a JSON object, not an array")
        #expect(error(#"{"id":3}"#) == RequestError(.unknownOp, "the request has no \"op\"", id: .int(3)))
        #expect(error(#"{"op":"dance","id":"x"}"#) == RequestError(.unknownOp, "unknown op \"dance\"", id: .string("x")))
        #expect(error(#"{"op":"ping","id":true}"#) == RequestError(.badField, "id: expected a number or a string, not a boolean"))
        #expect(error(#"{"op":5,"id":1}"#) == RequestError(.badField, "op: expected a string, not a number", id: .int(1)))
        let bytes: [UInt8] = Array(#"{"op":"ping","x":""#.utf8) + [0xC3] + Array(#""}"#.utf8)
        do {
            _ = try RequestDecoder.decode(bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.code == .badUTF8)
        }
    }

    @Test(arguments: [
        (#"{"op":"subscribe","id":1}"#, "events: missing"),
        (#"{"op":"subscribe","id":1,"events":[]}"#, "events: expected a non-empty array"),
        (#"{"op":"subscribe","id":1,"events":"touch"}"#, "events: expected an array, not a string"),
        (#"{"op":"subscribe","id":1,"events":["touch","wind"]}"#, #"events[1]: unknown stream "wind" (expected gesture, touch, system, device or debug)"#),
        (#"{"op":"subscribe","id":1,"events":["touch"],"filter":[]}"#, "filter: expected an object, not an array"),
        (#"{"op":"subscribe","id":1,"events":["touch"],"filter":{"kinds":[]}}"#, "filter.kinds: expected a non-empty array"),
        (#"{"op":"subscribe","id":1,"events":["touch"],"filter":{"kinds":["tap",3]}}"#, "filter.kinds[1]: expected a string, not a number"),
        (#"{"op":"subscribe","id":1,"events":["touch"],"filter":{"devices":[-1]}}"#, "filter.devices[0]: expected a device id (an integer from 0 to 4294967295)"),
        (#"{"op":"subscribe","id":1,"events":["touch"],"filter":{"surfaces":[""]}}"#, "filter.surfaces[0]: must not be empty"),
        (#"{"op":"unsubscribe","id":1,"events":[1]}"#, "events[0]: expected a string, not a number"),
        (#"{"op":"register","id":1}"#, "surface: missing"),
        (#"{"op":"register","id":1,"surface":"main"}"#, "surface: expected an object, not a string"),
        (#"{"op":"register","id":1,"surface":{"rect":{"x":0,"y":0,"width":1,"height":1}}}"#, "surface.id: missing"),
        (#"{"op":"register","id":1,"surface":{"id":"s"}}"#, "surface.rect: missing"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":"8","height":1}}}"#, "surface.rect.width: expected a number, not a string"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1}}}"#, "surface.rect.height: missing"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":-1,"height":1}}}"#, "surface.rect.width: must not be negative"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"z":"top"}}"#, "surface.z: expected a number, not a string"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"parent":"s"}}"#, "surface.parent: a surface cannot be its own parent"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"screen":1.5}}"#, "surface.screen: expected a screen index (a non-negative integer)"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"hidden":1}}"#, "surface.hidden: expected true or false, not a number"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"deferEdges":"bottom"}}"#, "surface.deferEdges: expected an array, not a string"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"recognizers":[1]}}"#, "surface.recognizers[0]: expected an object, not a number"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"recognizers":[{"kind":"tap"}]}}"#, "surface.recognizers[0].name: missing"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"recognizers":[{"name":"t"}]}}"#, "surface.recognizers[0].kind: missing"),
        (#"{"op":"register","id":1,"surface":{"id":"s","rect":{"x":0,"y":0,"width":1,"height":1},"recognizers":[{"name":"t","kind":"tap"},{"name":"t","kind":"pan"}]}}"#, #"surface.recognizers[1].name: duplicate recognizer name "t""#),
        (#"{"op":"coalesce","id":1}"#, "intervalMs: missing"),
        (#"{"op":"coalesce","id":1,"intervalMs":"16"}"#, "intervalMs: expected a number, not a string"),
        (#"{"op":"coalesce","id":1,"intervalMs":-1}"#, "intervalMs: expected a number of milliseconds from 0 to 100, not -1"),
        (#"{"op":"coalesce","id":1,"intervalMs":100.5}"#, "intervalMs: expected a number of milliseconds from 0 to 100, not 100.5"),
        (#"{"op":"unregister","id":1}"#, "surface: missing"),
        (#"{"op":"unregister","id":1,"surface":{"id":"s"}}"#, "surface: expected a string, not an object"),
    ])
    func reportsBadFieldsWithTheirPath(_ line: String, _ message: String) {
        #expect(error(line) == RequestError(.badField, message, id: .int(1)))
    }

    /// Ids, names and filter entries over 256 bytes are `limit-exceeded` (the
    /// limits table of docs/protocol.md), naming the field; 256 bytes pass.
    @Test func limitsNameLength() {
        let long = String(repeating: "x", count: RequestDecoder.maxNameBytes + 1)
        let longest = String(repeating: "é", count: RequestDecoder.maxNameBytes / 2)
        let rect = #""rect":{"x":0,"y":0,"width":1,"height":1}"#
        let cases: [(String, String)] = [
            (#"{"op":"unregister","id":1,"surface":"\#(long)"}"#, "surface"),
            (#"{"op":"register","id":1,"surface":{"id":"\#(long)",\#(rect)}}"#, "surface.id"),
            (#"{"op":"update","id":1,"surface":{"id":"s",\#(rect),"parent":"\#(long)"}}"#, "surface.parent"),
            (#"{"op":"register","id":1,"surface":{"id":"s",\#(rect),"delegateDeferralTo":"\#(long)"}}"#, "surface.delegateDeferralTo"),
            (#"{"op":"register","id":1,"surface":{"id":"s",\#(rect),"recognizers":[{"name":"\#(long)","kind":"tap"}]}}"#, "surface.recognizers[0].name"),
            (#"{"op":"subscribe","id":1,"events":["gesture"],"filter":{"recognizers":["a","\#(long)"]}}"#, "filter.recognizers[1]"),
        ]
        for (line, path) in cases {
            #expect(error(line) == RequestError(.limitExceeded, "\(path): longer than 256 bytes", id: .int(1)), "\(path)")
        }
        #expect(throws: Never.self) { try RequestDecoder.decode(#"{"op":"unregister","id":1,"surface":"\#(longest)"}"#) }
    }

    @Test func encodedRequestsDecodeToThemselves() throws {
        let requests: [RequestEnvelope] = [
            RequestEnvelope(id: .int(1), request: .subscribe(Subscription(events: [.gesture, .touch], filter: SubscriptionFilter(kinds: ["tap"], recognizers: ["r"], devices: [0, 7], touchTypes: ["stylus"], surfaces: ["main"])))),
            RequestEnvelope(id: .string("a\"b"), request: .subscribe(Subscription(events: [.device]))),
            RequestEnvelope(id: nil, request: .unsubscribe(events: nil)),
            RequestEnvelope(id: .double(0.5), request: .unsubscribe(events: [.debug])),
            RequestEnvelope(id: .int(-3), request: .register(SurfaceDescription(
                id: "main", rect: SurfaceRect(x: 0.25, y: 0, width: 800, height: 480), z: 1, parent: "root", screen: 0,
                hidden: true, enabled: false, multipleTouch: true, exclusiveTouch: false, deferEdges: ["bottom", "top"],
                delegateDeferralTo: "c", fullScreen: false, recognizers: [["name": "tap", "kind": "tap", "taps": 2]]))),
            RequestEnvelope(id: .int(4), request: .update(SurfaceDescription(id: "m", rect: SurfaceRect(x: 1, y: 2, width: 3, height: 4)))),
            RequestEnvelope(id: .int(5), request: .unregister(surface: "m")),
            RequestEnvelope(id: .int(6), request: .ping),
            RequestEnvelope(id: .int(7), request: .coalesce(intervalMilliseconds: 16.5)),
        ]
        for r in requests {
            #expect(try RequestDecoder.decode(r.bytes) == r)
        }
        #expect(String(decoding: requests[7].bytes, as: UTF8.self) == #"{"op":"ping","id":6}"#)
        #expect(String(decoding: requests[8].bytes, as: UTF8.self) == #"{"op":"coalesce","id":7,"intervalMs":16.5}"#)
    }
}
