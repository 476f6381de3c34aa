import Foundation
import Testing
import TouchCore
@testable import Trace

@Suite struct RealDataTests {
    /// Events-only recordings whose device has no description anywhere in the
    /// data set (only the Pen or Finger sibling of a Pad was published).
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
                #expect(!Self.unpaired.contains(file), "\(file) was expected to have no description")
                #expect(!r.devices.isEmpty, "\(file)")
                read += 1
                events += r.events.count
            } catch let error as TraceError {
                #expect(error.code == .missingDescription && Self.unpaired.contains(file), "\(error)")
            }
        }
        #expect(read == files.count - Self.unpaired.count)
        // evemu events are "E:" lines; the derived YAML files write one event per "    - [" line.
        let expected = try files.filter { !Self.unpaired.contains($0) }.reduce(0) {
            $0 + (try Fixtures.countLines($1, startingWith: $1.hasSuffix(".yml") ? "    - [" : "E:"))
        }
        #expect(events == expected)
        #expect(events > 60_000)
    }

    @Test func evemuEventCountsMatchTheText() throws {
        for file in Fixtures.allTraceFiles() where !Self.unpaired.contains(file) && !file.hasSuffix(".yml") {
            let r = try TraceReader.read(path: Fixtures.path(file))
            #expect(r.events.count == (try Fixtures.countLines(file, startingWith: "E:")), "\(file)")
        }
    }
}
