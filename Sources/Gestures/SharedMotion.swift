// SPDX-License-Identifier: MIT
import TouchCore

/// The motion of one set of touches over one step (since the step before), as a
/// ``RecognizerCore`` adds it to its cumulative translation, scale and rotation.
///
/// Only touches present in both steps contribute (semantics section 3: adding or lifting
/// a finger causes no jump). The span and the turn are measured only when a recognizer
/// following these touches reads them.
struct MotionStep: Sendable, Equatable {
    /// How many touches were present in the previous step and this one.
    var present = 0.0
    /// Mean displacement of the present touches (zero when none is present).
    var translationPX = Point.zero
    var translationMM = Point.zero
    /// Sums of the present touches' previous and current positions (their centroids times ``present``).
    var previousSumPX = Point.zero
    var currentSumPX = Point.zero
    var previousSumMM = Point.zero
    var currentSumMM = Point.zero
    /// Whether ``scaleRatio`` and ``spanChangeMM`` were measured.
    var measuredSpan = false
    /// Current span over previous span, when two or more touches are present and the previous span is not tiny.
    var scaleRatio: Double?
    /// Mean change of the touches' distance from their centroid in mm, when two or more are present.
    var spanChangeMM: Double?
    /// Whether ``turn`` was measured.
    var measuredTurn = false
    /// Mean turn around the centroid in radians, when some present touch is away from the centroid.
    var turn: Double?
}

/// The motion of each distinct set of touches stepped in the current frame, measured once
/// and shared by every recognizer following that set (pan, pinch, rotate, swipe... on the
/// same fingers), so ten touches under twenty recognizers cost one measurement per set.
///
/// A set is identified by its touch keys in order, which of them are new, and the time of
/// the recognizers' previous step. Recognizers with the same set measured the same previous
/// positions: every recognizer following a touch is updated and stepped in every frame
/// the touch moves until it is decided, and decided recognizers do not measure. The results
/// are those of each recognizer measuring alone, bit for bit; nothing is allocated once the
/// buffers have grown to the largest frame.
struct SharedMotion: Sendable {
    private struct Entry: Sendable {
        /// Range of the set's touches in ``SharedMotion/touchKeys``.
        var start: Int
        var count: Int
        /// ``SharedMotion/code(_:)`` of the first touch: tells most sets apart without reading ``touchKeys``.
        var first: Int
        var previousStep: Timestamp
        var step: MotionStep
    }

    /// Each entry's touches, back to back: ``code(_:)`` of each.
    private var touchKeys: [Int] = []
    private var entries: [Entry] = []

    init() {
        touchKeys.reserveCapacity(64)
        entries.reserveCapacity(8)
    }

    /// Sets of fewer touches are measured by each recognizer alone.
    static let smallestShared = 2

    /// How many distinct sets were measured since ``removeAll()``.
    var count: Int { entries.count }

    /// Forgets the frame's sets (at the start of each frame's steps: positions have changed).
    mutating func removeAll() {
        touchKeys.removeAll(keepingCapacity: true)
        entries.removeAll(keepingCapacity: true)
    }

    /// Adds to `core` the motion of its touches since its last step, with the span and the turn measured
    /// when it reads them; measured only if no recognizer with the same touches was stepped before it in this frame.
    mutating func integrate(_ core: inout RecognizerCore, at time: Timestamp) {
        // One touch has no span and no turn: measuring it is cheaper than looking it up among the
        // frame's sets (200 surfaces with a finger each would make as many single-touch sets).
        guard core.touches.count >= Self.smallestShared else {
            core.integrateMotion(at: time)
            return
        }
        core.integrate(step(for: core), at: time)
    }

    /// The motion of `core`'s touches this step, measured by the first recognizer following
    /// them (with what `core` reads added when missing): what `integrate(_:at:)` adds.
    mutating func step(for core: RecognizerCore) -> MotionStep {
        let e = entryIndex(for: core)
        if core.measuresScale && !entries[e].step.measuredSpan { core.measureSpan(into: &entries[e].step) }
        if core.measuresRotation && !entries[e].step.measuredTurn { core.measureTurn(into: &entries[e].step) }
        return entries[e].step
    }

    private mutating func entryIndex(for core: RecognizerCore) -> Int {
        let touches = core.touches
        let first = touches.first.map(Self.code) ?? -1
        search: for e in entries.indices
        where entries[e].count == touches.count && entries[e].first == first && entries[e].previousStep == core.lastTime {
            let start = entries[e].start
            for (i, t) in touches.enumerated() where touchKeys[start + i] != Self.code(t) { continue search }
            assert(sameTouches(core, as: e), "recognizers with the same touches measured different previous positions")
            return e
        }
        let start = touchKeys.count
        for t in touches { touchKeys.append(Self.code(t)) }
        entries.append(Entry(start: start, count: touches.count, first: first, previousStep: core.lastTime, step: core.motionStep()))
        return entries.count - 1
    }

    /// The key times four, plus one when the touch is new and two when it contributes no motion
    /// (lifting without moving): what the measurement depends on besides positions.
    @inline(__always)
    private static func code(_ t: TrackedTouch) -> Int { t.key &* 4 &+ (t.isNew ? 1 : 0) &+ (t.contributesMotion || t.isNew ? 0 : 2) }

    /// Debug check of the reasoning above: the shared step is what `core` would measure alone.
    private func sameTouches(_ core: RecognizerCore, as e: Int) -> Bool {
        var alone = core.motionStep()
        if entries[e].step.measuredSpan { core.measureSpan(into: &alone) }
        if entries[e].step.measuredTurn { core.measureTurn(into: &alone) }
        return alone == entries[e].step
    }
}
