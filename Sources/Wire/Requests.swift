// SPDX-License-Identifier: MIT
import JSON

/// The `id` a client attached to a request, echoed back as given.
public enum RequestID: Hashable, Sendable, CustomStringConvertible {
    case int(Int64)
    case double(Double)
    case string(String)

    /// Writes the id as a JSON value.
    public func write(into w: inout JSONWriter) {
        switch self {
        case let .int(v): w.int(v)
        case let .double(v): JSONValue.double(v).write(into: &w)
        case let .string(v): w.string(v)
        }
    }

    public var description: String {
        switch self {
        case let .int(v): return String(v)
        case let .double(v): return String(v)
        case let .string(v): return "\"\(v)\""
        }
    }
}

/// An event stream a client can subscribe to.
public enum EventStream: String, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// Recognizer actions (`gesture` messages).
    case gesture
    /// Raw touches (`touch` messages).
    case touch
    /// System gestures and hints (`system` messages).
    case system
    /// Devices added, removed or changed (`device` messages).
    case device
    /// Engine explanations (arbitration decisions, transitions).
    case debug
}

/// What a subscription lets through, beyond its streams. Keys AND together,
/// the values of one key OR together; nil means "no constraint". A key only
/// constrains events that carry that attribute (a `kinds` filter does not
/// drop `touch` or `device` events).
public struct SubscriptionFilter: Hashable, Sendable {
    /// Gesture kinds (`tap`, `pan`, ...).
    public var kinds: [String]?
    /// Recognizer names.
    public var recognizers: [String]?
    /// Device ids.
    public var devices: [UInt32]?
    /// Touch types (`direct`, `indirect`, `stylus`).
    public var touchTypes: [String]?
    /// Surface ids.
    public var surfaces: [String]?

    /// Creates a filter; every key is optional.
    public init(kinds: [String]? = nil, recognizers: [String]? = nil, devices: [UInt32]? = nil, touchTypes: [String]? = nil, surfaces: [String]? = nil) {
        self.kinds = kinds
        self.recognizers = recognizers
        self.devices = devices
        self.touchTypes = touchTypes
        self.surfaces = surfaces
    }

    /// Whether the filter constrains nothing.
    public var isEmpty: Bool { kinds == nil && recognizers == nil && devices == nil && touchTypes == nil && surfaces == nil }
}

/// A `subscribe` request: streams and an optional filter.
public struct Subscription: Hashable, Sendable {
    /// The streams, in the order given, without repeats.
    public var events: [EventStream]
    /// The filter (empty when the request had none).
    public var filter: SubscriptionFilter

    /// Creates a subscription.
    public init(events: [EventStream], filter: SubscriptionFilter = SubscriptionFilter()) {
        self.events = events
        self.filter = filter
    }
}

/// A surface rectangle in screen pixels.
public struct SurfaceRect: Hashable, Sendable {
    public var x: Double
    public var y: Double
    public var width: Double
    public var height: Double

    /// Creates a rectangle.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }
}

/// A surface as `register` and `update` describe it. Optional fields are nil
/// when the client left them out (the engine applies its defaults).
/// Recognizer objects stay generic JSON: their schema belongs to the gesture engine.
public struct SurfaceDescription: Hashable, Sendable {
    /// The surface id, unique within the connection.
    public var id: String
    /// Position and size on its screen, in pixels.
    public var rect: SurfaceRect
    /// Stacking order (higher is on top).
    public var z: Double?
    /// The parent surface's id (nil: a top-level surface).
    public var parent: String?
    /// Screen index.
    public var screen: Int?
    /// Hidden surfaces and their children are not hit.
    public var hidden: Bool?
    /// Disabled surfaces and their children are not hit.
    public var enabled: Bool?
    /// When false, only the first touch is delivered.
    public var multipleTouch: Bool?
    /// While touched, blocks touches to other surfaces.
    public var exclusiveTouch: Bool?
    /// Screen edges whose system gestures should be deferred (`top`, `bottom`, `left`, `right`).
    public var deferEdges: [String]?
    /// A child surface that decides deferral for this one.
    public var delegateDeferralTo: String?
    /// Whether the surface covers its whole screen (deferral policy may require it).
    public var fullScreen: Bool?
    /// Recognizer objects, each with at least `name` and `kind` strings.
    public var recognizers: [JSONValue]

    /// Creates a surface description.
    public init(
        id: String, rect: SurfaceRect, z: Double? = nil, parent: String? = nil, screen: Int? = nil,
        hidden: Bool? = nil, enabled: Bool? = nil, multipleTouch: Bool? = nil, exclusiveTouch: Bool? = nil,
        deferEdges: [String]? = nil, delegateDeferralTo: String? = nil, fullScreen: Bool? = nil,
        recognizers: [JSONValue] = []
    ) {
        self.id = id
        self.rect = rect
        self.z = z
        self.parent = parent
        self.screen = screen
        self.hidden = hidden
        self.enabled = enabled
        self.multipleTouch = multipleTouch
        self.exclusiveTouch = exclusiveTouch
        self.deferEdges = deferEdges
        self.delegateDeferralTo = delegateDeferralTo
        self.fullScreen = fullScreen
        self.recognizers = recognizers
    }

    /// The recognizer names, in order (every recognizer has a `name` string once decoded).
    public var recognizerNames: [String] { recognizers.compactMap { $0["name"]?.stringValue } }
}

/// One client request.
public enum Request: Hashable, Sendable {
    /// Adds a subscription.
    case subscribe(Subscription)
    /// Removes the listed streams from every subscription (nil: everything).
    case unsubscribe(events: [EventStream]?)
    /// Registers a new surface.
    case register(SurfaceDescription)
    /// Replaces a registered surface's description.
    case update(SurfaceDescription)
    /// Removes a surface.
    case unregister(surface: String)
    /// Asks for an `ack`.
    case ping
    /// Sets how often the connection gets continuous updates (touch moves
    /// and hovers, gesture `changed`): at most once per interval, the latest
    /// of each touch or gesture; 0 turns coalescing off (docs/protocol.md, "coalesce").
    case coalesce(intervalMilliseconds: Double)
    /// Changes the screen geometry (needs the configuration's `access.changeScreens`).
    case screens(ScreenChange)
    /// Reports the focused app (a follower in the seat's active session; docs/protocol.md, "focus").
    case focus(FocusReport)
    /// Reports the compositor reading the pass-through mirrors (an agent in the seat's active
    /// session; docs/protocol.md, "compositor").
    case compositor(CompositorReport)
    /// A drag session request (`drag-surface`, `drag-items`, `drop-proposal`; semantics §12).
    case drag(DragRequest)
    /// States the client's display frames and asks for a `motion` line per
    /// touch and frame (docs/protocol.md, "frames"); ``FramesRequest/off`` stops them.
    case frames(FramesRequest)

    /// The `op` string.
    public var op: String {
        switch self {
        case .subscribe: return "subscribe"
        case .unsubscribe: return "unsubscribe"
        case .register: return "register"
        case .update: return "update"
        case .unregister: return "unregister"
        case .ping: return "ping"
        case .coalesce: return "coalesce"
        case .screens: return "screens"
        case .focus: return "focus"
        case .compositor: return "compositor"
        case .drag(let d): return d.op
        case .frames: return "frames"
        }
    }
}

/// A decoded request line: the request and the id to echo.
public struct RequestEnvelope: Hashable, Sendable {
    /// The client's id, if it sent one.
    public var id: RequestID?
    /// The request.
    public var request: Request

    /// Creates an envelope.
    public init(id: RequestID?, request: Request) {
        self.id = id
        self.request = request
    }
}
