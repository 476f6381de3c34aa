// SPDX-License-Identifier: MIT
import Wire

// The focused app under wlroots compositors (sway, labwc, Hyprland, wayfire, river) through
// wlr-foreign-toplevel-management-unstable-v1: a follower in the user's session connects to
// `$WAYLAND_DISPLAY` as a plain Wayland client and reports to touchd (`touchctl follow-focus`).
// Pure: the bytes in, the requests to send and the reports out; the socket is the command's.
// The protocol needs no file descriptors, so the follower speaks the wire format itself and
// needs no libwayland.

/// The Wayland wire format (the Wayland book, "Wire protocol basics"): each message is the
/// object's id, then its size in bytes (upper 16 bits) and opcode (lower 16), in the host's
/// byte order, then 32-bit aligned arguments.
public enum WaylandWire {
    /// A message from the compositor.
    public struct Message: Hashable, Sendable {
        /// The object the event is for.
        public var object: UInt32
        /// The event's opcode within its interface.
        public var opcode: UInt16
        /// The arguments' bytes.
        public var body: [UInt8]

        /// Creates a message.
        public init(object: UInt32, opcode: UInt16, body: [UInt8]) {
            self.object = object
            self.opcode = opcode
            self.body = body
        }
    }

    /// An argument of a request.
    public enum Argument: Sendable {
        /// `uint` (and `new_id` of a typed interface, and `object`).
        case uint(UInt32)
        /// `string`: its length with the NUL, the bytes, the NUL, padding to 4.
        case string(String)
    }

    /// A request's bytes.
    public static func request(object: UInt32, opcode: UInt16, _ arguments: [Argument] = []) -> [UInt8] {
        var body: [UInt8] = []
        for a in arguments {
            switch a {
            case .uint(let v):
                append(v, to: &body)
            case .string(let s):
                let bytes = Array(s.utf8) + [0]
                append(UInt32(bytes.count), to: &body)
                body += bytes
                body += [UInt8](repeating: 0, count: (4 - bytes.count % 4) % 4)
            }
        }
        var out: [UInt8] = []
        append(object, to: &out)
        append(UInt32(8 + body.count) << 16 | UInt32(opcode), to: &out)
        return out + body
    }

    static func append(_ v: UInt32, to out: inout [UInt8]) {
        withUnsafeBytes(of: v) { out += $0 }
    }

    /// Splits the bytes read into messages; keeps a partial one for the next read.
    public struct Reader: Sendable {
        var buffer: [UInt8] = []

        /// An empty reader.
        public init() {}

        /// Takes bytes; returns the whole messages they complete, or throws on a header no
        /// compositor writes (a size under the header's or not a multiple of 4).
        public mutating func take(_ bytes: some Sequence<UInt8>) throws(WaylandWireError) -> [Message] {
            buffer += bytes
            var out: [Message] = []
            var at = 0
            while buffer.count - at >= 8 {
                let object = ArgumentReader.u32(buffer, at)
                let word = ArgumentReader.u32(buffer, at + 4)
                let size = Int(word >> 16)
                guard size >= 8, size % 4 == 0 else {
                    throw WaylandWireError(description: "a message of \(size) bytes for object \(object)")
                }
                guard buffer.count - at >= size else { break }
                out.append(Message(object: object, opcode: UInt16(word & 0xffff), body: Array(buffer[(at + 8)..<(at + size)])))
                at += size
            }
            buffer.removeFirst(at)
            return out
        }
    }

    /// Reads a message's arguments in order.
    public struct ArgumentReader: Sendable {
        let body: [UInt8]
        var at = 0

        /// A reader at the first argument.
        public init(_ message: Message) { body = message.body }

        static func u32(_ b: [UInt8], _ at: Int) -> UInt32 {
            b.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
        }

        /// A `uint`, `object` or `new_id`.
        public mutating func uint() throws(WaylandWireError) -> UInt32 {
            guard body.count - at >= 4 else { throw WaylandWireError(description: "a message ends before its arguments") }
            defer { at += 4 }
            return Self.u32(body, at)
        }

        /// An `array`'s bytes.
        public mutating func array() throws(WaylandWireError) -> [UInt8] {
            let count = Int(try uint())
            let padded = (count + 3) & ~3
            guard count <= body.count - at, padded <= body.count - at else {
                throw WaylandWireError(description: "an array of \(count) bytes past its message's end")
            }
            defer { at += padded }
            return Array(body[at..<(at + count)])
        }

        /// A `string` (nil: the null string); bytes that are not UTF-8 are repaired.
        public mutating func string() throws(WaylandWireError) -> String? {
            let bytes = try array()
            guard let nul = bytes.last else { return nil }
            guard nul == 0 else { throw WaylandWireError(description: "a string without its NUL") }
            return String(decoding: bytes.dropLast(), as: UTF8.self)
        }
    }
}

/// The compositor's bytes are not the Wayland wire format.
public struct WaylandWireError: Error, CustomStringConvertible, Sendable {
    /// What was wrong.
    public var description: String
}

/// Why following the focus through wlr-foreign-toplevel-management ended.
public enum ForeignToplevelError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The compositor has no `zwlr_foreign_toplevel_manager_v1` (GNOME and KDE do not).
    case notOffered
    /// The compositor ended the protocol (`finished`).
    case finished
    /// A fatal `wl_display.error`: the object, the code and the compositor's message.
    case protocolError(object: UInt32, code: UInt32, message: String)
    /// Bytes that are not the wire format.
    case malformed(String)

    /// What happened, for the command's error line.
    public var description: String {
        switch self {
        case .notOffered:
            return "the compositor does not offer zwlr_foreign_toplevel_manager_v1 (wlroots compositors do; GNOME and KDE do not)"
        case .finished:
            return "the compositor finished the foreign-toplevel protocol"
        case .protocolError(let object, let code, let message):
            return "protocol error \(code) on object \(object): \(message)"
        case .malformed(let why):
            return "not the Wayland wire format: \(why)"
        }
    }
}

/// Follows the focused toplevel through wlr-foreign-toplevel-management (version 1 to 3): the
/// activated toplevel's `app_id`, title and full-screen state, committed at each `done`.
///
/// The follower's own objects: the display (1), the registry (2), a `sync` callback (3) that
/// marks the end of the globals, the manager (4). Send ``greeting`` first, then each message
/// read to ``take(_:)`` and what it returns to send.
public struct ForeignToplevelFollower: Sendable {
    static let display: UInt32 = 1, registry: UInt32 = 2, globalsDone: UInt32 = 3, manager: UInt32 = 4
    /// The interface, as the registry announces it.
    public static let interface = "zwlr_foreign_toplevel_manager_v1"
    /// The highest version read: 3 (version 2 added `fullscreen`, 3 the `parent` event).
    static let highestVersion: UInt32 = 3

    /// `zwlr_foreign_toplevel_handle_v1.state` values.
    enum State: UInt32 {
        case maximized = 0, minimized = 1, activated = 2, fullScreen = 3
    }

    struct Toplevel: Sendable, Equatable {
        var appID: String?
        var title: String?
        var activated = false
        var fullScreen = false
    }

    /// `wl_display.get_registry` and `wl_display.sync`: what to send first.
    public static let greeting: [UInt8] =
        WaylandWire.request(object: display, opcode: 1, [.uint(registry)])
        + WaylandWire.request(object: display, opcode: 0, [.uint(globalsDone)])

    /// The report last decided (nil until the first toplevel's `done` or the end of the globals).
    public private(set) var current: FocusReport?
    private var bound = false
    /// State as the compositor sends it, applied at `done`.
    private var pending: [UInt32: Toplevel] = [:]
    /// State as of each toplevel's last `done`.
    private var committed: [UInt32: Toplevel] = [:]

    /// A follower that knows nothing yet.
    public init() {}

    /// Takes one message from the compositor. Returns the requests to send (a bind, a closed
    /// toplevel's destroy) and the new report when it changed.
    public mutating func take(_ message: WaylandWire.Message) throws(ForeignToplevelError) -> (send: [UInt8], report: FocusReport?) {
        var args = WaylandWire.ArgumentReader(message)
        do {
            switch (message.object, message.opcode) {
            case (Self.display, 0):
                let object = try args.uint(), code = try args.uint()
                throw ForeignToplevelError.protocolError(object: object, code: code, message: try args.string() ?? "")
            case (Self.registry, 0):
                let name = try args.uint()
                guard !bound, try args.string() == Self.interface else { return ([], nil) }
                let version = min(try args.uint(), Self.highestVersion)
                bound = true
                // wl_registry.bind with an untyped new_id: name, interface, version, id.
                return (WaylandWire.request(object: Self.registry, opcode: 0,
                                            [.uint(name), .string(Self.interface), .uint(version), .uint(Self.manager)]), nil)
            case (Self.globalsDone, 0):
                guard bound else { throw ForeignToplevelError.notOffered }
                return ([], decide())
            case (Self.manager, 0):
                pending[try args.uint()] = Toplevel()
                return ([], nil)
            case (Self.manager, 1):
                throw ForeignToplevelError.finished
            case (let object, let opcode) where pending[object] != nil:
                switch opcode {
                case 0: pending[object]?.title = try args.string()
                case 1: pending[object]?.appID = try args.string()
                case 4:
                    let bytes = try args.array()
                    var states: Set<UInt32> = []
                    var i = 0
                    while i + 4 <= bytes.count {
                        states.insert(WaylandWire.ArgumentReader.u32(bytes, i))
                        i += 4
                    }
                    pending[object]?.activated = states.contains(State.activated.rawValue)
                    pending[object]?.fullScreen = states.contains(State.fullScreen.rawValue)
                case 5:
                    committed[object] = pending[object]
                    return ([], decide())
                case 6:
                    pending[object] = nil
                    committed[object] = nil
                    // The handle is inert once closed; destroying it frees it on both sides.
                    return (WaylandWire.request(object: object, opcode: 7), decide())
                default:
                    break
                }
                return ([], nil)
            default:
                // delete_id, output events, parent, and anything of objects not followed.
                return ([], nil)
            }
        } catch let error as ForeignToplevelError {
            throw error
        } catch {
            throw ForeignToplevelError.malformed("\(error)")
        }
    }

    /// The activated toplevel's report; unknown when none is (a desktop, or the focus is on a
    /// layer surface such as a launcher). Returns it when it changed.
    private mutating func decide() -> FocusReport? {
        // One seat has one activated toplevel; should a compositor mark several, the oldest handle wins, not the dictionary's order.
        let focused = committed.filter { $0.value.activated }.min(by: { $0.key < $1.key })?.value
        let next = focused.map { FocusReport(appID: $0.appID?.isEmpty == false ? $0.appID : nil, title: $0.title, fullScreen: $0.fullScreen) }
            ?? .unknown
        guard next != current else { return nil }
        current = next
        return next
    }
}
