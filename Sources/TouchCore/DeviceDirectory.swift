// SPDX-License-Identifier: MIT
/// Where each device's state sits in the pipeline's contiguous storage.
///
/// The per-event path looks a device up on every event: ids below
/// ``denseLimit`` (trace indices, the daemon's own numbering) are found with one
/// array read; larger ids fall back to a dictionary.
struct DeviceDirectory: Sendable {
    /// Ids below this are looked up directly.
    static let denseLimit: UInt32 = 256

    /// Position + 1 by raw id (0 = absent), for ids below ``denseLimit``.
    private var dense: [Int32] = []
    private var sparse: [DeviceID: Int] = [:]

    /// The position of `id`, if present.
    @inline(__always)
    func position(of id: DeviceID) -> Int? {
        if id.rawValue < Self.denseLimit {
            let r = Int(id.rawValue)
            guard r < dense.count else { return nil }
            let p = dense[r]
            return p == 0 ? nil : Int(p) - 1
        }
        return sparse[id]
    }

    /// Records that `id` sits at `position` (nil forgets it).
    mutating func set(_ id: DeviceID, position: Int?) {
        if id.rawValue < Self.denseLimit {
            let r = Int(id.rawValue)
            if r >= dense.count {
                guard position != nil else { return }
                dense.append(contentsOf: repeatElement(0, count: r + 1 - dense.count))
            }
            dense[r] = position.map { Int32($0 + 1) } ?? 0
        } else {
            sparse[id] = position
        }
    }
}
