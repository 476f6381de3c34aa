// SPDX-License-Identifier: MIT
import LiveInput
import Logging
import PassThroughMachine
import Session
import SystemCalls
import TouchCore

/// Carries out pass-through's decisions (semantics §9; docs/pass-through.md)
/// for the live devices: each device's ``PassThroughStateMachine`` decides,
/// this does what it returns, in order, and reports back the results (a
/// mirror made, a grab granted). It owns everything pass-through holds
/// besides the mirrors themselves (written by ``UinputOutput``): the
/// watchdog and the guard's link, systemd's descriptor store, each device's
/// key in it.
///
/// Lives on the input thread, driven by ``LiveInputService``.
final class PassThroughController {
    private struct Device {
        var machine: PassThroughStateMachine
        /// The original's node (`/dev/input/event5`).
        var node: String
        /// Its key in the store and in the mirror's phys (`event5`).
        var key: String
        var udevProperties: [String: String]
        /// What the device rules say of the grab when pass-through is off.
        var ruleGrab: Bool
        var ending: MirrorEndingSetting
    }

    private let source: LiveDeviceSource
    private let logger: Logger
    /// Grabs and mirrors kept across a restart in systemd's file descriptor store.
    let store: PassThroughStore
    /// Releases the pass-through grabs if the input thread stalls; started with the first one.
    private var watchdog: PassThroughWatchdog?
    private var devices: [DeviceID: Device] = [:]
    /// Set once the watchdog or the guard gave the devices back: every machine, present or to come, is suspended.
    private var suspended = false
    /// A mirror taken from the store for the device being adopted (consumed by ``PassThroughStateMachine/Action/keepMirror(at:)``).
    private var keptMirror: (fd: Int32, handover: MirrorHandover?)?
    /// Whether some device waits for its contacts to lift (one load after each read).
    private(set) var hasWaiting = false

    init(source: LiveDeviceSource, stored: [(fd: Int32, name: String)], logger: Logger) {
        self.source = source
        self.logger = logger
        let store = PassThroughStore(stored: stored, logger: logger)
        self.store = store
        source.adopt = { node in store.takeGrab(node: node) }
    }

    // MARK: Start and stop

    /// Before the devices present are opened: with devices kept across a
    /// restart, the guard must stop waiting to give them back first.
    func prepareStart() {
        guard store.hasKept else { return }
        startWatchdog()
        if let link = watchdog?.guardLink, !link.awaitTakeover() {
            logger.warning("pass-through: the guard did not answer; what systemd kept is taken over as found")
        }
    }

    /// After the devices present at start were opened: what was kept and not taken over is given back.
    func finishStart() {
        store.discardRest()
    }

    /// One round of the input thread: progress for the watchdog, and its
    /// verdict (or the guard's) when it gave the devices back meanwhile.
    @inline(__always)
    func noteRound(on engine: isolated TouchSessionActor) {
        guard let watchdog else { return }
        watchdog.noteProgress()
        guard let releaser = watchdog.takeReleaser() else { return }
        let time = LiveClock.now()
        suspended = true
        for id in devices.keys.sorted() {
            handle(.released(by: releaser), of: id, at: time, on: engine)
        }
        logger.warning("pass-through: off after a stall; the devices are the compositor's until touchd restarts")
    }

    /// touchd stops, before its devices are closed: with systemd keeping
    /// descriptors each pass-through device's grab and mirror stay for the
    /// next touchd (the guard is told to wait for it); otherwise the mirrors'
    /// contacts end and the mirrors go.
    func shutdown(on engine: isolated TouchSessionActor) {
        let keeps = store.available
        let time = LiveClock.now()
        var left = 0
        for id in devices.keys.sorted() {
            let wasActive = devices[id]?.machine.state == .active
            handle(.shutdown(keepsForNextTouchd: keeps), of: id, at: time, on: engine)
            if wasActive && devices[id]?.machine.state == .handedOver { left += 1 }
        }
        if left > 0 { watchdog?.guardLink?.expectRestart() }
        watchdog?.stop()
    }

    // MARK: Devices

    /// A device entered service (after the engine added it).
    func added(_ id: DeviceID, info: LiveDeviceInfo, on engine: isolated TouchSessionActor) {
        let key = PassThroughStore.key(ofNode: info.node)
        devices[id] = Device(machine: PassThroughStateMachine(suspended: suspended), node: info.node, key: key,
                             udevProperties: info.udevProperties, ruleGrab: info.settings.grab, ending: info.settings.passThroughEnding)
        let time = LiveClock.now()
        // A mirror kept across a restart is taken over at once: its grab never lapsed, so the
        // compositor saw no contact begin on the original meanwhile.
        if info.settings.passThrough, !suspended, let kept = store.takeMirror(key: key) {
            keptMirror = kept
            handle(.adopted, of: id, at: time, on: engine)
            if let unused = keptMirror {
                keptMirror = nil
                try? Syscall.close(unused.fd)
            }
            return
        }
        handle(.added(wanted: info.settings.passThrough, contactDown: info.settings.passThrough && source.hasContactDown(id)),
               of: id, at: time, on: engine)
    }

    /// A device's settings were decided again (a udev change, a reload).
    func changed(_ id: DeviceID, info: LiveDeviceInfo, on engine: isolated TouchSessionActor) {
        guard devices[id] != nil else { return }
        devices[id]?.udevProperties = info.udevProperties
        devices[id]?.ruleGrab = info.settings.grab
        devices[id]?.ending = info.settings.passThroughEnding
        engine.changeMirrorEnding(id, to: info.settings.passThroughEnding)
        handle(.changed(wanted: info.settings.passThrough, contactDown: info.settings.passThrough && source.hasContactDown(id)),
               of: id, at: LiveClock.now(), on: engine)
    }

    /// After a read of the device: takes it when it was waiting and no contact of it is down any more.
    func read(_ id: DeviceID, on engine: isolated TouchSessionActor) {
        guard hasWaiting, devices[id]?.machine.isWaitingForLift == true, !source.hasContactDown(id) else { return }
        handle(.contactsLifted, of: id, at: LiveClock.now(), on: engine)
    }

    /// The device went away (after the engine removed it: its cancellations reached the mirror first).
    func removed(_ id: DeviceID, at time: Timestamp, on engine: isolated TouchSessionActor) {
        guard devices[id] != nil else { return }
        handle(.removed, of: id, at: time, on: engine)
        devices[id] = nil
        hasWaiting = devices.values.contains { $0.machine.isWaitingForLift }
    }

    // MARK: Carrying out

    private func handle(_ event: PassThroughStateMachine.Event, of id: DeviceID, at time: Timestamp,
                        on engine: isolated TouchSessionActor) {
        guard var device = devices[id] else { return }
        let before = device.machine.state
        let actions = device.machine.handle(event, at: time)
        devices[id] = device
        if device.machine.state != before {
            logger.debug("pass-through: \(event): \(before.rawValue) -> \(device.machine.state.rawValue)", metadata: ["device": "\(id.rawValue)"])
        }
        for action in actions { carryOut(action, of: id, at: time, on: engine) }
        hasWaiting = devices.values.contains { $0.machine.isWaitingForLift }
    }

    private func carryOut(_ action: PassThroughStateMachine.Action, of id: DeviceID, at time: Timestamp,
                          on engine: isolated TouchSessionActor) {
        guard let device = devices[id] else { return }
        let metadata: Logger.Metadata = ["device": "\(id.rawValue)"]
        switch action {
        case .createMirror:
            let ok = engine.createMirror(id, ending: device.ending, node: device.node, udevProperties: device.udevProperties, at: time)
            handle(.mirrorResult(ok: ok), of: id, at: time, on: engine)
        case .keepMirror(let at):
            let kept = keptMirror
            keptMirror = nil
            let ok = kept.map { engine.createMirror(id, ending: device.ending, node: device.node, udevProperties: device.udevProperties,
                                                    adopting: $0, at: at) } ?? false
            handle(.mirrorResult(ok: ok), of: id, at: time, on: engine)
        case .grab:
            do {
                try source.setGrab(true, of: id)
                handle(.grabResult(ok: true), of: id, at: time, on: engine)
            } catch {
                logger.error("pass-through: cannot grab the device: \(error); serving it without pass-through", metadata: metadata)
                handle(.grabResult(ok: false), of: id, at: time, on: engine)
            }
        case .routeToMirror:
            engine.routeToMirror(id)
        case .watch:
            startWatchdog()
            guard let fd = source.descriptor(of: id) else { return }
            watchdog?.watch(id, descriptor: fd)
            if let mirror = engine.mirrorDescriptor(id) {
                watchdog?.guardLink?.hand(id, grabbed: fd, mirror: mirror.fd, slots: mirror.slots)
            }
        case .unwatch:
            watchdog?.forget(id)
        case .storeDescriptors:
            guard let fd = source.descriptor(of: id), let mirror = engine.mirrorDescriptor(id) else { return }
            store.keep(key: device.key, grabbed: fd, mirror: mirror.fd)
        case .forgetStored:
            store.forget(key: device.key)
        case .endContacts(let at):
            engine.endMirrorContacts(id, at: at)
        case .destroyMirror:
            engine.destroyMirror(id, at: time)
        case .releaseGrab:
            try? source.setGrab(false, of: id)
        case .restoreRuleGrab:
            do {
                try source.setGrab(device.ruleGrab, of: id)
            } catch {
                logger.error("pass-through: cannot release the device: \(error)", metadata: metadata)
            }
        case .leaveForNextTouchd:
            guard let handover = engine.detachPassThrough(id) else { return }
            store.keepHandover(key: device.key, handover)
            watchdog?.leave(id)
            logger.notice("pass-through: the mirror and the grab stay for the next touchd (\(handover.contacts.count) contact(s) down)",
                          metadata: ["device": "\(id.rawValue)", "key": "\(device.key)"])
        case .log(let note):
            switch note {
            case .waitingForLift:
                logger.info("pass-through: waiting for the contacts down to lift before taking the device", metadata: metadata)
            case .on:
                logger.notice("pass-through: on", metadata: metadata)
            case .off:
                logger.notice("pass-through: off", metadata: metadata)
            case .impossible(let event, let state):
                logger.error("pass-through: \(event) cannot come in state \(state.rawValue) (a bug of touchd); nothing done", metadata: metadata)
            }
        }
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
}
