// SPDX-License-Identifier: MIT
import TouchMotion
import Wire

/// One pre-encoded event with the attributes routing needs, as a value of
/// its own (tests, occasional events: `Publisher.publish(_ events: [PublishedEvent])`). The engine
/// appends its events to an ``EventBatch`` instead, which keeps their
/// attributes as ``EventAttributes`` and their lines in one buffer. The
/// publisher never parses `line`.
package struct PublishedEvent: Sendable {
    /// The stream it belongs to.
    package var stream: EventStream
    /// Gesture kind (`tap`, `pan`, ...), for `kinds` filters.
    package var kind: String?
    /// Recognizer name, for `recognizers` filters.
    package var recognizer: String?
    /// Device id, for `devices` filters.
    package var device: UInt32?
    /// Touch type (`direct`, `indirect`, `stylus`), for `touchTypes` filters.
    package var touchType: String?
    /// Surface id, for `surfaces` filters.
    package var surface: String?
    /// The client owning the surface: such events go to that client only
    /// (and, for the touch stream, to clients granted `seeAllTouches`).
    package var owner: ClientID?
    /// Event time in seconds (the `time` field of the message); reported in `overflow`.
    package var time: Double
    /// The touch a `touch` event is about, for coalescing (nil for other events).
    package var touchID: UInt32?
    /// Whether it is a continuous update (a touch moving or hovering, a
    /// gesture `changed`): for a client that asked for coalescing, a later
    /// update of the same subject replaces it while it is held (``HeldLines``).
    package var isUpdate: Bool
    /// Whether every client gets it, whatever it subscribes to (the
    /// `screens` message: semantics §11.3).
    package var toEveryone: Bool = false
    /// Whether it goes only to observers: clients granted `seeAllTouches`
    /// that subscribe to its stream, never to a party of what it describes
    /// (a drag session's decisions, which name every party's surfaces).
    package var observersOnly: Bool = false
    /// A touch report's values, for clients served at their frames (`frames`,
    /// docs/protocol.md): nil for every other event.
    package var motion: ServedReport? = nil
    /// The encoded JSON object, without a newline; empty for the events of an
    /// ``EventBatch``, whose lines are in the batch's buffer.
    package var line: [UInt8]

    /// Creates an event.
    package init(
        stream: EventStream, kind: String? = nil, recognizer: String? = nil, device: UInt32? = nil,
        touchType: String? = nil, surface: String? = nil, owner: ClientID? = nil, time: Double,
        touchID: UInt32? = nil, isUpdate: Bool = false, motion: ServedReport? = nil, line: [UInt8]
    ) {
        self.stream = stream
        self.kind = kind
        self.recognizer = recognizer
        self.device = device
        self.touchType = touchType
        self.surface = surface
        self.owner = owner
        self.time = time
        self.touchID = touchID
        self.isUpdate = isUpdate
        self.motion = motion
        self.line = line
    }
}

/// A name an event of an ``EventBatch`` carries (gesture kind, recognizer,
/// touch type, surface id): its position in the batch's ``EventBatch/names``.
package struct BatchName: Hashable, Sendable, BitwiseCopyable {
    /// The position; -1 for none.
    package var index: Int32

    /// No name: the event does not carry that attribute.
    package static let none = BatchName(index: -1)

    /// Whether there is a name.
    @inline(__always) package var isSome: Bool { index >= 0 }
}

/// What routing reads of an event of an ``EventBatch`` (the attributes of a
/// ``PublishedEvent``), as plain values: its names are positions in the
/// batch's ``EventBatch/names``. A frame's attributes are copied, compared
/// and dropped without a reference count being touched (with strings in
/// them, that was a third of routing: docs/performance.md, "What a client
/// costs the input thread").
package struct EventAttributes: Sendable, BitwiseCopyable {
    /// The stream it belongs to.
    package var stream: EventStream
    /// Gesture kind, for `kinds` filters.
    package var kind: BatchName
    /// Recognizer name, for `recognizers` filters.
    package var recognizer: BatchName
    /// Device id, for `devices` filters.
    package var device: UInt32?
    /// Touch type, for `touchTypes` filters.
    package var touchType: BatchName
    /// Surface id, for `surfaces` filters.
    package var surface: BatchName
    /// The client owning the surface (see ``PublishedEvent/owner``).
    package var owner: ClientID?
    /// Event time in seconds.
    package var time: Double
    /// The touch a `touch` event is about, for coalescing.
    package var touchID: UInt32?
    /// Whether it is a continuous update (see ``PublishedEvent/isUpdate``).
    package var isUpdate: Bool
    /// Whether every client gets it (see ``PublishedEvent/toEveryone``).
    package var toEveryone: Bool = false
    /// Whether only observers get it (see ``PublishedEvent/observersOnly``).
    package var observersOnly: Bool = false
    /// A touch report's values (see ``PublishedEvent/motion``).
    package var motion: ServedReport? = nil
}

extension SubscriptionFilter {
    /// Whether an event of a batch passes: every key present must list the
    /// event's value (its names read from the batch's `names`); a key is
    /// ignored for events that do not carry that attribute.
    package func matches(_ e: EventAttributes, names: [String]) -> Bool {
        if let list = kinds, e.kind.isSome, !list.contains(names[Int(e.kind.index)]) { return false }
        if let list = recognizers, e.recognizer.isSome, !list.contains(names[Int(e.recognizer.index)]) { return false }
        if let list = devices, let v = e.device, !list.contains(v) { return false }
        if let list = touchTypes, e.touchType.isSome, !list.contains(names[Int(e.touchType.index)]) { return false }
        if let list = surfaces, e.surface.isSome, !list.contains(names[Int(e.surface.index)]) { return false }
        return true
    }
}

/// A client's subscriptions: an event is wanted when any subscription lists
/// its stream and its filter matches.
package struct SubscriptionSet: Sendable {
    /// The subscriptions, oldest first.
    package private(set) var subscriptions: [Subscription] = []
    // The streams each subscription lists, as bits (`EventStream.bit`), and
    // which streams at least one lists: routing asks for every event and
    // every client, so without hashing.
    private var streamBits: [UInt8] = []
    private var streams: UInt8 = 0

    /// Creates an empty set.
    package init() {}

    /// Number of subscriptions.
    package var count: Int { subscriptions.count }

    /// Adds a subscription.
    package mutating func add(_ s: Subscription) {
        subscriptions.append(s)
        streamBits.append(EventStream.bits(s.events))
        streams |= streamBits[streamBits.count - 1]
    }

    /// Removes the streams from every subscription (nil: removes everything);
    /// subscriptions left without streams disappear.
    package mutating func remove(_ events: [EventStream]?) {
        guard let events else {
            subscriptions.removeAll()
            streamBits.removeAll()
            streams = 0
            return
        }
        for k in subscriptions.indices {
            subscriptions[k].events.removeAll(where: events.contains)
        }
        subscriptions.removeAll(where: { $0.events.isEmpty })
        streamBits = subscriptions.map { EventStream.bits($0.events) }
        streams = streamBits.reduce(0, |)
    }

    /// Whether any subscription lists the stream.
    package func includes(_ stream: EventStream) -> Bool { streams & stream.bit != 0 }

    /// Whether an event of a batch is wanted, its names read from the batch's `names`.
    package func wants(_ e: EventAttributes, names: [String]) -> Bool {
        let bit = e.stream.bit
        guard streams & bit != 0 else { return false }
        for k in subscriptions.indices where streamBits[k] & bit != 0 && subscriptions[k].filter.matches(e, names: names) { return true }
        return false
    }
}

extension EventStream {
    /// The stream's bit in a set of streams kept as bits.
    var bit: UInt8 {
        switch self {
        case .gesture: return 1 << 0
        case .touch: return 1 << 1
        case .system: return 1 << 2
        case .device: return 1 << 3
        case .debug: return 1 << 4
        }
    }

    /// The streams as bits.
    static func bits(_ streams: [EventStream]) -> UInt8 {
        streams.reduce(0) { $0 | $1.bit }
    }
}
