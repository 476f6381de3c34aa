// SPDX-License-Identifier: MIT
import TouchMotion
import Wire

/// A frame's events, encoded back to back into one buffer: what the engine's
/// thread hands to the publisher (`Publisher.publish(_:)`). Each event's line is
/// written straight into the batch's buffer and followed by a newline, so a
/// frame costs no buffer per line, and the publisher sends slices of this one
/// buffer (docs/performance.md, "Encoding").
///
/// The events' attributes are plain values (``EventAttributes``); the names
/// among them (gesture kind, recognizer, touch type, surface id) are kept
/// once per batch in ``names``, so a frame's attributes are copied and
/// dropped without touching a reference count.
///
/// Reuse one batch (``removeAll()``) and nothing is allocated once its
/// buffers have grown to the largest frame.
package struct EventBatch: Sendable {
    /// The events' attributes, for subscription filters and coalescing.
    package private(set) var attributes: [EventAttributes] = []
    /// The names the attributes refer to (``BatchName``), each once.
    package private(set) var names: [String] = []
    /// End offset in ``bytes`` of each event's line (after its newline).
    package private(set) var ends: [Int] = []
    /// The lines, each followed by a newline.
    package private(set) var writer = JSONWriter(capacity: 4096)

    /// An empty batch.
    package init() {
        attributes.reserveCapacity(64)
        names.reserveCapacity(16)
        ends.reserveCapacity(64)
    }

    /// A batch of events that carry their own lines (tests, occasional events).
    package init(_ events: [PublishedEvent]) {
        self.init()
        for e in events { append(e) }
    }

    /// The lines, each followed by a newline.
    package var bytes: [UInt8] { writer.bytes }
    /// Whether it holds no event.
    package var isEmpty: Bool { attributes.isEmpty }
    /// The number of events.
    package var count: Int { attributes.count }

    /// Adds an event with these attributes (see ``PublishedEvent``) whose
    /// line `encode` writes (one JSON object, no newline).
    package mutating func append(
        stream: EventStream, kind: String? = nil, recognizer: String? = nil, device: UInt32? = nil,
        touchType: String? = nil, surface: String? = nil, owner: ClientID? = nil, time: Double,
        touchID: UInt32? = nil, isUpdate: Bool = false, toEveryone: Bool = false, observersOnly: Bool = false,
        motion: ServedReport? = nil, encode: (inout JSONWriter) -> Void
    ) {
        attributes.append(EventAttributes(
            stream: stream, kind: name(kind), recognizer: name(recognizer), device: device,
            touchType: name(touchType), surface: name(surface), owner: owner, time: time,
            touchID: touchID, isUpdate: isUpdate, toEveryone: toEveryone, observersOnly: observersOnly, motion: motion))
        encode(&writer)
        writer.newline()
        ends.append(writer.count)
    }

    /// Adds an event with its attributes; `encode` writes its line (the event's own `line` is ignored).
    package mutating func append(_ event: PublishedEvent, encode: (inout JSONWriter) -> Void) {
        append(stream: event.stream, kind: event.kind, recognizer: event.recognizer, device: event.device,
               touchType: event.touchType, surface: event.surface, owner: event.owner, time: event.time,
               touchID: event.touchID, isUpdate: event.isUpdate, toEveryone: event.toEveryone, observersOnly: event.observersOnly,
               motion: event.motion, encode: encode)
    }

    /// Adds an event with the line it carries.
    package mutating func append(_ event: PublishedEvent) {
        append(event) { $0.raw(bytes: event.line) }
    }

    /// The position of `name` in ``names``, added when new. A frame carries
    /// few names (a touch type, a gesture's kind and recognizer), so the
    /// newest few are compared before a name is added again.
    private mutating func name(_ name: String?) -> BatchName {
        guard let name else { return .none }
        // Lengths first: comparing two different strings costs more than their lengths.
        let length = name.utf8.count
        var k = names.count - 1
        let stop = Swift.max(0, names.count - Self.namesCompared)
        while k >= stop {
            if names[k].utf8.count == length, names[k] == name { return BatchName(index: Int32(k)) }
            k -= 1
        }
        names.append(name)
        return BatchName(index: Int32(names.count - 1))
    }

    /// How many of the newest names ``name(_:)`` compares a name with.
    static let namesCompared = 8

    /// The name at `n` (nil for ``BatchName/none``).
    package func name(_ n: BatchName) -> String? {
        n.isSome ? names[Int(n.index)] : nil
    }

    /// Event `i`'s line, without its newline.
    package func line(_ i: Int) -> ArraySlice<UInt8> {
        let start = i == 0 ? 0 : ends[i - 1]
        return writer.bytes[start..<ends[i] - 1]
    }

    /// Event `i` as a value of its own, without its line.
    package func event(_ i: Int) -> PublishedEvent {
        let a = attributes[i]
        return PublishedEvent(
            stream: a.stream, kind: name(a.kind), recognizer: name(a.recognizer), device: a.device,
            touchType: name(a.touchType), surface: name(a.surface), owner: a.owner, time: a.time,
            touchID: a.touchID, isUpdate: a.isUpdate, motion: a.motion, line: [])
    }

    /// The events, without their lines (copies: for tests and inspection).
    package var events: [PublishedEvent] { attributes.indices.map(event) }

    /// The events with their lines (copies: for tests and inspection).
    package var eventsWithLines: [PublishedEvent] {
        attributes.indices.map { i in
            var e = event(i)
            e.line = Array(line(i))
            return e
        }
    }

    /// Forgets the events, keeping the buffers.
    package mutating func removeAll() {
        attributes.removeAll(keepingCapacity: true)
        names.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        writer.reset()
    }
}
