import Logging
import Publisher
import ServiceLifecycle
import TouchCore
import Trace

/// How a trace is replayed as a virtual device.
public struct ReplayPacing: Hashable, Sendable {
    /// Time scale: 1 is real time, 2 twice as fast, 0 as fast as possible.
    public var speed: Double
    /// Replays again and again, each pass shifted in time after the previous one.
    public var loop: Bool
    /// Waits for this many clients holding a subscription before replaying.
    public var waitForSubscribers: Int
    /// Stops the daemon (gracefully) once the replay is over.
    public var exitWhenDone: Bool

    /// Creates pacing settings.
    public init(speed: Double = 1, loop: Bool = false, waitForSubscribers: Int = 0, exitWhenDone: Bool = false) {
        self.speed = speed
        self.loop = loop
        self.waitForSubscribers = waitForSubscribers
        self.exitWhenDone = exitWhenDone
    }
}

/// Time between the end of one replay pass and the start of the next: every
/// deadline of the previous pass (tap windows, long presses) passes first.
let replayPassGapMicroseconds: Int64 = 1_000_000

/// The input service of `touchd --replay`: a recording's events go to the
/// engine's owner at the pace they were recorded (scaled), device by device
/// frame by frame, with the engine's deadlines fired on time in between.
struct ReplayInput: Service {
    let recording: Recording
    let engine: DaemonEngine
    let publisher: Publisher
    let pacing: ReplayPacing
    let logger: Logger

    func run() async throws {
        do {
            try await waitForSubscribers()
            var offset: Int64 = 0
            var pass = 1
            while true {
                let end = try await play(offset: offset)
                logger.info("replay pass finished", metadata: ["pass": "\(pass)", "events": "\(recording.events.count)"])
                guard pacing.loop, let first = recording.events.first?.event.time.microseconds else { break }
                offset = end.microseconds + replayPassGapMicroseconds - first
                pass += 1
            }
        } catch {
            // Cancelled or shutting down gracefully while replaying.
            return
        }
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

    /// One pass over the recording with timestamps shifted by `offset`
    /// microseconds; returns the time the pass ended (after its deadlines).
    func play(offset: Int64) async throws -> Timestamp {
        let clock = ContinuousClock()
        let start = clock.now
        let origin = (recording.events.first?.event.time.microseconds ?? 0) + offset
        func wallTime(_ t: Timestamp) -> ContinuousClock.Instant {
            start + .microseconds(Double(t.microseconds - origin) / pacing.speed)
        }
        func wait(until t: Timestamp) async throws {
            guard pacing.speed > 0 else {
                try Task.checkCancellation()
                if Task.isShuttingDownGracefully { throw CancellationError() }
                return
            }
            let instant = wallTime(t)
            try await cancelWhenGracefulShutdown { try await Task.sleep(until: instant, clock: clock) }
        }
        /// Fires the deadlines that come before `t`, each at its own time.
        func deadlines(before t: Timestamp) async throws {
            while let d = await engine.nextDeadline, d <= t {
                try await wait(until: d)
                await engine.advance(to: d)
            }
        }

        var group: [InputEvent] = []
        group.reserveCapacity(64)
        var groupDevice = DeviceID(0)
        var last = Timestamp(microseconds: origin)
        for e in recording.events {
            var event = e.event
            event.time.microseconds &+= offset
            if !group.isEmpty && e.device != groupDevice {
                await engine.handle(group, from: groupDevice)
                group.removeAll(keepingCapacity: true)
            }
            if group.isEmpty {
                try await deadlines(before: event.time)
                try await wait(until: event.time)
            }
            groupDevice = e.device
            group.append(event)
            last = event.time
            if event.isSynReport {
                await engine.handle(group, from: groupDevice)
                group.removeAll(keepingCapacity: true)
            }
        }
        if !group.isEmpty { await engine.handle(group, from: groupDevice) }
        await engine.finishTouches(at: last)
        // Deadlines after the last event (a double-tap window, a long press still held).
        let passEnd = Timestamp(microseconds: last.microseconds + replayPassGapMicroseconds)
        try await deadlines(before: passEnd)
        return last
    }
}
