// SPDX-License-Identifier: MIT
import TouchCore

/// Where a touch's raw stream is (semantics section 5).
enum RawStage: Sendable, Equatable {
    /// The touch has no raw stream (no surface, a hover, or a `multipleTouch = false` surface already touched).
    case none
    /// `began` is held back by a recognizer with `delaysTouchesBegan`.
    case withholdingBegan
    /// `began` was delivered.
    case open
    /// Nothing more will be delivered.
    case finished
}

/// A touch as the engine follows it, from began until its raw stream is settled.
struct TouchRecord: Sendable {
    var key: Int
    var id: TouchID
    var isHover: Bool
    var surface: SurfaceID?
    var owner: String
    var screen: Int
    var exclusive: Bool
    var interaction: Int
    /// Recognizers that took it.
    var slots: [Int]
    var down = true
    var last: Touch
    /// The touch as it began (a delayed raw `began` reports where it began).
    var first: Touch
    var raw = RawStage.none
    var cancelRequested = false
    var suppressRequested = false
    var movedWhileWithheld = false
    var endHeld = false
    /// `began` is withheld only for a system edge swipe (no app recognizer delays it): if the system
    /// gesture fails, the app gets the touch as if nothing happened, even when one of its recognizers
    /// already succeeded (then `began` is followed by `cancelled`).
    var heldOnlyBySystem = false
    var endedPhase: TouchPhase?
    /// The recognizer (slot) that claimed it: nobody else gets it any more (semantics sections 6, 7, 9).
    var claimant: Int?
    /// What the app world behind a pass-through mirror has seen of it (semantics §9); `none`
    /// for touches of devices without a mirror.
    var mirror = RawStage.none
    /// It moved while the mirror's `began` was withheld.
    var movedWhileMirrorWithheld = false
    /// Listed in ``TouchRecords/pending``.
    var isPending = false
}

/// The touches the engine follows, stored contiguously so the per-frame path
/// updates them in place; looked up by touch key, walked in key order.
struct TouchRecords: Sendable {
    /// The records; indices stay valid until the record is removed.
    var items: [TouchRecord] = []
    private var free: [Int] = []
    private var byKey: [Int: Int] = [:]
    /// Indices of live records, in key order (keys only grow).
    private(set) var order: [Int] = []
    /// Indices of records whose raw stream may have something to deliver or whose record may be forgotten.
    private(set) var pending: [Int] = []
    /// Emptied ``TouchRecord/slots`` lists of removed records, kept with their capacity for new touches.
    private var spareSlotLists: [[Int]] = []

    init() {
        items.reserveCapacity(32)
        byKey.reserveCapacity(32)
        order.reserveCapacity(32)
        pending.reserveCapacity(32)
    }

    var isEmpty: Bool { order.isEmpty }

    func index(ofKey key: Int) -> Int? { byKey[key] }

    mutating func insert(_ record: TouchRecord) -> Int {
        let i: Int
        if let f = free.popLast() { items[f] = record; i = f } else { items.append(record); i = items.count - 1 }
        byKey[record.key] = i
        order.append(i)
        return i
    }

    mutating func markPending(_ i: Int) {
        guard !items[i].isPending else { return }
        items[i].isPending = true
        pending.append(i)
    }

    /// Takes the pending list, oldest touch first; the caller re-marks what stays pending.
    mutating func takePending(into buffer: inout [Int]) {
        swap(&buffer, &pending)
        for i in buffer { items[i].isPending = false }
        if buffer.count > 1 {
            let snapshot = items  // no mutation while it lives, so no copy
            buffer.sort { snapshot[$0].key < snapshot[$1].key }
        }
    }

    mutating func remove(_ i: Int) {
        byKey[items[i].key] = nil
        if let at = order.firstIndex(of: i) { order.remove(at: at) }
        var list: [Int] = []
        swap(&list, &items[i].slots)
        list.removeAll(keepingCapacity: true)
        spareSlotLists.append(list)
        free.append(i)
    }

    /// An empty list for a new record's ``TouchRecord/slots``, with the capacity of a removed
    /// record's when there is one (a new touch then allocates nothing).
    mutating func spareSlotList() -> [Int] {
        if let list = spareSlotLists.popLast() { return list }
        var list: [Int] = []
        list.reserveCapacity(8)
        return list
    }
}


