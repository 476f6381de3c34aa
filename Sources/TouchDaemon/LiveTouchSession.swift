import Evdev
import Gestures
import LiveInput
import TouchCore
import Udev

/// What a ``LiveTouchSession`` produces, in order.
public enum LiveSessionOutput: Sendable {
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
    public var replayOutput: ReplayOutput? {
        switch self {
        case .touch(let t): return .touch(t)
        case .engine(let o): return .engine(o)
        case .deviceAdded, .deviceChanged, .deviceRemoved, .deviceIgnored, .openFailed, .resynced, .woken: return nil
        }
    }
}

/// Live devices through the touch pipeline and the gesture engine: what
/// `touchctl` and the daemon run on real hardware.
///
/// ```swift
/// let session = try LiveTouchSession(configuration: config)
/// try session.start(emit)
/// while !stopping { try session.pumpOnce(emit) }   // another thread: session.wakeup.wake()
/// session.finish(emit)
/// ```
///
/// Devices come from a ``LiveDeviceSource`` deciding with the configuration's
/// device rules and udev properties (``TouchdConfiguration/liveDecision(_:)``).
/// Each read is fed to ``TouchPipeline/process(_:from:)``, resyncs to
/// ``TouchPipeline/resync(device:slots:keysDown:absValues:at:)``, removals to
/// ``TouchPipeline/removeDevice(_:at:)``; every frame goes to the engine.
/// The poll waits until the engine's next deadline (event times and the
/// deadline are `CLOCK_MONOTONIC`), and due deadlines fire after reading
/// what the devices have queued, so the output matches offline replay of
/// the same events (``ReplaySession``).
///
/// One thread owns a session; only ``wakeup`` may be used from other threads.
public final class LiveTouchSession {
    /// Screens, device rules and gestures.
    public let configuration: TouchdConfiguration
    /// The devices.
    public let source: LiveDeviceSource
    /// Events to typed touches.
    public private(set) var pipeline: TouchPipeline
    /// Touches to gestures.
    public private(set) var engine: Engine
    /// Called with everything the source reports, before the session handles it (e.g. to record raw events).
    public var inputObserver: ((LiveInputEvent) -> Void)?

    private var outputs: [EngineOutput] = []
    private var lastTime = Timestamp.zero

    /// Creates a session; no device is opened before ``start(_:)``.
    ///
    /// - Parameters:
    ///   - recordsDebug: produce the engine's debug records.
    ///   - watchesHotplug: follow devices coming and going.
    ///   - accepts: devices to consider at all (e.g. the nodes given on a command line).
    /// - Throws: ``LiveInputError`` when udev cannot be set up.
    public init(configuration: TouchdConfiguration = TouchdConfiguration(), recordsDebug: Bool = false,
                watchesHotplug: Bool = true,
                accepts: @escaping (UdevDeviceInfo) -> Bool = { _ in true }) throws(LiveInputError) {
        self.configuration = configuration
        source = try LiveDeviceSource(watchesHotplug: watchesHotplug, accepts: accepts,
                                      decide: { configuration.liveDecision($0) })
        pipeline = TouchPipeline(screens: configuration.screenConfigurations)
        engine = Engine(configuration: configuration.gestures(for: []))
        engine.recordsDebug = recordsDebug
        outputs.reserveCapacity(64)
    }

    /// Interrupts ``pumpOnce(maximumWaitMilliseconds:_:)`` from any thread or a signal handler.
    public var wakeup: LiveWakeup { source.wakeup }

    /// Opens the devices present now.
    public func start(_ emit: (LiveSessionOutput) -> Void) throws(LiveInputError) {
        handle(try source.start(), emit)
    }

    /// Waits for input until the engine's next deadline (or at most
    /// `maximumWaitMilliseconds`, -1 for no limit), handles what came, then
    /// fires the deadlines that are due.
    public func pumpOnce(maximumWaitMilliseconds: Int32 = -1, _ emit: (LiveSessionOutput) -> Void) throws(LiveInputError) {
        let cap: Int32? = maximumWaitMilliseconds < 0 ? nil : maximumWaitMilliseconds
        let timeout = LiveClock.pollTimeout(until: engine.nextDeadline, cap: cap)
        handle(try source.pumpOnce(timeoutMilliseconds: timeout), emit)
        fireDueDeadlines(emit)
    }

    /// Handles what a source reported (``start(_:)`` and ``pumpOnce(maximumWaitMilliseconds:_:)`` call this).
    public func handle(_ events: [LiveInputEvent], _ emit: (LiveSessionOutput) -> Void) {
        for event in events { handle(event, emit) }
    }

    /// Closes every device (their touches are cancelled) and fires every pending deadline.
    public func finish(_ emit: (LiveSessionOutput) -> Void) {
        handle(source.closeAll(), emit)
        var guardCount = 0
        while let deadline = engine.nextDeadline, guardCount < 10_000 {
            advance(to: deadline, emit)
            guardCount += 1
        }
    }

    private func fireDueDeadlines(_ emit: (LiveSessionOutput) -> Void) {
        guard let first = engine.nextDeadline, first <= LiveClock.now() else { return }
        // Input stamped before the deadline may still sit in a device's queue.
        handle(source.readAll(), emit)
        let now = LiveClock.now()
        var guardCount = 0
        while let deadline = engine.nextDeadline, deadline <= now, guardCount < 10_000 {
            advance(to: deadline, emit)
            guardCount += 1
        }
    }

    private func advance(to time: Timestamp, _ emit: (LiveSessionOutput) -> Void) {
        outputs.removeAll(keepingCapacity: true)
        engine.advance(to: time, into: &outputs)
        for o in outputs { emit(.engine(o)) }
    }

    private func handle(_ event: LiveInputEvent, _ emit: (LiveSessionOutput) -> Void) {
        inputObserver?(event)
        switch event {
        case .deviceAdded(let id, let description, let info):
            let added = pipeline.addDevice(id, description: description, mapping: info.settings.mapping)
            updateScreens(emit)
            emit(.deviceAdded(added, info))
        case .deviceChanged(let id, let info):
            guard let old = pipeline.device(id) else { return }
            var current = old
            if old.mapping != info.settings.mapping {
                if let frame = pipeline.removeDevice(id, at: lastTime) { deliver(frame, emit) }
                current = pipeline.addDevice(id, description: old.description, mapping: info.settings.mapping)
                updateScreens(emit)
            }
            emit(.deviceChanged(current, info))
        case .events(let id, let events):
            for e in events {
                if let frame = pipeline.process(e, from: id) { deliver(frame, emit) }
            }
        case .resynced(let id, let report):
            emit(.resynced(id, report))
            guard let device = pipeline.device(id)?.description else { return }
            let slots = report.slots.map { Self.snapshot($0, device) }
            let time = max(report.droppedAt, lastTime)
            if let frame = pipeline.resync(device: id, slots: slots, keysDown: report.keysDown,
                                           absValues: report.axisValues, at: time) {
                deliver(frame, emit)
            }
        case .deviceRemoved(let id, let time):
            if let frame = pipeline.removeDevice(id, at: max(time, lastTime)) { deliver(frame, emit) }
            updateScreens(emit)
            emit(.deviceRemoved(id, at: time))
        case .deviceIgnored(let node, let reason):
            emit(.deviceIgnored(node: node, reason: reason))
        case .openFailed(let node, let error):
            emit(.openFailed(node: node, error: error))
        case .woken:
            emit(.woken)
        }
    }

    // Screen sizes come from the touchscreens in service (as in offline replay).
    private func updateScreens(_ emit: (LiveSessionOutput) -> Void) {
        for o in engine.setScreens(configuration.gestures(for: pipeline.devices).screens) { emit(.engine(o)) }
    }

    private func deliver(_ frame: TouchFrame, _ emit: (LiveSessionOutput) -> Void) {
        lastTime = max(lastTime, frame.time)
        for t in frame.touches { emit(.touch(t)) }
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        for o in outputs { emit(.engine(o)) }
    }

    // Axes the device does not declare are left out, as the pipeline expects.
    static func snapshot(_ s: SlotState, _ d: DeviceDescription) -> SlotSnapshot {
        func value(_ code: UInt16, _ v: Int32) -> Int32? { d.supports(.abs, code) ? v : nil }
        return SlotSnapshot(
            slot: s.slot, trackingID: s.trackingID, x: s.x, y: s.y,
            pressure: value(EventCode.absMTPressure, s.pressure),
            touchMajor: value(EventCode.absMTTouchMajor, s.touchMajor),
            touchMinor: value(EventCode.absMTTouchMinor, s.touchMinor),
            toolType: value(EventCode.absMTToolType, s.toolType),
            distance: value(EventCode.absMTDistance, s.distance))
    }
}
