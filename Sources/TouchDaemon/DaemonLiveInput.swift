// SPDX-License-Identifier: MIT
import Evdev
import LiveInput
import Logging
import ServiceLifecycle
import Session
import Synchronization
import TouchCore

/// The input service of `touchd` without `--replay`: the real touch devices.
///
/// udev and evdev are read on the engine's own thread (``InputThread``):
/// `poll(2)` waits over the udev monitor, every device and the thread's
/// wake-up pipe, up to the engine's next deadline; each read goes through the
/// pipeline and the engine right there, and its events leave for the
/// publisher in one hop. Engine deadlines (long press, tap windows) are kernel
/// `CLOCK_MONOTONIC` times like the events, so the wait ends at the deadline
/// and the engine advances to the current time. Jobs for the engine (client
/// requests, reloads) interrupt the wait through the pipe.
///
/// Unchecked: its mutable state (the source, the events of a round, the
/// pass-through controller) is touched on the input thread only, once input
/// is attached; `stopping` is atomic.
final class LiveInputService: Service, InputThreadSource, @unchecked Sendable {
    // The source is only touched on the input thread (and before input is attached).
    private let source: LiveDeviceSource
    private let engine: TouchSessionActor
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    /// What a round read, reused from round to round (engine's thread only).
    private var received: [LiveInputEvent] = []
    /// Pass-through's decisions and what carries them out (engine's thread only).
    private let passThrough: PassThroughController

    /// Opens udev; devices are enumerated when the service starts and decided
    /// by the engine's ``TouchSessionActor/deviceDecider``.
    /// `stored` are the descriptors systemd's file descriptor store passed
    /// (``Systemd/passedDescriptors()``): pass-through devices a previous
    /// touchd left, taken over as their devices are opened.
    init(engine: TouchSessionActor, logger: Logger, stored: [(fd: Int32, name: String)] = []) throws(DaemonStartError) {
        do {
            let decider = engine.deviceDecider
            source = try LiveDeviceSource(watchesHotplug: true, decide: { decider.decide($0) },
                                          wakeup: engine.thread.wakeup)
        } catch {
            throw DaemonStartError(status: 69, "cannot watch input devices: \(error)")
        }
        self.engine = engine
        self.logger = logger
        passThrough = PassThroughController(source: source, stored: stored, logger: logger)
    }

    /// Enumerates and opens the devices present now (before READY=1).
    func start() async throws(DaemonStartError) {
        let result: Result<Void, DaemonStartError> = await engine.perform { engine in
            do {
                // Before anything kept is checked: the guard must stop waiting to give it back.
                self.passThrough.prepareStart()
                let events = try self.source.start()
                self.apply(events, on: engine)
                self.passThrough.finishStart()
                return .success(())
            } catch {
                return .failure(DaemonStartError(status: 69, "cannot enumerate input devices: \(error)"))
            }
        }
        try result.get()
        if source.devices.isEmpty {
            logger.notice("no touch device present; waiting for one to be plugged in")
        }
    }

    func run() async throws {
        let (finished, continuation) = AsyncStream.makeStream(of: Void.self)
        await engine.perform { engine in
            engine.thread.attach(self, finished: { continuation.finish() })
        }
        await withGracefulShutdownHandler {
            for await _ in finished {}
        } onGracefulShutdown: { [self] in
            stopping.store(true, ordering: .releasing)
            source.wakeup.wake()
        }
    }

    /// One round on the input thread: wait up to the next deadline, apply
    /// what came, fire the deadlines due.
    func runRound() -> Bool {
        engine.onThread(self) { input, engine in input.round(engine) }
    }

    private func round(_ engine: isolated TouchSessionActor) -> Bool {
        guard !stopping.load(ordering: .acquiring) else {
            passThrough.shutdown(on: engine)
            apply(source.closeAll(), on: engine)
            engine.destroyRetiringMirrors()
            return false
        }
        passThrough.noteRound(on: engine)
        do {
            try source.runRound(cap: 1000, received: &received,
                                nextDeadline: { engine.nextDeadline },
                                deliver: { apply($0, on: engine) },
                                advance: { engine.advance(to: $0) })
            return true
        } catch {
            logger.error("input devices: \(error)")
            apply(source.closeAll(), on: engine)
            engine.destroyRetiringMirrors()
            return false
        }
    }

    private func apply(_ events: [LiveInputEvent], on engine: isolated TouchSessionActor) {
        for event in events {
            switch event {
            case .deviceAdded(let id, let description, let info):
                engine.apply(event)
                logger.info("opened \(info.node)", metadata: ["device": "\(id.rawValue)", "name": "\(description.name)"])
                passThrough.added(id, info: info, on: engine)
            case .deviceChanged(let id, let info):
                engine.apply(event)
                logger.info("udev changed \(info.node)", metadata: ["device": "\(id.rawValue)"])
                passThrough.changed(id, info: info, on: engine)
            case .events(let id, _):
                engine.apply(event)
                if passThrough.hasWaiting { passThrough.read(id, on: engine) }
                if source.hasGrabsWaiting { applyWaitingGrab(id) }
            case .resynced(let id, _):
                logger.warning("events dropped by the kernel; resynced", metadata: ["device": "\(id.rawValue)"])
                engine.apply(event)
            case .deviceRemoved(let id, let time):
                engine.apply(event)
                passThrough.removed(id, at: time, on: engine)
            case .deviceIgnored(let node, let reason):
                logger.info("ignoring \(node): \(reason)")
            case .openFailed(let node, let error):
                logger.error("cannot use \(node): \(error)")
            case .woken:
                break
            }
        }
    }

    // MARK: Reload

    /// After a reload (the engine's ``TouchSessionActor/deviceDecider`` replaced):
    /// every touch device udev knows is decided again, with the same inputs a
    /// hot-plug would see. A device the rules now ignore is closed; one they no
    /// longer ignore is opened; changed settings (screen, rotation, size,
    /// `grab`, `passThrough`) arrive as `changed`. Grabs change once no
    /// contact of the device is down (as pass-through is taken).
    func decideAgain(on engine: isolated TouchSessionActor) {
        do {
            apply(try source.decideAgain(), on: engine)
        } catch {
            logger.error("reload: cannot enumerate input devices: \(error); devices keep their settings")
        }
    }

    private func applyWaitingGrab(_ id: DeviceID) {
        guard !source.hasContactDown(id) else { return }
        do {
            if let grab = try source.applyWaitingGrab(of: id) {
                logger.info(grab ? "grabbed the device (configuration)" : "released the device (configuration)", metadata: ["device": "\(id.rawValue)"])
            }
        } catch {
            logger.error("cannot change the device's grab: \(error)", metadata: ["device": "\(id.rawValue)"])
        }
    }
}
