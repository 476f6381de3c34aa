// SPDX-License-Identifier: MIT
import Gestures
import Publisher
import Wire

extension ClientSurfaceID {
    /// The surface's id inside the gesture engine, unique across clients.
    /// Made here only, and never taken apart: ``ClientRegistry`` maps it back.
    package var engineID: SurfaceID { SurfaceID(client.engineOwner + "/" + local) }
}

extension ClientID {
    /// The owner name of the connection's surfaces inside the gesture engine.
    package var engineOwner: String { "client-\(rawValue)" }
}

/// The clients' surfaces, in one place: which connection owns each, under
/// which id on its connection and inside the gesture engine. Owned by the
/// engine's owner (`TouchSessionActor`, in its sink, which reads it for
/// every event it routes); the publisher keeps no list of surfaces.
package struct ClientRegistry: Sendable {
    /// Each client surface by its engine id.
    private var surfaces: [SurfaceID: ClientSurfaceID] = [:]
    /// The connection of each engine owner name, from its first surface until it disconnects.
    private var owners: [String: ClientID] = [:]
    /// The number of surfaces of each connection that has one.
    private var counts: [ClientID: Int] = [:]

    /// An empty registry.
    package init() {}

    /// Whether no client has registered a surface since it connected.
    package var isEmpty: Bool { owners.isEmpty }

    /// The number of clients' surfaces.
    package var count: Int { surfaces.count }

    /// The connection whose surfaces have the engine owner name `owner` (nil: a configuration surface's owner).
    package func client(ofOwner owner: String) -> ClientID? { owners[owner] }

    /// The client surface with the engine id `id` (nil: a configuration surface).
    package func surface(_ id: SurfaceID) -> ClientSurfaceID? { surfaces[id] }

    /// Whether the connection has the surface.
    package func contains(_ id: ClientSurfaceID) -> Bool { surfaces[id.engineID] != nil }

    /// The surfaces of a connection.
    package func surfaces(of client: ClientID) -> [ClientSurfaceID] {
        surfaces.values.filter { $0.client == client }.sorted { $0.local < $1.local }
    }

    /// Checks a `register`: the id is new on its connection, which has fewer than `limit` surfaces.
    package func checkNew(_ id: ClientSurfaceID, limit: Int) throws(ClientSurfaceError) {
        guard !contains(id) else { throw .alreadyRegistered(id) }
        guard counts[id.client, default: 0] < limit else { throw .tooMany(limit: limit) }
    }

    /// Checks that `id` names one of its connection's surfaces; `field` is
    /// the request's field that named it (nil: the request's surface).
    package func checkKnown(_ id: ClientSurfaceID, field: String? = nil) throws(ClientSurfaceError) {
        guard contains(id) else { throw .unknown(id, field: field) }
    }

    /// What ``insert(_:)`` changed, for ``undo(_:)``.
    package struct Insertion: Sendable {
        var id: ClientSurfaceID
        var newSurface: Bool
        var newOwner: Bool
    }

    /// Records a surface (a registered one is kept); returns how to take it back.
    package mutating func insert(_ id: ClientSurfaceID) -> Insertion {
        let owner = id.client.engineOwner
        let insertion = Insertion(id: id, newSurface: !contains(id), newOwner: owners[owner] == nil)
        owners[owner] = id.client
        if insertion.newSurface {
            surfaces[id.engineID] = id
            counts[id.client, default: 0] += 1
        }
        return insertion
    }

    /// Takes back an ``insert(_:)`` the engine refused.
    package mutating func undo(_ insertion: Insertion) {
        if insertion.newSurface { remove(insertion.id) }
        if insertion.newOwner { owners[insertion.id.client.engineOwner] = nil }
    }

    /// Forgets a surface.
    package mutating func remove(_ id: ClientSurfaceID) {
        guard surfaces.removeValue(forKey: id.engineID) != nil else { return }
        counts[id.client, default: 0] -= 1
        if counts[id.client] == 0 { counts[id.client] = nil }
    }

    /// Forgets a connection and its surfaces; returns them.
    @discardableResult
    package mutating func removeClient(_ client: ClientID) -> [ClientSurfaceID] {
        let gone = surfaces(of: client)
        for s in gone { surfaces[s.engineID] = nil }
        counts[client] = nil
        owners[client.engineOwner] = nil
        return gone
    }
}
