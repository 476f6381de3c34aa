// SPDX-License-Identifier: MIT
import TouchCore

/// A decision of the drag sessions (semantics §8 for §12): what
/// `touchctl replay --explain` prints and what the live view and the
/// renderer draw. It says who took part and what the items are (count and
/// types), never their data.
package struct DragSessionRecord: Hashable, Sendable, CustomStringConvertible {
    /// What was decided.
    package enum Kind: Hashable, Sendable {
        /// The source's drag began on a surface that offers items: asked for them.
        case opened(request: Int)
        /// The source answered with items: the session is active.
        case itemsAnswered
        /// A tap on a surface that adds items asked its client (the tap is held).
        case addAsked(owner: String, surface: SurfaceID, request: Int)
        /// That client's items joined the session (the tap is consumed).
        case itemsAdded(owner: String, count: Int)
        /// A held tap goes on as a tap: `reason` says why (no item, no answer, the session ended).
        case tapReleased(owner: String, surface: SurfaceID, reason: String)
        /// The touch came over a drop target.
        case entered(owner: String, surface: SurfaceID)
        /// The touch left it (or items were added and it is entered again).
        case exited(owner: String, surface: SurfaceID)
        /// The target under the touch proposed an operation.
        case proposal(owner: String, surface: SurfaceID, operation: DropOperation)
        /// At the lift the target got the data.
        case dropped(owner: String, surface: SurfaceID, operation: DropOperation)
        /// The session ended; every party is told.
        case ended(outcome: DragOutcome, reason: DragEndReason)
    }

    /// When (a frame's, a deadline's or an answer's time).
    package var time: Timestamp
    /// The session.
    package var session: Int
    /// The source's owner (a client's `client-N`, `config` for a configuration file's surface).
    package var source: String
    /// The source surface.
    package var sourceSurface: SurfaceID
    /// The screen of the session's touch.
    package var screen: Int
    /// The session's touch, in screen pixels.
    package var location: Point
    /// How many items the session holds.
    package var items: Int
    /// Their types, in order of first appearance.
    package var types: [String]
    /// What was decided.
    package var kind: Kind

    /// Creates a record.
    package init(time: Timestamp, session: Int, source: String, sourceSurface: SurfaceID, screen: Int = 0, location: Point, items: Int,
                types: [String], kind: Kind) {
        self.screen = screen
        self.time = time
        self.session = session
        self.source = source
        self.sourceSurface = sourceSurface
        self.location = location
        self.items = items
        self.types = types
        self.kind = kind
    }

    /// One line, as `touchctl replay --explain` prints it.
    package var description: String {
        var s = "\(time) session \(session): "
        let what = items == 1 ? "1 item" : "\(items) items"
        let typed = types.isEmpty ? "" : " (" + types.joined(separator: ", ") + ")"
        switch kind {
        case .opened(let request):
            s += "drag began on \(sourceSurface): asked \(source) for items (request \(request), 250 ms)"
        case .itemsAnswered:
            s += "\(source) gave \(what)\(typed): active"
        case .addAsked(let owner, let surface, let request):
            s += "tap on \(surface) held: asked \(owner) for items to add (request \(request), 250 ms)"
        case .itemsAdded(let owner, let count):
            s += "\(owner) added \(count == 1 ? "1 item" : "\(count) items"): now \(what)\(typed); the tap is no tap"
        case .tapReleased(let owner, let surface, let reason):
            s += "held tap on \(surface) goes to \(owner) as a tap (\(reason))"
        case .entered(let owner, let surface):
            s += "target \(surface) of \(owner) entered with \(what)\(typed); proposal cancel until it answers"
        case .exited(let owner, let surface):
            s += "target \(surface) of \(owner) exited"
        case .proposal(let owner, let surface, let operation):
            s += "target \(surface) of \(owner) proposes \(operation.rawValue)"
        case .dropped(let owner, let surface, let operation):
            s += "lifted over \(surface) of \(owner): \(operation.rawValue), the data to it"
        case .ended(let outcome, let reason):
            s += "ended \(outcome.rawValue) (\(reason.rawValue))"
            switch reason {
            case .noItems: s += ": the source gave no item, the drag goes on without a session"
            case .timedOut: s += ": no answer from the source in 250 ms, the drag goes on without a session"
            case .lifted where outcome == .cancelled: s += ": no target took it"
            case .lifted, .touchCancelled, .sourceGone: break
            }
        }
        return s
    }
}

/// A configuration file surface's part in drag sessions (semantics §12), with
/// the daemon answering for it, as it has no client: the items its drags offer
/// and its taps add, and what it proposes as a drop target. It makes sessions
/// replayable offline (`touchctl replay --explain`, `touchctl render`).
package struct SurfaceDragConfiguration: Hashable, Sendable, Codable {
    /// What the surface does (offers items, adds items, drop types, compact).
    package var roles: DragRoles
    /// What it gives when asked for items (none: it declines).
    package var items: [DragItem]
    /// What it proposes when a session's touch enters it (a drop target).
    package var proposal: DropOperation

    /// Creates a configuration.
    package init(roles: DragRoles, items: [DragItem] = [], proposal: DropOperation = .copy) {
        self.roles = roles
        self.items = items
        self.proposal = proposal
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case offersItems, addsItems, dropTypes, compact, items, proposal }
    struct Representation: Codable { var type: String; var data: String }
    struct Item: Codable { var representations: [Representation] }

    /// Decodes `offersItems`, `addsItems`, `dropTypes`, `compact`, `items` (as in
    /// `drag-items`) and `proposal` (`copy` by default).
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        try rejectUnknownKeys(decoder, known: Set(CodingKeys.allCases.map(\.stringValue)), what: "drag")
        roles = DragRoles(offersItems: try c.decodeIfPresent(Bool.self, forKey: .offersItems) ?? false,
                          addsItems: try c.decodeIfPresent(Bool.self, forKey: .addsItems) ?? false,
                          dropTypes: try c.decodeIfPresent([String].self, forKey: .dropTypes) ?? [],
                          compact: try c.decodeIfPresent(Bool.self, forKey: .compact) ?? false)
        for t in roles.dropTypes {
            try require(t.split(separator: "/", omittingEmptySubsequences: false).count == 2, CodingKeys.dropTypes, c,
                        "'\(t)' is not a MIME type such as text/plain or text/*")
        }
        let decoded = try c.decodeIfPresent([Item].self, forKey: .items) ?? []
        items = decoded.map { DragItem($0.representations.map { DragRepresentation(type: $0.type, data: $0.data) }) }
        try require(items.allSatisfy { !$0.representations.isEmpty }, CodingKeys.items, c, "an item needs representations")
        try require(items.count <= DragSessions.maxItems, CodingKeys.items, c, "at most \(DragSessions.maxItems) items")
        let name = try c.decodeIfPresent(String.self, forKey: .proposal) ?? "copy"
        guard let p = DropOperation(rawValue: name) else {
            throw DecodingError.dataCorruptedError(forKey: .proposal, in: c, debugDescription: "expected copy, move, forbidden or cancel, not '\(name)'")
        }
        proposal = p
    }

    /// Encodes every key.
    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(roles.offersItems, forKey: .offersItems)
        try c.encode(roles.addsItems, forKey: .addsItems)
        try c.encode(roles.dropTypes, forKey: .dropTypes)
        try c.encode(roles.compact, forKey: .compact)
        try c.encode(items.map { Item(representations: $0.representations.map { Representation(type: $0.type, data: $0.data) }) }, forKey: .items)
        try c.encode(proposal.rawValue, forKey: .proposal)
    }
}
