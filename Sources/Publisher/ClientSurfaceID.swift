// SPDX-License-Identifier: MIT
import Wire

/// A client's surface: the connection that registered it and the id the
/// client gave it (ids are the client's own: two clients may both have a
/// `main`; docs/protocol.md, "Visibility and permissions").
package struct ClientSurfaceID: Hashable, Sendable, CustomStringConvertible {
    /// The connection.
    package var client: ClientID
    /// The surface's id on that connection.
    package var local: String

    /// A client's surface.
    package init(client: ClientID, local: String) {
        self.client = client
        self.local = local
    }

    package var description: String { "client \(client.rawValue) surface \"\(local)\"" }
}

/// Why a client's surface request is refused by whoever owns the surfaces (the daemon's `ClientRegistry`), with the
/// client's own surface id; ``requestError`` is the protocol's answer.
package enum ClientSurfaceError: Error, Hashable, Sendable {
    /// `register` of an id the connection already has.
    case alreadyRegistered(ClientSurfaceID)
    /// An id naming none of the connection's surfaces; `field` is the
    /// request's field that named it (nil: the request's surface itself).
    case unknown(ClientSurfaceID, field: String?)
    /// The connection already has `limit` surfaces.
    case tooMany(limit: Int)

    /// The protocol error (docs/protocol.md, "Error codes").
    package var requestError: RequestError {
        switch self {
        case let .alreadyRegistered(id):
            return RequestError(.surfaceExists, "surface \"\(id.local)\" is already registered; use update")
        case let .unknown(id, field):
            let message = "no surface \"\(id.local)\" on this connection"
            return RequestError(.unknownSurface, field.map { "\($0): " + message } ?? message)
        case let .tooMany(limit):
            return RequestError(.limitExceeded, "at most \(limit) surfaces per connection")
        }
    }
}
