// SPDX-License-Identifier: MIT
import NIOCore
import Synchronization
import SystemCalls
import Wire

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Who gets an event (docs/protocol.md, "Events"): events of a client's
/// surfaces go to that client (gestures whatever it subscribes to, touches
/// when it subscribes to them) and, for touches, to clients granted
/// `seeAllTouches` that subscribe; every other event to whoever subscribes.
struct RecipientRule: Sendable {
    /// The client.
    var id: ClientID
    /// Its subscriptions.
    var subscriptions: SubscriptionSet
    /// Whether it gets other clients' surface touches.
    var seesAllTouches: Bool

    /// Whether it wants an event of a batch (names read from the batch's `names`).
    func wants(_ event: EventAttributes, names: [String]) -> Bool {
        if event.toEveryone { return true }
        if event.observersOnly { return seesAllTouches && subscriptions.wants(event, names: names) }
        guard let owner = event.owner else { return subscriptions.wants(event, names: names) }
        if id == owner { return event.stream == .gesture || subscriptions.wants(event, names: names) }
        return event.stream == .touch && seesAllTouches && subscriptions.wants(event, names: names)
    }
}

/// The one writer of a client's socket (docs/architecture.md, "Threads"):
/// every byte the client receives (`hello`, answers, events, `motion`
/// lines, `overflow`, `goodbye`) goes out through it, under its lock, in
/// the order it was given, whichever thread gave it. The publishing thread
/// hands it each batch (``DirectWriter``) and the event loop its answers;
/// both write straight into the socket with one non-blocking `send` while
/// nothing waits. What the socket does not take waits in the backlog, a
/// bounded ``OutgoingQueue`` (events beyond it dropped and counted in an
/// `overflow`), and the ``BacklogFlusher`` writes it when the socket has
/// room again; everything given meanwhile goes behind it.
///
/// It owns a duplicate of the connection's descriptor, so the socket it
/// writes to cannot be closed (and its number reused) under it; NIO's copy
/// only reads. The client sees the end once both are closed (``shutDown()``).
final class ClientOutput: Sendable {
    struct State {
        /// The duplicate descriptor; -1 once closed.
        var fd: CInt
        /// No event is taken any more (goodbye queued, revoked, stuck, failed).
        var sealed = false
        /// Stuck past its timeout or its socket failed: nothing more is
        /// written; the connection is closing.
        var failed = false
        /// What the socket has not taken yet, in order; its first line may be
        /// the rest of one the socket took part of.
        var backlog: OutgoingQueue
        /// Whether the flusher has been asked to write the backlog.
        var flushing = false
        /// What the client is to receive.
        var rule: RecipientRule
        /// Changes with `rule`.
        var generation: UInt64 = 0
        /// Coalescing (`coalesce`): the client's interval in seconds; 0 is off.
        var interval: Double = 0
        /// Event time of the last lines written to the client while coalescing.
        var lastSent = -Double.infinity
        /// Updates held back until the interval has passed (never while a backlog waits).
        var held = HeldLines()
        /// The client's `motion` lines (`frames`); nil: it asked for none.
        var frames: ClientFrames?
        /// Lines put together for one `send` (reused).
        var scratch = ByteBuffer()

        /// When held lines go out even if no frame comes to carry them: a
        /// quarter of the interval after they were due (infinity: none held).
        var heldDeadline: Double {
            held.isEmpty || fd < 0 ? .infinity : lastSent + interval * ClientOutput.releaseFactor
        }

        /// Whether nothing waits: no line in the backlog and no loss to report.
        var isDrained: Bool { backlog.isEmpty && backlog.lost == 0 }
    }

    /// What the caller does once the lock is released.
    enum Followup {
        case none
        /// Ask the flusher to write the backlog.
        case flush
        /// The client is stuck or its socket failed: close the connection.
        case close
    }

    /// Held updates wait for a frame to carry them until this many intervals
    /// after the last delivery, then go out on their own (docs/protocol.md, "coalesce").
    static let releaseFactor = 1.25

    let id: ClientID
    let state: Mutex<State>
    private let flusher: any BacklogFlushing
    let clock: @Sendable () -> Double
    /// Told (on the flusher's thread) when a backlog has been written whole.
    private let drained: @Sendable () -> Void
    /// Told (on any thread) when the connection has to close: stuck past its timeout, or its socket failed.
    private let failed: @Sendable () -> Void

    /// An output writing to a duplicate of `descriptor` (the caller keeps its
    /// own); nil when it cannot be duplicated (descriptor limit: `errno`).
    init(
        id: ClientID, duplicating descriptor: CInt, rule: RecipientRule, limits: PublisherLimits, flusher: any BacklogFlushing,
        clock: @escaping @Sendable () -> Double, drained: @escaping @Sendable () -> Void, failed: @escaping @Sendable () -> Void
    ) throws(SystemCallError) {
        self.id = id
        let fd = try Syscall.duplicate(descriptor)
        let backlog = OutgoingQueue(maxEvents: limits.maxQueuedEvents, maxBytes: limits.maxQueuedBytes, stuckTimeout: limits.stuckTimeout)
        state = Mutex(State(fd: fd, backlog: backlog, rule: rule))
        self.flusher = flusher
        self.clock = clock
        self.drained = drained
        self.failed = failed
    }

    deinit {
        state.withLock { s in
            if s.fd >= 0 { try? Syscall.close(s.fd) }
            s.fd = -1
        }
    }

    /// Whether nothing waits to be written.
    var isDrained: Bool { state.withLock { $0.isDrained } }

    /// Whether the next event would be dropped (the connection stops reading requests meanwhile).
    var isFull: Bool { state.withLock { $0.backlog.isFull } }

    /// Whether the flusher still has to write this client's backlog.
    var hasBacklog: Bool { state.withLock { $0.fd >= 0 && $0.flushing && !$0.failed } }

    /// Whether the client was found stuck or its socket failed.
    var hasFailed: Bool { state.withLock { $0.failed } }

    // MARK: The event loop's side

    /// Writes a control line (`hello`, an answer, `goodbye`; newline
    /// included), never dropped, after what is held for a coalescing client
    /// (nothing held goes out after an answer). `change` is applied first,
    /// under the same lock, so that no event it concerns comes between it
    /// and the line (a subscription and its `ack`).
    func reply(_ line: ByteBuffer, after change: (inout State) -> Void = { _ in }) {
        let followup = state.withLock { s -> Followup in
            change(&s)
            guard s.fd >= 0, !s.failed else { return .none }
            s.scratch.clear()
            if !s.held.isEmpty {
                s.held.write(to: &s.scratch, supersededBy: [], names: [], runs: [])
                s.held.removeAll()
            }
            s.scratch.writeImmutableBuffer(line)
            return Self.sendScratch(&s)
        }
        carryOut(followup)
    }

    /// New routing rule (a new access policy; a request's goes with its answer through ``reply(_:after:)``).
    func update(_ rule: RecipientRule) {
        var replaced = rule
        state.withLock { s in s.setRule(&replaced) }
        // The old rule is released here, outside the lock.
        _ = replaced
    }

    /// No event any more (goodbye, revoked, half-closed); control lines still go out.
    func seal() {
        state.withLock { $0.sealed = true }
    }

    /// Closes the descriptor and forgets everything waiting: the session has
    /// ended. The backlog (up to thousands of lines) and the frames are freed
    /// outside the lock, which the publishing thread takes every frame.
    func shutDown() {
        var backlog = OutgoingQueue(maxEvents: 0, maxBytes: 0, stuckTimeout: 0)
        var held = HeldLines()
        var frames: ClientFrames?
        let wasFlushing = state.withLock { s -> Bool in
            defer { s.flushing = false }
            s.sealed = true
            if s.fd >= 0 { try? Syscall.close(s.fd) }
            s.fd = -1
            swap(&s.backlog, &backlog)
            swap(&s.held, &held)
            swap(&s.frames, &frames)
            return s.flushing
        }
        _ = (backlog, held, frames)
        // The flusher lets go of it now, not at its next wake-up.
        if wasFlushing { flusher.forget(self) }
    }

    // MARK: The flusher's side

    /// Writes the backlog while the socket takes it (the flusher's thread, when
    /// the socket has room). Returns whether some of it still waits.
    func flushBacklog() -> Bool {
        var wasDrained = false
        let followup = state.withLock { s -> Followup in
            guard s.fd >= 0, s.flushing, !s.failed else { return .none }
            let outcome = Self.writeBacklog(&s)
            if outcome == .close { return .close }
            if s.isDrained {
                s.flushing = false
                wasDrained = true
            }
            return .none
        }
        if followup == .close { failed() }
        if wasDrained { drained() }
        return hasBacklog
    }

    /// Carries out what a locked section decided.
    func carryOut(_ followup: Followup) {
        switch followup {
        case .none: break
        case .flush: flusher.flush(self)
        case .close: failed()
        }
    }

    // MARK: Writing, under the lock

    /// Sends `s.scratch` whole, or queues it behind the backlog; what the
    /// socket does not take is queued (never dropped).
    static func sendScratch(_ s: inout State) -> Followup {
        let total = s.scratch.readableBytes
        guard total > 0 else { return .none }
        if !s.isDrained {
            s.backlog.appendControl(s.scratch.getSlice(at: s.scratch.readerIndex, length: total)!)
            return startFlushing(&s)
        }
        let written = s.scratch.withUnsafeReadableBytes { Self.send(fd: s.fd, $0) }
        guard let written else { return fail(&s) }
        if written == total { return .none }
        s.backlog.appendControl(s.scratch.getSlice(at: s.scratch.readerIndex + written, length: total - written)!)
        return startFlushing(&s)
    }

    /// Asks for the flusher once per backlog.
    static func startFlushing(_ s: inout State) -> Followup {
        guard !s.flushing else { return .none }
        s.flushing = true
        return .flush
    }

    /// The client is stuck past its timeout, or its socket failed: nothing
    /// more is written, and the connection closes. What waits is freed when
    /// the session ends (``shutDown()``, on the event loop), not here: this
    /// may be the publishing thread, in the middle of a frame.
    static func fail(_ s: inout State) -> Followup {
        s.sealed = true
        s.failed = true
        return .close
    }

    /// Writes backlog lines, many per `send`, until the socket is full or
    /// the backlog empty (an `overflow` line comes out last when events were lost).
    private static func writeBacklog(_ s: inout State) -> Followup {
        while true {
            s.scratch.clear()
            while s.scratch.readableBytes < 65536, let line = s.backlog.pop() { s.scratch.writeImmutableBuffer(line) }
            let total = s.scratch.readableBytes
            guard total > 0 else { return .none }
            let written = s.scratch.withUnsafeReadableBytes { Self.send(fd: s.fd, $0) }
            guard let written else { return fail(&s) }
            if written < total {
                s.backlog.prependControl(s.scratch.getSlice(at: s.scratch.readerIndex + written, length: total - written)!)
                return .none
            }
        }
    }

    /// Writes `raw` to `fd` without blocking: the bytes written (0 when the
    /// socket is full), nil when the socket failed.
    static func send(fd: CInt, _ raw: UnsafeRawBufferPointer) -> Int? {
        let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        switch try? Syscall.send(fd, raw, flags: flags) {
        case let .done(n)?: return n
        case .wouldBlock?: return 0
        case nil: return nil
        }
    }

    /// Writes the byte ranges of `raw` to `fd` without blocking: the bytes
    /// written (0 when the socket is full), nil when the socket failed.
    static func send(fd: CInt, _ raw: UnsafeRawBufferPointer, _ spans: [Range<Int>]) -> Int? {
        guard let base = raw.baseAddress else { return 0 }
        let flags = Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)
        let outcome: Syscall.Outcome<Int>?
        if spans.count == 1 {
            outcome = try? Syscall.send(fd, UnsafeRawBufferPointer(start: base + spans[0].lowerBound, count: spans[0].count), flags: flags)
        } else {
            outcome = withUnsafeTemporaryAllocation(of: iovec.self, capacity: spans.count) { iov -> Syscall.Outcome<Int>? in
                for (k, span) in spans.enumerated() {
                    iov[k] = iovec(iov_base: UnsafeMutableRawPointer(mutating: base + span.lowerBound), iov_len: span.count)
                }
                var message = msghdr()
                message.msg_iov = iov.baseAddress
                message.msg_iovlen = spans.count
                return try? Syscall.send(fd, message: &message, flags: flags)
            }
        }
        switch outcome {
        case let .done(n)?: return n
        case .wouldBlock?: return 0
        case nil: return nil
        }
    }
}

extension ClientOutput.State {
    /// Puts `rule` in place (the replaced one comes back in `rule`, to be released outside the lock).
    mutating func setRule(_ rule: inout RecipientRule) {
        swap(&self.rule, &rule)
        generation &+= 1
    }
}
