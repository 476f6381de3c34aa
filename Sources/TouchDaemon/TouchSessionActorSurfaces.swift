// SPDX-License-Identifier: MIT
import Gestures
import Publisher
import Session
import TouchCore
import Wire

/// Clients' surfaces and configuration reloads, on the engine's owner.
extension TouchSessionActor {
    /// Registers a client's surface (the publisher has checked that its id is new on the connection).
    public func register(_ d: SurfaceDescription, from client: ClientID) throws(RequestError) {
        let id = ClientNamespace.surfaceID(d.id, of: client)
        guard router.localIDs[id] == nil else { throw RequestError(.surfaceExists, "surface \"\(d.id)\" is already registered") }
        try apply(d, from: client)
    }

    /// Replaces the description of one of a client's surfaces; recognizers
    /// declared the same keep their state, others are cancelled.
    public func update(_ d: SurfaceDescription, from client: ClientID) throws(RequestError) {
        guard router.localIDs[ClientNamespace.surfaceID(d.id, of: client)] != nil else {
            throw RequestError(.unknownSurface, "no surface \"\(d.id)\" on this connection")
        }
        try apply(d, from: client)
    }

    /// Removes one of a client's surfaces; its active recognizers are cancelled.
    public func unregister(_ local: String, from client: ClientID) throws(RequestError) {
        let id = ClientNamespace.surfaceID(local, of: client)
        guard router.localIDs[id] != nil else { throw RequestError(.unknownSurface, "no surface \"\(local)\" on this connection") }
        prepareRound()
        session.removeSurface(id, into: &router)
        // The cancellations are delivered before the names are forgotten.
        flush()
        router.localIDs[id] = nil
    }

    /// Removes every surface of a closed connection (active recognizers cancelled).
    public func disconnect(_ client: ClientID) {
        let owner = ClientNamespace.owner(client)
        guard router.ownerClients[owner] != nil else { return }
        let gone = session.addedSurfaces.filter { $0.owner == owner }
        prepareRound()
        session.removeSurfaces(owner: owner, into: &router)
        flush()
        for s in gone { router.localIDs[s.id] = nil }
        router.ownerClients[owner] = nil
    }

    /// The number of surfaces clients have registered.
    public var clientSurfaceCount: Int { session.addedSurfaces.count }

    func apply(_ d: SurfaceDescription, from client: ClientID) throws(RequestError) {
        if let parent = d.parent, router.localIDs[ClientNamespace.surfaceID(parent, of: client)] == nil {
            throw RequestError(.unknownSurface, "surface.parent: no surface \"\(parent)\" on this connection")
        }
        let surface = try SurfaceTranslation.configuration(d, client: client)
        prepareRound()
        // Named before the engine takes it: what it says at once (a deferral decision) goes to the client.
        let (ownerBefore, localBefore) = (router.ownerClients[surface.owner], router.localIDs[surface.id])
        router.ownerClients[surface.owner] = client
        router.localIDs[surface.id] = d.id
        do {
            try session.upsertSurface(surface, into: &router)
        } catch {
            router.ownerClients[surface.owner] = ownerBefore
            router.localIDs[surface.id] = localBefore
            var e = SurfaceTranslation.describe(error, client: client)
            if let other = error.surface, other != surface.id, let local = router.localIDs[other] {
                e.message = "breaks surface \"\(local)\": " + e.message
            }
            throw e
        }
        flush()
    }

    /// Applies a new configuration: screens, device rules and gestures. Clients'
    /// surfaces are kept. When device rules or quirks changed, touches down are
    /// cancelled and every device is mapped again; a change of screens alone
    /// lets touches down finish in their geometry (semantics §11.5).
    public func reload(_ new: TouchdConfiguration) throws(ConfigurationError) {
        prepareRound()
        try session.reload(new, into: &router)
        deviceDecider.replace(new)
        let bindings = ShortcutKeyBindings(new.gestures)
        if let keyboard = router.uinput.keyboard {
            keyboard.update(bindings)
        } else if !bindings.isEmpty {
            router.uinput.keyboard = ShortcutKeyboard(bindings: bindings, logger: logger)
        }
        if let pointer = router.uinput.pointer {
            pointer.update(bindings, screens: configuration.helloScreens)
        } else if !bindings.clickScreens.isEmpty {
            router.uinput.pointer = ShortcutPointer(bindings: bindings, screens: configuration.helloScreens, logger: logger)
        }
        // `hello` first: a client connecting meanwhile is not told the old screens after the new.
        publishHello()
        flush()
    }
}
