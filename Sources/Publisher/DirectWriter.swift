// SPDX-License-Identifier: MIT
import NIOCore
import Wire

/// The publishing thread's side: each batch, encoded once by the engine's
/// thread, written to every client's ``ClientOutput`` straight from the
/// batch's buffer (no copy of it unless a client is behind). Reused between
/// batches (kept behind the publisher's lock).
struct DirectWriter {
    /// Byte ranges wanted by the client being written (reused).
    private var spans: [Range<Int>] = []
    private var lineRuns: [Range<Int>] = []
    /// The earliest ``ClientOutput/State/heldDeadline`` of the outputs seen
    /// by the last ``offer(_:to:)`` or ``release(_:upTo:)``.
    private(set) var earliestHeld = Double.infinity
    /// Batches of which some lines waited in a client's backlog, since the last ``takeQueued()``.
    private(set) var queued = 0

    init() {
        spans.reserveCapacity(8)
        lineRuns.reserveCapacity(8)
        followups.reserveCapacity(4)
    }

    // Which outputs want lines of the batch being published, and which runs
    // (`planned[first..<first + count]`), decided before any is written.
    private struct Plan {
        var output: Int
        var first: Int
        var count: Int
        var generation: UInt64
    }
    private var plans: [Plan] = []
    private var planned: [Range<Int>] = []
    // Outputs that asked for the flusher or a close during the batch, told after every write.
    private var followups: [(ClientOutput, ClientOutput.Followup)] = []

    /// Offers the encoded batch to every output. Who wants what is decided
    /// for every client first, then the writes follow back to back: a reader
    /// woken by one does not compete with the rest of the decisions (with
    /// readers that each serve several sockets, interleaving measured worse).
    mutating func offer(_ batch: EventBatch, to outputs: [ClientOutput]) {
        plans.removeAll(keepingCapacity: true)
        planned.removeAll(keepingCapacity: true)
        earliestHeld = .infinity
        for k in outputs.indices {
            let first = planned.count
            let generation = outputs[k].state.withLock { s -> UInt64? in
                // The session has ended, or takes no more events.
                guard s.fd >= 0, !s.sealed else { return nil }
                Self.appendRuns(of: batch, for: s.rule, to: &planned)
                // The client's frames are fed what routing gives it, and only that.
                if s.frames != nil, planned.count > first { s.frames!.serve(batch, runs: planned[first...]) }
                // Outputs written below report their deadline there.
                if planned.count == first { earliestHeld = min(earliestHeld, s.heldDeadline) }
                return s.generation
            }
            guard let generation, planned.count > first else { continue }
            plans.append(Plan(output: k, first: first, count: planned.count - first, generation: generation))
        }
        var behind = false
        for plan in plans {
            let output = outputs[plan.output]
            let followup = output.state.withLock { s -> ClientOutput.Followup in
                let followup = write(batch, plan: plan, state: &s, behind: &behind, clock: output.clock)
                earliestHeld = min(earliestHeld, s.heldDeadline)
                return followup
            }
            if followup != .none { followups.append((output, followup)) }
        }
        if behind { queued += 1 }
        carryOutFollowups()
    }

    /// Offers the encoded batch to one output.
    mutating func offer(_ batch: EventBatch, to output: ClientOutput) {
        offer(batch, to: [output])
    }

    /// The count of batches some client was behind for, since the last call.
    mutating func takeQueued() -> Int {
        defer { queued = 0 }
        return queued
    }

    private mutating func carryOutFollowups() {
        guard !followups.isEmpty else { return }
        for (output, followup) in followups { output.carryOut(followup) }
        followups.removeAll(keepingCapacity: true)
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

    private mutating func write(
        _ batch: EventBatch, plan: Plan, state s: inout ClientOutput.State, behind: inout Bool, clock: () -> Double
    ) -> ClientOutput.Followup {
        guard s.fd >= 0, !s.sealed else { return .none }
        lineRuns.removeAll(keepingCapacity: true)
        if s.generation == plan.generation {
            lineRuns.append(contentsOf: planned[plan.first..<plan.first + plan.count])
        } else {
            // The event loop changed the rule since the plan: decide again.
            Self.appendRuns(of: batch, for: s.rule, to: &lineRuns)
            guard !lineRuns.isEmpty else { return .none }
        }
        guard s.isDrained else {
            behind = true
            return queue(batch, state: &s, clock: clock)
        }
        if s.interval > 0 { return coalesce(batch, state: &s, behind: &behind, clock: clock) }
        if s.frames?.isEmpty == false { return writeWithMotion(batch, state: &s, behind: &behind, clock: clock) }
        return writeRuns(batch, state: &s, behind: &behind, clock: clock)
    }

    /// A client that is behind: what is held, then the lines of `lineRuns`,
    /// then its `motion` lines go behind its backlog (events beyond its limits
    /// dropped and counted); one stuck past its timeout is closed.
    private mutating func queue(_ batch: EventBatch, state s: inout ClientOutput.State, clock: () -> Double) -> ClientOutput.Followup {
        if !s.held.isEmpty {
            s.backlog.appendControl(s.held.joined())
            s.held.removeAll()
        }
        let now = clock()
        let ends = batch.ends
        for r in lineRuns {
            for i in r {
                let from = i == 0 ? 0 : ends[i - 1]
                let line = ByteBuffer(bytes: batch.bytes[from..<ends[i]])
                if s.backlog.offer(line, time: batch.attributes[i].time, now: now) == .stuck { return ClientOutput.fail(&s) }
            }
        }
        if s.frames?.isEmpty == false, let motion = s.frames!.take() {
            let time = batch.attributes.last?.time ?? 0
            var from = 0
            for end in motion.ends {
                let line = motion.lines.getSlice(at: from, length: end - from)!
                from = end
                if s.backlog.offer(line, time: time, now: now) == .stuck { return ClientOutput.fail(&s) }
            }
        }
        return ClientOutput.startFlushing(&s)
    }

    /// Writes the lines of `lineRuns` and then the client's `motion` lines
    /// the batch completed, in one `send` (put together in `scratch`).
    private mutating func writeWithMotion(
        _ batch: EventBatch, state s: inout ClientOutput.State, behind: inout Bool, clock: () -> Double
    ) -> ClientOutput.Followup {
        s.scratch.clear()
        appendRuns(batch, to: &s.scratch)
        appendMotion(state: &s)
        return sendScratch(state: &s, behind: &behind)
    }

    /// Appends the lines of `lineRuns` to `out`.
    private func appendRuns(_ batch: EventBatch, to out: inout ByteBuffer) {
        let ends = batch.ends
        batch.bytes.withUnsafeBytes { raw in
            for r in lineRuns {
                let from = r.lowerBound == 0 ? 0 : ends[r.lowerBound - 1]
                out.writeBytes(UnsafeRawBufferPointer(rebasing: raw[from..<ends[r.upperBound - 1]]))
            }
        }
    }

    /// Appends the client's pending `motion` lines to its scratch and forgets them.
    private func appendMotion(state s: inout ClientOutput.State) {
        guard s.frames?.isEmpty == false else { return }
        s.scratch.writeBytes(s.frames!.lines.bytes)
        s.frames!.removeLines()
    }

    private func sendScratch(state s: inout ClientOutput.State, behind: inout Bool) -> ClientOutput.Followup {
        let followup = ClientOutput.sendScratch(&s)
        if followup == .flush { behind = true }
        return followup
    }

    /// Writes the lines of `lineRuns` with one `send`: when the socket takes
    /// only part of them, the rest of the line it cut and the lines not
    /// started go to the backlog.
    private mutating func writeRuns(
        _ batch: EventBatch, state s: inout ClientOutput.State, behind: inout Bool, clock: () -> Double
    ) -> ClientOutput.Followup {
        let ends = batch.ends
        spans.removeAll(keepingCapacity: true)
        var total = 0
        for r in lineRuns {
            let from = r.lowerBound == 0 ? 0 : ends[r.lowerBound - 1]
            spans.append(from..<ends[r.upperBound - 1])
            total += ends[r.upperBound - 1] - from
        }
        let bytes = batch.bytes
        let fd = s.fd
        let written = bytes.withUnsafeBytes { ClientOutput.send(fd: fd, $0, spans) }
        guard let written else { return ClientOutput.fail(&s) }
        if written == total { return .none }
        behind = true
        let (tail, rest) = Self.cut(runs: lineRuns, ends: ends, after: written)
        if let tail { s.backlog.appendControl(ByteBuffer(bytes: bytes[tail])) }
        lineRuns = rest
        return queue(batch, state: &s, clock: clock)
    }

    /// A coalescing client's share of a frame (docs/protocol.md, "coalesce"):
    /// continuous updates only, sooner than its interval after the last
    /// delivery, are held (each replacing a held update of the same subject);
    /// anything else goes out at once, after what is held (less the held
    /// updates this frame replaces), in one `send`.
    private mutating func coalesce(
        _ batch: EventBatch, state s: inout ClientOutput.State, behind: inout Bool, clock: () -> Double
    ) -> ClientOutput.Followup {
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
            return .none
        }
        s.lastSent = max(s.lastSent, time)
        guard !s.held.isEmpty else {
            return motion ? writeWithMotion(batch, state: &s, behind: &behind, clock: clock) : writeRuns(batch, state: &s, behind: &behind, clock: clock)
        }
        s.scratch.clear()
        s.held.write(to: &s.scratch, supersededBy: batch.attributes, names: batch.names, runs: lineRuns)
        s.held.removeAll()
        appendRuns(batch, to: &s.scratch)
        appendMotion(state: &s)
        return sendScratch(state: &s, behind: &behind)
    }

    /// Sends the updates held for coalescing clients whose
    /// ``ClientOutput/State/heldDeadline`` has come by `time` (event time,
    /// seconds): no frame came to carry them.
    mutating func release(_ outputs: [ClientOutput], upTo time: Double) {
        earliestHeld = .infinity
        for output in outputs {
            let followup = output.state.withLock { s -> ClientOutput.Followup in
                defer { earliestHeld = min(earliestHeld, s.heldDeadline) }
                guard s.fd >= 0, !s.held.isEmpty, s.heldDeadline <= time + Self.timeTolerance else { return .none }
                s.scratch.clear()
                s.held.write(to: &s.scratch, supersededBy: [], names: [], runs: [])
                s.held.removeAll()
                s.lastSent = max(s.lastSent, time)
                return ClientOutput.sendScratch(&s)
            }
            if followup != .none { followups.append((output, followup)) }
        }
        carryOutFollowups()
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
}
