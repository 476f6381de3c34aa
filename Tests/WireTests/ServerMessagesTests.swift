// SPDX-License-Identifier: MIT
import Testing
import Wire

@Suite struct ServerMessagesTests {
    private func text(_ body: (inout JSONWriter) -> Void) -> String {
        String(decoding: MessageEncoder.line(body), as: UTF8.self)
    }

    @Test func ackEchoesTheIdAsGiven() {
        #expect(text { MessageEncoder.ack(id: .int(3), into: &$0) } == #"{"type":"ack","id":3}"#)
        #expect(text { MessageEncoder.ack(id: .string("x"), into: &$0) } == #"{"type":"ack","id":"x"}"#)
        #expect(text { MessageEncoder.ack(id: .double(1.25), into: &$0) } == #"{"type":"ack","id":1.25}"#)
        #expect(text { MessageEncoder.ack(id: nil, into: &$0) } == #"{"type":"ack"}"#)
    }

    @Test func errorCarriesCodeAndMessage() {
        let e = RequestError.badField("surface.rect.width", "expected a number, not a string", id: .int(2))
        #expect(text { MessageEncoder.error(e, into: &$0) } == #"{"type":"error","id":2,"code":"bad-field","message":"surface.rect.width: expected a number, not a string"}"#)
        #expect(text { MessageEncoder.error(RequestError(.lineTooLong, "x"), into: &$0) } == #"{"type":"error","code":"line-too-long","message":"x"}"#)
    }

    @Test func goodbyeOverflowAndDevice() {
        #expect(text { MessageEncoder.goodbye(reason: .shutdown, into: &$0) } == #"{"type":"goodbye","reason":"shutdown"}"#)
        #expect(text { MessageEncoder.overflow(lost: 12, time: 3.5, into: &$0) } == #"{"type":"overflow","lost":12,"time":3.5}"#)
        let d = HelloDevice(id: 2, name: "Pen", touchTypes: [.stylus], slots: 0, widthMM: 100, heightMM: 50.25, sizeSource: "udev", screen: 1)
        #expect(text { MessageEncoder.device(.removed, d, time: 1, into: &$0) } == #"{"type":"device","time":1,"change":"removed","device":{"id":2,"name":"Pen","touchType":"stylus","touchTypes":["stylus"],"slots":0,"size":{"width":100,"height":50.3,"source":"udev"},"screen":1}}"#)
    }
}
