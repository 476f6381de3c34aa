// SPDX-License-Identifier: MIT
import Evdev
import Gestures
import Session
import LiveInput
import TouchCore
import Udev

/// What a ``LiveTouchSession`` produces, in order.
package enum LiveSessionOutput: Sendable {
    /// A device is read from now on: what the pipeline made of it, and what udev and the configuration said.
    case deviceAdded(DeviceInfo, LiveDeviceInfo)
    /// udev changed a device's properties or settings (`info`); when its
    /// mapping changed, its touches were cancelled just before (as `.touch`
    /// outputs) and it is mapped anew.
    case deviceChanged(DeviceInfo, LiveDeviceInfo)
    /// A device went away; its touches were cancelled just before (as `.touch` outputs).
    case deviceRemoved(DeviceID, at: Timestamp)
    /// A touch device left alone, and why.
    case deviceIgnored(node: String, reason: String)
    /// A touch device that could not be opened or read; the error names its node.
    case openFailed(node: String, error: EvdevError)
    /// The kernel dropped events of a device; its touches were reconciled.
    case resynced(DeviceID, DeviceResync)
    /// A typed touch from the pipeline.
    case touch(Touch)
    /// A gesture, a surface's raw touch or a debug record from the engine.
    case engine(EngineOutput)
    /// The source's ``LiveWakeup`` was woken.
    case woken

    /// The output as offline replay would give it (touches and engine outputs), nil for the rest.
    package var replayOutput: ReplayOutput? {
        switch self {
        case .touch(let t): return .touch(t)
        case .engine(let o): return .engine(o)
        case .deviceAdded, .deviceChanged, .deviceRemoved, .deviceIgnored, .openFailed, .resynced, .woken: return nil
        }
    }
}

/// Collects what the session core produces as ``LiveSessionOutput``s.
struct LiveOutputBuffer: SessionSink {
    var outputs: [LiveSessionOutput] = []
    /// Infos of devices announced in this round, by id, with what udev and the configuration said.
    var infos: [DeviceID: LiveDeviceInfo] = [:]

    mutating func frame(_ frame: TouchFrame, outputs engineOutputs: [EngineOutput], engine: borrowing Engine) {
        for t in frame.touches { outputs.append(.touch(t)) }
        for o in engineOutputs { outputs.append(.engine(o)) }
    }

    mutating func engineOutputs(_ engineOutputs: [EngineOutput]) {
        for o in engineOutputs { outputs.append(.engine(o)) }
    }

    mutating func device(_ event: SessionDeviceEvent) {
        switch event {
        case .added(let info, _):
            if let live = infos[info.id] { outputs.append(.deviceAdded(info, live)) }
        case .changed(let info, _):
            if let live = infos[info.id] { outputs.append(.deviceChanged(info, live)) }
        case .removed(let info, let time):
            outputs.append(.deviceRemoved(info.id, at: time))
        case .ignored:
            break
        }
    }
}

/// Live devices through the session core (``TouchSession``): what `touchctl`
/// runs on real hardware (the daemon drives the same core through
/// ``TouchSessionActor``).
///
/// ```swift
/// let session = try LiveTouchSession(configuration: config)
/// try session.start(emit)
/// while !stopping { try session.runRound(emit) }   // another thread: session.wakeup.wake()
/// session.finish(emit)
/// ```
///
/// Devices come from a ``LiveDeviceSource`` deciding with the configuration's
/// device rules and udev properties (``TouchdConfiguration/deviceSettings(for:syspath:udevProperties:node:)``).
/// The poll waits until the core's next deadline (event times and the
/// deadline are `CLOCK_MONOTONIC`); when one is due, what the devices have
/// queued is read first, so the output matches offline replay of the same
/// events (``ReplaySession``).
///
/// One thread owns a session; only ``wakeup`` may be used from other threads.
package final class LiveTouchSession {
    /// Screens, device rules and gestures.
    package let configuration: TouchdConfiguration
    /// The devices.
    package let source: LiveDeviceSource
    /// The session core.
    package private(set) var session: TouchSession
    /// Events to typed touches.
    package var pipeline: TouchPipeline { session.pipeline }
    /// Touches to gestures.
    package var engine: Engine { session.engine }
    /// Called with everything the source reports, before the session handles it (e.g. to record raw events).
    package var inputObserver: ((LiveInputEvent) -> Void)?

    private var buffer = LiveOutputBuffer()
    /// What a round read, reused from round to round.
    private var received: [LiveInputEvent] = []

    /// Creates a session; no device is opened before ``start(_:)``.
    ///
    /// - Parameters:
    ///   - recordsDebug: produce the engine's debug records.
    ///   - watchesHotplug: follow devices coming and going.
    ///   - accepts: devices to consider at all (e.g. the nodes given on a command line).
    /// - Throws: ``LiveInputError`` when udev cannot be set up.
    package init(configuration: TouchdConfiguration = TouchdConfiguration(), recordsDebug: Bool = false,
                watchesHotplug: Bool = true,
                accepts: @escaping (UdevDeviceInfo) -> Bool = { _ in true }) throws(LiveInputError) {
        self.configuration = configuration
        source = try LiveDeviceSource(watchesHotplug: watchesHotplug, accepts: accepts,
                                      decide: { configuration.deviceSettings(for: $0) })
        session = TouchSession(configuration: configuration, recordsDebug: recordsDebug)
    }

    /// Interrupts ``runRound(maximumWaitMilliseconds:_:)`` from any thread or a signal handler.
    package var wakeup: LiveWakeup { source.wakeup }

    /// Opens the devices present now.
    package func start(_ emit: (LiveSessionOutput) -> Void) throws(LiveInputError) {
        handle(try source.start(), emit)
    }

    /// Waits for input until the core's next deadline (or at most
    /// `maximumWaitMilliseconds`, -1 for no limit), handles what came, then
    /// fires the deadlines that are due.
    package func runRound(maximumWaitMilliseconds: Int32 = -1, _ emit: (LiveSessionOutput) -> Void) throws(LiveInputError) {
        try source.runRound(cap: maximumWaitMilliseconds < 0 ? nil : maximumWaitMilliseconds, received: &received,
                            nextDeadline: { session.nextDeadline },
                            deliver: { handle($0, emit) },
                            advance: { now in
                                session.advance(to: now, into: &buffer)
                                flush(emit)
                            })
    }

    /// Handles what a source reported (``start(_:)`` and ``runRound(maximumWaitMilliseconds:_:)`` call this).
    package func handle(_ events: [LiveInputEvent], _ emit: (LiveSessionOutput) -> Void) {
        for event in events { handle(event, emit) }
    }

    /// Closes every device (their touches are cancelled) and fires every pending deadline.
    package func finish(_ emit: (LiveSessionOutput) -> Void) {
        handle(source.closeAll(), emit)
        session.runDownDeadlines(into: &buffer)
        flush(emit)
    }

    private func handle(_ event: LiveInputEvent, _ emit: (LiveSessionOutput) -> Void) {
        inputObserver?(event)
        switch event {
        case .deviceAdded(let id, _, let info), .deviceChanged(let id, let info):
            buffer.infos[id] = info
        case .resynced(let id, let report):
            buffer.outputs.append(.resynced(id, report))
        case .deviceRemoved(let id, _):
            buffer.infos[id] = nil
        case .deviceIgnored(let node, let reason):
            buffer.outputs.append(.deviceIgnored(node: node, reason: reason))
        case .openFailed(let node, let error):
            buffer.outputs.append(.openFailed(node: node, error: error))
        case .woken:
            buffer.outputs.append(.woken)
        case .events:
            break
        }
        session.apply(event, now: LiveClock.now, into: &buffer)
        flush(emit)
    }

    private func flush(_ emit: (LiveSessionOutput) -> Void) {
        for o in buffer.outputs { emit(o) }
        buffer.outputs.removeAll(keepingCapacity: true)
    }
}
