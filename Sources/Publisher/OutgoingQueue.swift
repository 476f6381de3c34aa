// SPDX-License-Identifier: MIT
import NIOCore
import Wire

/// A client's bounded queue of lines waiting to be written to its socket.
///
/// Events beyond the limits are dropped and counted; an `overflow` line is
/// placed where the gap was, before the next event that fits or when the
/// queue has drained. Control lines (hello, ack, error, goodbye) are never
/// dropped. If the queue keeps dropping for longer than the stuck timeout,
/// ``offer(_:time:now:)`` says so and the client is disconnected.
///
/// Memory: the lines themselves are shared with every other recipient of the
/// event, so a full queue pins at most `maxBytes` of lines (plus about 50
/// bytes of buffer header per line) and a ring of `maxEvents` slots. The ring
/// is given back once a backlog drains (``pop()``) and when the client goes
/// (``removeAll()``), so a client that fell behind once does not keep it.
package struct OutgoingQueue: Sendable {
    /// What happened to an offered event.
    package enum Outcome: Equatable, Sendable {
        /// Queued for writing.
        case queued
        /// Dropped; it will be counted in the next `overflow`.
        case dropped
        /// Dropped, and the queue has been dropping for longer than the stuck timeout.
        case stuck
    }

    /// Event count limit.
    package let maxEvents: Int
    /// Byte limit.
    package let maxBytes: Int
    /// Seconds of continuous dropping before ``Outcome/stuck``.
    package let stuckTimeout: Double

    // Ring capacity kept when the queue is empty; larger rings are released on draining.
    private static let retainedCapacity = 16
    private var lines = CircularBuffer<ByteBuffer>(initialCapacity: OutgoingQueue.retainedCapacity)
    /// Bytes queued (lines with their newlines).
    package private(set) var byteCount = 0
    /// Events dropped since the last `overflow` was queued.
    package private(set) var lost = 0
    private var lastLostTime = 0.0
    // Clock time of the first drop of the current run of drops.
    private var droppingSince: Double?

    /// Creates an empty queue.
    package init(maxEvents: Int, maxBytes: Int, stuckTimeout: Double) {
        self.maxEvents = maxEvents
        self.maxBytes = maxBytes
        self.stuckTimeout = stuckTimeout
    }

    /// Lines queued.
    package var count: Int { lines.count }
    /// Whether nothing is queued.
    package var isEmpty: Bool { lines.isEmpty }
    /// Whether the next event would be dropped.
    package var isFull: Bool { lines.count >= maxEvents || byteCount >= maxBytes }

    /// Offers an event line (newline included); `time` is its event time,
    /// `now` the monotonic clock.
    package mutating func offer(_ line: ByteBuffer, time: Double, now: Double) -> Outcome {
        if lines.count >= maxEvents || byteCount + line.readableBytes > maxBytes {
            lost += 1
            lastLostTime = time
            guard let since = droppingSince else {
                droppingSince = now
                return .dropped
            }
            return now - since > stuckTimeout ? .stuck : .dropped
        }
        droppingSince = nil
        if lost > 0 { appendOverflow() }
        append(line)
        return .queued
    }

    /// Queues a control line (newline included); never dropped.
    package mutating func appendControl(_ line: ByteBuffer) {
        if lost > 0 { appendOverflow() }
        append(line)
    }

    /// Puts a line ahead of everything queued (the rest of a line already
    /// partly written to the socket); never dropped.
    package mutating func prependControl(_ line: ByteBuffer) {
        lines.prepend(line)
        byteCount += line.readableBytes
    }

    /// Takes the oldest line; when the queue runs dry with events lost, the
    /// `overflow` line comes out last.
    package mutating func pop() -> ByteBuffer? {
        if lines.isEmpty {
            guard lost > 0 else { return nil }
            droppingSince = nil
            appendOverflow()
        }
        let line = lines.removeFirst()
        byteCount -= line.readableBytes
        if lines.isEmpty, lines.capacity > Self.retainedCapacity {
            // A ring only grows: without this, every reader that once fell
            // behind kept its largest ring until it disconnected (1.35 MB of
            // the 6 MB heap peak of a soak run under heaptrack).
            lines = CircularBuffer(initialCapacity: Self.retainedCapacity)
        }
        return line
    }

    /// Slots the ring holds before it has to grow (for tests of the release on draining).
    package var ringCapacity: Int { lines.capacity }

    /// Forgets everything queued.
    package mutating func removeAll() {
        lines = CircularBuffer(initialCapacity: Self.retainedCapacity)
        byteCount = 0
        lost = 0
        droppingSince = nil
    }

    private mutating func append(_ line: ByteBuffer) {
        lines.append(line)
        byteCount += line.readableBytes
    }

    private mutating func appendOverflow() {
        var w = JSONWriter(capacity: 64)
        MessageEncoder.overflow(lost: lost, time: lastLostTime, into: &w)
        w.newline()
        append(ByteBuffer(bytes: w.bytes))
        lost = 0
    }
}
