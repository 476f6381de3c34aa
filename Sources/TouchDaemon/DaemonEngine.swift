import Gestures
import Logging
import Publisher
import Synchronization
import TouchCore
import Trace
import Wire

/// What `hello` says now: written by the engine owner when devices or the
/// configuration change, read by the publisher at each connection.
public final class HelloBoard: Sendable {
    private let snapshot = Mutex(HelloSnapshot(devices: [], screens: []))

    /// Creates an empty board.
    public init() {}

    /// The current snapshot.
    public func read() -> HelloSnapshot { snapshot.withLock { $0 } }

    func write(_ s: HelloSnapshot) { snapshot.withLock { $0 = s } }
}

/// A device the daemon was told about, kept so that a reloaded configuration
/// can decide again about it.
struct KnownDevice: Sendable {
    var id: DeviceID
    var description: DeviceDescription
    var syspath: String?
    var udevProperties: [String: String]
}

/// The one owner of the touch pipeline and the gesture engine. Input events,
/// surface requests and reloads arrive as calls on this actor, one at a time;
/// what the engine produces is encoded once and handed to the publisher in
/// one batch per device read (one frame, or the frames a late read found queued).
///
/// The actor runs on its own thread (``EngineThread``, its executor), where
/// live input is also read: a device read reaches the engine without a
/// thread hop, and the publisher writes each batch to the clients that keep
/// up from this thread (only the others are handed to its event loop).
public actor DaemonEngine {
    /// The thread the actor runs on.
    nonisolated let thread: EngineThread

    /// The engine's thread.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }

    /// Runs `round` isolated to the engine, from the engine's own thread (an
    /// input's round, called by the thread's loop): what `assumeIsolated`
    /// does, with the isolation checked by comparing the thread's identity
    /// (one load) instead of asking the runtime for the current executor,
    /// which on this custom executor looked up conformances and thread-local
    /// state and allocated a closure context on every round
    /// (docs/performance.md, "A round of input: copies of the engine, the runtime's check").
    /// `round` captures nothing (it gets `input`), so passing it allocates nothing.
    nonisolated func onThread<Input: AnyObject>(
        _ input: Input, _ round: @escaping (Input, isolated DaemonEngine) -> Bool
    ) -> Bool {
        precondition(thread.isCurrent, "DaemonEngine: an input round off the engine's thread")
        // Sound because the check above holds: the thread is the actor's executor.
        let plain = unsafeBitCast(round, to: ((Input, DaemonEngine) -> Bool).self)
        return plain(input, self)
    }

    /// The configuration in force.
    public internal(set) var configuration: TouchdConfiguration
    var pipeline: TouchPipeline
    var engine: Engine
    var known: [KnownDevice] = []
    let board: HelloBoard
    let logger: Logger
    var sink: (@Sendable (EventBatch) -> Void)?
    /// The publisher's deadline for updates it holds for coalescing clients
    /// (event time, seconds), and how to send those due by a time.
    var heldDeadline: (@Sendable () -> Double?)?
    var release: (@Sendable (Double) -> Void)?
    /// Whether some client subscribes to a stream: events nobody would get are not encoded.
    var wants: @Sendable (EventStream) -> Bool = { _ in true }
    /// Whether the `debug` stream was asked for (`touchd --no-debug` says no).
    let debugAllowed: Bool

    // Client surfaces, in registration order, and the lookups routing needs.
    var clientSurfaces: [SurfaceConfiguration] = []
    var ownerClients: [String: ClientID] = [:]
    var localIDs: [SurfaceID: String] = [:]
    /// Contacts that began on a client's surface: their touches go to that client's surface stream only.
    var contactOwners: [TouchID: ClientID] = [:]
    /// The time of the last frame or deadline (cancellations on reload are stamped with it).
    var lastTime = Timestamp.zero

    /// `--record`: the input, as a native trace (nil when not recording or after a write error).
    var recorder: DaemonRecorder?

    // Buffers reused for every frame.
    var outputs: [EngineOutput] = []
    /// The frame's events, encoded into one buffer as they are routed.
    var batch = EventBatch()

    /// Creates the owner with no device and starts its thread; `recordsDebug`
    /// turns the engine's explanations (the `debug` stream) on.
    ///
    /// - Throws: ``DaemonStartError`` (status 71) when the thread's wake-up
    ///   pipe cannot be created (out of descriptors).
    public init(configuration: TouchdConfiguration, board: HelloBoard, logger: Logger,
                recordsDebug: Bool = true) throws(DaemonStartError) {
        do {
            thread = try EngineThread(name: "touchd-engine")
        } catch {
            throw DaemonStartError(status: 71, "cannot start the engine's thread: \(error)")
        }
        self.configuration = configuration
        self.board = board
        self.logger = logger
        pipeline = TouchPipeline(screens: configuration.screenConfigurations)
        engine = Engine(configuration: configuration.gestures)
        engine.recordsDebug = recordsDebug
        debugAllowed = recordsDebug
        outputs.reserveCapacity(64)
        board.write(HelloSnapshot(devices: [], screens: Self.helloScreens(configuration)))
    }

    deinit {
        thread.stop()
    }

    /// Runs `body` on the engine's thread, isolated to the engine.
    public func perform<T: Sendable>(_ body: @Sendable (isolated DaemonEngine) throws -> T) rethrows -> T {
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
    public func attach(_ sink: @escaping @Sendable (EventBatch) -> Void,
                       wants: @escaping @Sendable (EventStream) -> Bool = { _ in true },
                       heldDeadline: (@Sendable () -> Double?)? = nil,
                       release: (@Sendable (Double) -> Void)? = nil) {
        self.sink = sink
        self.wants = wants
        self.heldDeadline = heldDeadline
        self.release = release
    }

    // MARK: Devices

    /// Adds a device unless the configuration ignores it; announces it with a
    /// `device` event. Returns the reason when it is ignored.
    @discardableResult
    public func addDevice(_ id: DeviceID, description: DeviceDescription, at time: Timestamp,
                          syspath: String? = nil, udevProperties: [String: String] = [:],
                          mapping: DeviceMapping? = nil) -> String? {
        known.removeAll { $0.id == id }
        known.append(KnownDevice(id: id, description: description, syspath: syspath, udevProperties: udevProperties))
        // A live device arrives already decided: mapping merged from the rules and its udev properties.
        let decision = mapping.map { DeviceDecision(mapping: $0, ignoredBecause: nil, grab: false) }
            ?? configuration.decision(for: description, syspath: syspath, udevProperties: udevProperties)
        if let reason = decision.ignoredBecause {
            logger.info("device ignored", metadata: ["device": "\(id.rawValue)", "name": "\(description.name)", "reason": "\(reason)"])
            return reason
        }
        let info = pipeline.addDevice(id, description: description, mapping: decision.mapping)
        record { r throws(TraceError) in try r.addDevice(id, description, udevProperties: udevProperties, at: time) }
        updateScreens()
        let entry = Self.helloDevice(info)
        logger.info("device added", metadata: [
            "device": "\(id.rawValue)", "name": "\(description.name)",
            "touchTypes": "\(entry.touchTypes.map(\.rawValue).joined(separator: ","))", "screen": "\(entry.screen)",
        ])
        publishHello()
        batch.append(stream: .device, device: id.rawValue, time: time.seconds) {
            MessageEncoder.device(.added, entry, time: time.seconds, into: &$0)
        }
        flush()
        return nil
    }

    /// Removes a device: its touches are cancelled, a `device` event says it went away.
    public func removeDevice(_ id: DeviceID, at time: Timestamp) {
        known.removeAll { $0.id == id }
        guard let info = pipeline.device(id) else { return }
        if let frame = pipeline.removeDevice(id, at: time) { run(frame) }
        record { r throws(TraceError) in try r.removeDevice(id, at: time) }
        updateScreens()
        logger.info("device removed", metadata: ["device": "\(id.rawValue)", "name": "\(info.description.name)"])
        publishHello()
        let entry = Self.helloDevice(info)
        batch.append(stream: .device, device: id.rawValue, time: time.seconds) {
            MessageEncoder.device(.removed, entry, time: time.seconds, into: &$0)
        }
        flush()
    }

    /// A device's udev properties or mapping changed: when the mapping did, its
    /// touches are cancelled and it is mapped anew; a `device` event (`changed`)
    /// announces it either way.
    public func changeDevice(_ id: DeviceID, at time: Timestamp, udevProperties: [String: String], mapping: DeviceMapping) {
        guard let old = pipeline.device(id) else { return }
        if let k = known.firstIndex(where: { $0.id == id }) { known[k].udevProperties = udevProperties }
        var info = old
        if old.mapping != mapping {
            if let frame = pipeline.removeDevice(id, at: max(time, lastTime)) { run(frame) }
            info = pipeline.addDevice(id, description: old.description, mapping: mapping)
            updateScreens()
        }
        logger.info("device changed", metadata: ["device": "\(id.rawValue)", "name": "\(info.description.name)", "screen": "\(info.mapping.screen)"])
        publishHello()
        let entry = Self.helloDevice(info)
        batch.append(stream: .device, device: id.rawValue, time: time.seconds) {
            MessageEncoder.device(.changed, entry, time: time.seconds, into: &$0)
        }
        flush()
    }

    /// Screen sizes follow the touchscreens in service, as in offline replay.
    func updateScreens() {
        route(engine.setScreens(configuration.gestures(for: pipeline.devices).screens))
    }

    /// The number of devices in service.
    public var deviceCount: Int { pipeline.devices.count }

    // MARK: Input

    /// Feeds events of one device, in order; every completed frame goes
    /// through the engine, and what they produced goes out to the clients
    /// as one batch (a read that found several frames queued, because the
    /// engine's thread was late, costs each client one write, not one per frame).
    public func handle(_ events: [InputEvent], from device: DeviceID) {
        if recorder != nil { record { r throws(TraceError) in try r.append(events, from: device) } }
        // The pipeline is entered once per frame, not once per event (each
        // entry into a property of this class is an exclusivity check).
        var next = 0
        while next < events.count {
            let (frame, after) = pipeline.process(events, startingAt: next, from: device)
            next = after
            if let frame { run(frame) }
        }
        flush()
    }

    /// Fires the engine's deadlines up to `time` (long presses, tap windows),
    /// and sends the updates held for coalescing clients that are due by then.
    public func advance(to time: Timestamp) {
        lastTime = max(lastTime, time)
        engine.recordsDebug = debugAllowed && wants(.debug)
        outputs.removeAll(keepingCapacity: true)
        engine.advance(to: time, into: &outputs)
        route(outputs)
        flush()
        release?(time.seconds)
    }

    /// The earliest time at which ``advance(to:)`` would do something: the
    /// engine's next deadline, or the publisher's for held updates.
    public var nextDeadline: Timestamp? {
        let own = engine.nextDeadline
        guard let held = heldDeadline?() else { return own }
        // Whole microseconds, rounded up: advancing to it releases them.
        let due = Timestamp(microseconds: Int64((held * 1_000_000).rounded(.up)))
        guard let own else { return due }
        return min(own, due)
    }

    /// Cancels every touch still down (end of a replay pass, shutdown) and
    /// fires the deadlines up to `time`.
    public func finishTouches(at time: Timestamp) {
        for frame in pipeline.finish(at: time) { run(frame) }
        advance(to: time)
    }

    /// One frame through the engine: the global touches first, then what the
    /// engine made of them, encoded into the batch (the caller flushes it).
    func run(_ frame: TouchFrame) {
        lastTime = max(lastTime, frame.time)
        engine.recordsDebug = debugAllowed && wants(.debug)
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        let touchesWanted = wants(.touch)
        // Without client surfaces (the common case) no touch has an owner: no hit query on a touch-down.
        let clientsOwnSurfaces = !ownerClients.isEmpty
        for t in frame.touches {
            if clientsOwnSurfaces, t.phase == .began, let hit = engine.surface(ofContact: t.id),
               let client = ownerClients[hit.owner] {
                contactOwners[t.id] = client
            }
            if touchesWanted, contactOwners[t.id] == nil {
                batch.append(stream: .touch, device: t.device.rawValue, touchType: t.type.rawValue,
                             time: t.time.seconds, touchID: t.id.rawValue, isUpdate: Self.isUpdate(t)) { MessageEncoder.touch(t, into: &$0) }
            }
            if t.phase == .ended || t.phase == .cancelled { contactOwners[t.id] = nil }
        }
        route(outputs)
    }

    /// Encodes engine outputs into the batch: client surfaces' events to their owners,
    /// the rest to global subscribers.
    func route(_ outputs: [EngineOutput]) {
        for o in outputs {
            switch o {
            case .gesture(var g):
                let client = ownerClients[g.owner]
                guard client != nil || wants(g.isSystem ? .system : .gesture) else { continue }
                if client != nil, let s = g.surface, let local = localIDs[s] { g.surface = SurfaceID(local) }
                batch.append(
                    stream: g.isSystem ? .system : .gesture, kind: g.kind.rawValue, recognizer: g.recognizer, device: g.device.rawValue,
                    touchType: g.touchType.rawValue, surface: g.surface?.rawValue, owner: client, time: g.time.seconds,
                    isUpdate: g.state == .changed) { MessageEncoder.gesture(g, into: &$0) }
            case .touch(var r):
                // Raw streams of surfaces nobody connected owns repeat the global touch stream.
                guard let client = ownerClients[r.owner], let local = localIDs[r.surface] else { continue }
                r.surface = SurfaceID(local)
                batch.append(
                    stream: .touch, device: r.touch.device.rawValue, touchType: r.touch.type.rawValue, surface: local,
                    owner: client, time: r.time.seconds, touchID: r.touch.id.rawValue, isUpdate: Self.isUpdate(r.touch)
                ) { MessageEncoder.rawTouch(r, into: &$0) }
            case .system(let e):
                switch e.kind {
                case .deferral(let d):
                    // The decision goes to the surface's owner (configuration surfaces: to system subscribers).
                    let client = ownerClients[d.owner]
                    guard client != nil || wants(.system) else { continue }
                    let local = client == nil ? d.surface.rawValue : (localIDs[d.surface] ?? d.surface.rawValue)
                    batch.append(stream: .system, surface: local, owner: client, time: e.time.seconds) {
                        MessageEncoder.system(e, surface: local, into: &$0)
                    }
                case .edgeHint:
                    guard wants(.system) else { continue }
                    batch.append(stream: .system, time: e.time.seconds) { MessageEncoder.system(e, into: &$0) }
                }
            case .debug(let d):
                guard wants(.debug) else { continue }
                batch.append(stream: .debug, recognizer: d.recognizer, time: d.time.seconds) {
                    MessageEncoder.debug(d, into: &$0)
                }
            }
        }
    }

    func flush() {
        guard !batch.isEmpty else { return }
        sink?(batch)
        batch.removeAll()
    }

    /// Whether a touch message only moves a touch on (a later one of the
    /// same touch says everything it did): for coalescing clients. A touch's
    /// beginning and end, and the last hover of a proximity span, are not.
    static func isUpdate(_ t: Touch) -> Bool {
        t.phase == .moved || (t.phase == .hover && t.inProximity)
    }

    // MARK: Recording

    /// Records the input from now on into `path` (`touchd --record`); a file
    /// that cannot be created is logged and the daemon serves without recording.
    public func startRecording(to path: String) {
        do {
            recorder = try DaemonRecorder(path: path)
            logger.info("recording the input", metadata: ["file": "\(path)"])
        } catch {
            logger.error("cannot record: \(error.description); serving without recording")
        }
    }

    /// Ends the recording: the last frame is written and the file closed.
    public func finishRecording() {
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
    public var isRecording: Bool { recorder != nil }

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
        board.write(HelloSnapshot(devices: pipeline.devices.map(Self.helloDevice), screens: Self.helloScreens(configuration)))
    }

    static func helloDevice(_ info: DeviceInfo) -> HelloDevice {
        HelloDevice(
            id: info.id, name: info.description.name, touchTypes: info.classification.touchTypes,
            slots: info.description.slotCount, widthMM: info.geometry.width, heightMM: info.geometry.height,
            sizeSource: info.geometry.source.rawValue, screen: info.mapping.screen)
    }

    static func helloScreens(_ c: TouchdConfiguration) -> [HelloScreen] {
        c.screens.enumerated().map { HelloScreen(index: $0.offset, name: $0.element.name, width: $0.element.width, height: $0.element.height) }
    }
}
