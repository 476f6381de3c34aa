// SPDX-License-Identifier: MIT
import Testing
import TouchCore
@testable import Trace

@Suite struct TraceWriterTests {
    static let atmel = "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.2-fingers-touch-release.events"

    @Test func evemuHeaderAndEventsUseEvemusPrintfFormats() throws {
        let text = try TraceWriter.render(TraceReader.read(path: Fixtures.path(Self.atmel)), as: .evemu)
        let original = try Fixtures.text(Self.atmel).split(separator: "\n")
        let lines = text.split(separator: "\n")
        // N/I/P/B/A lines are byte-identical to what evemu-record wrote.
        let tags: [Substring] = ["N:", "I:", "P:", "B:", "A:"]
        #expect(lines.filter { tags.contains($0.prefix(2)) } == original.filter { tags.contains($0.prefix(2)) })
        // E: lines equal the original up to its trailing comment.
        let events = original.filter { $0.hasPrefix("E:") }.map { $0.split(separator: "\t")[0] }
        #expect(lines.filter { $0.hasPrefix("E:") } == events)
        #expect(lines.first == "# EVEMU 1.3")
    }

    @Test func printfPadding() {
        #expect(TraceWriter.printfD04(-1) == "-001")
        #expect(TraceWriter.printfD04(7) == "0007")
        #expect(TraceWriter.printfD04(-1719661677) == "-1719661677")
        #expect(TraceWriter.printfD04(12345) == "12345")
    }

    @Test func evemuRefusesSeveralDevices() throws {
        let two = try TraceReader.read(text: LibinputRecordReaderTests.twoDevices, name: "two.yml")
        #expect(throws: TraceError.self) { try TraceWriter.render(two, as: .evemu) }
        do { _ = try TraceWriter.render(two, as: .evemu) } catch let e as TraceError {
            #expect(e.code == .unwritable && e.message.contains("2"))
        }
    }

    @Test func libinputYAMLRoundTripIsRelativeToTheFirstEvent() throws {
        let original = try TraceReader.read(path: Fixtures.path(Self.atmel))
        let yaml = try TraceWriter.render(original, as: .libinputYAML)
        let back = try TraceReader.read(text: yaml, name: "atmel.yml")
        #expect(back.format == .libinputYAML)
        #expect(back.devices == original.devices)
        let t0 = original.events[0].event.time.microseconds
        #expect(back.events.map { $0.event.time.microseconds } == original.events.map { $0.event.time.microseconds - t0 })
        #expect(back.events.map { [Int($0.event.type.rawValue), Int($0.event.code), Int($0.event.value)] }
            == original.events.map { [Int($0.event.type.rawValue), Int($0.event.code), Int($0.event.value)] })
        // One `- evdev:` item per SYN_REPORT frame, in libinput's column layout.
        let frames = original.events.filter(\.event.isSynReport).count
        #expect(yaml.split(separator: "\n").filter { $0 == "  - evdev:" }.count == frames)
        #expect(yaml.contains("\n    - [  0,      0,   3,  57,       7]\n"))
    }

    @Test func severalDevicesSurviveYAML() throws {
        let two = try TraceReader.read(text: LibinputRecordReaderTests.twoDevices, name: "two.yml")
        let back = try TraceReader.read(text: TraceWriter.render(two, as: .libinputYAML), name: "back.yml")
        #expect(back.devices == two.devices)
        #expect(back.events == two.events)
    }

    @Test func nativeIsOneLinePerFrame() throws {
        let original = try TraceReader.read(path: Fixtures.path(Self.atmel))
        let text = try TraceWriter.render(original, as: .native)
        let lines = text.split(separator: "\n")
        #expect(lines.count == 2 + original.events.filter(\.event.isSynReport).count)
        #expect(lines[0] == "{\"type\":\"header\",\"format\":\"touchd-trace\",\"version\":1}")
        #expect(lines[2] == "{\"type\":\"frame\",\"device\":0,\"time\":1,\"events\":[[3,57,7],[3,53,539],[3,54,167],[1,330,1],[3,0,539],[3,1,167],[0,0,0]]}")
    }

    /// A recording with two runtime screen changes: one between frames, one after the last.
    static func withScreenChanges() throws -> Recording {
        var r = try TraceReader.read(path: Fixtures.path(atmel))
        let middle = r.events[r.events.count / 2].event.time
        let end = r.events[r.events.count - 1].event.time
        r.screenChanges = [
            RecordedScreenChange(time: middle, request: .object(["op": .string("screens"), "screens": .array([.object(["name": .string("main"), "rotation": .int(90)])])])),
            RecordedScreenChange(time: Timestamp(microseconds: end.microseconds + 10), request: .object(["op": .string("screens"), "screens": .array([.object(["name": .string("main"), "rotation": .int(0)])])])),
        ]
        return r
    }

    @Test func nativeKeepsRuntimeScreenChangesInTheirPlace() throws {
        let original = try Self.withScreenChanges()
        let text = try TraceWriter.render(original, as: .native)
        let back = try TraceReader.read(text: text, name: "back.touchd-trace")
        #expect(back.screenChanges == original.screenChanges)
        #expect(back.events == original.events)
        // Each screens line follows the frames up to its time and precedes the later ones.
        let lines = text.split(separator: "\n").map(String.init)
        for change in original.screenChanges {
            let at = try #require(lines.firstIndex { $0.hasPrefix("{\"type\":\"screens\",\"time\":\(change.time.microseconds),") })
            let frameTimes = lines.enumerated().compactMap { i, l -> (Int, Int64)? in
                guard l.hasPrefix("{\"type\":\"frame\""), let t = l.split(separator: ",").first(where: { $0.hasPrefix("\"time\":") }) else { return nil }
                return (i, Int64(t.dropFirst(7)) ?? -1)
            }
            #expect(frameTimes.allSatisfy { ($0.0 < at) == ($0.1 <= change.time.microseconds) })
        }
    }

    @Test func evemuAndYAMLRefuseRuntimeScreenChanges() throws {
        let original = try Self.withScreenChanges()
        for format in [TraceFormat.evemu, .libinputYAML] {
            #expect(throws: TraceError.self) { try TraceWriter.render(original, as: format) }
            do { _ = try TraceWriter.render(original, as: format) } catch let e as TraceError {
                #expect(e.code == .unwritable && e.message.contains("2 runtime screen change"), "\(e)")
            }
        }
    }
}
