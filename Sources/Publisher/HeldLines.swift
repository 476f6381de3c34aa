import NIOCore

/// A coalescing client's continuous updates held back until its interval has
/// passed (`coalesce`, docs/protocol.md): each line kept with the attributes
/// that say what it is about. A later update of the same touch or gesture
/// replaces the one held (the earlier is marked dead, its bytes stay until
/// the lines are sent or compacted), so what goes out is the latest of each,
/// in the order those latest updates were produced.
///
/// Owned by a ``DirectLane``'s state and touched under its lock; the buffers
/// are kept between intervals, so holding allocates nothing once they have grown.
struct HeldLines {
    private struct Entry {
        var event: PublishedEvent
        var start: Int
        var end: Int
        var live: Bool
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// The number of lines that would be sent.
    private(set) var count = 0
    /// The number of updates replaced by a later one since the last ``takeReplaced()``.
    private(set) var replaced = 0

    /// Whether no line is held.
    var isEmpty: Bool { count == 0 }

    /// Holds `line` (with its newline), the encoding of `event`, replacing a
    /// held update of the same subject.
    mutating func hold(_ event: PublishedEvent, line: UnsafeRawBufferPointer) {
        for k in entries.indices where entries[k].live && entries[k].event.isSameSubject(as: event) {
            entries[k].live = false
            count -= 1
            replaced += 1
        }
        if entries.count >= 4 * count + 32 { compact() }
        let start = bytes.count
        bytes.append(contentsOf: line)
        var attributes = event
        attributes.line = []
        entries.append(Entry(event: attributes, start: start, end: bytes.count, live: true))
        count += 1
    }

    /// Appends the held lines, in order, to `out`, leaving out those that a
    /// line of `batch` in `runs` replaces (it is about to be sent after them);
    /// returns the number left out.
    func write(to out: inout ByteBuffer, supersededBy batch: [PublishedEvent], runs: [Range<Int>]) -> Int {
        var left = 0
        bytes.withUnsafeBytes { raw in
            for e in entries where e.live {
                if e.event.isUpdate, Self.contains(batch, runs, sameSubjectAs: e.event) {
                    left += 1
                    continue
                }
                out.writeBytes(UnsafeRawBufferPointer(rebasing: raw[e.start..<e.end]))
            }
        }
        return left
    }

    /// The held lines, in order, as one buffer.
    func joined() -> ByteBuffer {
        var out = ByteBuffer()
        out.reserveCapacity(bytes.count)
        _ = write(to: &out, supersededBy: [], runs: [])
        return out
    }

    /// Forgets every line, keeping the buffers.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        count = 0
    }

    /// The replaced count since the last call, reset.
    mutating func takeReplaced() -> Int {
        defer { replaced = 0 }
        return replaced
    }

    private static func contains(_ batch: [PublishedEvent], _ runs: [Range<Int>], sameSubjectAs event: PublishedEvent) -> Bool {
        for r in runs {
            for i in r where batch[i].isSameSubject(as: event) { return true }
        }
        return false
    }

    /// Drops the dead entries and their bytes in place (when most held
    /// lines were replaced): live lines move towards the start, in order.
    private mutating func compact() {
        var to = 0
        var kept = 0
        for k in entries.indices where entries[k].live {
            let e = entries[k]
            if e.start != to {
                for b in 0..<(e.end - e.start) { bytes[to + b] = bytes[e.start + b] }
            }
            entries[kept] = Entry(event: e.event, start: to, end: to + e.end - e.start, live: true)
            to += e.end - e.start
            kept += 1
        }
        bytes.removeLast(bytes.count - to)
        entries.removeLast(entries.count - kept)
    }
}
