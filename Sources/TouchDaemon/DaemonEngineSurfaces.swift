import Gestures
import Publisher
import TouchCore
import Wire

/// Clients' surfaces and configuration reloads, on the engine's owner.
extension DaemonEngine {
    /// Registers a client's surface (the publisher has checked that its id is new on the connection).
    public func register(_ d: SurfaceDescription, from client: ClientID) throws(RequestError) {
        let id = ClientNamespace.surfaceID(d.id, of: client)
        guard localIDs[id] == nil else { throw RequestError(.surfaceExists, "surface \"\(d.id)\" is already registered") }
        try apply(d, from: client)
    }

    /// Replaces the description of one of a client's surfaces; recognizers
    /// declared the same keep their state, others are cancelled.
    public func update(_ d: SurfaceDescription, from client: ClientID) throws(RequestError) {
        guard localIDs[ClientNamespace.surfaceID(d.id, of: client)] != nil else {
            throw RequestError(.unknownSurface, "no surface \"\(d.id)\" on this connection")
        }
        try apply(d, from: client)
    }

    /// Removes one of a client's surfaces; its active recognizers are cancelled.
    public func unregister(_ local: String, from client: ClientID) throws(RequestError) {
        let id = ClientNamespace.surfaceID(local, of: client)
        guard localIDs[id] != nil else { throw RequestError(.unknownSurface, "no surface \"\(local)\" on this connection") }
        clientSurfaces.removeAll { $0.id == id }
        let out = engine.removeSurface(id)
        // The cancellations are delivered before the names are forgotten.
        route(out)
        flush()
        localIDs[id] = nil
    }

    /// Removes every surface of a closed connection (active recognizers cancelled).
    public func disconnect(_ client: ClientID) {
        let owner = ClientNamespace.owner(client)
        guard ownerClients[owner] != nil else { return }
        let gone = clientSurfaces.filter { $0.owner == owner }
        clientSurfaces.removeAll { $0.owner == owner }
        if !gone.isEmpty {
            let out = engine.setSurfaces(surfacesForEngine(configuration.gestures))
            route(out)
            flush()
        }
        for s in gone { localIDs[s.id] = nil }
        ownerClients[owner] = nil
    }

    /// The number of surfaces clients have registered.
    public var clientSurfaceCount: Int { clientSurfaces.count }

    func apply(_ d: SurfaceDescription, from client: ClientID) throws(RequestError) {
        if let parent = d.parent, localIDs[ClientNamespace.surfaceID(parent, of: client)] == nil {
            throw RequestError(.unknownSurface, "surface.parent: no surface \"\(parent)\" on this connection")
        }
        let surface = try SurfaceTranslation.configuration(d, client: client)
        var candidate = engine.configuration
        if let i = candidate.surfaces.firstIndex(where: { $0.id == surface.id }) {
            candidate.surfaces[i] = surface
        } else {
            candidate.surfaces.append(surface)
        }
        do {
            try candidate.validate()
        } catch {
            var e = SurfaceTranslation.describe(error, client: client)
            if let other = error.surface, other != surface.id, let local = localIDs[other] {
                e.message = "breaks surface \"\(local)\": " + e.message
            }
            throw e
        }
        ownerClients[surface.owner] = client
        localIDs[surface.id] = d.id
        if let i = clientSurfaces.firstIndex(where: { $0.id == surface.id }) {
            clientSurfaces[i] = surface
        } else {
            clientSurfaces.append(surface)
        }
        route(engine.upsertSurface(surface))
        flush()
    }

    /// The engine's surfaces: the configuration's, then the clients'.
    func surfacesForEngine(_ gestures: GestureConfiguration) -> [SurfaceConfiguration] {
        gestures.surfaces + clientSurfaces
    }

    /// Applies a new configuration: screens, device rules and gestures. Clients'
    /// surfaces are kept. When screens or device rules changed, touches down
    /// are cancelled and every device is mapped again.
    public func reload(_ new: TouchdConfiguration) throws(ConfigurationError) {
        var gestures = new.gestures(for: pipeline.devices)
        gestures.surfaces = surfacesForEngine(gestures)
        do {
            try gestures.validate()
        } catch {
            throw ConfigurationError(file: "", "does not fit the clients' surfaces: \(error.description)")
        }
        let remap = new.screens != configuration.screens || new.devices != configuration.devices
        if remap {
            for frame in pipeline.finish(at: lastTime) { run(frame) }
        }
        configuration = new
        route(engine.setConfiguration(gestures))
        flush()
        if remap {
            pipeline.reset(screens: new.screenConfigurations)
            for d in known {
                let decision = new.decision(for: d.description, syspath: d.syspath, udevProperties: d.udevProperties)
                guard decision.ignoredBecause == nil else { continue }
                pipeline.addDevice(d.id, description: d.description, mapping: decision.mapping)
            }
            updateScreens()
            flush()
        }
        publishHello()
    }
}
