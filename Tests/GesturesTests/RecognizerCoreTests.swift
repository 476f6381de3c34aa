// SPDX-License-Identifier: MIT
@testable import Gestures
import Testing
import TouchCore

@Suite("Recognizer core")
struct RecognizerCoreTests {
    static func touch(_ id: Int, at ms: Double, _ p: Point) -> Touch {
        Touch(id: TouchID(id), device: DeviceID(0), phase: .moved, type: .direct, tool: .finger,
              time: Timestamp(microseconds: Int64(ms * 1000)), location: p * 5, locationMM: p)
    }

    // Semantics section 3 ("fails as soon as it cannot succeed"): tap, long press and drag fail on
    // the largest distance any touch went from where it began, whatever it did since.
    @Test("farthestMM is the largest distance any touch went from its start, bit for bit")
    func farthestIsLargestDistance() {
        var rng = SeededGenerator(seed: 0x5eed_f00d)
        func unit() -> Double { Double.random(in: 0..<1, using: &rng) }
        for round in 0..<200 {
            var core = RecognizerCore()
            let count = 1 + round % 5
            var starts: [Point] = []
            for i in 0..<count {
                let start = Point(x: unit() * 300, y: unit() * 200)
                starts.append(start)
                core.add(Self.touch(i, at: 0, start), key: i)
            }
            var expected = 0.0
            for step in 1...30 {
                let i = step % count
                // Mostly small moves with a few far jumps and returns, so the largest is not the last.
                let scale = step % 7 == 0 ? 40.0 : 0.8
                let p = Point(x: starts[i].x + (unit() - 0.5) * scale, y: starts[i].y + (unit() - 0.5) * scale)
                let updated = core.update(Self.touch(i, at: Double(step) * 8, p), key: i, lifted: false)
                #expect(updated)
                expected = max(expected, p.distance(to: starts[i]))
                #expect(core.farthestMM == expected, "round \(round), step \(step)")
            }
        }
    }

    @Test("farthestMM is 0 with no touch and before any move")
    func farthestStartsAtZero() {
        var core = RecognizerCore()
        #expect(core.farthestMM == 0)
        core.add(Self.touch(1, at: 0, Point(x: 10, y: 10)), key: 1)
        #expect(core.farthestMM == 0)
        let updated = core.update(Self.touch(1, at: 8, Point(x: 13, y: 14)), key: 1, lifted: false)
        #expect(updated)
        #expect(core.farthestMM == 5)
        let updatedAgain = core.update(Self.touch(1, at: 16, Point(x: 10, y: 11)), key: 1, lifted: false)
        #expect(updatedAgain)
        #expect(core.farthestMM == 5)
    }
}
