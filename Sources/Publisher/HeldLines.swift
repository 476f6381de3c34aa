// SPDX-License-Identifier: MIT
import NIOCore

/// A coalescing client's continuous updates held back until its interval has
/// passed (`coalesce`, docs/protocol.md): each line kept with the attributes
/// that say what it is about. A later update of the same touch or gesture
/// replaces the one held (the earlier is marked dead, its bytes stay until
/// the lines are sent or compacted), so what goes out is the latest of each,
/// in the order those latest updates were produced.
///
/// Owned by a ``ClientOutput``'s state and touched under its lock; the buffers
/// are kept between intervals, so holding allocates nothing once they have grown.
struct HeldLines {
    private struct Entry {
        var event: EventAttributes
        /// The names of the subject, kept (the batch that had them is gone).
        var recognizer: String?
        var surface: String?
        /// ``subjectKey(_:recognizer:surface:)`` of `event`: compared before the attributes.
        var key: UInt64
        var start: Int
        var end: Int
    }

    private var bytes: [UInt8] = []
    private var entries: [Entry] = []
    /// Indices in `entries` of the lines that would be sent, in order: the
    /// only ones a new update is compared with (a few per touch and gesture in
    /// play, however many updates were replaced since the last delivery).
    private var live: [Int] = []

    /// The number of lines that would be sent.
    var count: Int { live.count }
    /// Whether no line is held.
    var isEmpty: Bool { live.isEmpty }

    /// A number equal for events of the same subject (``isSameSubject(_:recognizer:surface:as:)``):
    /// touches by touch id and device, other events by a hash of their
    /// recognizer and surface. Equal keys are then checked attribute by attribute.
    static func subjectKey(_ e: EventAttributes, recognizer: String?, surface: String?) -> UInt64 {
        if let touch = e.touchID { return UInt64(touch) << 32 | UInt64(e.device ?? 0) }
        var h = Hasher()
        h.combine(recognizer)
        h.combine(surface)
        return UInt64(bitPattern: Int64(h.finalize()))
    }

    /// Whether both are updates of the same touch on the same stream and
    /// surface, or of the same recognizer's gesture: the later one tells the
    /// client everything the earlier one did.
    private static func isSameSubject(_ e: EventAttributes, recognizer: String?, surface: String?, as held: Entry) -> Bool {
        let h = held.event
        return e.isUpdate && h.isUpdate && e.touchID == h.touchID && e.stream == h.stream && e.device == h.device
            && e.owner == h.owner && recognizer == held.recognizer && surface == held.surface
    }

    /// Holds `line` (with its newline), the encoding of `event` (its names
    /// in `names`), replacing a held update of the same subject.
    mutating func hold(_ event: EventAttributes, names: [String], line: UnsafeRawBufferPointer) {
        let recognizer = event.recognizer.isSome ? names[Int(event.recognizer.index)] : nil
        let surface = event.surface.isSome ? names[Int(event.surface.index)] : nil
        let key = Self.subjectKey(event, recognizer: recognizer, surface: surface)
        if event.isUpdate {
            for k in live.indices {
                let e = entries[live[k]]
                guard e.key == key, Self.isSameSubject(event, recognizer: recognizer, surface: surface, as: e) else { continue }
                live.remove(at: k)
                break
            }
        }
        if entries.count >= 4 * live.count + 32 { compact() }
        let start = bytes.count
        bytes.append(contentsOf: line)
        live.append(entries.count)
        entries.append(Entry(event: event, recognizer: recognizer, surface: surface, key: key, start: start, end: bytes.count))
    }

    /// Appends the held lines, in order, to `out`, leaving out those that an
    /// event of `batch` (names in `names`) in `runs` replaces (it is about to
    /// be sent after them).
    func write(to out: inout ByteBuffer, supersededBy batch: [EventAttributes], names: [String], runs: [Range<Int>]) {
        bytes.withUnsafeBytes { raw in
            for k in live {
                let e = entries[k]
                if e.event.isUpdate, Self.contains(batch, names, runs, sameSubjectAs: e) { continue }
                out.writeBytes(UnsafeRawBufferPointer(rebasing: raw[e.start..<e.end]))
            }
        }
    }

    /// The held lines, in order, as one buffer.
    func joined() -> ByteBuffer {
        var out = ByteBuffer()
        out.reserveCapacity(bytes.count)
        write(to: &out, supersededBy: [], names: [], runs: [])
        return out
    }

    /// Forgets every line, keeping the buffers.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
        live.removeAll(keepingCapacity: true)
    }

    private static func contains(_ batch: [EventAttributes], _ names: [String], _ runs: [Range<Int>], sameSubjectAs held: Entry) -> Bool {
        for r in runs {
            for i in r where batch[i].isUpdate {
                let e = batch[i]
                let recognizer = e.recognizer.isSome ? names[Int(e.recognizer.index)] : nil
                let surface = e.surface.isSome ? names[Int(e.surface.index)] : nil
                if subjectKey(e, recognizer: recognizer, surface: surface) == held.key,
                   isSameSubject(e, recognizer: recognizer, surface: surface, as: held) { return true }
            }
        }
        return false
    }

    /// Drops the replaced entries and their bytes in place (when most held
    /// lines were replaced): live lines move towards the start, in order.
    private mutating func compact() {
        var to = 0
        for (n, k) in live.enumerated() {
            let e = entries[k]
            let length = e.end - e.start
            if e.start != to {
                for b in 0..<length { bytes[to + b] = bytes[e.start + b] }
            }
            entries[n] = Entry(event: e.event, recognizer: e.recognizer, surface: e.surface, key: e.key, start: to, end: to + length)
            live[n] = n
            to += length
        }
        bytes.removeLast(bytes.count - to)
        entries.removeLast(entries.count - live.count)
    }
}
