import Evdev
import Foundation
import LiveInput
import Logging
import ServiceLifecycle
import Synchronization
import TouchCore
import Trace

extension DaemonEngine {
    /// Fires the deadlines due by `now` (the kernel's clock) and returns the
    /// next one: one call per read of the live devices.
    public func advanceIfDue(now: Timestamp) -> Timestamp? {
        if let d = nextDeadline, d <= now { advance(to: now) }
        return nextDeadline
    }

    /// Brings a device back in step after `SYN_DROPPED` from libevdev's view of
    /// its state: touches that vanished are cancelled, new ones begin.
    public func resync(_ id: DeviceID, report: DeviceResync) {
        // The trace gets libevdev's sync events: replaying them rebuilds the same state.
        if recorder != nil { record { r throws(TraceError) in try r.append(report.syncEvents, from: id) } }
        guard let device = pipeline.device(id)?.description else { return }
        let slots = report.slots.map { LiveTouchSession.snapshot($0, device) }
        if let frame = pipeline.resync(device: id, slots: slots, keysDown: report.keysDown,
                                       absValues: report.axisValues, at: max(report.droppedAt, lastTime)) {
            run(frame)
        }
    }
}

/// The input service of `touchd` without `--replay`: the real touch devices.
///
/// udev and evdev are read on one dedicated thread (`poll(2)` over the udev
/// monitor and every device), which hands each read, in order, to the
/// engine's owner. Engine deadlines (long press, tap windows) are kernel
/// `CLOCK_MONOTONIC` times like the events, so the reader wakes up for them
/// and the engine advances to the current time.
final class LiveInputService: Service, @unchecked Sendable {
    // The source is only touched on the reader thread (and before it starts).
    private let source: LiveDeviceSource
    private let engine: DaemonEngine
    private let logger: Logger
    private let nextDeadline = Mutex<Timestamp?>(nil)
    private let stopping = Atomic<Bool>(false)

    /// Opens udev; devices are enumerated when the service runs.
    init(configuration: TouchdConfiguration, engine: DaemonEngine, logger: Logger) throws(DaemonStartError) {
        do {
            source = try LiveDeviceSource(watchesHotplug: true, decide: { configuration.liveDecision($0) })
        } catch {
            throw DaemonStartError(status: 69, "cannot watch input devices: \(error)")
        }
        self.engine = engine
        self.logger = logger
    }

    /// Enumerates and opens the devices present now (before READY=1).
    func start() async throws(DaemonStartError) {
        let events: [LiveInputEvent]
        do {
            events = try source.start()
        } catch {
            throw DaemonStartError(status: 69, "cannot enumerate input devices: \(error)")
        }
        await apply(events)
        if source.devices.isEmpty {
            logger.notice("no touch device present; waiting for one to be plugged in")
        }
    }

    func run() async throws {
        let (stream, continuation) = AsyncStream.makeStream(of: [LiveInputEvent].self, bufferingPolicy: .unbounded)
        let thread = Thread { [self] in
            while !stopping.load(ordering: .acquiring) {
                let deadline = nextDeadline.withLock { $0 }
                let timeout = LiveClock.pollTimeout(until: deadline, cap: 1000)
                do {
                    let events = try source.pumpOnce(timeoutMilliseconds: timeout)
                    // An empty batch still matters: it is the wake-up for a deadline.
                    continuation.yield(events)
                } catch {
                    logger.error("input devices: \(error)")
                    break
                }
            }
            continuation.yield(source.closeAll())
            continuation.finish()
        }
        thread.name = "touchd-input"
        thread.start()
        await withGracefulShutdownHandler {
            for await batch in stream {
                await apply(batch)
                let next = await engine.advanceIfDue(now: LiveClock.now())
                nextDeadline.withLock { $0 = next }
            }
        } onGracefulShutdown: { [self] in
            stopping.store(true, ordering: .releasing)
            source.wakeup.wake()
        }
    }

    private func apply(_ events: [LiveInputEvent]) async {
        for event in events {
            switch event {
            case .deviceAdded(let id, let description, let info):
                await engine.addDevice(id, description: description, at: LiveClock.now(), syspath: info.syspath,
                                       udevProperties: info.udevProperties, mapping: info.settings.mapping)
                logger.info("opened \(info.node)", metadata: ["device": "\(id.rawValue)", "name": "\(description.name)"])
            case .deviceChanged(let id, let info):
                await engine.changeDevice(id, at: LiveClock.now(), udevProperties: info.udevProperties,
                                          mapping: info.settings.mapping)
                logger.info("udev changed \(info.node)", metadata: ["device": "\(id.rawValue)"])
            case .events(let id, let batch):
                await engine.handle(batch, from: id)
            case .resynced(let id, let report):
                logger.warning("events dropped by the kernel; resynced", metadata: ["device": "\(id.rawValue)"])
                await engine.resync(id, report: report)
            case .deviceRemoved(let id, let time):
                await engine.removeDevice(id, at: time)
            case .deviceIgnored(let node, let reason):
                logger.info("ignoring \(node): \(reason)")
            case .openFailed(let node, let error):
                logger.error("cannot use \(node): \(error)")
            case .woken:
                break
            }
        }
    }
}
