// SPDX-License-Identifier: MIT
import EngineMessages
import NIOCore
import TouchCore
import TouchMotion
import Wire

/// A client's `motion` lines (`frames`, docs/protocol.md): its frame server,
/// fed the touch reports routing gives this client and no other, and the
/// lines the current batch completed, written after the batch's own lines
/// for the client. Predicted positions exist only here, per client: nothing
/// else (recognizers, other clients, the pass-through mirror) reads them.
struct ClientFrames: Sendable {
    /// The client's frames.
    private(set) var server: FrameServer
    /// `motion` lines completed by the batch being published, each followed by a newline.
    private(set) var lines = JSONWriter(capacity: 1024)
    /// End offset of each line in ``lines``.
    private(set) var ends: [Int] = []

    init(_ request: FramesRequest) {
        // A period the decoder accepted (1 to 1000 ms) always makes frame timing.
        let timing = FrameTiming(
            periodMilliseconds: request.periodMilliseconds,
            reference: Timestamp(microseconds: Int64((request.time * 1_000_000).rounded())))!
        server = FrameServer(timing: timing, horizonMilliseconds: request.predictionHorizonMilliseconds)
        ends.reserveCapacity(16)
    }

    /// Whether the batch completed no frame.
    var isEmpty: Bool { ends.isEmpty }

    /// Feeds the touch reports among the batch's lines `runs` (those routed to
    /// this client) to the server, and writes the frames they complete.
    mutating func serve(_ batch: EventBatch, runs: ArraySlice<Range<Int>>) {
        // Moved out while the server writes into them (one access to self at a time).
        var w = lines, e = ends
        lines = JSONWriter(capacity: 0)
        ends = []
        defer { lines = w; ends = e }
        for run in runs {
            for i in run {
                guard let report = batch.attributes[i].motion else { continue }
                server.report(report) { served in
                    MessageEncoder.motion(served.message, into: &w)
                    w.newline()
                    e.append(w.count)
                }
            }
        }
    }

    /// The lines as a buffer of their own (for the event loop), then forgotten.
    mutating func take() -> (lines: ByteBuffer, ends: [Int])? {
        guard !isEmpty else { return nil }
        defer { removeLines() }
        return (ByteBuffer(bytes: lines.bytes), ends)
    }

    /// Forgets the lines written.
    mutating func removeLines() {
        lines.reset()
        ends.removeAll(keepingCapacity: true)
    }
}
