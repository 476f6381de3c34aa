// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TouchCore
@testable import Trace

@Suite struct NativeTraceTests {
    static let header = "{\"type\":\"header\",\"format\":\"touchd-trace\",\"version\":1}\n"
    static let device = "{\"type\":\"device\",\"id\":7,\"name\":\"Pad \\\"A\\\" ®\",\"bus\":3,\"vendor\":1386,\"product\":244,\"version\":0,"
        + "\"properties\":[1],\"codes\":{\"0\":[0],\"3\":[0,1]},\"absinfo\":{\"0\":[0,1000,0,0,10],\"1\":[-3,500,0,0,0]},"
        + "\"node\":\"/dev/input/event3\",\"udev\":{\"ID_INPUT\":\"1\"}}\n"
    static let frame1 = "{\"type\":\"frame\",\"device\":7,\"time\":1000,\"events\":[[3,0,10],[3,1,-2],[0,0,0]]}\n"
    static let frame2 = "{\"type\":\"frame\",\"device\":7,\"time\":2000,\"events\":[[3,0,11,1999],[0,0,0]]}\n"

    func error(_ text: String) -> TraceError? {
        do { _ = try TraceReader.read(text: text, name: "t.jsonl"); return nil } catch { return error as? TraceError }
    }

    @Test func readsEveryLineKind() throws {
        let r = try TraceReader.read(text: Self.header + Self.device + Self.frame1 + Self.frame2, name: "t.jsonl")
        #expect(r.format == .native)
        #expect(r.warnings.isEmpty)
        let d = r.devices[0]
        #expect(d.description.name == "Pad \"A\" ®")
        #expect(d.node == "/dev/input/event3")
        #expect(d.description.udevProperties == ["ID_INPUT": "1"])
        #expect(d.description.absInfo[1] == AbsInfo(minimum: -3, maximum: 500))
        #expect(d.description.id == InputID(bustype: 3, vendor: 1386, product: 244, version: 0))
        #expect(r.events.map(\.event.value) == [10, -2, 0, 11, 0])
        #expect(r.events.map(\.event.time.microseconds) == [1000, 1000, 1000, 1999, 2000])
        #expect(r.events.allSatisfy { $0.device == DeviceID(0) })
    }

    /// Found by fuzz-evemu: the writer escapes a control character as
    /// `\u0001`; when a hex digit followed it (`\u0001B`), the reader took
    /// five digits, refused the escape, and dropped the device line (the last
    /// line) as cut short: the trace lost its device.
    @Test func controlCharacterFollowedByAHexDigitRoundTrips() throws {
        var d = DeviceDescription(name: "Pad\u{1}B")
        d.udevProperties = ["ID_SERIAL": "x\u{0}0f"]
        let written = try TraceWriter.render(Recording(devices: [RecordedDevice(description: d)], events: [], format: .native), as: .native)
        #expect(written.contains(#""name":"Pad\u0001B""#))
        let r = try TraceReader.read(text: written, name: "t.jsonl")
        #expect(r.warnings == [])
        #expect(r.devices.map(\.description) == [d])
    }

    @Test func truncatedLastLineIsDroppedWithAWarning() throws {
        let cut = String(Self.frame2.prefix(40))
        let r = try TraceReader.read(text: Self.header + Self.device + Self.frame1 + cut, name: "t.jsonl")
        #expect(r.events.count == 3)
        #expect(r.warnings.count == 1)
        #expect(r.warnings.first?.line == 4)
    }

    @Test func badLineInTheMiddleIsAnError() throws {
        let e = try #require(error(Self.header + Self.device + "{\"type\":\"frame\",\"dev\n" + Self.frame2))
        #expect(e.code == .badLine && e.line == 3 && e.file == "t.jsonl")
        let badEvent = try #require(error(Self.header + Self.device + "{\"type\":\"frame\",\"device\":7,\"time\":1,\"events\":[[3,0]]}\n"))
        #expect(badEvent.line == 3)
        let unknownDevice = try #require(error(Self.header + Self.device + Self.frame1.replacingOccurrences(of: "\"device\":7", with: "\"device\":8")))
        #expect(unknownDevice.code == .badDevice && unknownDevice.line == 3)
        let wrongHeader = try #require(error("{\"type\":\"header\",\"format\":\"other\",\"version\":1}\n" + Self.device))
        #expect(wrongHeader.code == .badHeader && wrongHeader.line == 1)
        let newer = try #require(error(Self.header.replacingOccurrences(of: "1}", with: "2}") + Self.device))
        #expect(newer.code == .badHeader)
    }

    /// Lines are held to strict JSON, as protocol lines are: a duplicate key,
    /// a number with a fraction where an integer belongs, or bytes that are
    /// not UTF-8 make a bad line, its message naming the column.
    @Test func linesAreStrictJSON() throws {
        let duplicate = try #require(error(Self.header + Self.device + Self.frame1.replacingOccurrences(of: "\"time\":1000", with: "\"time\":1000,\"time\":5") + Self.frame2))
        #expect(duplicate.code == .badLine && duplicate.line == 3)
        #expect(duplicate.message == #"not valid JSON at column 40: duplicate key "time""#)
        let fraction = try #require(error(Self.header + Self.device + Self.frame1.replacingOccurrences(of: "\"time\":1000", with: "\"time\":1000.0") + Self.frame2))
        #expect(fraction.code == .badLine && fraction.message == #"frame needs an integer "time" in microseconds"#)
        var bytes = Array((Self.header + Self.device).utf8) + Array(#"{"type":"x","note":""#.utf8) + [0xFF] + Array("\"}\n".utf8)
        bytes += Array(Self.frame1.utf8)
        let utf8 = try #require(bytes.withUnsafeBufferPointer { raw -> TraceError? in
            do { _ = try NativeTraceReader.parse(raw, file: "t.jsonl"); return nil } catch { return error as? TraceError }
        })
        #expect(utf8.code == .badLine && utf8.line == 3 && utf8.message == "not valid JSON at column 21: invalid UTF-8")
    }

    @Test func hotPlugRemoveAndReuse() throws {
        var w = NativeTraceWriter()
        let a = RecordedDevice(description: DeviceDescription(name: "A"))
        let b = RecordedDevice(description: DeviceDescription(name: "B"))
        w.addDevice(DeviceID(0), a, at: nil)
        try w.append(RecordedEvent(device: DeviceID(0), event: InputEvent(time: Timestamp(microseconds: 5), type: .syn, code: 0, value: 0)))
        try w.removeDevice(DeviceID(0), at: Timestamp(microseconds: 6))
        w.addDevice(DeviceID(0), b, at: Timestamp(microseconds: 7))
        try w.append(RecordedEvent(device: DeviceID(0), event: InputEvent(time: Timestamp(microseconds: 8), type: .key, code: 0x14a, value: 1)))
        try w.finish()
        #expect(w.text.split(separator: "\n").count == 6)
        let r = try TraceReader.read(text: w.text, name: "hot.jsonl")
        #expect(r.devices.map(\.description.name) == ["A", "B"])
        #expect(r.events.map(\.device.rawValue) == [0, 1])
        #expect(r.warnings.count == 1) // BTN_TOUCH is not declared by B
    }

    @Test func evemuToNativeToEvemuIsIdentical() throws {
        for rel in ["evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events",
                    "evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events",
                    "evemu-repo-data/ntrig-dell-xt2.event",
                    "evemu-devices/touchscreens/ELAN CANDO Windows7.1-finger-drag-up-down.events"] {
            let original = try TraceReader.read(path: Fixtures.path(rel))
            let native = try TraceReader.read(text: TraceWriter.render(original, as: .native), name: "n")
            #expect(native.devices == original.devices, "\(rel)")
            #expect(native.events == original.events, "\(rel)")
            #expect(native.warnings.count == original.warnings.count)
            let back = try TraceReader.read(text: TraceWriter.render(native, as: .evemu), name: "e")
            #expect(back.devices == original.devices, "\(rel)")
            #expect(back.events == original.events, "\(rel)")
        }
    }

    @Test func libinputYAMLToNativeIsIdentical() throws {
        for rel in Fixtures.allTraceFiles() where rel.hasSuffix(".yml") {
            let original = try TraceReader.read(path: Fixtures.path(rel))
            let native = try TraceReader.read(text: TraceWriter.render(original, as: .native), name: "n")
            #expect(native.devices == original.devices, "\(rel)")
            #expect(native.events == original.events, "\(rel)")
        }
        let two = try TraceReader.read(text: LibinputRecordReaderTests.twoDevices, name: "two.yml")
        let native = try TraceReader.read(text: TraceWriter.render(two, as: .native), name: "n")
        #expect(native.devices == two.devices)
        #expect(native.events == two.events)
    }

    @Test func writerToFileDescriptorFlushesPerFrame() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]) }
        var w = NativeTraceWriter(fileDescriptor: fds[1])
        w.addDevice(DeviceID(0), RecordedDevice(description: DeviceDescription(name: "P")), at: nil)
        try w.append(RecordedEvent(device: DeviceID(0), event: InputEvent(time: Timestamp(microseconds: 1), type: .syn, code: 0, value: 0)))
        try w.append(RecordedEvent(device: DeviceID(0), event: InputEvent(time: Timestamp(microseconds: 2), type: .abs, code: 0, value: 3)))
        close(fds[1])
        var buffer = [UInt8](repeating: 0, count: 4096)
        let n = read(fds[0], &buffer, buffer.count)
        let text = String(decoding: buffer[0..<max(0, n)], as: UTF8.self)
        // The frame ended by SYN_REPORT is written; the open one is not.
        #expect(text.split(separator: "\n").count == 3)
        #expect(text.hasSuffix("\"events\":[[0,0,0]]}\n"))
    }
}
