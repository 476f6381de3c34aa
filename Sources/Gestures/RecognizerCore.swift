// SPDX-License-Identifier: MIT
import TouchCore

/// One touch as a recognizer tracks it.
struct TrackedTouch: Sendable {
    /// The engine's serial for this touch (unique for the engine's life, unlike ``TouchID``).
    var key: Int
    var id: TouchID
    var device: DeviceID
    var type: TouchType
    /// `began`/`moved` while down; `ended`/`cancelled`/hover-out in the step it goes away.
    var isDown: Bool
    /// Added since the last step: contributes no motion yet.
    var isNew: Bool
    var beganAt: Timestamp
    var startPX: Point
    var startMM: Point
    var locationPX: Point
    var locationMM: Point
    var previousPX: Point
    var previousMM: Point
    /// Square of the largest distance from the start so far, in mm² (the root is taken
    /// when a recognizer asks, not at every move of every recognizer following the touch).
    var farthestSquaredMM: Double

    /// Whether it is present in the previous step and this one, so its motion counts. A touch that
    /// lifts reports no position of its own (evdev's lift carries none: its "position" is the last
    /// one), so counting it as still would halve the others' last step; it counts only if its
    /// lift did move it.
    @inline(__always)
    var contributesMotion: Bool {
        !isNew && (isDown || locationPX != previousPX || locationMM != previousMM)
    }
}

/// One sample of a recognizer's cumulative motion, for velocities.
struct MotionSample: Sendable {
    var time: Timestamp
    var translationPX: Point
    var translationMM: Point
    var scale: Double
    var rotation: Double
}

/// The small base every recognizer shares: its state, deadline, tracked touches,
/// and the motion of their centroid integrated without jumps when touches come and go.
struct RecognizerCore: Sendable {
    var state: RecognizerState = .possible
    var deadline: Timestamp?
    private(set) var touches: [TrackedTouch] = []
    /// How many of ``touches`` are down, kept as they change (asked several times per frame).
    private(set) var downCount = 0
    /// Index in ``touches`` of the touch updated last (a hint for the next update).
    private var lastUpdated = -1
    /// Device and type of the latest touch taken: discrete recognizers measure after every touch lifted.
    var lastDevice = DeviceID(0)
    var lastTouchType: TouchType = .direct
    /// Cumulative translation of the centroid, from the mean displacement of the touches
    /// present in consecutive steps (so adding or lifting a finger causes no jump, and a
    /// lifting finger does not halve the last step: ``TrackedTouch/contributesMotion``).
    var translationPX: Point = .zero
    var translationMM: Point = .zero
    /// Cumulative span ratio of the touches present in consecutive steps (pinch).
    var scale: Double = 1
    /// Cumulative span change in mm (pinch threshold).
    var spanChangeMM: Double = 0
    /// Cumulative turn in radians, clockwise positive on screen (rotate).
    var rotation: Double = 0
    /// Time of the last step.
    var lastTime: Timestamp = .zero
    /// Whether the span (``scale``, ``spanChangeMM``) is integrated: only pinch reads it.
    var measuresScale = false
    /// Whether ``rotation`` is integrated: only rotate reads it, and it costs an atan2 per touch.
    var measuresRotation = false
    /// A ring of motion samples, indexed by sequence number modulo ``sampleCapacity``.
    private var samples: [MotionSample] = []
    /// Sequence number the next distinct sample gets (the newest is `pushed - 1`).
    private var pushed = 0
    /// Sequence number of the oldest sample within the velocity window of the newest,
    /// followed as samples come in rather than searched for at every velocity.
    private var windowStart = 0
    /// Whether sample times never went backwards since the last reset: only then is
    /// ``windowStart`` the sample a search from the newest would find.
    private var ordered = true

    static let sampleCapacity = 32
    private static let sampleMask = sampleCapacity - 1
    /// Velocities are measured over this window (independent of the report rate).
    static let velocityWindowMS = 100.0
    /// Samples closer than this replace the previous one, so the ring spans the window at any rate.
    static let sampleSpacingMS = 4.0

    init() {
        touches.reserveCapacity(10)
        samples.reserveCapacity(Self.sampleCapacity)
    }

    var isEmpty: Bool { touches.isEmpty }

    /// Whether moves of its touches still matter. A failed or cancelled recognizer never
    /// measures again and has no deadline: it only waits for its touches to lift, then resets.
    var followsMoves: Bool {
        switch state {
        case .failed, .cancelled: return false
        case .possible, .began, .changed, .recognized, .ended: return true
        }
    }

    func holds(_ key: Int) -> Bool { touches.contains { $0.key == key } }

    /// The type of the first touch tracked, if any.
    var touchType: TouchType? { touches.first?.type }

    mutating func add(_ touch: Touch, key: Int) {
        lastDevice = touch.device
        lastTouchType = touch.type
        downCount += 1
        touches.append(TrackedTouch(
            key: key, id: touch.id, device: touch.device, type: touch.type, isDown: true, isNew: true,
            beganAt: touch.time, startPX: touch.location, startMM: touch.locationMM,
            locationPX: touch.location, locationMM: touch.locationMM,
            previousPX: touch.location, previousMM: touch.locationMM, farthestSquaredMM: 0))
    }

    /// Updates a tracked touch; returns false when it is not tracked.
    mutating func update(_ touch: Touch, key: Int, lifted: Bool) -> Bool {
        // A frame lists its touches in the order they began, as ``touches`` does: try the one after the last first.
        let guess = lastUpdated + 1 < touches.count ? lastUpdated + 1 : 0
        let i: Int
        if guess < touches.count && touches[guess].key == key {
            i = guess
        } else if let found = touches.firstIndex(where: { $0.key == key }) {
            i = found
        } else {
            return false
        }
        lastUpdated = i
        touches[i].locationPX = touch.location
        touches[i].locationMM = touch.locationMM
        let d = touch.locationMM - touches[i].startMM
        let moved = d.x * d.x + d.y * d.y
        if moved > touches[i].farthestSquaredMM { touches[i].farthestSquaredMM = moved }
        if lifted && touches[i].isDown {
            touches[i].isDown = false
            downCount -= 1
        }
        return true
    }

    /// Stops tracking a touch without a step (it was taken away).
    mutating func drop(_ key: Int) {
        for t in touches where t.key == key && t.isDown { downCount -= 1 }
        touches.removeAll { $0.key == key }
    }

    /// Forgets touches that went away in the last step.
    mutating func removeLifted() {
        guard downCount < touches.count else { return }
        touches.removeAll { !$0.isDown }
    }

    /// Largest distance any touch moved from where it started, in mm: the same value, bit
    /// for bit, as the largest of each touch's `distance(to:)` (a correctly rounded square
    /// root is monotonic, so the root of the largest square is the largest root).
    var farthestMM: Double {
        var m = 0.0
        for t in touches where t.farthestSquaredMM > m { m = t.farthestSquaredMM }
        return m.squareRoot()
    }

    /// Centroid in pixels of the touches down (of all tracked ones when none is down).
    var centroidPX: Point { centroid(millimetres: false) }
    /// Centroid in mm of the touches down (of all tracked ones when none is down).
    var centroidMM: Point { centroid(millimetres: true) }

    // A flag rather than a key path: reading through a key path costs a runtime call per touch.
    private func centroid(millimetres: Bool) -> Point {
        var sum = Point.zero, n = 0.0
        for t in touches where t.isDown { sum = sum + (millimetres ? t.locationMM : t.locationPX); n += 1 }
        if n == 0 {
            for t in touches { sum = sum + (millimetres ? t.locationMM : t.locationPX); n += 1 }
        }
        return n == 0 ? .zero : sum / n
    }

    /// Integrates the motion of the touches present in the previous step and this one,
    /// then makes every touch's current position its previous one. The same arithmetic, in the
    /// same order, as ``motionStep()``, ``measureSpan(into:)``, ``measureTurn(into:)`` and
    /// ``integrate(_:at:)`` (results equal bit for bit), without a ``MotionStep`` to copy: the
    /// path of touch sets that are not shared.
    mutating func integrateMotion(at time: Timestamp) {
        var n = 0.0
        var dPX = Point.zero, dMM = Point.zero
        var prevCPX = Point.zero, curCPX = Point.zero, prevCMM = Point.zero, curCMM = Point.zero
        for t in touches where t.contributesMotion {
            n += 1
            dPX = dPX + (t.locationPX - t.previousPX)
            dMM = dMM + (t.locationMM - t.previousMM)
            prevCPX = prevCPX + t.previousPX; curCPX = curCPX + t.locationPX
            prevCMM = prevCMM + t.previousMM; curCMM = curCMM + t.locationMM
        }
        if n > 0 {
            translationPX = translationPX + dPX / n
            translationMM = translationMM + dMM / n
        }
        if n >= 2 && (measuresScale || measuresRotation) {
            prevCPX = prevCPX / n; curCPX = curCPX / n; prevCMM = prevCMM / n; curCMM = curCMM / n
            var prevSpan = 0.0, curSpan = 0.0, prevSpanMM = 0.0, curSpanMM = 0.0
            var turn = 0.0, turning = 0.0
            for t in touches where t.contributesMotion {
                let a = t.previousPX - prevCPX, b = t.locationPX - curCPX
                if measuresScale {
                    prevSpan += a.length; curSpan += b.length
                    prevSpanMM += (t.previousMM - prevCMM).length; curSpanMM += (t.locationMM - curCMM).length
                }
                if measuresRotation && a.length > 0.5 && b.length > 0.5 {
                    turn += Angles.turn(from: a, to: b)
                    turning += 1
                }
            }
            if measuresScale {
                if prevSpan > 0.5 && curSpan > 0 { scale *= curSpan / prevSpan }
                spanChangeMM += (curSpanMM - prevSpanMM) / n
            }
            if turning > 0 { rotation += turn / turning }
        }
        advance(to: time)
    }

    /// The translation part of the motion of the touches present in the previous step and this one.
    /// Depends only on the touches (keys, whether new, previous and current positions), so
    /// recognizers following the same touches share it (``SharedMotion``).
    func motionStep() -> MotionStep {
        var step = MotionStep()
        var n = 0.0
        var dPX = Point.zero, dMM = Point.zero
        for t in touches where t.contributesMotion {
            n += 1
            dPX = dPX + (t.locationPX - t.previousPX)
            dMM = dMM + (t.locationMM - t.previousMM)
            step.previousSumPX = step.previousSumPX + t.previousPX; step.currentSumPX = step.currentSumPX + t.locationPX
            step.previousSumMM = step.previousSumMM + t.previousMM; step.currentSumMM = step.currentSumMM + t.locationMM
        }
        step.present = n
        if n > 0 {
            step.translationPX = dPX / n
            step.translationMM = dMM / n
        }
        return step
    }

    /// Adds the span change of the touches to `step` (pinch): once per step, when two or more are present.
    func measureSpan(into step: inout MotionStep) {
        guard !step.measuredSpan else { return }
        step.measuredSpan = true
        let n = step.present
        guard n >= 2 else { return }
        let prevCPX = step.previousSumPX / n, curCPX = step.currentSumPX / n
        let prevCMM = step.previousSumMM / n, curCMM = step.currentSumMM / n
        var prevSpan = 0.0, curSpan = 0.0, prevSpanMM = 0.0, curSpanMM = 0.0
        for t in touches where t.contributesMotion {
            prevSpan += (t.previousPX - prevCPX).length; curSpan += (t.locationPX - curCPX).length
            prevSpanMM += (t.previousMM - prevCMM).length; curSpanMM += (t.locationMM - curCMM).length
        }
        if prevSpan > 0.5 && curSpan > 0 { step.scaleRatio = curSpan / prevSpan }
        step.spanChangeMM = (curSpanMM - prevSpanMM) / n
    }

    /// Adds the mean turn of the touches around their centroid to `step` (rotate): once per step,
    /// when two or more are present. One atan2 per touch: the dearest part of the motion.
    func measureTurn(into step: inout MotionStep) {
        guard !step.measuredTurn else { return }
        step.measuredTurn = true
        let n = step.present
        guard n >= 2 else { return }
        let prevCPX = step.previousSumPX / n, curCPX = step.currentSumPX / n
        var turn = 0.0, turning = 0.0
        for t in touches where t.contributesMotion {
            let a = t.previousPX - prevCPX, b = t.locationPX - curCPX
            if a.length > 0.5 && b.length > 0.5 {
                turn += Angles.turn(from: a, to: b)
                turning += 1
            }
        }
        if turning > 0 { step.turn = turn / turning }
    }

    /// Adds `step` (the motion of exactly these touches since the last step, measured with what this
    /// recognizer reads) to the cumulative motion, then makes every touch's current position its previous one.
    mutating func integrate(_ step: MotionStep, at time: Timestamp) {
        if step.present > 0 {
            translationPX = translationPX + step.translationPX
            translationMM = translationMM + step.translationMM
        }
        if measuresScale {
            if let ratio = step.scaleRatio { scale *= ratio }
            if let change = step.spanChangeMM { spanChangeMM += change }
        }
        if measuresRotation, let turn = step.turn { rotation += turn }
        advance(to: time)
    }

    /// After the motion is integrated: current positions become the previous ones, and the step is sampled.
    @inline(__always)
    private mutating func advance(to time: Timestamp) {
        for i in touches.indices {
            touches[i].previousPX = touches[i].locationPX
            touches[i].previousMM = touches[i].locationMM
            touches[i].isNew = false
        }
        lastTime = time
        pushSample(MotionSample(time: time, translationPX: translationPX, translationMM: translationMM, scale: scale, rotation: rotation))
    }

    @inline(__always)
    private func sample(_ sequence: Int) -> MotionSample { samples[sequence & Self.sampleMask] }

    private mutating func pushSample(_ s: MotionSample) {
        if pushed > 1 && s.time.milliseconds(since: sample(pushed - 2).time) < Self.sampleSpacingMS {
            if s.time < sample(pushed - 1).time { ordered = false }
            samples[(pushed - 1) & Self.sampleMask] = s
        } else {
            if pushed > 0 && s.time < sample(pushed - 1).time { ordered = false }
            if samples.count < Self.sampleCapacity { samples.append(s) } else { samples[pushed & Self.sampleMask] = s }
            pushed += 1
        }
        // Times only grow, so the window's oldest sample only moves forwards.
        windowStart = Swift.max(windowStart, pushed - Self.sampleCapacity)
        let newest = s.time
        while windowStart < pushed - 1 && newest.milliseconds(since: sample(windowStart).time) > Self.velocityWindowMS {
            windowStart += 1
        }
    }

    /// The newest sample and the oldest one within the velocity window of it.
    private func velocityPair() -> (MotionSample, MotionSample)? {
        guard pushed >= 2 else { return nil }
        let newest = sample(pushed - 1)
        var oldest = newest
        if ordered {
            oldest = sample(windowStart)
        } else {
            // Out-of-order times: the samples within the window are not a suffix; walk back from the newest.
            let first = Swift.max(0, pushed - Self.sampleCapacity)
            for q in stride(from: pushed - 2, through: first, by: -1) {
                let s = sample(q)
                if newest.time.milliseconds(since: s.time) > Self.velocityWindowMS { break }
                oldest = s
            }
        }
        guard newest.time > oldest.time else { return nil }
        return (newest, oldest)
    }

    /// Velocity of the centroid in px/s.
    var velocityPX: Point {
        guard let (n, o) = velocityPair() else { return .zero }
        return (n.translationPX - o.translationPX) / (n.time.milliseconds(since: o.time) / 1000)
    }
    /// Velocity of the centroid in mm/s.
    var velocityMM: Point {
        guard let (n, o) = velocityPair() else { return .zero }
        return (n.translationMM - o.translationMM) / (n.time.milliseconds(since: o.time) / 1000)
    }
    /// Scale change per second.
    var scaleVelocity: Double {
        guard let (n, o) = velocityPair() else { return 0 }
        return (n.scale - o.scale) / (n.time.milliseconds(since: o.time) / 1000)
    }
    /// Radians per second.
    var rotationVelocity: Double {
        guard let (n, o) = velocityPair() else { return 0 }
        return (n.rotation - o.rotation) / (n.time.milliseconds(since: o.time) / 1000)
    }

    /// The measurement fields every kind shares.
    func baseMeasurement() -> GestureMeasurement {
        var m = GestureMeasurement()
        m.device = touches.first?.device ?? lastDevice
        m.touches = touches.count  // lifting touches still count in the frame they lift
        m.touchType = touches.first?.type ?? lastTouchType
        m.location = centroidPX
        return m
    }

    /// Back to the resting state: possible, no touches, no motion.
    mutating func reset() {
        state = .possible
        deadline = nil
        touches.removeAll(keepingCapacity: true)
        downCount = 0
        lastUpdated = -1
        samples.removeAll(keepingCapacity: true)
        pushed = 0
        windowStart = 0
        ordered = true
        translationPX = .zero; translationMM = .zero
        scale = 1; spanChangeMM = 0; rotation = 0
    }
}

/// What a recognizer asks for after an input; the arena decides what actually happens
/// (exclusion, failure requirements, the `shouldBegin` gate).
enum RecognizerStep: Sendable, Equatable {
    /// Nothing changes.
    case none
    /// possible -> began.
    case begin
    /// began/changed -> changed.
    case change
    /// began/changed -> ended.
    case end
    /// began/changed -> cancelled.
    case cancel
    /// possible -> recognized (discrete).
    case recognize
    /// possible -> failed.
    case fail
}

/// What a recognizer knows about where it lives.
struct RecognizerContext: Hashable, Sendable {
    /// The frame of its surface in screen pixels (the screen for system recognizers).
    var surfaceFrame: ScreenRect
    /// Pixels per millimetre of its screen.
    var pixelsPerMillimetre: Double
}

/// The narrow protocol between a recognizer and the arena: touches in, steps out.
protocol GestureRecognizerMachine: Sendable {
    /// Whether it takes one more touch now (beyond the declarative checks the engine makes).
    func accepts(_ touch: Touch, core: RecognizerCore) -> Bool
    /// The tracked touches changed (added, moved, lifted); motion is already integrated.
    mutating func touchesChanged(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep
    /// `core.deadline` passed (the engine cleared it first).
    mutating func deadlinePassed(_ core: inout RecognizerCore, at time: Timestamp) -> RecognizerStep
    /// The values for an event.
    func measurement(_ core: RecognizerCore) -> GestureMeasurement
    /// Back to the resting state (the core is reset separately).
    mutating func reset()
}
