// SPDX-License-Identifier: MIT
import Evdev
import SystemCalls
import Gestures
import LiveInput
import Logging
import Publisher
import Session
import Synchronization
import TouchCore
import Trace
import Wire

/// What `hello` says now: written by the engine owner when devices or the
/// configuration change, read by the publisher at each connection.
package final class HelloBoard: Sendable {
    private let snapshot = Mutex(HelloSnapshot(devices: [], screens: []))

    /// Creates an empty board.
    package init() {}

    /// The current snapshot.
    package func read() -> HelloSnapshot { snapshot.withLock { $0 } }

    func write(_ s: HelloSnapshot) { snapshot.withLock { $0 = s } }
}

/// The one owner of the daemon's touch session (``TouchSession``). Input events,
/// surface requests and reloads arrive as calls on this actor, one at a time;
/// what the engine produces is encoded once and handed to the publisher in
/// one batch per device read (one frame, or the frames a late read found queued).
///
/// The actor runs on its own thread (``InputThread``, its executor), where
/// live input is also read: a device read reaches the engine without a
/// thread hop, and the publisher writes each batch to the clients that keep
/// up from this thread (only the others are handed to its event loop).
package actor TouchSessionActor {
    /// The thread the actor runs on.
    nonisolated let thread: InputThread

    /// The input thread.
    package nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    /// Runs `round` isolated to the engine, from the engine's own thread (an
    /// input's round, called by the thread's loop): what `assumeIsolated`
    /// does, with the isolation checked by comparing the thread's identity
    /// (one load) instead of asking the runtime for the current executor,
    /// which on this custom executor looked up conformances and thread-local
    /// state and allocated a closure context on every round
    /// (docs/performance.md, "A round of input: copies of the engine, the runtime's check").
    /// `round` captures nothing (it gets `input`), so passing it allocates nothing.
    nonisolated func onThread<Input: AnyObject>(
        _ input: Input, _ round: @escaping (Input, isolated TouchSessionActor) -> Bool
    ) -> Bool {
        precondition(thread.isCurrent, "TouchSessionActor: an input round off the input thread")
        // Sound because the check above holds: the thread is the actor's executor.
        let plain = unsafeBitCast(round, to: ((Input, TouchSessionActor) -> Bool).self)
        return plain(input, self)
    }

    /// The touch session: pipeline, engine, devices, deadlines.
    var session: TouchSession
    /// How live devices are decided: the configuration in force, replaced by ``reload(_:)``.
    nonisolated let deviceDecider: LiveDeviceDecider
    /// Where the session's outputs go: encoded into one batch per device read.
    var router: DaemonSessionSink
    let board: HelloBoard
    let logger: Logger
    var sink: (@Sendable (EventBatch) -> Void)?
    /// The publisher's deadline for updates it holds for coalescing clients
    /// (event time, seconds), and how to send those due by a time.
    var heldDeadline: (@Sendable () -> Double?)?
    var release: (@Sendable (Double) -> Void)?
    /// Whether the `debug` stream was asked for (`touchd --no-debug` says no).
    let debugAllowed: Bool
    /// What the session's `recordsDebug` was last set to: kept here so that
    /// each round compares a local flag instead of reading the session
    /// (another module's getter on the actor's stored struct copies it).
    private var sessionRecordsDebug: Bool

    /// `--record`: the input, as a native trace (nil when not recording or after a write error).
    var recorder: DaemonRecorder?
    /// The client whose `focus` report is in force, and its logind session (TouchSessionActorFocus.swift).
    var focusReporter: FocusReporter?
    /// The compositor an agent in the seat's active session reported, with its client and session
    /// (TouchSessionActorCompositor.swift): what `passThroughEnding: auto` decides from.
    var compositorReporter: CompositorReporter?

    /// Creates the owner with no device and starts its thread; `recordsDebug`
    /// turns the engine's explanations (the `debug` stream) on.
    ///
    /// - Throws: ``DaemonStartError`` (status 71) when the thread's wake-up
    ///   pipe cannot be created (out of descriptors).
    package init(configuration: TouchdConfiguration, board: HelloBoard, logger: Logger,
                recordsDebug: Bool = true) throws(DaemonStartError) {
        do {
            thread = try InputThread(name: "touchd-engine")
        } catch {
            throw DaemonStartError(status: 71, "cannot start the input thread: \(error)")
        }
        self.board = board
        self.logger = logger
        session = TouchSession(configuration: configuration, recordsDebug: recordsDebug)
        deviceDecider = LiveDeviceDecider(configuration)
        router = DaemonSessionSink(logger: logger)
        let bindings = ShortcutKeyBindings(configuration.gestures)
        if !bindings.isEmpty { router.uinput.keyboard = ShortcutKeyboard(bindings: bindings, logger: logger) }
        if !bindings.clickScreens.isEmpty {
            router.uinput.pointer = ShortcutPointer(bindings: bindings, screens: configuration.helloScreens, logger: logger)
        }
        debugAllowed = recordsDebug
        sessionRecordsDebug = recordsDebug
        board.write(HelloSnapshot(devices: [], screens: configuration.helloScreens, session: session.lockPolicy.status))
    }

    deinit {
        thread.stop()
    }

    /// The configuration in force.
    package var configuration: TouchdConfiguration { session.configuration }
    /// The session's pipeline (for inspection).
    var pipeline: TouchPipeline { session.pipeline }
    /// The session's gesture engine (for inspection).
    var engine: Engine { session.engine }
    /// The time of the last frame or deadline.
    var lastTime: Timestamp { session.lastTime }

    /// Runs `body` on the input thread, isolated to the engine.
    package func perform<T: Sendable>(_ body: @Sendable (isolated TouchSessionActor) throws -> T) rethrows -> T {
        try body(self)
    }

    /// Where events go from now on (the publisher), and which streams are
    /// wanted (by default all): a stream nobody subscribes to is not encoded,
    /// and the engine explains itself only while someone reads `debug`.
    /// Events of a client's own surfaces are always encoded.
    ///
    /// `heldDeadline` and `release` are the publisher's coalescing (its
    /// ``Publisher/heldDeadline`` and ``Publisher/releaseHeld(upTo:)``): the
    /// engine's owner wakes up for that deadline as for its own.
    package func attach(_ sink: @escaping @Sendable (EventBatch) -> Void,
                       wants: @escaping @Sendable (EventStream) -> Bool = { _ in true },
                       heldDeadline: (@Sendable () -> Double?)? = nil,
                       release: (@Sendable (Double) -> Void)? = nil) {
        self.sink = sink
        router.wants = wants
        self.heldDeadline = heldDeadline
        self.release = release
    }

    // MARK: Devices

    /// Adds a device unless the configuration ignores it; announces it with a
    /// `device` event. Returns the reason when it is ignored.
    @discardableResult
    package func addDevice(_ id: DeviceID, description: DeviceDescription, at time: Timestamp,
                          syspath: String? = nil, udevProperties: [String: String] = [:],
                          settings: DeviceSettings? = nil, state: DeviceState? = nil) -> String? {
        let ignored = session.addDevice(id, description: description, at: time, syspath: syspath,
                                        udevProperties: udevProperties, settings: settings, state: state, into: &router)
        if ignored == nil {
            record { r throws(TraceError) in
                try r.addDevice(id, description, udevProperties: udevProperties, state: state, at: time)
            }
        }
        finishDeviceChange()
        return ignored
    }

    /// Applies what the live source reported (``LiveDeviceSource``) through
    /// ``TouchSession/apply(_:now:into:)``, as touchctl's ``LiveTouchSession``
    /// does, and records it when recording. Returns the reason the
    /// configuration ignores an added device, when it does.
    @discardableResult
    package func apply(_ event: LiveInputEvent) -> String? {
        var wasInService = false
        switch event {
        case .events(let id, let events):
            if recorder != nil { record { r throws(TraceError) in try r.append(events, from: id) } }
            prepareRound()
        case .resynced(let id, let report):
            // The trace gets libevdev's sync events: replaying them rebuilds the same state.
            if recorder != nil { record { r throws(TraceError) in try r.append(report.syncEvents, from: id) } }
            prepareRound()
        case .deviceRemoved(let id, _):
            wasInService = session.pipeline.device(id) != nil
            // The cancellations reach a pass-through mirror before `PassThroughController` ends it.
            prepareRound()
        case .deviceAdded, .deviceChanged, .deviceIgnored, .openFailed, .woken:
            break
        }
        var addedAt = Timestamp.zero
        let ignored = session.apply(event, now: { addedAt = LiveClock.now(); return addedAt }, into: &router)
        switch event {
        case .deviceAdded(let id, let description, let info):
            if ignored == nil {
                record { r throws(TraceError) in
                    try r.addDevice(id, description, udevProperties: info.udevProperties, state: info.stateAtOpen, at: addedAt)
                }
            }
            finishDeviceChange()
        case .deviceChanged:
            finishDeviceChange()
        case .deviceRemoved(let id, let time):
            if wasInService { record { r throws(TraceError) in try r.removeDevice(id, at: time) } }
            finishDeviceChange()
        case .events, .resynced:
            flush()
        case .deviceIgnored, .openFailed, .woken:
            break
        }
        return ignored
    }

    /// Adds a device of a recording (`touchd --replay`) as every replay path
    /// adds it (``TouchSession/addRecordedDevice(_:_:at:into:)``): with the
    /// udev properties and the state recorded with it.
    @discardableResult
    package func addRecordedDevice(_ id: DeviceID, _ device: RecordedDevice, at time: Timestamp) -> String? {
        addDevice(id, description: device.description, at: time, udevProperties: device.description.udevProperties,
                  state: device.initialState)
    }

    /// Removes a device: its touches are cancelled, a `device` event says it went away.
    package func removeDevice(_ id: DeviceID, at time: Timestamp) {
        let wasInService = session.pipeline.device(id) != nil
        prepareRound()
        // The cancellations reach a pass-through mirror before `PassThroughController` ends it.
        session.removeDevice(id, at: time, into: &router)
        if wasInService { record { r throws(TraceError) in try r.removeDevice(id, at: time) } }
        finishDeviceChange()
    }

    // MARK: Pass-through (semantics §9): what `PassThroughController` carries out

    /// Creates the pass-through mirror of a device in service; its contacts go
    /// to it once ``routeToMirror(_:)`` is called (after the original is
    /// grabbed). False, logged, when the mirror cannot be created: the device
    /// is then served without pass-through and must not be grabbed.
    /// `ending` says how a contact the app world has ends when touchd takes it.
    /// `node` is the original's node (it names the mirror's phys) and
    /// `udevProperties` its udev properties (the mirror carries those the
    /// compositor reads: docs/pass-through.md, "The mirror's identity").
    /// `adopting` is a mirror a previous touchd left (systemd's file
    /// descriptor store) to take over instead of creating one, with what it
    /// left down on it, ended from `time` on.
    func createMirror(_ id: DeviceID, ending setting: MirrorEndingSetting = .default, node: String? = nil,
                                   udevProperties: [String: String] = [:],
                                   adopting: (fd: Int32, handover: MirrorHandover?)? = nil, at time: Timestamp = .zero) -> Bool {
        guard router.uinput.mirrors[id] == nil else {
            if let adopting { try? Syscall.close(adopting.fd) }
            return true
        }
        guard let info = session.pipeline.device(id) else {
            if let adopting { try? Syscall.close(adopting.fd) }
            return false
        }
        let ending = mirrorEnding(for: setting)
        do {
            let key = node.map { String($0.split(separator: "/").last ?? "") } ?? "device\(id.rawValue)"
            let mirror: PassThroughMirror
            if let adopting {
                mirror = try PassThroughMirror(device: id, original: info.description, key: key, adopting: adopting.fd,
                                               handover: adopting.handover, at: time, setting: setting, ending: ending, logger: logger)
            } else {
                mirror = try PassThroughMirror(device: id, original: info.description, key: key, udevProperties: udevProperties,
                                               setting: setting, ending: ending, logger: logger)
            }
            router.uinput.mirrors[id] = mirror
            let mirrorNode = mirror.uinput.devnode ?? "?"
            let how = adopting == nil ? "created" : "taken over (\(adopting?.handover?.contacts.count ?? 0) contact(s) left down end as \(ending.ending.rawValue))"
            logger.notice("pass-through: mirror \(mirror.uinput.deviceDescription.name) (\(mirrorNode), phys \(mirror.uinput.deviceDescription.phys ?? "?")) \(how) for \(info.description.name) (\(node ?? "device \(id.rawValue)"))", metadata: [
                "device": "\(id.rawValue)", "name": "\(info.description.name)", "mirror": "\(mirrorNode)", "ending": "\(ending.text)",
            ])
            return true
        } catch {
            logger.error("pass-through: cannot create the mirror of \(info.description.name): \(error); serving it without pass-through")
            return false
        }
    }

    /// The device is grabbed: touches that begin from now on go through its mirror.
    func routeToMirror(_ id: DeviceID) {
        guard router.uinput.mirrors[id] != nil else { return }
        session.mirror(id)
        publishHello()
    }

    /// Touches of the device no longer go to its mirror, and every contact on it ends at once.
    func endMirrorContacts(_ id: DeviceID, at time: Timestamp) {
        session.stopMirroring(id)
        router.uinput.mirrors[id]?.endContacts(at: time)
        router.uinput.clickWhereTouchesEnded()
    }

    /// The device's mirror goes away (after ``endMirrorContacts(_:at:)``):
    /// out of service now, destroyed once the compositor could read the ending.
    func destroyMirror(_ id: DeviceID, at time: Timestamp) {
        guard let mirror = router.uinput.removeMirror(of: id) else { return }
        router.uinput.retire(mirror, at: time)
        logger.notice("pass-through: mirror removed", metadata: ["device": "\(id.rawValue)"])
        publishHello()
    }

    /// touchd stops: waits until the compositor could read the endings of the
    /// mirrors just taken out of service (at most
    /// ``PassThroughMirror/destroyDelayMilliseconds``), then destroys them.
    func destroyRetiringMirrors() {
        if let last = router.uinput.lastRetiringDeadline {
            try? Syscall.sleep(milliseconds: Int(LiveClock.pollTimeout(until: last, cap: Int32(PassThroughMirror.destroyDelayMilliseconds))))
        }
        router.uinput.destroyRetiring()
    }

    /// Leaves a device's mirror to the next touchd (it stops, keeping the
    /// mirror in systemd's file descriptor store): nothing more reaches it,
    /// nothing is ended, the device stays. Returns what is down on it; nil
    /// without a mirror.
    func detachPassThrough(_ id: DeviceID) -> MirrorHandover? {
        session.stopMirroring(id)
        guard let mirror = router.uinput.removeMirror(of: id) else { return nil }
        return mirror.detach()
    }

    /// A device's mirror's `/dev/uinput` descriptor and slot count (for the
    /// pass-through guard), nil without a mirror.
    func mirrorDescriptor(_ id: DeviceID) -> (fd: Int32, slots: Int)? {
        guard let m = router.uinput.mirrors[id] else { return nil }
        return (m.uinput.fileDescriptor, max(1, m.uinput.deviceDescription.slotCount))
    }

    /// A device's udev properties or mapping changed: when the mapping did, its
    /// touches are cancelled and it is mapped anew; a `device` event (`changed`)
    /// announces it either way.
    package func changeDevice(_ id: DeviceID, at time: Timestamp, udevProperties: [String: String], settings: DeviceSettings) {
        session.changeDevice(id, udevProperties: udevProperties, settings: settings, at: time, into: &router)
        finishDeviceChange()
    }

    // A device event changes what `hello` says: written before the event goes out.
    private func finishDeviceChange() {
        if router.devicesChanged {
            router.devicesChanged = false
            publishHello()
        }
        flush()
    }

    /// The number of devices in service.
    package var deviceCount: Int { session.pipeline.devices.count }

    // MARK: Input

    /// Feeds events of one device, in order; every completed frame goes
    /// through the engine, and what they produced goes out to the clients
    /// as one batch (a read that found several frames queued, because the
    /// engine's thread was late, costs each client one write, not one per frame).
    package func handle(_ events: [InputEvent], from device: DeviceID) {
        if recorder != nil { record { r throws(TraceError) in try r.append(events, from: device) } }
        prepareRound()
        session.handle(events, from: device, into: &router)
        flush()
    }

    /// Fires the engine's deadlines up to `time` (long presses, tap windows),
    /// and sends the updates held for coalescing clients that are due by then.
    package func advance(to time: Timestamp) {
        prepareRound()
        session.advance(to: time, into: &router)
        router.uinput.advance(to: time)
        flush()
        release?(time.seconds)
    }

    /// The earliest time at which ``advance(to:)`` would do something: the
    /// session's next deadline, a mirror's (a taken contact's ending), or the
    /// publisher's for held updates.
    package var nextDeadline: Timestamp? {
        var own = session.nextDeadline
        if let due = router.uinput.nextDeadline { own = own.map { min($0, due) } ?? due }
        guard let held = heldDeadline?() else { return own }
        // Whole microseconds, rounded up: advancing to it releases them.
        let due = Timestamp(microseconds: Int64((held * 1_000_000).rounded(.up)))
        guard let own else { return due }
        return min(own, due)
    }

    /// Cancels every touch still down (end of a replay pass, shutdown) and
    /// fires the deadlines up to `time`.
    package func finishTouches(at time: Timestamp) {
        prepareRound()
        session.finishTouches(at: time, into: &router)
        flush()
        release?(time.seconds)
    }

    /// Every device starts again from a fresh kernel state (a replay pass begins anew).
    func restartDevices() {
        session.restartDevices()
    }

    // The engine explains itself only while someone reads `debug`.
    func prepareRound() {
        let debug = debugAllowed && router.wants(.debug)
        if sessionRecordsDebug != debug {
            session.recordsDebug = debug
            sessionRecordsDebug = debug
        }
    }

    func flush() {
        guard !router.batch.isEmpty else { return }
        sink?(router.batch)
        router.batch.removeAll()
    }

    // MARK: Recording

    /// Records the input from now on into `path` (`touchd --record`); a file
    /// that cannot be created is logged and the daemon serves without recording.
    package func startRecording(to path: String) {
        do {
            recorder = try DaemonRecorder(path: path)
            logger.info("recording the input", metadata: ["file": "\(path)"])
        } catch {
            logger.error("cannot record: \(error.description); serving without recording")
        }
    }

    /// Ends the recording: the last frame is written and the file closed.
    package func finishRecording() {
        guard var r = recorder else { return }
        recorder = nil
        do {
            try r.finish()
            logger.info("recording finished", metadata: ["file": "\(r.path)", "events": "\(r.eventCount)"])
        } catch {
            logger.error("recording ended badly: \(error.description)")
        }
    }

    /// Whether the input is being recorded.
    package var isRecording: Bool { recorder != nil }

    /// Runs a step of the recorder; an error ends the recording (logged once), never the daemon.
    func record(_ step: (inout DaemonRecorder) throws(TraceError) -> Void) {
        guard var r = recorder else { return }
        recorder = nil
        do {
            try step(&r)
            recorder = r
        } catch {
            r.abandon()
            logger.error("recording stopped: \(error.description); \(r.eventCount) events recorded before; serving goes on")
        }
    }

    // MARK: Hello

    func publishHello() {
        var devices = session.helloDevices
        if !router.uinput.mirrors.isEmpty {
            for i in devices.indices {
                guard let m = router.uinput.mirrors[DeviceID(rawValue: devices[i].id)] else { continue }
                devices[i].passThrough = HelloPassThrough(
                    mirrorNode: m.uinput.devnode ?? "?", mirrorName: m.uinput.deviceDescription.name,
                    ending: m.choice.ending.rawValue, endingReason: m.choice.reason)
            }
        }
        board.write(HelloSnapshot(devices: devices, screens: configuration.helloScreens, session: session.lockPolicy.status))
    }

    // MARK: The seat's session

    /// Takes what logind says of the seat (``LogindFollower``): the session core decides whether
    /// the system is quiet (semantics §13); a change rewrites `hello` and every client gets a
    /// `session` message.
    package func observeLogin(_ report: LoginReport) {
        let before = session.lockPolicy.status
        prepareRound()
        session.observeLogin(report, into: &router)
        let after = session.lockPolicy.status
        guard after != before else { return }
        dropFocusOfInactiveSession()
        dropCompositorOfInactiveSession()
        publishHello()
        flush()
        logger.notice("session \(after.state.rawValue)", metadata: [
            "session": "\(after.session ?? "-")",
            "shortcuts": "\(after.quiet ? "only whenLocked" : "on")",
            "why": "\(after.explanation)",
        ])
    }
}
