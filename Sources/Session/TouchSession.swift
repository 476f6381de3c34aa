// SPDX-License-Identifier: MIT
import Gestures
import JSON
import TouchCore
import Trace
import Wire

/// Receives what a ``TouchSession`` produces, in order, while it is produced.
///
/// The frame and the outputs handed to a sink are the session's own buffers,
/// reused for the next frame: a sink reads them during the call and keeps
/// copies only of what it needs (holding on to them makes the next frame
/// copy the buffers).
package protocol SessionSink {
    /// A frame of typed touches (the pipeline's output), then what the
    /// engine made of it. `engine` is the engine after the frame, for
    /// queries such as ``Engine/surface(ofContact:)``.
    mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine)
    /// What the engine produced without a frame: deadlines that fired,
    /// screens, surfaces or the configuration that changed.
    mutating func engineOutputs(_ outputs: [EngineOutput])
    /// A device entered service, changed, left, or was left alone.
    mutating func device(_ event: SessionDeviceEvent)
    /// The screen geometry changed (a `screens` request or a reload): the
    /// screens now in force, in order (semantics §11.3).
    mutating func screensChanged(_ screens: [ScreenEntry], at time: Timestamp)
    /// The seat's session changed (semantics §13): locked, unlocked, another session.
    mutating func sessionChanged(_ status: LoginSessionStatus, at time: Timestamp)
    /// What drag sessions tell clients (semantics §12), after the engine
    /// outputs that caused it; the array is the session's buffer, reused.
    mutating func dragSessionEvents(_ events: [DragSessionEvent])
    /// The drag sessions' decisions (semantics §8 for §12: who was asked,
    /// what answered, targets entered and left, proposals, the end), never
    /// the items' data; the array is the session's buffer, reused.
    mutating func dragSessionRecords(_ records: [DragSessionRecord])
}

extension SessionSink {
    /// By default a sink has no use for the screens.
    package mutating func screensChanged(_ screens: [ScreenEntry], at time: Timestamp) {}
    /// By default a sink has no use for the session's state.
    package mutating func sessionChanged(_ status: LoginSessionStatus, at time: Timestamp) {}
    /// By default a sink has no client to tell of drag sessions.
    package mutating func dragSessionEvents(_ events: [DragSessionEvent]) {}
    /// By default a sink has no use for the drag sessions' decisions.
    package mutating func dragSessionRecords(_ records: [DragSessionRecord]) {}
}

/// A device's arrival, change or departure, as a ``TouchSession`` reports it.
package enum SessionDeviceEvent: Sendable {
    /// In service from now on: what the pipeline made of it.
    case added(DeviceInfo, at: Timestamp)
    /// Its mapping or udev properties changed; when the mapping did, its
    /// touches were cancelled just before (in a frame) and it is mapped anew.
    case changed(DeviceInfo, at: Timestamp)
    /// Gone; its touches were cancelled just before (in a frame).
    case removed(DeviceInfo, at: Timestamp)
    /// Left alone (the configuration ignores it), and why.
    case ignored(DeviceID, DeviceDescription, reason: String)
}

/// The one touch session every path runs: device events in, typed touches
/// and what the gesture engine made of them out, with devices coming and
/// going, screens and configuration changing, and deadlines firing.
///
/// Pure: no I/O, no clock. Time comes in with the input (event timestamps,
/// the times given to ``advance(to:into:)``), and ``nextDeadline`` says when
/// the session next wants time to pass. Offline replay (``ReplaySession``),
/// paced replay and the live paths (touchctl's live session, the daemon) are
/// drivers that feed it and carry out what it produces (docs/daemon.md,
/// "One session core").
///
/// Deadline policy: a driver calls ``advance(to:into:)`` with a time only
/// after handing in every input stamped up to that time (a live driver reads
/// what its devices have queued first). The engine fires each deadline up to
/// the time at its own time, so live and offline runs of the same events give
/// the same output.
package struct TouchSession: Sendable {
    /// Gap between the end of one replayed recording (or replay pass) and the
    /// start of the next: every deadline of the previous one (tap windows,
    /// long presses) passes first.
    package static let replayGapMicroseconds: Int64 = 1_000_000

    /// The configuration in force (screens, device rules, gestures): the
    /// file's with the screen geometry set at runtime laid over it.
    package private(set) var configuration: TouchdConfiguration
    /// The configuration as its file gives it (the last one loaded).
    package private(set) var fileConfiguration: TouchdConfiguration
    /// The screen geometry set at runtime (``changeScreens(_:into:)``).
    package private(set) var screenOverrides = ScreenOverrides()
    /// Events to typed touches.
    package private(set) var pipeline: TouchPipeline
    /// Touches to gestures.
    package private(set) var engine: Engine
    /// Whether the system is quiet for a locked session (semantics §13), from logind's reports.
    package private(set) var lockPolicy = SessionLockPolicy()
    /// Surfaces registered at runtime (by clients), after the configuration's.
    package private(set) var addedSurfaces: [SurfaceConfiguration] = []
    /// The time of the last frame or deadline: cancellations that have no
    /// time of their own (a remap, a reload) are stamped with it, and none is
    /// stamped earlier.
    package private(set) var lastTime = Timestamp.zero

    /// Devices the session was told about, in service or ignored, so that a
    /// new configuration can decide again about each.
    struct KnownDevice: Sendable {
        var id: DeviceID
        var description: DeviceDescription
        var syspath: String?
        var udevProperties: [String: String]
        /// The settings the caller decided (a live device, decided by the live
        /// input when it opened it, with the same decider); nil when the
        /// session decides from the configuration. A reload keeps them: the
        /// caller decides such a device again and reports changes (``changeDevice(_:udevProperties:settings:at:into:)``).
        var settings: DeviceSettings?
        /// Its state when it was added (``DeviceState``): where a replay pass starts it again.
        var state: DeviceState?
    }
    var known: [KnownDevice] = []

    /// Drag sessions across clients (semantics §12), following the engine.
    package private(set) var dragSessions = DragSessions()

    /// Configuration file surfaces that play a part in drag sessions: the
    /// session answers for them (they have no client).
    var configuredDrags: [SurfaceID: (owner: String, drag: SurfaceDragConfiguration)] = [:]

    // Reused for every frame.
    var outputs: [EngineOutput] = []
    var dragEvents: [DragSessionEvent] = []

    /// Creates a session with no device; `recordsDebug` turns the engine's
    /// explanations (``DebugRecord``s) on.
    package init(configuration: TouchdConfiguration = TouchdConfiguration(), recordsDebug: Bool = true) {
        self.configuration = configuration
        fileConfiguration = configuration
        pipeline = TouchPipeline(screens: configuration.screenConfigurations)
        engine = Engine(configuration: configuration.gestures(for: []))
        engine.recordsDebug = recordsDebug
        outputs.reserveCapacity(64)
        applyConfiguredDrags()
    }

    /// The configuration file's surfaces' parts in drag sessions, in force.
    mutating func applyConfiguredDrags() {
        for id in configuredDrags.keys {
            dragSessions.setRoles(DragRoles(), of: id, owner: configuredDrags[id]!.owner)
            engine.setCompact(false, surface: id)
        }
        configuredDrags = [:]
        for surface in configuration.gestures.surfaces {
            guard let d = surface.drag else { continue }
            configuredDrags[surface.id] = (surface.owner, d)
            setDragRoles(d.roles, of: surface.id, owner: surface.owner)
        }
    }

    /// Whether the engine produces ``DebugRecord``s (they cost allocations).
    package var recordsDebug: Bool {
        get { engine.recordsDebug }
        set { engine.recordsDebug = newValue }
    }

    /// The earliest time at which ``advance(to:into:)`` would do something.
    package var nextDeadline: Timestamp? {
        guard let d = dragSessions.nextDeadline else { return engine.nextDeadline }
        guard let e = engine.nextDeadline else { return d }
        return min(d, e)
    }

    /// The devices in service.
    package var devices: [DeviceInfo] { pipeline.devices }

    // MARK: Devices

    /// Adds a device, deciding its settings with the configuration
    /// (``TouchdConfiguration/deviceSettings(for:syspath:udevProperties:node:)``)
    /// unless the caller decided already with the same decider (`settings`: a
    /// live device, decided when it was opened). Returns why it is ignored, if it is.
    ///
    /// `state` is the device's kernel state when it was opened (a live
    /// device) or when its trace began: the pipeline starts from it, not from
    /// zeros, and a contact already down then is ignored until it lifts
    /// (semantics §9, "the first touch is where the finger is").
    @discardableResult
    package mutating func addDevice<Sink: SessionSink>(
        _ id: DeviceID, description: DeviceDescription, at time: Timestamp,
        syspath: String? = nil, udevProperties: [String: String] = [:], settings: DeviceSettings? = nil,
        state: DeviceState? = nil, into sink: inout Sink
    ) -> String? {
        known.removeAll { $0.id == id }
        known.append(KnownDevice(id: id, description: description, syspath: syspath, udevProperties: udevProperties,
                                 settings: settings, state: state))
        let decision = settings.map { DeviceSettingsDecision.use($0) }
            ?? fileConfiguration.deviceSettings(for: description, syspath: syspath, udevProperties: udevProperties)
        guard var mapping = decision.settings?.mapping else {
            let reason = decision.ignoredBecause ?? "ignored"
            sink.device(.ignored(id, description, reason: reason))
            return reason
        }
        mapping.screen = screenIndex(fileScreen: mapping.screen, of: id, name: description.name)
        let info = pipeline.addDevice(id, description: description, mapping: mapping, state: state)
        updateScreens(into: &sink)
        sink.device(.added(info, at: time))
        return nil
    }

    /// Adds a device of a recording as every replay path adds it: with the
    /// udev properties and the state recorded with it, at the time the
    /// recordings start (``ReplayFeed/startTime``). Returns why it is
    /// ignored, if it is.
    @discardableResult
    package mutating func addRecordedDevice<Sink: SessionSink>(
        _ id: DeviceID, _ device: RecordedDevice, at time: Timestamp, into sink: inout Sink
    ) -> String? {
        addDevice(id, description: device.description, at: time, udevProperties: device.description.udevProperties,
                  state: device.initialState, into: &sink)
    }

    /// A device's udev properties or settings changed: when its mapping did,
    /// its touches are cancelled and it is mapped anew.
    package mutating func changeDevice<Sink: SessionSink>(
        _ id: DeviceID, udevProperties: [String: String], settings: DeviceSettings, at time: Timestamp,
        into sink: inout Sink
    ) {
        guard let old = pipeline.device(id) else { return }
        if let k = known.firstIndex(where: { $0.id == id }) {
            known[k].udevProperties = udevProperties
            known[k].settings = settings
        }
        var mapping = settings.mapping
        mapping.screen = screenIndex(fileScreen: mapping.screen, of: id, name: old.description.name)
        var info = old
        if old.mapping != mapping {
            // The kernel's state goes on: a contact that begins next may repeat no axis.
            let state = pipeline.deviceState(id)
            if let frame = pipeline.removeDevice(id, at: max(time, lastTime)) { run(frame, into: &sink) }
            info = pipeline.addDevice(id, description: old.description, mapping: mapping, state: state)
            updateScreens(into: &sink)
        }
        sink.device(.changed(info, at: time))
    }

    /// Removes a device: its touches are cancelled.
    package mutating func removeDevice<Sink: SessionSink>(_ id: DeviceID, at time: Timestamp, into sink: inout Sink) {
        known.removeAll { $0.id == id }
        guard let info = pipeline.device(id) else { return }
        if let frame = pipeline.removeDevice(id, at: max(time, lastTime)) { run(frame, into: &sink) }
        updateScreens(into: &sink)
        sink.device(.removed(info, at: time))
    }

    /// Sends `id`'s contacts to a pass-through mirror from now on (touches
    /// that begin afterwards): the outputs then carry ``EngineOutput/mirror(_:)``
    /// events, what the app world may see of each contact (semantics §9).
    package mutating func mirror(_ id: DeviceID) {
        engine.mirroredDevices.insert(id)
    }

    /// Stops mirroring `id` (touches that begin afterwards).
    package mutating func stopMirroring(_ id: DeviceID) {
        engine.mirroredDevices.remove(id)
    }

    /// Every device starts again from the state it was added with, as when it
    /// was plugged in or opened (a replay pass begins anew): what its events
    /// changed is forgotten. Call ``finishTouches(at:into:)`` first; devices
    /// stay in service and nothing is announced.
    package mutating func restartDevices() {
        for info in pipeline.devices {
            let state = known.first { $0.id == info.id }?.state
            pipeline.addDevice(info.id, description: info.description, mapping: info.mapping, state: state)
        }
    }

    /// Screen sizes follow the touchscreens in service (a screen without a
    /// configured size takes its touchscreen's).
    mutating func updateScreens<Sink: SessionSink>(into sink: inout Sink) {
        let changed = engine.setScreens(configuration.gestures(for: pipeline.devices).screens)
        if !changed.isEmpty { deliver(changed, into: &sink) }
    }

    // MARK: Input

    /// Feeds events of one device, in order; every frame they complete goes
    /// through the engine.
    package mutating func handle<Sink: SessionSink>(_ events: [InputEvent], from device: DeviceID, into sink: inout Sink) {
        var next = 0
        while next < events.count {
            let (frame, after) = pipeline.process(events, startingAt: next, from: device)
            next = after
            if let frame { run(frame, into: &sink) }
        }
    }

    /// Brings a device back in step after the kernel dropped events
    /// (`SYN_DROPPED`), from the device's state as re-read: touches whose
    /// contact vanished are cancelled, new ones begin.
    package mutating func resync<Sink: SessionSink>(
        _ id: DeviceID, slots: [SlotSnapshot], keysDown: [UInt16], axisValues: [UInt16: Int32],
        droppedAt time: Timestamp, into sink: inout Sink
    ) {
        if let frame = pipeline.resync(device: id, slots: slots, keysDown: keysDown, absValues: axisValues,
                                       at: max(time, lastTime)) {
            run(frame, into: &sink)
        }
    }

    /// Fires the deadlines up to `time` (long presses, tap windows), each at its own time.
    package mutating func advance<Sink: SessionSink>(to time: Timestamp, into sink: inout Sink) {
        lastTime = max(lastTime, time)
        outputs.removeAll(keepingCapacity: true)
        engine.advance(to: time, into: &outputs)
        if !outputs.isEmpty {
            Self.observeDrags(&dragSessions, &outputs, engine: engine, events: &dragEvents)
            if !outputs.isEmpty { sink.engineOutputs(outputs) }
            emitDrags(into: &sink)
        }
        if let d = dragSessions.nextDeadline, d <= time {
            dragEvents.removeAll(keepingCapacity: true)
            dragSessions.advance(to: time, into: &dragEvents)
            emitDrags(into: &sink)
        }
    }

    /// Cancels every touch still down (end of a recording, shutdown) and
    /// fires the deadlines up to `time`.
    package mutating func finishTouches<Sink: SessionSink>(at time: Timestamp, into sink: inout Sink) {
        for frame in pipeline.finish(at: max(time, lastTime)) { run(frame, into: &sink) }
        advance(to: time, into: &sink)
    }

    /// Fires every pending deadline, each at its own time (the end of the
    /// input: a long press still held, a double-tap window). Deadlines that
    /// keep renewing themselves stop after 10 000.
    package mutating func runDownDeadlines<Sink: SessionSink>(into sink: inout Sink) {
        fireDeadlines(upTo: nil, into: &sink)
    }

    /// Fires each deadline due up to `limit` (every one when nil) at its own
    /// time, in order. Bounded, so that a deadline that keeps coming back
    /// cannot hold a driver.
    package mutating func fireDeadlines<Sink: SessionSink>(upTo limit: Timestamp?, into sink: inout Sink) {
        var fired = 0
        while let deadline = nextDeadline, limit.map({ deadline <= $0 }) ?? true, fired < 10_000 {
            advance(to: deadline, into: &sink)
            fired += 1
        }
    }

    /// One frame through the engine.
    mutating func run<Sink: SessionSink>(_ frame: TouchFrame, into sink: inout Sink) {
        // A drag session's expired requests first, as the engine fires its deadlines before a frame.
        if let d = dragSessions.nextDeadline, d <= frame.time {
            dragEvents.removeAll(keepingCapacity: true)
            dragSessions.advance(to: frame.time, into: &dragEvents)
            emitDrags(into: &sink)
        }
        lastTime = max(lastTime, frame.time)
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        Self.observeDrags(&dragSessions, &outputs, engine: engine, events: &dragEvents)
        sink.frame(frame, outputs: outputs, engine: engine)
        emitDrags(into: &sink)
    }

    /// Engine outputs without a frame, to the sink and the drag sessions.
    mutating func deliver<Sink: SessionSink>(_ out: [EngineOutput], into sink: inout Sink) {
        var out = out
        Self.observeDrags(&dragSessions, &out, engine: engine, events: &dragEvents)
        if !out.isEmpty { sink.engineOutputs(out) }
        emitDrags(into: &sink)
    }

    /// The drag sessions follow what the engine produced, before the sink
    /// sees it (nothing to do while no surface plays a part in one): a tap
    /// held for an adding client's answer leaves the outputs (semantics §12.5).
    static func observeDrags(
        _ drags: inout DragSessions, _ out: inout [EngineOutput], engine: borrowing Engine, events: inout [DragSessionEvent]
    ) {
        events.removeAll(keepingCapacity: true)
        guard !drags.isIdle else { return }
        drags.observe(out, engine: engine, into: &events)
        for n in drags.heldOutputs.reversed() { out.remove(at: n) }
    }

    /// What the drag sessions produced, after the engine outputs that caused
    /// it: held taps that go on as taps, then the sessions' events.
    mutating func emitDrags<Sink: SessionSink>(into sink: inout Sink) {
        if !configuredDrags.isEmpty { answerForConfiguredSurfaces() }
        if !dragSessions.records.isEmpty {
            sink.dragSessionRecords(dragSessions.records)
            dragSessions.clearRecords()
        }
        if !dragSessions.releasedTaps.isEmpty {
            sink.engineOutputs(dragSessions.releasedTaps.map { .gesture($0) })
            dragSessions.clearReleasedTaps()
        }
        if !dragEvents.isEmpty { sink.dragSessionEvents(dragEvents) }
    }

    /// The session answers for the configuration file's surfaces at once:
    /// their items when asked, their proposal when entered (what follows from
    /// an answer joins the events being emitted).
    mutating func answerForConfiguredSurfaces() {
        var n = 0
        while n < dragEvents.count {
            let e = dragEvents[n]
            n += 1
            guard let surface = e.surface, let configured = configuredDrags[surface], configured.owner == e.owner else { continue }
            switch e.kind {
            case .itemsRequested(let r), .addRequested(let r):
                try? dragSessions.offerItems(configured.drag.items, request: r, from: e.owner, at: e.time, engine: engine, into: &dragEvents)
            case .entered:
                try? dragSessions.propose(configured.drag.proposal, session: e.session, from: e.owner, at: e.time)
            case .moved, .exited, .perform, .ended:
                break
            }
        }
    }

    // MARK: Drag sessions

    /// Sets what a surface does in drag sessions (semantics §12).
    package mutating func setDragRoles(_ roles: DragRoles, of surface: SurfaceID, owner: String) {
        dragSessions.setRoles(roles, of: surface, owner: owner)
        engine.setCompact(roles.compact, surface: surface)
    }

    /// A client answers a drag session's request with items (``DragSessions/offerItems(_:request:from:at:engine:into:)``),
    /// at the time of the last frame or deadline.
    package mutating func offerDragItems<Sink: SessionSink>(
        _ items: [DragItem], request: Int, from owner: String, into sink: inout Sink
    ) throws(DragRequestError) {
        dragEvents.removeAll(keepingCapacity: true)
        try dragSessions.offerItems(items, request: request, from: owner, at: lastTime, engine: engine, into: &dragEvents)
        emitDrags(into: &sink)
    }

    /// The target under a session's touch proposes an operation (``DragSessions/propose(_:session:from:)``).
    package mutating func proposeDrop(_ operation: DropOperation, session: Int, from owner: String) throws(DragRequestError) {
        try dragSessions.propose(operation, session: session, from: owner, at: lastTime)
    }

    /// The same, and the decision goes to `sink` at once (an observer sees the
    /// proposal without waiting for the touch to move).
    package mutating func proposeDrop<Sink: SessionSink>(
        _ operation: DropOperation, session: Int, from owner: String, into sink: inout Sink
    ) throws(DragRequestError) {
        try dragSessions.propose(operation, session: session, from: owner, at: lastTime)
        dragEvents.removeAll(keepingCapacity: true)
        emitDrags(into: &sink)
    }

    // MARK: Surfaces and configuration

    /// Adds or replaces a surface registered at runtime; recognizers declared
    /// the same keep their state, others are cancelled.
    ///
    /// - Throws: the configuration error when the engine's configuration with
    ///   the surface would not be valid (nothing changes then).
    package mutating func upsertSurface<Sink: SessionSink>(_ surface: SurfaceConfiguration, into sink: inout Sink)
        throws(GestureConfigurationError) {
        var candidate = engine.configuration
        if let i = candidate.surfaces.firstIndex(where: { $0.id == surface.id }) {
            candidate.surfaces[i] = surface
        } else {
            candidate.surfaces.append(surface)
        }
        try candidate.validate()
        if let i = addedSurfaces.firstIndex(where: { $0.id == surface.id }) {
            addedSurfaces[i] = surface
        } else {
            addedSurfaces.append(surface)
        }
        let out = engine.upsertSurface(surface)
        if !out.isEmpty { deliver(out, into: &sink) }
    }

    /// Removes a surface registered at runtime; its active recognizers are cancelled.
    package mutating func removeSurface<Sink: SessionSink>(_ id: SurfaceID, into sink: inout Sink) {
        addedSurfaces.removeAll { $0.id == id }
        let out = engine.removeSurface(id)
        if !out.isEmpty { deliver(out, into: &sink) }
        dragSessions.surfaceRemoved(id)
        engine.setCompact(false, surface: id)
    }

    /// Removes every surface registered at runtime by `owner` (a client that
    /// went away); their active recognizers are cancelled.
    package mutating func removeSurfaces<Sink: SessionSink>(owner: String, into sink: inout Sink) {
        // Its sessions end as `source-gone` before its surfaces' recognizers are cancelled.
        dragEvents.removeAll(keepingCapacity: true)
        dragSessions.ownerGone(owner, at: lastTime, into: &dragEvents)
        emitDrags(into: &sink)
        guard addedSurfaces.contains(where: { $0.owner == owner }) else { return }
        let gone = addedSurfaces.filter { $0.owner == owner }
        addedSurfaces.removeAll { $0.owner == owner }
        let out = engine.setSurfaces(configuration.gestures.surfaces + addedSurfaces)
        if !out.isEmpty { deliver(out, into: &sink) }
        for g in gone {
            dragSessions.surfaceRemoved(g.id)
            engine.setCompact(false, surface: g.id)
        }
    }

    /// Applies a new configuration: screens, device rules and gestures;
    /// surfaces registered at runtime are kept. When device rules or quirks
    /// changed, touches down are cancelled and every known device is decided
    /// and mapped again; a change of screens alone is a geometry change
    /// (touches down finish in theirs, semantics §11.5). Screen values set at
    /// runtime stay unless the new file changed them (``ScreenOverrides``).
    ///
    /// - Throws: ``ConfigurationError`` when the new gestures do not fit the
    ///   surfaces registered at runtime (nothing changes then).
    package mutating func reload<Sink: SessionSink>(_ new: TouchdConfiguration, into sink: inout Sink) throws(ConfigurationError) {
        // The latest change of each value wins (ScreenOverrides): what the new file changed drops out of the overrides.
        var overrides = screenOverrides
        let oldFile = fileConfiguration
        let deviceScreens = known.map { d in
            let before = d.settings?.mapping.screen
                ?? oldFile.deviceSettings(for: d.description, syspath: d.syspath, udevProperties: d.udevProperties).settings?.mapping.screen ?? 0
            let after = d.settings?.mapping.screen
                ?? new.deviceSettings(for: d.description, syspath: d.syspath, udevProperties: d.udevProperties).settings?.mapping.screen ?? 0
            return (id: d.id, name: d.description.name,
                    old: oldFile.screens.indices.contains(before) ? oldFile.screens[before].name : nil,
                    new: new.screens.indices.contains(after) ? new.screens[after].name : nil)
        }
        overrides.reload(from: oldFile.screens, to: new.screens, deviceScreens: deviceScreens)
        let effective = new.overlaid(with: overrides)
        var gestures = effective.gestures(for: pipeline.devices)
        gestures.surfaces += addedSurfaces
        do {
            try gestures.validate()
        } catch {
            throw ConfigurationError(file: "", "does not fit the clients' surfaces: \(error.description)")
        }
        // Device rules or quirks decide again (a device may now be ignored): touches down are cancelled.
        // A change of screens alone is a geometry change: touches down finish in theirs (semantics §11.2).
        let remap = new.devices != oldFile.devices || new.quirks != oldFile.quirks
        let screensBefore = configuration.screens
        if remap {
            for frame in pipeline.finish(at: lastTime) { run(frame, into: &sink) }
        }
        fileConfiguration = new
        screenOverrides = overrides
        if remap {
            configuration = effective
            let out = engine.setConfiguration(gestures)
            if !out.isEmpty { deliver(out, into: &sink) }
            // The kernel's state goes on across the reload (the touches down were cancelled above).
            var states: [DeviceID: DeviceState] = [:]
            for d in known { states[d.id] = pipeline.deviceState(d.id) ?? d.state }
            pipeline.reset(screens: effective.screenConfigurations)
            for d in known {
                // A device the caller decided keeps its mapping (udev's settings
                // included) until the caller decides it again with the new file.
                let decided = d.settings
                    ?? new.deviceSettings(for: d.description, syspath: d.syspath, udevProperties: d.udevProperties).settings
                guard var mapping = decided?.mapping else { continue }
                mapping.screen = screenIndex(fileScreen: mapping.screen, of: d.id, name: d.description.name)
                pipeline.addDevice(d.id, description: d.description, mapping: mapping, state: states[d.id])
            }
            updateScreens(into: &sink)
        } else {
            applyGeometry(effective, into: &sink)
        }
        if configuration.screens != screensBefore { sink.screensChanged(configuration.screens, at: lastTime) }
        applyConfiguredDrags()
    }

    // MARK: Screens at runtime

    /// Applies a screen change recorded in a trace (a `screens` request,
    /// ``Trace/RecordedScreenChange``) as the daemon applied it when recording.
    /// Returns what was wrong when the request cannot be applied (nothing changes then).
    @discardableResult
    package mutating func applyRecordedScreenChange<Sink: SessionSink>(_ request: JSONValue, into sink: inout Sink) -> String? {
        let envelope: RequestEnvelope
        do {
            envelope = try RequestDecoder.decode(request)
        } catch {
            return "not a screens request: \(error)"
        }
        if case .focus(let report) = envelope.request {
            changeFocus(report, into: &sink)
            return nil
        }
        guard case .screens(let change) = envelope.request else { return "not a screens request: \(envelope.request.op)" }
        do {
            try changeScreens(change, into: &sink)
        } catch {
            return error.description
        }
        return nil
    }

    /// Changes the screen geometry while touches may be down (semantics §11):
    /// screens' sizes, rotations, physical sizes and insets, screens added or
    /// removed, devices mapped to a screen. Touches that begin from now on use
    /// the new geometry; touches already down finish in the one they began in.
    /// Devices whose mapping changed are announced (`changed`), then the new
    /// screens (``SessionSink/screensChanged(_:at:)``). A later reload keeps
    /// these settings except where its file changed them (``ScreenOverrides``).
    ///
    /// - Throws: ``ScreenChangeError`` naming the entry at fault (nothing changes then).
    package mutating func changeScreens<Sink: SessionSink>(_ change: ScreenChange, into sink: inout Sink) throws(ScreenChangeError) {
        var overrides = screenOverrides
        try overrides.apply(change, file: fileConfiguration.screens)
        let effective = fileConfiguration.overlaid(with: overrides)
        var gestures = effective.gestures(for: pipeline.devices)
        gestures.surfaces += addedSurfaces
        do {
            try gestures.validate()
        } catch {
            throw ScreenChangeError(path: "screens", "does not fit the surfaces: \(error.description)")
        }
        screenOverrides = overrides
        applyGeometry(effective, into: &sink)
        sink.screensChanged(configuration.screens, at: lastTime)
    }

    /// Takes what logind says of the seat (semantics §13): when the status changes, the engine
    /// quiets or wakes the shortcuts and edge swipes (cancelling those engaged), then the sink
    /// gets the new status, stamped with the last event's time.
    package mutating func observeLogin<Sink: SessionSink>(_ report: LoginReport, into sink: inout Sink) {
        guard let status = lockPolicy.observe(report) else { return }
        sink.engineOutputs(engine.setSessionQuiet(status.quiet))
        sink.sessionChanged(status, at: lastTime)
    }

    /// The focused app changed, as a follower in the user's session reported it (or unknown:
    /// the report has no app id, its reporter went away). Shortcuts and edge swipes with app
    /// conditions and `appRules`' deferred edges follow it from the next touches
    /// (``Gestures/Engine/setFocus(_:)``); what that caused goes to the sink.
    package mutating func changeFocus<Sink: SessionSink>(_ report: FocusReport, into sink: inout Sink) {
        let focus = report.appID.map { FocusedApp(appID: $0, title: report.title ?? "", fullScreen: report.fullScreen) }
        let out = engine.setFocus(focus)
        if !out.isEmpty { deliver(out, into: &sink) }
    }

    /// Puts `effective` in force without cancelling touches: every device in
    /// service keeps its mapping with its screen found again by name (or
    /// mapped at runtime), the pipeline and the engine take the new screens.
    mutating func applyGeometry<Sink: SessionSink>(_ effective: TouchdConfiguration, into sink: inout Sink) {
        let before = configuration
        configuration = effective
        var mappings: [DeviceID: DeviceMapping] = [:]
        for info in pipeline.devices {
            var m = info.mapping
            let name = before.screens.indices.contains(m.screen) ? before.screens[m.screen].name : nil
            m.screen = overrideScreen(of: info.id, name: info.description.name)
                ?? name.flatMap { n in effective.screens.firstIndex { $0.name == n } } ?? 0
            mappings[info.id] = m
        }
        let changed = pipeline.changeGeometry(screens: effective.screenConfigurations, mappings: mappings)
        var gestures = effective.gestures(for: pipeline.devices)
        gestures.surfaces += addedSurfaces
        let out = engine.setConfiguration(gestures)
        if !out.isEmpty { deliver(out, into: &sink) }
        for info in changed { sink.device(.changed(info, at: lastTime)) }
    }

    /// The screen index in force of a screen given by its index in the file
    /// (device rules, a live device's settings), unless a runtime mapping
    /// places the device; screen 0 when that screen is gone.
    func screenIndex(fileScreen: Int, of id: DeviceID, name: String) -> Int {
        if let i = overrideScreen(of: id, name: name) { return i }
        guard fileConfiguration.screens.indices.contains(fileScreen) else { return 0 }
        let n = fileConfiguration.screens[fileScreen].name
        return configuration.screens.firstIndex { $0.name == n } ?? 0
    }

    /// The screen index a runtime mapping gives a device, if any.
    func overrideScreen(of id: DeviceID, name: String) -> Int? {
        guard let n = screenOverrides.screen(for: id, name: name) else { return nil }
        return configuration.screens.firstIndex { $0.name == n }
    }
}

extension TouchdConfiguration {
    /// This configuration with the screen geometry set at runtime laid over
    /// it: screens changed, added or removed; device rules, surfaces and
    /// system gestures that name a screen by index follow it to its new
    /// index (those of a removed screen are dropped).
    package func overlaid(with overrides: ScreenOverrides) -> TouchdConfiguration {
        guard !overrides.isEmpty else { return self }
        var c = self
        c.screens = overrides.screens(over: screens)
        if c.screens == screens { return c }
        let newIndex: [Int?] = screens.map { s in c.screens.firstIndex { $0.name == s.name } }
        func moved(_ i: Int) -> Int? { newIndex.indices.contains(i) ? newIndex[i] : nil }
        for r in c.devices.indices {
            if case .index(let n)? = c.devices[r].screen, screens.indices.contains(n) {
                c.devices[r].screen = .name(screens[n].name)
            }
        }
        c.gestureFile.surfaces = c.gestureFile.surfaces.compactMap { s in
            guard let i = moved(s.screen) else { return nil }
            var s = s
            s.screen = i
            return s
        }
        c.gestureFile.systemGestures = c.gestureFile.systemGestures.compactMap { e in
            guard let i = moved(e.screen) else { return nil }
            var e = e
            e.screen = i
            return e
        }
        c.gestureFile.shortcuts = c.gestureFile.shortcuts.compactMap { e in
            guard let i = moved(e.screen) else { return nil }
            var e = e
            e.screen = i
            return e
        }
        return c
    }
}
