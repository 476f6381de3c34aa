import Wire

/// One pre-encoded event the engine hands to the publisher, with the
/// attributes routing needs. The publisher never parses `line`.
public struct PublishedEvent: Sendable {
    /// The stream it belongs to.
    public var stream: EventStream
    /// Gesture kind (`tap`, `pan`, ...), for `kinds` filters.
    public var kind: String?
    /// Recognizer name, for `recognizers` filters.
    public var recognizer: String?
    /// Device id, for `devices` filters.
    public var device: UInt32?
    /// Touch type (`direct`, `indirect`, `stylus`), for `touchTypes` filters.
    public var touchType: String?
    /// Surface id, for `surfaces` filters.
    public var surface: String?
    /// The client owning the surface: such events go to that client only
    /// (and, for the touch stream, to clients granted `seeAllTouches`).
    public var owner: ClientID?
    /// Event time in seconds (the `time` field of the message); reported in `overflow`.
    public var time: Double
    /// The encoded JSON object, without a newline; empty for the events of an
    /// ``EventBatch``, whose lines are in the batch's buffer.
    public var line: [UInt8]

    /// Creates an event.
    public init(
        stream: EventStream, kind: String? = nil, recognizer: String? = nil, device: UInt32? = nil,
        touchType: String? = nil, surface: String? = nil, owner: ClientID? = nil, time: Double, line: [UInt8]
    ) {
        self.stream = stream
        self.kind = kind
        self.recognizer = recognizer
        self.device = device
        self.touchType = touchType
        self.surface = surface
        self.owner = owner
        self.time = time
        self.line = line
    }
}

extension SubscriptionFilter {
    /// Whether the event passes: every key present must list the event's value;
    /// a key is ignored for events that do not carry that attribute.
    public func matches(_ e: PublishedEvent) -> Bool {
        if let list = kinds, let v = e.kind, !list.contains(v) { return false }
        if let list = recognizers, let v = e.recognizer, !list.contains(v) { return false }
        if let list = devices, let v = e.device, !list.contains(v) { return false }
        if let list = touchTypes, let v = e.touchType, !list.contains(v) { return false }
        if let list = surfaces, let v = e.surface, !list.contains(v) { return false }
        return true
    }
}

/// A client's subscriptions: an event is wanted when any subscription lists
/// its stream and its filter matches.
public struct SubscriptionSet: Sendable {
    /// The subscriptions, oldest first.
    public private(set) var subscriptions: [Subscription] = []
    // Which streams at least one subscription lists: the routing fast path.
    private var streams: Set<EventStream> = []

    /// Creates an empty set.
    public init() {}

    /// Number of subscriptions.
    public var count: Int { subscriptions.count }

    /// Adds a subscription.
    public mutating func add(_ s: Subscription) {
        subscriptions.append(s)
        streams.formUnion(s.events)
    }

    /// Removes the streams from every subscription (nil: removes everything);
    /// subscriptions left without streams disappear.
    public mutating func remove(_ events: [EventStream]?) {
        guard let events else {
            subscriptions.removeAll()
            streams.removeAll()
            return
        }
        for k in subscriptions.indices {
            subscriptions[k].events.removeAll(where: events.contains)
        }
        subscriptions.removeAll(where: { $0.events.isEmpty })
        streams = Set(subscriptions.flatMap(\.events))
    }

    /// Whether any subscription lists the stream.
    public func includes(_ stream: EventStream) -> Bool { streams.contains(stream) }

    /// Whether the event is wanted.
    public func wants(_ e: PublishedEvent) -> Bool {
        guard streams.contains(e.stream) else { return false }
        for s in subscriptions where s.events.contains(e.stream) && s.filter.matches(e) { return true }
        return false
    }
}
