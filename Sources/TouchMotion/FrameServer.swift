// SPDX-License-Identifier: MIT
import TouchCore

/// One report of a touch as a client receives it, for ``FrameServer``.
package struct ServedReport: Hashable, Sendable, BitwiseCopyable {
    /// The touch's device.
    package var device: UInt32
    /// The touch's id.
    package var id: UInt32
    /// Began, moved, ended, cancelled (hover is not served).
    package var phase: TouchPhase
    /// The touch's type.
    package var type: TouchType
    /// The touch's tool.
    package var tool: Tool
    /// The touch's screen.
    package var screen: Int32
    /// Time, position in screen pixels, stylus axes.
    package var sample: MotionSample

    /// Creates one.
    @inlinable package init(device: UInt32, id: UInt32, phase: TouchPhase, type: TouchType, tool: Tool, screen: Int32, sample: MotionSample) {
        self.device = device
        self.id = id
        self.phase = phase
        self.type = type
        self.tool = tool
        self.screen = screen
        self.sample = sample
    }

    /// The report of a touch: its screen position and stylus axes.
    @inlinable package init(_ touch: Touch) {
        self.init(device: touch.device.rawValue, id: touch.id.rawValue, phase: touch.phase, type: touch.type, tool: touch.tool,
                  screen: Int32(clamping: touch.screen), sample: MotionSample(touch))
    }
}

/// One touch's position for one frame, as ``FrameServer`` serves it.
package struct ServedMotion: Hashable, Sendable {
    /// The touch's device.
    package var device: UInt32
    /// The touch's id.
    package var id: UInt32
    /// The touch's type.
    package var type: TouchType
    /// The touch's tool.
    package var tool: Tool
    /// The touch's screen.
    package var screen: Int32
    /// The frame's presentation time.
    package var frame: Timestamp
    /// The position at the frame's time less the lead, and how it came about.
    package var resampled: ResampledSample
    /// The predicted position and its time (the newest report's time plus the
    /// horizon), when prediction was asked for and the touch's kind has one.
    package var predicted: MotionSample?
}

/// One client's touches served at its display's frames (docs/semantics.md
/// §14.5): each frame's position of each touch it receives, resampled at the
/// frame's time less the policy's lead, sent when the first report at or
/// after that time arrives, so that it is interpolated, never invented.
///
/// Time comes only from the reports and the client's frame timing, never
/// from a clock: the same reports give the same frames, live or replayed.
/// Touches' storage is kept between touches: after the first touches, a
/// report allocates nothing.
package struct FrameServer: Sendable {
    /// The client's frames.
    package let timing: FrameTiming
    /// The horizon the client asked for (each touch's is cut to its kind's recommended one); nil: no prediction.
    package let horizonMilliseconds: Double?
    /// Where positions are taken (the lead) and the gap past which frames due are skipped.
    package let policy: ResamplingPolicy
    /// Scales the Kalman predictor's noise, tuned in millimetres, to screen pixels.
    package let pixelsPerMillimetre: Double

    private struct Slot: Sendable {
        var inUse = false
        var device: UInt32 = 0
        var id: UInt32 = 0
        var type: TouchType = .direct
        var tool: Tool = .finger
        var screen: Int32 = 0
        var resampler = TouchResampler()
        var predictor: MotionPredictor
        var maxHorizon = 0.0
        /// The next frame to serve.
        var nextFrame = Timestamp.zero
    }

    private var slots: [Slot] = []

    /// Serves frames of `timing`; `horizonMilliseconds` asks for predicted positions.
    package init(timing: FrameTiming, horizonMilliseconds: Double? = nil, policy: ResamplingPolicy = .standard,
                 pixelsPerMillimetre: Double = 5.6) {
        self.timing = timing
        self.horizonMilliseconds = horizonMilliseconds
        self.policy = policy
        self.pixelsPerMillimetre = pixelsPerMillimetre
        slots.reserveCapacity(10)
    }

    /// The number of touches being served.
    package var activeTouches: Int { slots.reduce(0) { $0 + ($1.inUse ? 1 : 0) } }

    /// Takes a report the client receives; `serve` is called for each frame
    /// it completes, oldest first: frames whose sampling time (frame time
    /// less the lead) is at or before this report and after the touch's
    /// previous one, the first from the touch's first report, the last at
    /// its end. After a gap in reports longer than the policy's
    /// `longestIntervalToExtrapolateMilliseconds`, only the newest frame due
    /// is served (the contact was at rest or reports were lost: the frames in
    /// between would be invented). A cancelled touch is dropped without a frame.
    package mutating func report(_ r: ServedReport, serve: (ServedMotion) -> Void) {
        guard r.phase != .hover else { return }
        var k = slot(of: r)
        if k == nil {
            // A touch first seen here (began, or a client that started receiving it mid-way).
            guard !r.phase.isTerminal else { return }
            k = start(r)
        }
        guard let k else { return }
        if r.phase == .cancelled {
            slots[k].inUse = false
            return
        }
        let previous = slots[k].resampler.newest?.time
        if r.phase == .ended {
            slots[k].resampler.end(r.sample)
        } else {
            slots[k].resampler.report(r.sample)
            slots[k].predictor.report(r.sample)
        }
        let lead = policy.latencyMilliseconds
        let time = r.sample.time
        if let previous, time.milliseconds(since: previous) > policy.longestIntervalToExtrapolateMilliseconds {
            // Skip to the newest frame due.
            let newestDue = timing.frame(atOrAfter: time.adding(milliseconds: lead + 0.001))
            let skipTo = Timestamp(microseconds: newestDue.microseconds - timing.periodMicroseconds)
            if skipTo > slots[k].nextFrame { slots[k].nextFrame = skipTo }
        }
        while slots[k].nextFrame.adding(milliseconds: -lead) <= time {
            let frame = slots[k].nextFrame
            if let s = slots[k].resampler.sample(forFrameAt: frame) {
                serve(ServedMotion(
                    device: r.device, id: r.id, type: slots[k].type, tool: slots[k].tool, screen: slots[k].screen,
                    frame: frame, resampled: s, predicted: r.phase == .ended ? nil : prediction(k)))
            }
            slots[k].nextFrame = timing.frame(after: frame)
        }
        if r.phase == .ended { slots[k].inUse = false }
    }

    /// Forgets every touch (the client turned frames off or changed them).
    package mutating func removeAll() {
        for k in slots.indices { slots[k].inUse = false }
    }

    private func slot(of r: ServedReport) -> Int? {
        slots.firstIndex { $0.inUse && $0.device == r.device && $0.id == r.id }
    }

    private mutating func start(_ r: ServedReport) -> Int {
        let recommended = PredictionDefault.recommended(type: r.type, tool: r.tool)
        let k: Int
        if let free = slots.firstIndex(where: { !$0.inUse }) {
            k = free
            slots[k].resampler.reset()
            if slots[k].predictor.kind == recommended.kind {
                slots[k].predictor.reset()
            } else {
                slots[k].predictor = MotionPredictor(kind: recommended.kind, unitsPerMillimetre: pixelsPerMillimetre)
            }
        } else {
            slots.append(Slot(resampler: TouchResampler(policy: policy),
                              predictor: MotionPredictor(kind: recommended.kind, unitsPerMillimetre: pixelsPerMillimetre)))
            k = slots.count - 1
        }
        slots[k].inUse = true
        slots[k].device = r.device
        slots[k].id = r.id
        slots[k].type = r.type
        slots[k].tool = r.tool
        slots[k].screen = r.screen
        slots[k].maxHorizon = recommended.kind == .none ? 0 : recommended.maxHorizonMilliseconds
        // The first frame whose sampling time is at or after the touch's first report.
        slots[k].nextFrame = timing.frame(atOrAfter: r.sample.time.adding(milliseconds: policy.latencyMilliseconds))
        return k
    }

    private func prediction(_ k: Int) -> MotionSample? {
        guard let asked = horizonMilliseconds, let newest = slots[k].predictor.newest else { return nil }
        let horizon = min(asked, slots[k].maxHorizon)
        guard horizon > 0, let p = slots[k].predictor.predicted(millisecondsAhead: horizon) else { return nil }
        return MotionSample(time: newest.time.adding(milliseconds: horizon), location: p)
    }
}
