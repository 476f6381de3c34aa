// SPDX-License-Identifier: MIT
import JSON
import Testing
import Wire

/// docs/protocol.md, "Drag sessions": the requests decode, encode back, and
/// refuse what is malformed or too large with a code and the field's path.
@Suite struct DragRequestsTests {
    func decode(_ line: String) throws(RequestError) -> Request { try RequestDecoder.decode(line).request }

    func expectError(_ line: String, _ code: ErrorCode, _ prefix: String) {
        do {
            _ = try decode(line)
            Issue.record("accepted: \(line)")
        } catch {
            #expect(error.code == code, "\(line)")
            #expect(error.message.hasPrefix(prefix), "\(error.message)")
        }
    }

    @Test func decodesAndEncodesEachRequest() throws {
        let lines = [
            #"{"op":"drag-surface","id":1,"surface":"list","offersItems":true,"addsItems":true}"#,
            #"{"op":"drag-surface","id":2,"surface":"map","dropTypes":["text/plain","image/*","*/*"]}"#,
            #"{"op":"drag-items","id":3,"request":7,"items":[{"representations":[{"type":"text/plain","data":"Lyon \"centre\""},{"type":"text/uri-list","data":"geo:45.76,4.84"}]}]}"#,
            #"{"op":"drag-items","id":4,"request":8,"items":[]}"#,
            #"{"op":"drop-proposal","id":5,"session":2,"operation":"move"}"#,
            #"{"op":"drag-surface","id":6,"surface":"list","offersItems":true,"compact":true}"#,
        ]
        for line in lines {
            let envelope = try RequestDecoder.decode(line)
            #expect(String(decoding: envelope.bytes, as: UTF8.self) == line)
        }
        #expect(try decode(lines[0]) == .drag(.roles(surface: "list", WireDragRoles(offersItems: true, addsItems: true))))
        #expect(try decode(lines[4]) == .drag(.proposal(session: 2, .move)))
        #expect(try decode(lines[5]) == .drag(.roles(surface: "list", WireDragRoles(offersItems: true, compact: true))))
        guard case .drag(.items(7, let items)) = try decode(lines[2]) else { Issue.record("not items"); return }
        #expect(items.first?.representations.map(\.type) == ["text/plain", "text/uri-list"])
        #expect(items.first?.representations.first?.data == "Lyon \"centre\"")
    }

    @Test func refusesMalformedRequestsNamingTheField() {
        expectError(#"{"op":"drag-surface","id":1}"#, .badField, "surface: missing")
        expectError(#"{"op":"drag-surface","id":1,"surface":"m","dropTypes":["plain"]}"#, .badField, "dropTypes[0]: expected a MIME type")
        expectError(#"{"op":"drag-surface","id":1,"surface":"m","dropTypes":["*/plain"]}"#, .badField, "dropTypes[0]")
        expectError(#"{"op":"drag-surface","id":1,"surface":"m","offersItems":"yes"}"#, .badField, "offersItems")
        expectError(#"{"op":"drag-surface","id":1,"surface":"m","compact":1}"#, .badField, "compact")
        expectError(#"{"op":"drag-items","id":1,"items":[]}"#, .badField, "request: missing")
        expectError(#"{"op":"drag-items","id":1,"request":0,"items":[]}"#, .badField, "request: expected a positive integer")
        expectError(#"{"op":"drag-items","id":1,"request":1}"#, .badField, "items: missing")
        expectError(#"{"op":"drag-items","id":1,"request":1,"items":[{"representations":[]}]}"#, .badField, "items[0].representations")
        expectError(#"{"op":"drag-items","id":1,"request":1,"items":[{"representations":[{"type":"text/*","data":"x"}]}]}"#, .badField, "items[0].representations[0].type")
        expectError(#"{"op":"drag-items","id":1,"request":1,"items":[{"representations":[{"type":"text/plain","data":7}]}]}"#, .badField, "items[0].representations[0].data")
        expectError(#"{"op":"drop-proposal","id":1,"session":1,"operation":"link"}"#, .badField, "operation: expected copy, move")
        expectError(#"{"op":"drop-proposal","id":1,"operation":"copy"}"#, .badField, "session: missing")
    }

    @Test func refusesTooMuch() {
        let longType = "text/" + String(repeating: "x", count: 300)
        expectError(#"{"op":"drag-surface","id":1,"surface":"m","dropTypes":["\#(longType)"]}"#, .limitExceeded, "dropTypes[0]: longer than 256 bytes")
        let types = (0..<33).map { #""text/t\#($0)""# }.joined(separator: ",")
        expectError(#"{"op":"drag-surface","id":1,"surface":"m","dropTypes":[\#(types)]}"#, .limitExceeded, "dropTypes: at most 32")
        let item = #"{"representations":[{"type":"text/plain","data":"x"}]}"#
        let many = Array(repeating: item, count: 65).joined(separator: ",")
        expectError(#"{"op":"drag-items","id":1,"request":1,"items":[\#(many)]}"#, .limitExceeded, "items: at most 64")
        let reps = Array(repeating: #"{"type":"text/plain","data":"x"}"#, count: 9).joined(separator: ",")
        expectError(#"{"op":"drag-items","id":1,"request":1,"items":[{"representations":[\#(reps)]}]}"#, .limitExceeded, "items[0].representations: at most 8")
    }
}
