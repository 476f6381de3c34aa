// SPDX-License-Identifier: MIT

// Drag sessions across clients as the protocol carries them (docs/protocol.md, "Drag sessions").

/// What a surface does in drag sessions, as a `drag-surface` request says it.
public struct WireDragRoles: Hashable, Sendable {
    /// `offersItems`: its `drag` recognizers open a session and its client is asked for items.
    public var offersItems: Bool
    /// `addsItems`: during a session, a tap recognized on it asks its client for items to add.
    public var addsItems: Bool
    /// `dropTypes`: MIME types it accepts as a drop target (`text/plain`, `image/*`, `*/*`);
    /// empty: not a drop target.
    public var dropTypes: [String]
    /// `compact`: its long presses alongside a drag wait until the drag fails (at
    /// the lift for a touch held still) instead of beginning at their own time
    /// (semantics §12.8).
    public var compact: Bool

    /// Creates roles; the default is none.
    public init(offersItems: Bool = false, addsItems: Bool = false, dropTypes: [String] = [], compact: Bool = false) {
        self.offersItems = offersItems
        self.addsItems = addsItems
        self.dropTypes = dropTypes
        self.compact = compact
    }
}

/// One representation of a dragged item: a MIME type and the data in it.
public struct WireDragRepresentation: Hashable, Sendable {
    /// A MIME type (`text/plain`, `text/uri-list`, `image/png`).
    public var type: String
    /// The data as a string (binary data base64-encoded by the client).
    public var data: String

    /// Creates a representation.
    public init(type: String, data: String) {
        self.type = type
        self.data = data
    }
}

/// An item of `drag-items` and of a `perform` event: the same thing in one or more types, the
/// source's preferred first.
public struct WireDragItem: Hashable, Sendable {
    /// Its representations (at least one).
    public var representations: [WireDragRepresentation]

    /// Creates an item.
    public init(_ representations: [WireDragRepresentation]) {
        self.representations = representations
    }
}

/// `operation` of `drop-proposal` and `perform`: what a drop target would do with the items.
public enum WireDropOperation: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// The target would copy the items.
    case copy
    /// The target would move them.
    case move
    /// Dropping here is not allowed.
    case forbidden
    /// The target does not take them.
    case cancel
}

/// `outcome` of a drag `ended` event.
public enum WireDragOutcome: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// Dropped on a target that proposed `copy`.
    case copy
    /// Dropped on a target that proposed `move`.
    case move
    /// No drop.
    case cancelled
}

/// `reason` of a drag `ended` event.
public enum WireDragEndReason: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// The touch lifted.
    case lifted
    /// The touch was cancelled.
    case touchCancelled = "touch-cancelled"
    /// The source's client disconnected.
    case sourceGone = "source-gone"
    /// The source answered with no item.
    case noItems = "no-items"
    /// The source did not answer in time.
    case timedOut = "timed-out"
}
