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

/// A client's path from the input thread straight to its socket
/// (docs/daemon.md, "Threads"): while nothing of that client waits anywhere
/// else (no queued line, nothing in NIO's write buffer, no batch on its way
/// to the event loop), the publishing thread writes its lines with one
/// non-blocking `send` instead of handing them to the event loop. Anything
/// else (a client that is behind, a socket that takes only part of a frame,
/// replies to requests) goes through the event loop's path as before, and
/// the lane stays closed until that path has drained.
///
/// When the socket takes only part of a frame, the rest of the line it cut
/// (the tail) stays in the lane, and the lines after it are handed over. The
/// event loop takes the tail whenever it stops the lane to write
/// (``hold()``) and writes it before anything else, so the client always
/// reads whole lines, each once, in order.
///
/// The lane owns a duplicate of the connection's descriptor, so the socket
/// it writes to cannot be closed (and its number reused) under it; it is
/// closed when the session ends. Every field is behind one lock, held by
/// the publishing thread for the time of a `send` and by the event loop for
/// a few loads and stores.
final class DirectLane: Sendable {
    struct State {
        /// The duplicate descriptor; -1 once closed.
        var fd: CInt
        /// Whether the publishing thread may write now.
        var open = false
        /// Set for good when the session is on its way out.
        var sealed = false
        /// Batches handed to the event loop for this client and not delivered yet.
        var handedOver = 0
        /// The rest of what the socket took only part of (a cut line, or a
        /// coalescing client's held lines and frame): written first.
        var tail: ByteBuffer?
        /// What the client is to receive.
        var rule: RecipientRule
        /// Changes with `rule`.
        var generation: UInt64 = 0
        /// Coalescing (`coalesce`): the client's interval in seconds; 0 is off.
        var interval: Double = 0
        /// Event time of the last lines written to the client while coalescing.
        var lastSent = -Double.infinity
        /// Updates held back until the interval has passed.
        var held = HeldLines()
        /// The client's `motion` lines (`frames`); nil: it asked for none.
        var frames: LaneFrames?

        /// When held lines go out even if no frame comes to carry them: a
        /// quarter of the interval after they were due (infinity: none held,
        /// or the lane is closed and they are the event loop's to write).
        var heldDeadline: Double {
            held.isEmpty || !open || fd < 0 ? .infinity : lastSent + interval * DirectLane.releaseFactor
        }
    }

    /// Held updates wait for a frame to carry them until this many intervals
    /// after the last delivery, then go out on their own (docs/protocol.md, "coalesce").
    static let releaseFactor = 1.25

    let id: ClientID
    let state: Mutex<State>

    /// A lane writing to a duplicate of `descriptor` (the caller keeps its own).
    init(id: ClientID, duplicating descriptor: CInt, rule: RecipientRule) {
        self.id = id
        let fd = (try? Syscall.duplicate(descriptor)) ?? -1
        state = Mutex(State(fd: fd, rule: rule))
    }

    deinit {
        state.withLock { s in
            if s.fd >= 0 { try? Syscall.close(s.fd) }
            s.fd = -1
        }
    }

    /// Whether the lane has a descriptor (duplicating may fail: descriptor limit).
    var isUsable: Bool { state.withLock { $0.fd >= 0 } }

    /// Stops direct writes until ``reopen()``: the event loop is about to
    /// write. Returns what it must write first: the tail of a cut line, or
    /// the updates held for a coalescing client (never both: a lane with a
    /// tail is closed, and a closed lane holds nothing new).
    func hold() -> ByteBuffer? {
        state.withLock { s in
            s.open = false
            defer { s.tail = nil }
            guard !s.held.isEmpty else { return s.tail }
            var out = s.tail ?? ByteBuffer()
            out.writeImmutableBuffer(s.held.joined())
            s.held.removeAll()
            return out
        }
    }

    /// Sets the coalescing interval (seconds, 0: off). Direct writes stop
    /// until the event loop has written what is held and the answer to the
    /// request, so that nothing held goes out after that answer.
    func setCoalescing(interval: Double) {
        state.withLock { s in
            s.interval = interval
            s.open = false
        }
    }

    /// Serves the client's touches at its frames (`frames`; nil: not any
    /// more). Direct writes stop until the event loop has written the answer,
    /// so that no `motion` line of the new frames comes before it.
    func setFrames(_ frames: LaneFrames?) {
        var replaced = frames
        state.withLock { s in
            swap(&s.frames, &replaced)
            s.open = false
        }
        // The old server is released here, outside the lock.
        _ = replaced
    }

    /// Allows direct writes again if nothing is on its way through the
    /// event loop; the caller has checked its own queue and NIO's are empty.
    func reopen() {
        state.withLock { s in
            if !s.sealed, s.fd >= 0, s.handedOver == 0, s.tail == nil { s.open = true }
        }
    }

    /// Number of batches handed over and not yet delivered.
    var handedOver: Int { state.withLock { $0.handedOver } }

    /// A batch handed over has been delivered (or dropped with its session).
    func handOverDone() {
        state.withLock { $0.handedOver -= 1 }
    }

    /// New routing rule; direct writes stop until the event loop has written
    /// what it is about to (the reply to the request that changed it), so
    /// that events the new rule admits come after that reply.
    func update(_ rule: RecipientRule) {
        var replaced = rule
        state.withLock { s in
            swap(&s.rule, &replaced)
            s.generation &+= 1
            s.open = false
        }
        // The old rule is released here, outside the lock.
        _ = replaced
    }

    /// No direct write any more (goodbye, revoked, stuck, half-closed).
    func seal() {
        state.withLock { s in
            s.open = false
            s.sealed = true
        }
    }

    /// Seals the lane and closes its descriptor: the session has ended.
    func shutDown() {
        state.withLock { s in
            s.open = false
            s.sealed = true
            if s.fd >= 0 { try? Syscall.close(s.fd) }
            s.fd = -1
        }
    }
}

/// What the publishing thread leaves to the event loop of one client's
/// share of a batch.
struct LaneHandover {
    /// The client.
    var lane: DirectLane
    /// The batch's lines the event loop is to deliver, as runs of
    /// consecutive lines (after a cut, those the socket took none of; may be
    /// empty: the tail alone).
    var runs: [Range<Int>]
    /// The client's `motion` lines the batch completed (`frames`), to
    /// deliver after the runs, and the end offset of each.
    var motion: (lines: ByteBuffer, ends: [Int])? = nil
}

/// The publishing thread's side: each batch, encoded once by the engine's
/// thread, written to every open lane straight from the batch's buffer (no
/// copy of it unless the event loop has to deliver part of it). Reused
/// between batches (kept behind the publisher's lock).
struct DirectWriter {
    /// Byte ranges wanted by the client being written (reused).
    private var spans: [Range<Int>] = []
    private var lineRuns: [Range<Int>] = []
    /// A coalescing client's held lines and frame, put together for one `send` (reused).
    private var scratch = ByteBuffer()
    /// The earliest ``DirectLane/State/heldDeadline`` of the lanes seen by
    /// the last ``offer(_:to:handovers:)`` or ``release(_:upTo:handovers:)``.
    private(set) var earliestHeld = Double.infinity

    init() {
        spans.reserveCapacity(8)
        lineRuns.reserveCapacity(8)
    }

    // Which lanes want lines of the batch being published, and which runs
    // (`planned[first..<first + count]`), decided before any is written.
    private struct Plan {
        var lane: Int
        var first: Int
        var count: Int
        var generation: UInt64
    }
    private var plans: [Plan] = []
    private var planned: [Range<Int>] = []

    /// Offers the encoded batch to every lane; what the event loop has to
    /// deliver is appended to `handovers`. Who wants what is decided for
    /// every lane first, then the writes follow back to back: a reader woken
    /// by one does not compete with the rest of the decisions (with readers
    /// that each serve several sockets, interleaving measured worse).
    mutating func offer(_ batch: EventBatch, to lanes: [DirectLane], handovers: inout [LaneHandover]) {
        plans.removeAll(keepingCapacity: true)
        planned.removeAll(keepingCapacity: true)
        earliestHeld = .infinity
        for k in lanes.indices {
            let first = planned.count
            let generation = lanes[k].state.withLock { s -> UInt64? in
                // The session has ended: nothing more for it.
                guard s.fd >= 0 else { return nil }
                Self.appendRuns(of: batch, for: s.rule, to: &planned)
                // The client's frames are fed what routing gives it, and only that.
                if s.frames != nil, planned.count > first { s.frames!.serve(batch, runs: planned[first...]) }
                // Lanes written below report their deadline there.
                if planned.count == first { earliestHeld = min(earliestHeld, s.heldDeadline) }
                return s.generation
            }
            guard let generation, planned.count > first else { continue }
            plans.append(Plan(lane: k, first: first, count: planned.count - first, generation: generation))
        }
        for plan in plans {
            if let handover = write(batch, plan: plan, lane: lanes[plan.lane]) { handovers.append(handover) }
        }
    }

    /// Offers the encoded batch to one lane: nil when the client wants none
    /// of it or all of it went into its socket; otherwise what the event loop
    /// has to deliver.
    mutating func offer(_ batch: EventBatch, to lane: DirectLane) -> LaneHandover? {
        var handovers: [LaneHandover] = []
        offer(batch, to: [lane], handovers: &handovers)
        return handovers.first
    }

    /// The runs of consecutive lines of `batch` that `rule` admits.
    private static func appendRuns(of batch: EventBatch, for rule: RecipientRule, to runs: inout [Range<Int>]) {
        var start = -1
        let names = batch.names
        for (i, event) in batch.attributes.enumerated() {
            if rule.wants(event, names: names) {
                if start < 0 { start = i }
            } else if start >= 0 {
                runs.append(start..<i)
                start = -1
            }
        }
        if start >= 0 { runs.append(start..<batch.count) }
    }

    private mutating func write(_ batch: EventBatch, plan: Plan, lane: DirectLane) -> LaneHandover? {
        lane.state.withLock { s -> LaneHandover? in
            let handover = write(batch, plan: plan, lane: lane, state: &s)
            earliestHeld = min(earliestHeld, s.heldDeadline)
            return handover
        }
    }

    private mutating func write(_ batch: EventBatch, plan: Plan, lane: DirectLane, state s: inout DirectLane.State) -> LaneHandover? {
        guard s.fd >= 0 else { return nil }
        lineRuns.removeAll(keepingCapacity: true)
        if s.generation == plan.generation {
            lineRuns.append(contentsOf: planned[plan.first..<plan.first + plan.count])
        } else {
            // The event loop changed its rule since the plan: decide again.
            Self.appendRuns(of: batch, for: s.rule, to: &lineRuns)
            guard !lineRuns.isEmpty else { return nil }
        }
        guard s.open else {
            s.handedOver += 1
            return LaneHandover(lane: lane, runs: lineRuns, motion: s.frames?.take())
        }
        if s.interval > 0 { return coalesce(batch, lane: lane, state: &s) }
        if s.frames?.isEmpty == false { return writeWithMotion(batch, lane: lane, state: &s) }
        return writeRuns(batch, lane: lane, state: &s)
    }

    /// Writes the lines of `lineRuns` and then the client's `motion` lines
    /// the batch completed, in one `send` (put together in `scratch`).
    private mutating func writeWithMotion(_ batch: EventBatch, lane: DirectLane, state s: inout DirectLane.State) -> LaneHandover? {
        scratch.clear()
        appendRuns(batch)
        appendMotion(state: &s)
        return sendScratch(lane: lane, state: &s)
    }

    /// Appends the lines of `lineRuns` to `scratch`.
    private mutating func appendRuns(_ batch: EventBatch) {
        let ends = batch.ends
        batch.bytes.withUnsafeBytes { raw in
            for r in lineRuns {
                let from = r.lowerBound == 0 ? 0 : ends[r.lowerBound - 1]
                scratch.writeBytes(UnsafeRawBufferPointer(rebasing: raw[from..<ends[r.upperBound - 1]]))
            }
        }
    }

    /// Appends the client's pending `motion` lines to `scratch` and forgets them.
    private mutating func appendMotion(state s: inout DirectLane.State) {
        guard s.frames?.isEmpty == false else { return }
        scratch.writeBytes(s.frames!.lines.bytes)
        s.frames!.removeLines()
    }

    /// Writes the lines of `lineRuns` to an open lane: nil when the socket
    /// took them all; otherwise the lane closes, keeps the rest of the line
    /// it cut, and the lines not started are handed over.
    private mutating func writeRuns(_ batch: EventBatch, lane: DirectLane, state s: inout DirectLane.State) -> LaneHandover? {
        let ends = batch.ends
        spans.removeAll(keepingCapacity: true)
        var total = 0
        for r in lineRuns {
            let from = r.lowerBound == 0 ? 0 : ends[r.lowerBound - 1]
            spans.append(from..<ends[r.upperBound - 1])
            total += ends[r.upperBound - 1] - from
        }
        let bytes = batch.bytes
        let written = bytes.withUnsafeBytes { Self.write(fd: s.fd, $0, spans) }
        if written == total { return nil }
        s.open = false
        s.handedOver += 1
        let (tail, rest) = Self.cut(runs: lineRuns, ends: ends, after: written)
        if let tail { s.tail = ByteBuffer(bytes: bytes[tail]) }
        return LaneHandover(lane: lane, runs: rest)
    }

    /// A coalescing client's share of a frame (docs/protocol.md, "coalesce"):
    /// continuous updates only, sooner than its interval after the last
    /// delivery, are held (each replacing a held update of the same subject);
    /// anything else goes out at once, after what is held (less the held
    /// updates this frame replaces), in one `send`.
    private mutating func coalesce(_ batch: EventBatch, lane: DirectLane, state s: inout DirectLane.State) -> LaneHandover? {
        var time = -Double.infinity
        var updatesOnly = true
        for r in lineRuns {
            for i in r {
                time = max(time, batch.attributes[i].time)
                if !batch.attributes[i].isUpdate { updatesOnly = false }
            }
        }
        let ends = batch.ends
        // A frame's `motion` lines are never held: they go out with the report that completed them.
        let motion = s.frames?.isEmpty == false
        if updatesOnly, !motion, time - s.lastSent < s.interval {
            batch.bytes.withUnsafeBytes { raw in
                for r in lineRuns {
                    for i in r {
                        let from = i == 0 ? 0 : ends[i - 1]
                        s.held.hold(batch.attributes[i], names: batch.names, line: UnsafeRawBufferPointer(rebasing: raw[from..<ends[i]]))
                    }
                }
            }
            return nil
        }
        s.lastSent = max(s.lastSent, time)
        guard !s.held.isEmpty else {
            return motion ? writeWithMotion(batch, lane: lane, state: &s) : writeRuns(batch, lane: lane, state: &s)
        }
        scratch.clear()
        s.held.write(to: &scratch, supersededBy: batch.attributes, names: batch.names, runs: lineRuns)
        s.held.removeAll()
        appendRuns(batch)
        appendMotion(state: &s)
        return sendScratch(lane: lane, state: &s)
    }

    /// Sends `scratch` whole to an open lane; what the socket does not take
    /// becomes the lane's tail (the lane closes), for the event loop to write.
    private mutating func sendScratch(lane: DirectLane, state s: inout DirectLane.State) -> LaneHandover? {
        let total = scratch.readableBytes
        guard total > 0 else { return nil }
        spans.removeAll(keepingCapacity: true)
        spans.append(0..<total)
        let written = scratch.withUnsafeReadableBytes { Self.write(fd: s.fd, $0, spans) }
        if written == total { return nil }
        s.open = false
        s.handedOver += 1
        s.tail = scratch.getSlice(at: written, length: total - written)
        return LaneHandover(lane: lane, runs: [])
    }

    /// Sends the updates held for coalescing clients whose
    /// ``DirectLane/State/heldDeadline`` has come by `time` (event time,
    /// seconds): no frame came to carry them. What the event loop has to
    /// finish is appended to `handovers`.
    mutating func release(_ lanes: [DirectLane], upTo time: Double, handovers: inout [LaneHandover]) {
        earliestHeld = .infinity
        for lane in lanes {
            let handover = lane.state.withLock { s -> LaneHandover? in
                defer { earliestHeld = min(earliestHeld, s.heldDeadline) }
                // A closed lane's held lines are the event loop's (`hold()`).
                guard s.fd >= 0, s.open, !s.held.isEmpty, s.heldDeadline <= time + Self.timeTolerance else { return nil }
                scratch.clear()
                s.held.write(to: &scratch, supersededBy: [], names: [], runs: [])
                s.held.removeAll()
                s.lastSent = max(s.lastSent, time)
                return sendScratch(lane: lane, state: &s)
            }
            if let handover { handovers.append(handover) }
        }
    }

    /// Deadlines are compared with this slack: a deadline turned into whole
    /// microseconds and back may land a rounding step past itself.
    static let timeTolerance = 1e-6

    /// Where `written` bytes of the runs' lines (in order) end: the byte
    /// range of the rest of the line cut there (nil on a line's end), and the
    /// runs of the lines not started.
    static func cut(runs: [Range<Int>], ends: [Int], after written: Int) -> (tail: Range<Int>?, rest: [Range<Int>]) {
        var skip = written
        for (k, run) in runs.enumerated() {
            let from = run.lowerBound == 0 ? 0 : ends[run.lowerBound - 1]
            let length = ends[run.upperBound - 1] - from
            if skip >= length {
                skip -= length
                continue
            }
            // The first line of the run ending past the cut.
            var i = run.lowerBound
            while ends[i] - from <= skip { i += 1 }
            let lineStart = i == 0 ? 0 : ends[i - 1]
            let cut = from + skip
            var rest: [Range<Int>] = []
            if cut > lineStart {
                if i + 1 < run.upperBound { rest.append(i + 1..<run.upperBound) }
                rest += runs[(k + 1)...]
                return (cut..<ends[i], rest)
            }
            rest.append(i..<run.upperBound)
            rest += runs[(k + 1)...]
            return (nil, rest)
        }
        return (nil, [])
    }

    /// Writes the byte ranges of `raw` to `fd` without blocking: the bytes
    /// written (0 when the socket takes none or fails; the event loop's path
    /// then retries and sees the failure).
    private static func write(fd: CInt, _ raw: UnsafeRawBufferPointer, _ spans: [Range<Int>]) -> Int {
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
        guard case let .done(n) = outcome else { return 0 }
        return n
    }
}
