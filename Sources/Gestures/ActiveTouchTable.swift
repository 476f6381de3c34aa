// SPDX-License-Identifier: MIT
import TouchCore

/// Record indices of the touches down, by touch id: an open-addressing table
/// with linear probing, looked up on every moved touch.
///
/// A `Dictionary` hashes each key with a seeded SipHash, which costs more than
/// the rest of a moved touch's bookkeeping; touch ids are small sequential
/// numbers, so a multiplicative hash spreads them well. Only keyed access is
/// offered, so no iteration order can leak into the engine's output.
struct ActiveTouchTable: Sendable {
    private var keys: [UInt32]
    private var values: [Int]
    private var used: [Bool]
    private var shift: UInt64
    private(set) var count = 0

    /// A table with room for `capacity` touches before it grows.
    init(capacity: Int = 16) {
        var size = 8
        while size < capacity * 2 { size *= 2 }
        keys = Array(repeating: 0, count: size)
        values = Array(repeating: 0, count: size)
        used = Array(repeating: false, count: size)
        shift = UInt64(64 - size.trailingZeroBitCount)
    }

    @inline(__always)
    private func home(_ key: UInt32) -> Int {
        Int(truncatingIfNeeded: (UInt64(key) &* 0x9E37_79B9_7F4A_7C15) >> shift)
    }

    @inline(__always)
    private func find(_ key: UInt32) -> Int? {
        let mask = keys.count - 1
        var i = home(key)
        while used[i] {
            if keys[i] == key { return i }
            i = (i + 1) & mask
        }
        return nil
    }

    /// The record index of touch `id`; assigning nil removes it.
    subscript(id: TouchID) -> Int? {
        get { find(id.rawValue).map { values[$0] } }
        set {
            if let v = newValue { insert(id.rawValue, v) } else { _ = removeValue(forKey: id) }
        }
    }

    private mutating func insert(_ key: UInt32, _ value: Int) {
        if let i = find(key) {
            values[i] = value
            return
        }
        if (count + 1) * 2 > keys.count { grow() }
        let mask = keys.count - 1
        var i = home(key)
        while used[i] { i = (i + 1) & mask }
        used[i] = true
        keys[i] = key
        values[i] = value
        count += 1
    }

    /// Removes touch `id`; returns its record index, if it was there.
    @discardableResult
    mutating func removeValue(forKey id: TouchID) -> Int? {
        guard var hole = find(id.rawValue) else { return nil }
        let removed = values[hole]
        let mask = keys.count - 1
        used[hole] = false
        count -= 1
        // Backward shift: pull later members of the probe run into the hole so lookups never stop early.
        var i = (hole + 1) & mask
        while used[i] {
            let h = home(keys[i])
            // Entry i may move to the hole only if its home is not cyclically within (hole, i].
            let movable = hole <= i ? (h <= hole || h > i) : (h <= hole && h > i)
            if movable {
                keys[hole] = keys[i]
                values[hole] = values[i]
                used[hole] = true
                used[i] = false
                hole = i
            }
            i = (i + 1) & mask
        }
        return removed
    }

    private mutating func grow() {
        let oldKeys = keys, oldValues = values, oldUsed = used
        self = ActiveTouchTable(capacity: oldKeys.count)
        for i in oldKeys.indices where oldUsed[i] { insert(oldKeys[i], oldValues[i]) }
    }
}
