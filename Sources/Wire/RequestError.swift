// SPDX-License-Identifier: MIT
/// A protocol error code, as the `code` field of an `error` message carries it.
/// A growable set: new codes may be added in v1 (clients treat unknown codes
/// as a generic failure).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { self.rawValue = value }
    public var description: String { rawValue }

    /// The line is not JSON, not an object, or nests too deeply.
    public static let badJSON: ErrorCode = "bad-json"
    /// The line is not valid UTF-8.
    public static let badUTF8: ErrorCode = "bad-utf8"
    /// The line is longer than the request limit (the rest of it is skipped).
    public static let lineTooLong: ErrorCode = "line-too-long"
    /// `op` is missing or not one of the v1 operations.
    public static let unknownOp: ErrorCode = "unknown-op"
    /// A field has the wrong type or value; the message names its path.
    public static let badField: ErrorCode = "bad-field"
    /// The surface id is not registered on this connection.
    public static let unknownSurface: ErrorCode = "unknown-surface"
    /// A surface with this id is already registered on this connection.
    public static let surfaceExists: ErrorCode = "surface-exists"
    /// A recognizer names an unknown kind or refers to an unknown recognizer.
    public static let unknownRecognizer: ErrorCode = "unknown-recognizer"
    /// A per-client or per-server limit was reached.
    public static let limitExceeded: ErrorCode = "limit-exceeded"
    /// The configuration does not allow this client to do that.
    public static let notPermitted: ErrorCode = "not-permitted"
    /// The server failed; the request had no effect.
    public static let internalError: ErrorCode = "internal"
}

/// A request that failed: the `error` message sent back to the client.
public struct RequestError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The error code.
    public var code: ErrorCode
    /// A human-readable message; for `bad-field` it starts with the field path.
    public var message: String
    /// The id of the failed request, when known.
    public var id: RequestID?

    /// Creates an error.
    public init(_ code: ErrorCode, _ message: String, id: RequestID? = nil) {
        self.code = code
        self.message = message
        self.id = id
    }

    /// A `bad-field` error naming `path`.
    public static func badField(_ path: String, _ problem: String, id: RequestID? = nil) -> RequestError {
        RequestError(.badField, "\(path): \(problem)", id: id)
    }

    public var description: String {
        if let id { return "\(code) (id \(id)): \(message)" }
        return "\(code): \(message)"
    }
}
