// SPDX-License-Identifier: MIT
import Gestures
import Publisher
import Session
import TouchCore
import Wire

/// Clients' surfaces and configuration reloads, on the engine's owner.
extension TouchSessionActor {
    /// Registers a client's surface: its id must be new on the connection,
    /// which has fewer than `checks.maxSurfaces` surfaces; then the
    /// connection's own refusal, if any (`checks.refusal`); then the engine's rules.
    package func register(_ d: SurfaceDescription, from client: ClientID, checks: SurfaceChecks) throws(RequestError) {
        let id = ClientSurfaceID(client: client, local: d.id)
        do throws(ClientSurfaceError) { try router.clients.checkNew(id, limit: checks.maxSurfaces) } catch { throw error.requestError }
        if let refusal = checks.refusal { throw refusal }
        try apply(d, as: id)
    }

    /// Replaces the description of one of a client's surfaces; recognizers
    /// declared the same keep their state, others are cancelled.
    package func update(_ d: SurfaceDescription, from client: ClientID, checks: SurfaceChecks) throws(RequestError) {
        let id = ClientSurfaceID(client: client, local: d.id)
        do throws(ClientSurfaceError) { try router.clients.checkKnown(id) } catch { throw error.requestError }
        if let refusal = checks.refusal { throw refusal }
        try apply(d, as: id)
    }

    /// Removes one of a client's surfaces; its active recognizers are cancelled.
    package func unregister(_ local: String, from client: ClientID) throws(RequestError) {
        let id = ClientSurfaceID(client: client, local: local)
        do throws(ClientSurfaceError) { try router.clients.checkKnown(id) } catch { throw error.requestError }
        prepareRound()
        session.removeSurface(id.engineID, into: &router)
        // The cancellations are delivered before the names are forgotten.
        flush()
        router.clients.remove(id)
    }

    /// Removes every surface of a closed connection (active recognizers
    /// cancelled); returns how many it had.
    @discardableResult
    package func disconnect(_ client: ClientID) -> Int {
        guard router.clients.client(ofOwner: client.engineOwner) != nil else { return 0 }
        prepareRound()
        session.removeSurfaces(owner: client.engineOwner, into: &router)
        flush()
        return router.clients.removeClient(client).count
    }

    /// The number of surfaces clients have registered.
    package var clientSurfaceCount: Int { router.clients.count }

    func apply(_ d: SurfaceDescription, as id: ClientSurfaceID) throws(RequestError) {
        if let parent = d.parent {
            let parentID = ClientSurfaceID(client: id.client, local: parent)
            do throws(ClientSurfaceError) { try router.clients.checkKnown(parentID, field: "surface.parent") } catch { throw error.requestError }
        }
        let surface = try SurfaceTranslation.configuration(d, client: id.client)
        prepareRound()
        // Named before the engine takes it: what it says at once (a deferral decision) goes to the client.
        let insertion = router.clients.insert(id)
        do {
            try session.upsertSurface(surface, into: &router)
        } catch {
            router.clients.undo(insertion)
            let named = SurfaceTranslation.localNames(d, client: id.client)
            let local = { (s: SurfaceID) in named[s] ?? self.router.clients.surface(s)?.local }
            var e = SurfaceTranslation.describe(error, client: id.client, naming: local)
            if let other = error.surface, other != surface.id, let name = local(other) {
                e.message = "breaks surface \"\(name)\": " + e.message
            }
            throw e
        }
        flush()
    }

    /// Applies a new configuration: screens, device rules and gestures. Clients'
    /// surfaces are kept. When device rules or quirks changed, touches down are
    /// cancelled and every device is mapped again; a change of screens alone
    /// lets touches down finish in their geometry (semantics §11.5).
    package func reload(_ new: TouchdConfiguration) throws(ConfigurationError) {
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
