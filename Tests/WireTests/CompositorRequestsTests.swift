// SPDX-License-Identifier: MIT
import JSON
import Testing
import Wire

/// The `compositor` request: an agent's report of the compositor reading the pass-through mirrors.
@Suite struct CompositorRequestsTests {
    @Test("name and version decode, and encode back to the same line")
    func roundTrip() throws {
        let line = #"{"op":"compositor","id":4,"name":"kwin_wayland","version":"5.27.5"}"#
        let e = try RequestDecoder.decode(line)
        #expect(e.request == .compositor(CompositorReport(name: "kwin_wayland", version: "5.27.5")))
        #expect(e.request.op == "compositor")
        #expect(String(decoding: e.bytes, as: UTF8.self) == line)
    }

    @Test("without name the compositor is unknown")
    func unknown() throws {
        #expect(try RequestDecoder.decode(#"{"op":"compositor"}"#).request == .compositor(.unknown))
        #expect(String(decoding: RequestEnvelope(id: nil, request: .compositor(.unknown)).bytes, as: UTF8.self) == #"{"op":"compositor"}"#)
    }

    @Test("a bad field is refused naming it", arguments: [
        (#"{"op":"compositor","name":""}"#, "name"),
        (#"{"op":"compositor","name":7}"#, "name"),
        (#"{"op":"compositor","version":"1.9"}"#, "version"),
        (#"{"op":"compositor","name":"sway","version":19}"#, "version"),
    ])
    func badFields(line: String, field: String) {
        do {
            _ = try RequestDecoder.decode(line)
            Issue.record("accepted \(line)")
        } catch {
            #expect(error.code == .badField, "\(error)")
            #expect(error.message.hasPrefix(field + ":"), "\(error)")
        }
    }

    @Test("a name longer than the protocol's limit is limit-exceeded")
    func tooLong() {
        let line = #"{"op":"compositor","name":""# + String(repeating: "k", count: RequestDecoder.maxNameBytes + 1) + #""}"#
        do {
            _ = try RequestDecoder.decode(line)
            Issue.record("accepted a long name")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }
}
