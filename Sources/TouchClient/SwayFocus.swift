// SPDX-License-Identifier: MIT
import JSON
import Wire

// The focused app under sway, from its IPC (sway-ipc(7)): a follower in the user's session
// reads `$SWAYSOCK` and reports to touchd (`touchctl follow-focus`). Pure: the bytes in, the
// reports out; the socket is the command's.

/// sway's IPC framing: `i3-ipc`, the payload's length and the message type (32-bit, the host's
/// byte order, as sway writes them), then the JSON payload.
public enum SwayIPC {
    /// The magic string every message starts with.
    public static let magic: [UInt8] = Array("i3-ipc".utf8)
    /// `SUBSCRIBE`: the payload is a JSON list of event names.
    public static let subscribe: UInt32 = 2
    /// `GET_TREE`: the layout tree, with `focused` on the focused node.
    public static let getTree: UInt32 = 4
    /// Event types have the high bit set; `window` is event 3.
    public static let windowEvent: UInt32 = 0x8000_0003
    /// `workspace` is event 0.
    public static let workspaceEvent: UInt32 = 0x8000_0000

    /// A message to send.
    public static func message(_ type: UInt32, _ payload: String) -> [UInt8] {
        let body = Array(payload.utf8)
        var out = magic
        withUnsafeBytes(of: UInt32(body.count).littleEndian) { out += $0 }
        withUnsafeBytes(of: type.littleEndian) { out += $0 }
        return out + body
    }

    /// Splits the bytes read into messages; keeps a partial one for the next read.
    public struct Reader: Sendable {
        var buffer: [UInt8] = []

        /// An empty reader.
        public init() {}

        /// Takes bytes; returns the whole messages they complete, or throws on bytes that are
        /// not sway's framing.
        public mutating func take(_ bytes: some Sequence<UInt8>) throws(SwayIPCError) -> [(type: UInt32, payload: [UInt8])] {
            buffer += bytes
            var out: [(type: UInt32, payload: [UInt8])] = []
            while buffer.count >= 14 {
                guard Array(buffer[0..<6]) == magic else { throw SwayIPCError(description: "not sway's IPC (no i3-ipc magic)") }
                func u32(_ at: Int) -> UInt32 {
                    UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16 | UInt32(buffer[at + 3]) << 24
                }
                let length = Int(u32(6)), type = u32(10)
                guard length <= 64 << 20 else { throw SwayIPCError(description: "a message of \(length) bytes") }
                guard buffer.count >= 14 + length else { break }
                out.append((type, Array(buffer[14..<(14 + length)])))
                buffer.removeFirst(14 + length)
            }
            return out
        }
    }
}

/// sway's IPC said something the follower cannot read.
public struct SwayIPCError: Error, CustomStringConvertible, Sendable {
    /// What was wrong.
    public var description: String
}

/// Follows the focused window from sway's answers and events; says when the report changes.
public struct SwayFocusFollower: Sendable {
    /// The report last decided (nil before the tree was read).
    public private(set) var current: FocusReport?

    /// A follower that knows nothing yet.
    public init() {}

    /// The report of a node (a window: `app_id`, or X11's `window_properties.class`).
    static func report(of node: JSONValue) -> FocusReport {
        let app = node["app_id"]?.stringValue ?? node["window_properties"]?["class"]?.stringValue
        let fullScreen = (node["fullscreen_mode"]?.doubleValue ?? 0) != 0
        return FocusReport(appID: app?.isEmpty == false ? app : nil, title: node["name"]?.stringValue, fullScreen: fullScreen)
    }

    /// The focused node of a tree: the node with `focused: true` (depth first, floating ones too).
    static func focused(in node: JSONValue) -> JSONValue? {
        if node["focused"]?.boolValue == true { return node }
        for key in ["nodes", "floating_nodes"] {
            for child in node[key]?.arrayValue ?? [] {
                if let f = focused(in: child) { return f }
            }
        }
        return nil
    }

    /// Takes one message from sway (`GET_TREE`'s answer, a `window` or `workspace` event);
    /// returns the new report when it changed.
    public mutating func take(type: UInt32, payload: [UInt8]) -> FocusReport? {
        guard let json = try? JSONParser.parse(payload) else { return nil }
        let next: FocusReport
        switch type {
        case SwayIPC.getTree:
            // A workspace (no window focused) or an output has no app.
            guard let node = Self.focused(in: json), node["type"]?.stringValue == "con" || node["type"]?.stringValue == "floating_con" else {
                next = .unknown
                break
            }
            next = Self.report(of: node)
        case SwayIPC.windowEvent:
            guard let change = json["change"]?.stringValue, let container = json["container"] else { return nil }
            let isFocused = container["focused"]?.boolValue == true
            switch change {
            case "focus": next = Self.report(of: container)
            case "title", "fullscreen_mode", "urgent", "mark", "floating", "move":
                guard isFocused else { return nil }
                next = Self.report(of: container)
            case "close":
                // The next focus event names the window focused now; until then nothing is.
                guard isFocused || current?.appID == Self.report(of: container).appID else { return nil }
                next = .unknown
            default:
                return nil
            }
        case SwayIPC.workspaceEvent:
            // An empty workspace focused: no window has the focus.
            guard json["change"]?.stringValue == "focus", let nodes = json["current"]?["nodes"]?.arrayValue,
                  nodes.isEmpty, (json["current"]?["floating_nodes"]?.arrayValue ?? []).isEmpty else { return nil }
            next = .unknown
        default:
            return nil
        }
        guard next != current else { return nil }
        current = next
        return next
    }
}
