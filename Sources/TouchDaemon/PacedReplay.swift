// SPDX-License-Identifier: MIT
import Glibc
import LiveInput
import Logging
import Publisher
import Session
import SystemCalls
import ServiceLifecycle
import TouchCore
import Synchronization
import Trace

/// How a trace is replayed as a virtual device.
package struct ReplayPacing: Hashable, Sendable {
    /// Time scale: 1 is real time, 2 twice as fast, 0 as fast as possible.
    package var speed: Double
    /// Replays again and again, each pass shifted in time after the previous one.
    package var loop: Bool
    /// Waits for this many clients holding a subscription before replaying.
    package var waitForSubscribers: Int
    /// Stops the daemon (gracefully) once the replay is over.
    package var exitWhenDone: Bool

    /// Creates pacing settings.
    package init(speed: Double = 1, loop: Bool = false, waitForSubscribers: Int = 0, exitWhenDone: Bool = false) {
        self.speed = speed
        self.loop = loop
        self.waitForSubscribers = waitForSubscribers
        self.exitWhenDone = exitWhenDone
    }
}

/// The input service of `touchd --replay`: a recording's events go to the
/// session at the pace they were recorded (scaled by the speed), device by
/// device frame by frame, with the session's deadlines fired on time in
/// between. The recording is read through the same ``ReplayFeed`` as offline
/// replay, so both give the same output; with `--loop` the passes follow one
/// another one ``TouchSession/replayGapMicroseconds`` apart on the event time
/// line, and that gap is waited in real time (scaled) like any other.
///
/// The pacing runs on the input thread (``InputThread``), like live
/// input: the thread waits for the next frame's time or the engine's next
/// deadline, whichever comes first, and feeds the engine without a hop.
/// Unchecked: the player's state is only touched on the input thread, and
/// `stopping` (set from the shutdown handler) is atomic.
final class PacedReplay: Service, InputThreadSource, @unchecked Sendable {
    let recording: Recording
    let engine: TouchSessionActor
    let publisher: Publisher
    let pacing: ReplayPacing
    let logger: Logger
    private let stopping = Atomic<Bool>(false)

    // The player's state, only touched on the input thread.
    private var feed: ReplayFeed
    /// The step read from the feed and not yet carried out (waiting for its time).
    private var pending: ReplayFeed.Step?
    private var group: [InputEvent] = []
    /// When the last recording pass ended (event time): deadlines up to one gap after it fire before the next pass.
    private var lastEnd = Timestamp.zero
    // Event time `origin` is due at `start` on CLOCK_MONOTONIC (microseconds); one time line for every pass.
    private var origin: Int64 = 0
    private var start: Int64 = 0
    // How late frames were handed to the engine after their due time, since
    // the last `takeLateness()` (SIGUSR1's report).
    private var lateness = DeliveryStatistics.Distribution()

    init(recording: Recording, engine: TouchSessionActor, publisher: Publisher, pacing: ReplayPacing, logger: Logger) {
        self.recording = recording
        self.engine = engine
        self.publisher = publisher
        self.pacing = pacing
        self.logger = logger
        feed = ReplayFeed(recordings: [recording], loops: pacing.loop)
        group.reserveCapacity(64)
    }

    func run() async throws {
        do {
            try await waitForSubscribers()
        } catch {
            // Shutting down while waiting.
            return
        }
        let (finished, continuation) = AsyncStream.makeStream(of: Void.self)
        await engine.perform { engine in
            self.origin = self.feed.startTime.microseconds
            self.start = LiveClock.now().microseconds
            engine.thread.attach(self, finished: { continuation.finish() })
        }
        await withGracefulShutdownHandler {
            for await _ in finished {}
        } onGracefulShutdown: { [self] in
            stopping.store(true, ordering: .releasing)
            engine.thread.wakeup.wake()
        }
        // Stopped while replaying: the group is shutting down already.
        guard !stopping.load(ordering: .acquiring) else { return }
        if pacing.exitWhenDone {
            logger.info("replay done, stopping")
            return
        }
        try? await gracefulShutdown()
    }

    func waitForSubscribers() async throws {
        guard pacing.waitForSubscribers > 0 else { return }
        logger.info("waiting for subscribers", metadata: ["count": "\(pacing.waitForSubscribers)"])
        while await publisher.subscribedClientCount() < pacing.waitForSubscribers {
            try await cancelWhenGracefulShutdown { try await Task.sleep(for: .milliseconds(10)) }
        }
    }

    // MARK: On the input thread

    /// Feeds frames and fires deadlines until it has to wait for one (or has
    /// handed a frame over: jobs get their turn between frames); false when
    /// the replay is over or stopping.
    func runRound() -> Bool {
        engine.onThread(self) { input, engine in input.round(engine) }
    }

    private func round(_ engine: isolated TouchSessionActor) -> Bool {
        while !stopping.load(ordering: .acquiring) {
            switch step(engine) {
            case .next: continue
            case .yield: return true
            case .finished: return false
            }
        }
        return false
    }

    private enum Step { case next, yield, finished }

    private func step(_ engine: isolated TouchSessionActor) -> Step {
        if pending == nil { pending = feed.next(into: &group) }
        let step = pending!
        // The deadlines that come before the step, each at its own time (the
        // same limit as offline replay's, so both give the same order).
        if let limit = ReplayFeed.deadlineLimit(before: step, group: group, lastEnd: lastEnd),
           let d = engine.nextDeadline, d <= limit {
            guard wait(until: d) else { return .yield }
            engine.advance(to: d)
            return .yield
        }
        switch step {
        case .events(let device):
            guard wait(until: group[0].time, frame: true) else { return .yield }
            engine.handle(group, from: device)
        case .screens(let request, let time):
            guard wait(until: time) else { return .yield }
            engine.applyRecordedScreenChange(request)
        case .recordingEnded(let time):
            engine.finishTouches(at: time)
            lastEnd = time
        case .passBegins, .finished:
            logger.info("replay pass finished", metadata: ["pass": "\(feed.pass - (step == .finished ? 0 : 1))", "events": "\(recording.events.count)"])
            guard step != .finished else { return .finished }
            engine.restartDevices()
        }
        pending = nil
        return .yield
    }

    /// True when event time `t` is due; otherwise waits for it (or for a job,
    /// or for shutdown) and returns false, to be asked again. For the start
    /// of a `frame`, records how late it is (due time to now).
    private func wait(until t: Timestamp, frame: Bool = false) -> Bool {
        guard pacing.speed > 0 else { return true }
        let due = start + Int64((Double(t.microseconds - origin) / pacing.speed).rounded(.up))
        var now = LiveClock.now().microseconds
        if now < due {
            let remaining = due - now
            guard remaining < 1000 else {
                var fd = pollfd(fd: engine.thread.wakeup.readDescriptor, events: Int16(POLLIN), revents: 0)
                // A failed wait is a wake-up like any other: the caller asks again.
                if (try? Syscall.poll(&fd, timeoutMilliseconds: Int32(min(remaining / 1000, 1000)))) ?? 0 > 0 {
                    _ = engine.thread.wakeup.drain()
                }
                return false
            }
            // poll(2) counts whole milliseconds: the last one is slept exactly.
            let at = timespec(tv_sec: Int(due / 1_000_000), tv_nsec: Int(due % 1_000_000) * 1000)
            try? Syscall.sleep(until: at)
            if frame { now = LiveClock.now().microseconds }
        }
        if frame { lateness.record(nanoseconds: UInt64(max(0, now - due)) &* 1000) }
        return true
    }

    /// How late frames reached the engine after their due time since the
    /// previous call (or the start), and a fresh start. On the input thread.
    func takeLateness(_ engine: isolated TouchSessionActor) -> DeliveryStatistics.Distribution {
        defer { lateness = DeliveryStatistics.Distribution() }
        return lateness
    }
}
