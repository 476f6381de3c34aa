// SPDX-License-Identifier: MIT
import EngineMessages
import Gestures
import Logging
import Publisher
import Session
import TouchCore
import TouchMotion
import Wire

/// The daemon's ``SessionSink``: encodes what the session produces into one
/// batch for the publisher, each event marked with who may receive it. A
/// client's surfaces' events go to that client; the rest to the global
/// subscribers of its stream.
struct DaemonSessionSink: SessionSink {
    /// Whether some client subscribes to a stream: events nobody would get are not encoded.
    var wants: @Sendable (EventStream) -> Bool = { _ in true }
    /// The events encoded since the last flush.
    var batch = EventBatch()
    /// Set when a device came, changed or went: `hello` must be rewritten.
    var devicesChanged = false
    /// The clients' surfaces: who owns each, under which id (the one place they are recorded).
    var clients = ClientRegistry()
    /// Contacts that began on a client's surface: their touches go to that client's surface stream only.
    var contactOwners: [TouchID: ClientID] = [:]
    /// touchd's own uinput devices (mirrors, shortcut keyboard and pointer),
    /// fed the same outputs after they are encoded for clients.
    var uinput = UinputOutput()
    /// The coalescing subject of each open drag session (`session-3`), made once per session.
    var dragSessionNames: [Int: String] = [:]
    let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// The global touches first, then what the engine made of them.
    mutating func frame(_ frame: TouchFrame, outputs: [EngineOutput], engine: borrowing Engine) {
        let touchesWanted = wants(.touch)
        // Without client surfaces (the common case) no touch has an owner: no hit query on a touch-down.
        let clientsOwnSurfaces = !clients.isEmpty
        for t in frame.touches {
            if clientsOwnSurfaces, t.phase == .began, let hit = engine.surface(ofContact: t.id),
               let client = clients.client(ofOwner: hit.owner) {
                contactOwners[t.id] = client
            }
            if touchesWanted, contactOwners[t.id] == nil {
                batch.append(stream: .touch, device: t.device.rawValue, touchType: t.type.rawValue,
                             time: t.time.seconds, touchID: t.id.rawValue, isUpdate: Self.isUpdate(t),
                             motion: Self.report(t)) { MessageEncoder.touch(t, into: &$0) }
            }
            if t.phase == .ended || t.phase == .cancelled { contactOwners[t.id] = nil }
        }
        engineOutputs(outputs)
    }

    /// Encodes engine outputs (client surfaces' events to their owners, the
    /// rest to global subscribers), then hands them to ``uinput``.
    mutating func engineOutputs(_ outputs: [EngineOutput]) {
        encode(outputs)
        uinput.write(outputs)
    }

    private mutating func encode(_ outputs: [EngineOutput]) {
        for o in outputs {
            switch o {
            case .gesture(var g):
                let client = clients.client(ofOwner: g.owner)
                guard client != nil || wants(g.isSystem ? .system : .gesture) else { continue }
                if client != nil, let s = g.surface, let local = clients.surface(s)?.local { g.surface = SurfaceID(local) }
                batch.append(
                    stream: g.isSystem ? .system : .gesture, kind: g.kind.rawValue, recognizer: g.recognizer, device: g.device.rawValue,
                    touchType: g.touchType.rawValue, surface: g.surface?.rawValue, owner: client, time: g.time.seconds,
                    isUpdate: g.state == .changed) { MessageEncoder.gesture(g, into: &$0) }
            case .touch(var r):
                // Raw streams of surfaces nobody connected owns repeat the global touch stream.
                guard let client = clients.client(ofOwner: r.owner), let local = clients.surface(r.surface)?.local else { continue }
                r.surface = SurfaceID(local)
                batch.append(
                    stream: .touch, device: r.touch.device.rawValue, touchType: r.touch.type.rawValue, surface: local,
                    owner: client, time: r.time.seconds, touchID: r.touch.id.rawValue, isUpdate: Self.isUpdate(r.touch),
                    motion: Self.report(r.touch)
                ) { MessageEncoder.rawTouch(r, into: &$0) }
            case .system(let e):
                switch e.kind {
                case .deferral(let d):
                    // The decision goes to the surface's owner (configuration surfaces: to system subscribers).
                    let client = clients.client(ofOwner: d.owner)
                    guard client != nil || wants(.system) else { continue }
                    let local = client == nil ? d.surface.rawValue : (clients.surface(d.surface)?.local ?? d.surface.rawValue)
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
            case .mirror:
                // For the device's pass-through mirror (``uinput``), not for clients.
                continue
            }
        }
    }

    /// A `device` event, and a log line.
    mutating func device(_ event: SessionDeviceEvent) {
        let change: DeviceChange
        let info: DeviceInfo
        let time: Timestamp
        switch event {
        case .added(let i, let t):
            (change, info, time) = (.added, i, t)
        case .changed(let i, let t):
            (change, info, time) = (.changed, i, t)
        case .removed(let i, let t):
            (change, info, time) = (.removed, i, t)
        case .ignored(let id, let description, let reason):
            logger.info("device ignored", metadata: ["device": "\(id.rawValue)", "name": "\(description.name)", "reason": "\(reason)"])
            return
        }
        let entry = HelloDevice(info)
        switch change {
        case .added:
            logger.info("device added", metadata: [
                "device": "\(info.id.rawValue)", "name": "\(info.description.name)",
                "touchTypes": "\(entry.touchTypes.map(\.rawValue).joined(separator: ","))", "screen": "\(entry.screen)",
            ])
        case .changed:
            logger.info("device changed", metadata: ["device": "\(info.id.rawValue)", "name": "\(info.description.name)", "screen": "\(info.mapping.screen)"])
        case .removed:
            logger.info("device removed", metadata: ["device": "\(info.id.rawValue)", "name": "\(info.description.name)"])
        }
        devicesChanged = true
        batch.append(stream: .device, device: info.id.rawValue, time: time.seconds) {
            MessageEncoder.device(change, entry, time: time.seconds, into: &$0)
        }
    }

    /// The `screens` message, to every client whatever it subscribes to (semantics §11.3).
    mutating func screensChanged(_ entries: [ScreenEntry], at time: Timestamp) {
        let screens = HelloScreen.list(entries)
        uinput.pointer?.screens = screens
        batch.append(stream: .device, time: time.seconds, toEveryone: true) {
            MessageEncoder.screens(screens, time: time.seconds, into: &$0)
        }
    }

    /// The `session` message, to every client whatever it subscribes to (semantics §13).
    mutating func sessionChanged(_ status: LoginSessionStatus, at time: Timestamp) {
        batch.append(stream: .device, time: time.seconds, toEveryone: true) {
            MessageEncoder.session(status, time: time.seconds, into: &$0)
        }
    }

    /// The name a drag session's events are coalesced by.
    mutating func dragSessionName(_ session: Int) -> String {
        if let n = dragSessionNames[session] { return n }
        if dragSessionNames.count > 256 { dragSessionNames.removeAll() }
        let n = "session-\(session)"
        dragSessionNames[session] = n
        return n
    }

    /// Whether a touch message only moves a touch on (a later one of the
    /// same touch says everything it did): for coalescing clients. A touch's
    /// beginning and end, and the last hover of a proximity span, are not.
    static func isUpdate(_ t: Touch) -> Bool {
        t.phase == .moved || (t.phase == .hover && t.inProximity)
    }

    /// A touch's values for clients served at their frames (`frames`): kept
    /// beside its line so that the publisher resamples without parsing it.
    /// Hovers are not served (no contact to draw).
    static func report(_ t: Touch) -> ServedReport? {
        t.phase == .hover ? nil : ServedReport(t)
    }
}
