// SPDX-License-Identifier: MIT
import Foundation
import Testing
import TouchCore
@testable import Trace

@Suite struct RealDataTests {
    /// Events-only recordings whose device has no description anywhere in the
    /// data set (only the Pen or Finger sibling of a Pad was published): they
    /// read with an inferred description and a warning saying so.
    static let unpaired: Set<String> = [
        "evemu-devices/tablets/Wacom Bamboo 16FG 4x5 Pad.events",
        "evemu-devices/tablets/Wacom Intuos5 touch M Pad.events",
        "evemu-devices/tablets/Wacom Intuos5 touch M modeswitch.events",
        "evemu-devices/tablets/Wacom Intuos5 touch M touchring.events",
    ]

    @Test func everyRealFileReads() throws {
        let files = Fixtures.allTraceFiles()
        #expect(files.count == 188)
        var read = 0, events = 0
        for file in files {
            do {
                let r = try TraceReader.read(path: Fixtures.path(file))
                let inferred = r.warnings.contains { $0.message.contains("inferred a description") }
                #expect(inferred == Self.unpaired.contains(file), "\(file): inferred=\(inferred)")
                #expect(!r.devices.isEmpty, "\(file)")
                read += 1
                events += r.events.count
            } catch {
                Issue.record("\(file): \(error)")
            }
        }
        #expect(read == files.count)
        // evemu events are "E:" lines; the derived YAML files write one event per "    - [" line.
        let expected = try files.reduce(0) {
            $0 + (try Fixtures.countLines($1, startingWith: $1.hasSuffix(".yml") ? "    - [" : "E:"))
        }
        #expect(events == expected)
        #expect(events > 60_000)
    }

    @Test func evemuEventCountsMatchTheText() throws {
        for file in Fixtures.allTraceFiles() where !file.hasSuffix(".yml") {
            let r = try TraceReader.read(path: Fixtures.path(file))
            #expect(r.events.count == (try Fixtures.countLines(file, startingWith: "E:")), "\(file)")
        }
    }
}

@Suite struct DescriptionInferenceTests {
    @Test func padWithoutDescriptionGetsCodesAndRangesFromItsEvents() throws {
        let r = try TraceReader.read(path: Fixtures.path("evemu-devices/tablets/Wacom Intuos5 touch M touchring.events"))
        let d = try #require(r.devices.first?.description)
        #expect(d.name == "Wacom Intuos5 touch M touchring")
        #expect(d.properties.isEmpty)
        // Every code an event uses is declared, and every ABS value lies in its inferred range.
        for e in r.events.map(\.event) where e.type != .syn {
            #expect(d.supports(e.type, e.code))
            if e.type == .abs, let a = d.absInfo[e.code] {
                #expect(a.minimum <= e.value && e.value <= a.maximum && a.resolution == 0)
            }
        }
        #expect(r.warnings.first?.message.contains("inferred a description") == true)
    }
}
