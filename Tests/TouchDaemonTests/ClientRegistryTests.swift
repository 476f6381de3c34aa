// SPDX-License-Identifier: MIT
import Gestures
import Publisher
import Testing
import Wire

@testable import TouchDaemon

/// The clients' surfaces in their one place, as plain values.
@Suite struct ClientRegistryTests {
    static let seven = ClientID(rawValue: 7)
    static let eight = ClientID(rawValue: 8)

    @Test func twoClientsMayBothHaveAMain() throws {
        var r = ClientRegistry()
        let a = ClientSurfaceID(client: Self.seven, local: "main")
        let b = ClientSurfaceID(client: Self.eight, local: "main")
        try r.checkNew(a, limit: 4)
        _ = r.insert(a)
        try r.checkNew(b, limit: 4)
        _ = r.insert(b)
        #expect(a.engineID != b.engineID)
        #expect(r.surface(a.engineID) == a)
        #expect(r.surface(b.engineID) == b)
        #expect(r.client(ofOwner: Self.seven.engineOwner) == Self.seven)
        #expect(r.client(ofOwner: "config") == nil)
        #expect(r.surface(SurfaceID("main")) == nil)
        #expect(r.count == 2)
    }

    @Test func refusalsCarryTheClientsOwnId() {
        var r = ClientRegistry()
        let main = ClientSurfaceID(client: Self.seven, local: "main")
        _ = r.insert(main)
        #expect(throws: ClientSurfaceError.alreadyRegistered(main)) { try r.checkNew(main, limit: 4) }
        #expect(throws: ClientSurfaceError.tooMany(limit: 1)) { try r.checkNew(ClientSurfaceID(client: Self.seven, local: "side"), limit: 1) }
        let other = ClientSurfaceID(client: Self.eight, local: "main")
        #expect(throws: ClientSurfaceError.unknown(other, field: nil)) { try r.checkKnown(other) }
        let parent = ClientSurfaceID(client: Self.seven, local: "shell")
        #expect(throws: ClientSurfaceError.unknown(parent, field: "surface.parent")) { try r.checkKnown(parent, field: "surface.parent") }
        // The protocol's lines (docs/protocol.md, "Error codes").
        #expect(ClientSurfaceError.alreadyRegistered(main).requestError
            == RequestError(.surfaceExists, #"surface "main" is already registered; use update"#))
        #expect(ClientSurfaceError.unknown(other, field: nil).requestError == RequestError(.unknownSurface, #"no surface "main" on this connection"#))
        #expect(ClientSurfaceError.unknown(parent, field: "surface.parent").requestError
            == RequestError(.unknownSurface, #"surface.parent: no surface "shell" on this connection"#))
        #expect(ClientSurfaceError.tooMany(limit: 1).requestError == RequestError(.limitExceeded, "at most 1 surfaces per connection"))
    }

    /// A registration the engine refuses leaves the registry as it was.
    @Test func undoTakesBackARefusedRegistration() {
        var r = ClientRegistry()
        let main = ClientSurfaceID(client: Self.seven, local: "main")
        r.undo(r.insert(main))
        #expect(r.isEmpty)
        #expect(r.count == 0)
        _ = r.insert(main)
        // An update the engine refuses keeps the surface.
        r.undo(r.insert(main))
        #expect(r.contains(main))
        #expect(r.client(ofOwner: Self.seven.engineOwner) == Self.seven)
    }

    /// A client keeps its owner name until it disconnects, then nothing of it is left.
    @Test func removingAClientForgetsEverything() {
        var r = ClientRegistry()
        let surfaces = ["b", "a"].map { ClientSurfaceID(client: Self.seven, local: $0) }
        let other = ClientSurfaceID(client: Self.eight, local: "a")
        for s in surfaces + [other] { _ = r.insert(s) }
        r.remove(surfaces[0])
        r.remove(surfaces[0])
        #expect(r.surfaces(of: Self.seven) == [surfaces[1]])
        #expect(r.client(ofOwner: Self.seven.engineOwner) == Self.seven)
        #expect(r.removeClient(Self.seven) == [surfaces[1]])
        #expect(r.client(ofOwner: Self.seven.engineOwner) == nil)
        #expect(r.surfaces(of: Self.seven).isEmpty)
        #expect(r.surfaces(of: Self.eight) == [other])
        #expect(r.count == 1)
    }
}
