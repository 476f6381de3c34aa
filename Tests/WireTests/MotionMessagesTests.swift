// SPDX-License-Identifier: MIT
import JSON
import Testing
import Wire

/// The `frames` request and the `motion` line (docs/protocol.md, "frames").
@Suite struct MotionMessagesTests {
    private func error(_ line: String) -> RequestError? {
        do {
            _ = try RequestDecoder.decode(line)
            return nil
        } catch {
            return error
        }
    }

    @Test func decodesFrames() throws {
        #expect(try RequestDecoder.decode(#"{"op":"frames","id":1,"periodMs":16.667,"time":12.5}"#)
            == RequestEnvelope(id: .int(1), request: .frames(FramesRequest(periodMilliseconds: 16.667, time: 12.5))))
        #expect(try RequestDecoder.decode(#"{"op":"frames","periodMs":8.333,"time":0,"predict":{"horizonMs":8}}"#).request
            == .frames(FramesRequest(periodMilliseconds: 8.333, time: 0, predictionHorizonMilliseconds: 8)))
        // 0 turns the lines off and needs no time; bounds are inclusive.
        #expect(try RequestDecoder.decode(#"{"op":"frames","periodMs":0}"#).request == .frames(.off))
        #expect(try RequestDecoder.decode(#"{"op":"frames","periodMs":1,"time":3}"#).request == .frames(FramesRequest(periodMilliseconds: 1, time: 3)))
        #expect(try RequestDecoder.decode(#"{"op":"frames","periodMs":1000,"time":3,"predict":{"horizonMs":100}}"#).request
            == .frames(FramesRequest(periodMilliseconds: 1000, time: 3, predictionHorizonMilliseconds: 100)))
        // `null` is an absent optional field; unknown fields are ignored, as in every request.
        #expect(try RequestDecoder.decode(#"{"op":"frames","periodMs":16,"time":1,"predict":null,"vsync":true}"#).request
            == .frames(FramesRequest(periodMilliseconds: 16, time: 1)))
    }

    @Test(arguments: [
        (#"{"op":"frames","id":1}"#, "periodMs: missing"),
        (#"{"op":"frames","id":1,"periodMs":"16"}"#, "periodMs: expected a number, not a string"),
        (#"{"op":"frames","id":1,"periodMs":-16,"time":1}"#, "periodMs: expected 0 (off) or a number of milliseconds from 1 to 1000, not -16"),
        (#"{"op":"frames","id":1,"periodMs":0.5,"time":1}"#, "periodMs: expected 0 (off) or a number of milliseconds from 1 to 1000, not 0.5"),
        (#"{"op":"frames","id":1,"periodMs":1001,"time":1}"#, "periodMs: expected 0 (off) or a number of milliseconds from 1 to 1000, not 1001"),
        (#"{"op":"frames","id":1,"periodMs":16}"#, "time: missing"),
        (#"{"op":"frames","id":1,"periodMs":16,"time":-2}"#, "time: expected a frame's time in seconds (not negative), not -2"),
        (#"{"op":"frames","id":1,"periodMs":16,"time":1,"predict":8}"#, "predict: expected an object, not a number"),
        (#"{"op":"frames","id":1,"periodMs":16,"time":1,"predict":{}}"#, "predict.horizonMs: missing"),
        (#"{"op":"frames","id":1,"periodMs":16,"time":1,"predict":{"horizonMs":-1}}"#, "predict.horizonMs: expected a number of milliseconds from 0 to 100, not -1"),
        (#"{"op":"frames","id":1,"periodMs":16,"time":1,"predict":{"horizonMs":500}}"#, "predict.horizonMs: expected a number of milliseconds from 0 to 100, not 500"),
    ])
    func reportsBadFieldsWithTheirPath(_ line: String, _ message: String) {
        #expect(error(line) == RequestError(.badField, message, id: .int(1)))
    }

    @Test func encodedFramesDecodeToThemselves() throws {
        let requests: [RequestEnvelope] = [
            RequestEnvelope(id: .int(1), request: .frames(FramesRequest(periodMilliseconds: 16.5, time: 12.25, predictionHorizonMilliseconds: 8))),
            RequestEnvelope(id: .int(2), request: .frames(FramesRequest(periodMilliseconds: 8, time: 0))),
            RequestEnvelope(id: nil, request: .frames(.off)),
        ]
        for r in requests { #expect(try RequestDecoder.decode(r.bytes) == r) }
        #expect(String(decoding: requests[0].bytes, as: UTF8.self)
            == #"{"op":"frames","id":1,"periodMs":16.5,"time":12.25,"predict":{"horizonMs":8.0}}"#)
        #expect(String(decoding: requests[2].bytes, as: UTF8.self) == #"{"op":"frames","periodMs":0.0}"#)
    }

    @Test func writesMotionLines() throws {
        let m = MotionMessage(
            microseconds: 12_495_000, frameMicroseconds: 12_500_000, device: 0, id: 3, touchType: .stylus, tool: .pen, screen: 0,
            location: WirePoint(x: 100.5, y: 200.25), sample: .interpolated, force: 0.5, altitude: 1.2, azimuth: 0.3,
            predicted: WirePrediction(microseconds: 12_506_000, location: WirePoint(x: 110, y: 201)))
        var w = JSONWriter()
        MessageEncoder.motion(m, into: &w)
        let line = String(decoding: w.bytes, as: UTF8.self)
        #expect(line == #"{"type":"motion","time":12.495,"frame":12.5,"device":0,"id":3,"touchType":"stylus","tool":"pen","screen":0,"location":{"x":100.5,"y":200.25},"sample":"interpolated","force":0.5,"altitude":1.2,"azimuth":0.3,"predicted":{"time":12.506,"location":{"x":110,"y":201}}}"#)
        // Without prediction or stylus axes, their keys are left out.
        var plain = m
        plain.force = nil; plain.altitude = nil; plain.azimuth = nil; plain.predicted = nil
        var v = JSONWriter()
        MessageEncoder.motion(plain, into: &v)
        let json = try JSONParser.parse(v.bytes)
        #expect(json["predicted"] == nil && json["force"] == nil)
        #expect(json["sample"]?.stringValue == "interpolated")
    }

    @Test func resampledKindsHaveTheirNames() {
        for k in WireResampledKind.allCases { #expect("\(k.protocolName)" == k.rawValue) }
    }
}
