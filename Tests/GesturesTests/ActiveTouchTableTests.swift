// SPDX-License-Identifier: MIT
@testable import Gestures
import Testing
import TouchCore

@Suite struct ActiveTouchTableTests {
    @Test func insertLookUpRemove() {
        var t = ActiveTouchTable()
        t[TouchID(7)] = 3
        t[TouchID(9)] = 4
        #expect(t[TouchID(7)] == 3)
        #expect(t[TouchID(9)] == 4)
        #expect(t[TouchID(8)] == nil)
        t[TouchID(7)] = 5
        #expect(t[TouchID(7)] == 5)
        #expect(t.removeValue(forKey: TouchID(7)) == 5)
        #expect(t.removeValue(forKey: TouchID(7)) == nil)
        t[TouchID(9)] = nil
        #expect(t[TouchID(9)] == nil)
        #expect(t.count == 0)
    }

    @Test func agreesWithADictionaryThroughGrowthAndCollisions() {
        // A deterministic mix of inserts and removals over a small key range (many probe
        // collisions and backward shifts) and a growing one (table growth).
        var table = ActiveTouchTable(capacity: 2)
        var reference: [TouchID: Int] = [:]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> UInt64 {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return state
        }
        for step in 0..<20_000 {
            let range: UInt64 = step < 10_000 ? 40 : 400
            let id = TouchID(Int(next() % range) + 1)
            if next() % 3 == 0 {
                #expect(table.removeValue(forKey: id) == reference.removeValue(forKey: id))
            } else {
                table[id] = step
                reference[id] = step
            }
            #expect(table.count == reference.count)
        }
        for raw in 0...401 { #expect(table[TouchID(raw)] == reference[TouchID(raw)]) }
    }
}
