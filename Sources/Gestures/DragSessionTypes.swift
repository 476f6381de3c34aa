// SPDX-License-Identifier: MIT
import TouchCore

/// What a surface does in drag sessions across clients (semantics §12), as a
/// client declares it: UIKit attaches a drag interaction and a drop
/// interaction to a view the same way, apart from its gesture recognizers.
package struct DragRoles: Hashable, Sendable {
    /// Its `drag` recognizers open a session and its owner is asked for items.
    package var offersItems: Bool
    /// During a session, a tap recognized on it asks its owner for items to add.
    package var addsItems: Bool
    /// MIME types it accepts as a drop target (`text/plain`, `image/*`, `*/*`);
    /// empty: not a drop target.
    package var dropTypes: [String]
    /// Its long presses alongside a drag wait until the drag fails, which for a
    /// touch held still is its lift (UIKit's compact environment); false, the
    /// default: they begin at their own time and the drag may still take the
    /// touch (semantics §12.8).
    package var compact: Bool

    /// Creates roles; the default is none.
    package init(offersItems: Bool = false, addsItems: Bool = false, dropTypes: [String] = [], compact: Bool = false) {
        self.offersItems = offersItems
        self.addsItems = addsItems
        self.dropTypes = dropTypes
        self.compact = compact
    }

    /// True when it plays no part in drag sessions and asks for nothing.
    package var isEmpty: Bool { !offersItems && !addsItems && dropTypes.isEmpty && !compact }

    /// Whether it accepts an item of one of `types` (exact, `type/*` or `*/*`, case-insensitive).
    package func accepts(anyOf types: [String]) -> Bool {
        for accepted in dropTypes {
            for t in types where DragRoles.matches(accepted, t) { return true }
        }
        return false
    }

    static func matches(_ pattern: String, _ type: String) -> Bool {
        if pattern == "*/*" || pattern.caseInsensitiveEquals(type) { return true }
        guard pattern.hasSuffix("/*") else { return false }
        let major = pattern.utf8.dropLast(1)  // `text/`
        let t = type.utf8
        guard t.count > major.count else { return false }
        return zip(major, t).allSatisfy { asciiLower($0) == asciiLower($1) }
    }
}

@inline(__always) func asciiLower(_ b: UInt8) -> UInt8 { b >= 65 && b <= 90 ? b + 32 : b }

extension String {
    func caseInsensitiveEquals(_ other: String) -> Bool {
        let a = utf8, b = other.utf8
        return a.count == b.count && zip(a, b).allSatisfy { asciiLower($0) == asciiLower($1) }
    }
}

/// One representation of a dragged item: a MIME type and the data in it.
package struct DragRepresentation: Hashable, Sendable {
    /// A MIME type (`text/plain`, `text/uri-list`, `image/png`).
    package var type: String
    /// The data, as the client gave it (binary data base64-encoded by the client).
    package var data: String

    /// Creates a representation.
    package init(type: String, data: String) {
        self.type = type
        self.data = data
    }
}

/// An item of a drag session: the same thing in one or more types, the
/// source's preferred first (UIKit's item provider, inline).
package struct DragItem: Hashable, Sendable {
    /// Its representations (at least one).
    package var representations: [DragRepresentation]

    /// Creates an item.
    package init(_ representations: [DragRepresentation]) {
        self.representations = representations
    }

    /// Bytes of data it carries (UTF-8), what the session's limit counts.
    package var dataBytes: Int { representations.reduce(0) { $0 + $1.data.utf8.count } }
}

/// What a drop target proposes for the session over it (UIKit's `UIDropOperation`).
package enum DropOperation: String, Hashable, Sendable, CaseIterable {
    /// The target would copy the items.
    case copy
    /// The target would move them (the source removes its own).
    case move
    /// Dropping here is not allowed (shown as forbidden; a lift cancels).
    case forbidden
    /// The target does not take them (the default before it answers).
    case cancel
}

/// How a session ended, as every party is told.
package enum DragOutcome: String, Hashable, Sendable {
    /// Dropped on a target that proposed `copy`.
    case copy
    /// Dropped on a target that proposed `move`.
    case move
    /// No drop.
    case cancelled
}

/// Why a session ended.
package enum DragEndReason: String, Hashable, Sendable {
    /// The touch lifted (a drop, or a cancel when no target took it).
    case lifted
    /// The touch was cancelled: a system gesture claimed it, its device was
    /// unplugged, or the source's surface or recognizer went away.
    case touchCancelled = "touch-cancelled"
    /// The source's client disconnected.
    case sourceGone = "source-gone"
    /// The source answered with no item (the drag goes on without a session).
    case noItems = "no-items"
    /// The source did not answer in time (the drag goes on without a session).
    case timedOut = "timed-out"
}

/// Something a drag session tells one client (semantics §12).
package struct DragSessionEvent: Hashable, Sendable {
    /// What happened.
    package enum Kind: Hashable, Sendable {
        /// To the source: its drag began on a surface that offers items; answer
        /// request `request` with the items before the deadline.
        case itemsRequested(request: Int)
        /// To a client that adds items: a tap on its surface during the session;
        /// answer request `request` with the items to add (or none).
        case addRequested(request: Int)
        /// To a target: the session's touch came over it. `types`: every type
        /// of the items; `items`: how many. Never the data.
        case entered(types: [String], items: Int)
        /// To a target: the touch moved over it (an update: coalescible).
        case moved
        /// To a target: the touch left it (or the items no longer fit it).
        case exited
        /// To the target under the touch at the lift, whose last proposal was
        /// copy or move: the items' data.
        case perform(operation: DropOperation, items: [DragItem])
        /// To every party (the source, clients that added items, the target
        /// under the touch at the end), once.
        case ended(outcome: DragOutcome, reason: DragEndReason)
    }

    /// When (the frame's or deadline's time, or the time of the answer that caused it).
    package var time: Timestamp
    /// The session.
    package var session: Int
    /// The client owner it is for.
    package var owner: String
    /// The surface of that client it is about (nil for `ended` to a party without one).
    package var surface: SurfaceID?
    /// The session's touch, in screen pixels (nil for `ended`).
    package var location: Point?
    /// What happened.
    package var kind: Kind

    /// Creates an event.
    package init(time: Timestamp, session: Int, owner: String, surface: SurfaceID?, location: Point?, kind: Kind) {
        self.time = time
        self.session = session
        self.owner = owner
        self.surface = surface
        self.location = location
        self.kind = kind
    }

    /// Whether a later event of the same session for the same client says all it did (coalescing).
    package var isUpdate: Bool { kind == .moved }
}

/// Why an answer to a drag session was refused; the protocol's error code and
/// message come from it.
package struct DragRequestError: Error, Hashable, Sendable {
    /// What is wrong.
    package enum Code: String, Hashable, Sendable {
        /// No pending request of that number for this client (never asked, answered already, or expired).
        case unknownRequest = "unknown-request"
        /// No session of that number over this client's surfaces.
        case unknownSession = "unknown-session"
        /// Too many items, representations or bytes.
        case limitExceeded = "limit-exceeded"
        /// A malformed item.
        case badField = "bad-field"
    }
    /// What is wrong.
    package var code: Code
    /// Says what and where.
    package var message: String

    /// Creates an error.
    package init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
