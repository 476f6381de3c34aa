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
final class LiveInputService: Service, InputThreadSource, @unchecked Sendable {
    // The source is only touched on the input thread (and before input is attached).
    private let source: LiveDeviceSource
    private let engine: TouchSessionActor
    private let logger: Logger
    private let stopping = Atomic<Bool>(false)
    /// What a round read, reused from round to round (engine's thread only).
    private var received: [LiveInputEvent] = []
    /// Devices to take for pass-through once no contact of theirs is down (engine's thread only).
    private var passThroughWaiting: Set<DeviceID> = []
    /// Devices grabbed for pass-through (engine's thread only).
    private var passThroughActive: Set<DeviceID> = []
    /// Releases the pass-through grabs if the input thread stalls; started with the first one.
    private var watchdog: PassThroughWatchdog?
    /// Set once the watchdog gave the devices back: pass-through stays off until touchd restarts.
    private var passThroughSuspended = false
    /// Grabs and mirrors kept across a restart in systemd's file descriptor store (engine's thread only).
    private let store: PassThroughStore
    /// Each pass-through device's key in the store (its node's name).
    private var passThroughKeys: [DeviceID: String] = [:]

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
        let store = PassThroughStore(stored: stored, logger: logger)
        self.store = store
        source.adopt = { node in store.takeGrab(node: node) }
    }

    /// Enumerates and opens the devices present now (before READY=1).
    func start() async throws(DaemonStartError) {
        let result: Result<Void, DaemonStartError> = await engine.perform { engine in
            do {
                // Before anything kept is checked: the guard must stop waiting to give it back.
                if self.store.hasKept {
                    self.startWatchdog()
                    if let link = self.watchdog?.guardLink, !link.awaitTakeover() {
                        self.logger.warning("pass-through: the guard did not answer; what systemd kept is taken over as found")
                    }
                }
                let events = try self.source.start()
                self.apply(events, on: engine)
                self.store.discardRest()
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
            if store.available { leaveForNextTouchd(on: engine) }
            apply(source.closeAll(), on: engine)
            watchdog?.stop()
            return false
        }
        if let watchdog {
            watchdog.noteProgress()
            if watchdog.takeReleased() { passThroughGivenBack(on: engine) }
        }
        // The clock is read only when there is a deadline to wait for or to
        // fire: where the clock source has no vDSO path (a guest on the HPET)
        // each read is a system call (docs/performance.md, "Coalescing").
        let deadline = engine.nextDeadline
        let timeout = deadline == nil ? 1000 : LiveClock.pollTimeout(until: deadline, cap: 1000)
        do {
            // An empty batch still matters: it is the wake-up for a deadline.
            // `received` is emptied after use: the next round reuses it and the source's read buffer.
            defer { received.removeAll(keepingCapacity: true) }
            try source.waitAndRead(timeoutMilliseconds: timeout, into: &received)
            apply(received, on: engine)
            if let due = engine.nextDeadline {
                let now = LiveClock.now()
                if due <= now {
                    // Input stamped before now may still sit in a device's queue: it goes first
                    // (the session core's deadline policy, as in `LiveTouchSession`).
                    received.removeAll(keepingCapacity: true)
                    source.readAll(into: &received)
                    apply(received, on: engine)
                    engine.advance(to: now)
                }
            }
            return true
        } catch {
            logger.error("input devices: \(error)")
            apply(source.closeAll(), on: engine)
            return false
        }
    }

    private func apply(_ events: [LiveInputEvent], on engine: isolated TouchSessionActor) {
        for event in events {
            switch event {
            case .deviceAdded(let id, let description, let info):
                engine.addDevice(id, description: description, at: LiveClock.now(), syspath: info.syspath,
                                 udevProperties: info.udevProperties, settings: info.settings,
                                 state: info.stateAtOpen)
                logger.info("opened \(info.node)", metadata: ["device": "\(id.rawValue)", "name": "\(description.name)"])
                if info.settings.passThrough { startPassThrough(id, on: engine) }
            case .deviceChanged(let id, let info):
                engine.changeDevice(id, at: LiveClock.now(), udevProperties: info.udevProperties,
                                    settings: info.settings)
                logger.info("udev changed \(info.node)", metadata: ["device": "\(id.rawValue)"])
                let on = engine.hasPassThrough(id) || passThroughWaiting.contains(id)
                if info.settings.passThrough && !on {
                    startPassThrough(id, on: engine)
                } else if !info.settings.passThrough && on {
                    stopPassThrough(id, grab: info.settings.grab, on: engine)
                }
            case .events(let id, let batch):
                engine.handle(batch, from: id)
                if !passThroughWaiting.isEmpty, passThroughWaiting.contains(id) { startPassThrough(id, on: engine) }
                if source.hasGrabsWaiting { applyWaitingGrab(id) }
            case .resynced(let id, let report):
                logger.warning("events dropped by the kernel; resynced", metadata: ["device": "\(id.rawValue)"])
                engine.resync(id, report: report)
            case .deviceRemoved(let id, let time):
                passThroughWaiting.remove(id)
                passThroughActive.remove(id)
                watchdog?.forget(id)
                if let key = passThroughKeys.removeValue(forKey: id) { store.forget(key: key) }
                engine.removeDevice(id, at: time)
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

    // MARK: Pass-through (semantics §9; docs/pass-through.md)

    /// Takes a device for pass-through once no contact of it is down (a
    /// contact the compositor saw begin must end there too): the mirror is
    /// created, then the original grabbed, then its contacts go to the
    /// mirror. Any failure leaves the device to the compositor as it was.
    private func startPassThrough(_ id: DeviceID, on engine: isolated TouchSessionActor) {
        guard !passThroughSuspended else { return }
        let info = source.devices.first { $0.id == id }?.info
        let key = info.map { PassThroughStore.key(ofNode: $0.node) } ?? "device\(id.rawValue)"
        // A mirror kept across a restart is taken over at once: its grab never lapsed, so the
        // compositor saw no contact begin on the original meanwhile.
        let kept = store.takeMirror(key: key)
        if kept == nil, source.hasContactDown(id) {
            if passThroughWaiting.insert(id).inserted {
                logger.info("pass-through: waiting for the contacts down to lift before taking the device", metadata: ["device": "\(id.rawValue)"])
            }
            return
        }
        passThroughWaiting.remove(id)
        guard engine.preparePassThrough(id, ending: info?.settings.passThroughEnding ?? .default, node: info?.node,
                                        udevProperties: info?.udevProperties ?? [:], adopting: kept, at: LiveClock.now()) else { return }
        do {
            try source.setGrab(true, of: id)
        } catch {
            logger.error("pass-through: cannot grab the device: \(error); serving it without pass-through", metadata: ["device": "\(id.rawValue)"])
            engine.stopPassThrough(id, at: LiveClock.now())
            return
        }
        engine.activatePassThrough(id)
        passThroughActive.insert(id)
        startWatchdog()
        if let fd = source.descriptor(of: id) {
            watchdog?.watch(id, descriptor: fd)
            if let mirror = engine.mirrorDescriptor(id) {
                watchdog?.guardLink?.hand(id, grabbed: fd, mirror: mirror.fd, slots: mirror.slots)
                store.keep(key: key, grabbed: fd, mirror: mirror.fd)
                passThroughKeys[id] = key
            }
        }
        logger.notice("pass-through: on", metadata: ["device": "\(id.rawValue)"])
    }

    /// Starts the watchdog (and connects to the guard) once.
    private func startWatchdog() {
        guard watchdog == nil else { return }
        do {
            watchdog = try PassThroughWatchdog(logger: logger, guardLink: PassThroughGuardLink(logger: logger))
        } catch {
            logger.error("pass-through: cannot start the watchdog: \(error)")
        }
    }

    /// The watchdog released every pass-through grab while this thread was
    /// stalled: the mirrors go away and the devices stay with the compositor.
    private func passThroughGivenBack(on engine: isolated TouchSessionActor) {
        for id in passThroughActive.sorted(by: { $0.rawValue < $1.rawValue }) {
            engine.stopPassThrough(id, at: LiveClock.now())
            try? source.setGrab(false, of: id)
            if let key = passThroughKeys.removeValue(forKey: id) { store.forget(key: key) }
        }
        passThroughActive.removeAll()
        passThroughWaiting.removeAll()
        passThroughSuspended = true
        logger.warning("pass-through: off after a stall; the devices are the compositor's until touchd restarts")
    }

    /// Gives a device back to the compositor: the mirror goes away with its
    /// contacts ended, and the grab is released (unless the device rules ask for one).
    private func stopPassThrough(_ id: DeviceID, grab: Bool, on engine: isolated TouchSessionActor) {
        passThroughWaiting.remove(id)
        passThroughActive.remove(id)
        watchdog?.forget(id)
        engine.stopPassThrough(id, at: LiveClock.now())
        if let key = passThroughKeys.removeValue(forKey: id) { store.forget(key: key) }
        do {
            try source.setGrab(grab, of: id)
        } catch {
            logger.error("pass-through: cannot release the device: \(error)", metadata: ["device": "\(id.rawValue)"])
        }
        logger.notice("pass-through: off", metadata: ["device": "\(id.rawValue)"])
    }

    /// touchd stops with systemd keeping its descriptors: each pass-through
    /// device's grab and mirror stay for the next touchd (nothing ended,
    /// nothing destroyed, nothing released), with what is down on the
    /// mirror; the guard is told to wait for it (bounded) before giving the
    /// devices back.
    private func leaveForNextTouchd(on engine: isolated TouchSessionActor) {
        guard !passThroughActive.isEmpty else { return }
        var left = 0
        for id in passThroughActive.sorted(by: { $0.rawValue < $1.rawValue }) {
            guard let key = passThroughKeys.removeValue(forKey: id), let handover = engine.detachPassThrough(id) else { continue }
            store.keepHandover(key: key, handover)
            watchdog?.leave(id)
            left += 1
            logger.notice("pass-through: the mirror and the grab stay for the next touchd (\(handover.contacts.count) contact(s) down)",
                          metadata: ["device": "\(id.rawValue)", "key": "\(key)"])
        }
        passThroughActive.removeAll()
        passThroughWaiting.removeAll()
        if left > 0 { watchdog?.guardLink?.expectRestart() }
    }
}
