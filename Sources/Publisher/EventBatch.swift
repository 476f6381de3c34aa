import Wire

/// A frame's events, encoded back to back into one buffer: what the engine's
/// thread hands to the publisher (`Publisher.publish(_:)`). Each event's line is
/// written straight into the batch's buffer and followed by a newline, so a
/// frame costs no buffer per line, and the publisher sends slices of this one
/// buffer (docs/performance.md, "Encoding").
///
/// Reuse one batch (``removeAll()``) and nothing is allocated once its
/// buffers have grown to the largest frame.
public struct EventBatch: Sendable {
    /// The events' attributes, for subscription filters; their ``PublishedEvent/line`` is empty
    /// (the line is in ``bytes``).
    public private(set) var events: [PublishedEvent] = []
    /// End offset in ``bytes`` of each event's line (after its newline).
    public private(set) var ends: [Int] = []
    /// The lines, each followed by a newline.
    public private(set) var writer = JSONWriter(capacity: 4096)

    /// An empty batch.
    public init() {
        events.reserveCapacity(64)
        ends.reserveCapacity(64)
    }

    /// A batch of events that carry their own lines (tests, occasional events).
    public init(_ events: [PublishedEvent]) {
        self.init()
        for e in events { append(e) }
    }

    /// The lines, each followed by a newline.
    public var bytes: [UInt8] { writer.bytes }
    /// Whether it holds no event.
    public var isEmpty: Bool { events.isEmpty }
    /// The number of events.
    public var count: Int { events.count }

    /// Adds an event whose line `encode` writes (one JSON object, no newline).
    public mutating func append(_ event: consuming PublishedEvent, encode: (inout JSONWriter) -> Void) {
        // Moved in, not copied: the attributes' strings are not retained again per event.
        if !event.line.isEmpty { event.line = [] }
        events.append(event)
        encode(&writer)
        writer.newline()
        ends.append(writer.count)
    }

    /// Adds an event with the line it carries.
    public mutating func append(_ event: PublishedEvent) {
        append(event) { $0.raw(bytes: event.line) }
    }

    /// Event `i`'s line, without its newline.
    public func line(_ i: Int) -> ArraySlice<UInt8> {
        let start = i == 0 ? 0 : ends[i - 1]
        return writer.bytes[start..<ends[i] - 1]
    }

    /// The events with their lines (copies: for tests and inspection).
    public var eventsWithLines: [PublishedEvent] {
        events.indices.map { i in
            var e = events[i]
            e.line = Array(line(i))
            return e
        }
    }

    /// Forgets the events, keeping the buffers.
    public mutating func removeAll() {
        events.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        writer.reset()
    }
}
