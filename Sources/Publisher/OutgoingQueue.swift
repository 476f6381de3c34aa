import NIOCore
import Wire

/// A client's bounded queue of lines waiting to be written to its socket.
///
/// Events beyond the limits are dropped and counted; an `overflow` line is
/// placed where the gap was, before the next event that fits or when the
/// queue has drained. Control lines (hello, ack, error, goodbye) are never
/// dropped. If the queue keeps dropping for longer than the stuck timeout,
/// ``offer(_:time:now:)`` says so and the client is disconnected.
public struct OutgoingQueue: Sendable {
    /// What happened to an offered event.
    public enum Outcome: Equatable, Sendable {
        /// Queued for writing.
        case queued
        /// Dropped; it will be counted in the next `overflow`.
        case dropped
        /// Dropped, and the queue has been dropping for longer than the stuck timeout.
        case stuck
    }

    /// Event count limit.
    public let maxEvents: Int
    /// Byte limit.
    public let maxBytes: Int
    /// Seconds of continuous dropping before ``Outcome/stuck``.
    public let stuckTimeout: Double

    private var lines = CircularBuffer<ByteBuffer>(initialCapacity: 16)
    /// Bytes queued (lines with their newlines).
    public private(set) var byteCount = 0
    /// Events dropped since the last `overflow` was queued.
    public private(set) var lost = 0
    private var lastLostTime = 0.0
    // Clock time of the first drop of the current run of drops.
    private var droppingSince: Double?

    /// Creates an empty queue.
    public init(maxEvents: Int, maxBytes: Int, stuckTimeout: Double) {
        self.maxEvents = maxEvents
        self.maxBytes = maxBytes
        self.stuckTimeout = stuckTimeout
    }

    /// Lines queued.
    public var count: Int { lines.count }
    /// Whether nothing is queued.
    public var isEmpty: Bool { lines.isEmpty }
    /// Whether the next event would be dropped.
    public var isFull: Bool { lines.count >= maxEvents || byteCount >= maxBytes }

    /// Offers an event line (newline included); `time` is its event time,
    /// `now` the monotonic clock.
    public mutating func offer(_ line: ByteBuffer, time: Double, now: Double) -> Outcome {
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
    public mutating func appendControl(_ line: ByteBuffer) {
        if lost > 0 { appendOverflow() }
        append(line)
    }

    /// Takes the oldest line; when the queue runs dry with events lost, the
    /// `overflow` line comes out last.
    public mutating func pop() -> ByteBuffer? {
        if lines.isEmpty {
            guard lost > 0 else { return nil }
            droppingSince = nil
            appendOverflow()
        }
        let line = lines.removeFirst()
        byteCount -= line.readableBytes
        return line
    }

    /// Forgets everything queued.
    public mutating func removeAll() {
        lines.removeAll(keepingCapacity: false)
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
