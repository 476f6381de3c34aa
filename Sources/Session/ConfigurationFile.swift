// SPDX-License-Identifier: MIT
import Gestures
import TouchCore
import YAMLReader

// The configuration file as one model: every section is decoded by the same
// strict decoder (YAMLReader's decodeStrictly), which reports every key no
// section reads with its line and the nearest known key. Adding a key to a
// section is adding it to that section's type (its CodingKeys and its
// init(from:)); the decoder then knows it, docs/configuration.md's key index
// must list it (ConfigurationKeysTests), and nothing else needs to change to
// read it.

/// Users and groups by name or number (`{users: [root, "1000"], groups: [input]}`),
/// as the file gives them; the daemon resolves the names.
package struct AccessNames: Hashable, Sendable, Decodable {
    /// User names or uids.
    package var users: [String]
    /// Group names or gids.
    package var groups: [String]

    /// Creates a list of names.
    package init(users: [String] = [], groups: [String] = []) {
        self.users = users
        self.groups = groups
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case users, groups }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        users = try c.decodeIfPresent([String].self, forKey: .users) ?? []
        groups = try c.decodeIfPresent([String].self, forKey: .groups) ?? []
    }
}

/// `socket`: where the daemon listens when systemd passes no socket (read at start only).
package struct SocketSettings: Hashable, Sendable, Decodable {
    /// The socket path (nil: `--socket`, else `/run/touchd/touchd.sock`).
    package var path: String?
    /// Permission bits of the socket file.
    package var mode: UInt32 = 0o660
    /// Group of the socket file, a name or a gid (nil: the daemon's group).
    package var group: String?

    /// The defaults.
    package init() {}

    enum CodingKeys: String, CodingKey, CaseIterable { case path, mode, group }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        path = try c.decodeIfPresent(String.self, forKey: .path)
        if let p = path, !p.hasPrefix("/") {
            throw DecodingError.dataCorruptedError(forKey: .path, in: c, debugDescription: "expected an absolute path")
        }
        if let text = try c.decodeIfPresent(String.self, forKey: .mode) {
            guard let v = UInt32(text, radix: 8), v <= 0o777 else {
                throw DecodingError.dataCorruptedError(forKey: .mode, in: c, debugDescription: "expected octal permission bits like \"0660\"")
            }
            mode = v
        }
        group = try c.decodeIfPresent(String.self, forKey: .group)
    }
}

/// `access`: who may connect, see other clients' touches, claim touches and change screens.
package struct AccessSettings: Hashable, Sendable, Decodable {
    /// `seeAllTouches` (nobody by default).
    package var seeAllTouches = AccessNames()
    /// `claimTouches` (nobody by default).
    package var claimTouches = AccessNames()
    /// `changeScreens` (nobody by default).
    package var changeScreens = AccessNames()
    /// `connect` (nil: whoever the socket file's permissions let in).
    package var connect: AccessNames?

    /// The defaults.
    package init() {}

    enum CodingKeys: String, CodingKey, CaseIterable { case seeAllTouches, claimTouches, changeScreens, connect }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        seeAllTouches = try c.decodeIfPresent(AccessNames.self, forKey: .seeAllTouches) ?? AccessNames()
        claimTouches = try c.decodeIfPresent(AccessNames.self, forKey: .claimTouches) ?? AccessNames()
        changeScreens = try c.decodeIfPresent(AccessNames.self, forKey: .changeScreens) ?? AccessNames()
        connect = try c.decodeIfPresent(AccessNames.self, forKey: .connect)
    }
}

/// `scheduling`: the input path's threads.
package struct SchedulingSettings: Hashable, Sendable, Decodable {
    /// The highest `SCHED_FIFO` priority (Linux's `sched_get_priority_max`).
    package static let maximumPriority = 99
    /// `SCHED_FIFO` priority of the input thread and the event loop; 0: normal scheduling.
    package var realtimePriority = 10

    /// The defaults.
    package init() {}

    enum CodingKeys: String, CodingKey, CaseIterable { case realtimePriority }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if c.contains(.realtimePriority) {
            guard let p = try? c.decode(Int.self, forKey: .realtimePriority), (0...Self.maximumPriority).contains(p) else {
                throw DecodingError.dataCorruptedError(
                    forKey: .realtimePriority, in: c,
                    debugDescription: "expected a SCHED_FIFO priority from 1 to \(Self.maximumPriority), or 0 for normal scheduling")
            }
            realtimePriority = p
        }
    }
}

/// The daemon's own sections of the file.
package struct DaemonFileSettings: Hashable, Sendable {
    /// `socket`.
    package var socket = SocketSettings()
    /// `access`.
    package var access = AccessSettings()
    /// `scheduling`.
    package var scheduling = SchedulingSettings()
    /// The defaults.
    package init() {}
}

/// The file's top level: each section decoded on its own, and each item of a
/// list on its own, so that one read reports every error.
struct ConfigurationFile: Decodable {
    enum CodingKeys: String, CodingKey, CaseIterable {
        case screens, devices, surfaces, systemRecognizers, recognizers, replaceDefaults, systemGestures, shortcuts, appRules
        case socket, access, scheduling
    }

    var screens: [ScreenEntry]?
    var devices: [DeviceRule] = []
    var gestures = GestureConfiguration()
    var daemon = DaemonFileSettings()
    /// Decoding errors, in the order of the file's sections.
    var errors: [DecodingError] = []
    /// Errors that are not `DecodingError`s (a recognizer's semantic check), with the section's key.
    var otherErrors: [(key: String, error: any Error)] = []

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        var failed = false
        func record(_ key: CodingKeys, _ error: any Error) {
            failed = true
            if let e = error as? DecodingError { errors.append(e) } else { otherErrors.append((key.stringValue, error)) }
        }
        func one<T: Decodable>(_ type: T.Type, _ key: CodingKeys) -> T? {
            guard let section = try? c.decodeIfPresent(YAMLSection<T>.self, forKey: key) else { return nil }
            switch section.result {
            case .success(let v): return v
            case .failure(let e): record(key, e); return nil
            }
        }
        func list<T: Decodable>(_ type: T.Type, _ key: CodingKeys) -> [T]? {
            guard let items = one([YAMLSection<T>].self, key) else { return nil }
            var values: [T] = []
            for item in items {
                switch item.result {
                case .success(let v): values.append(v)
                case .failure(let e): record(key, e)
                }
            }
            return values
        }
        screens = list(ScreenEntry.self, .screens)
        devices = list(DeviceRule.self, .devices) ?? []
        _ = list(SurfaceConfiguration.self, .surfaces)
        _ = list(RecognizerConfiguration.self, .systemRecognizers)
        _ = list(RecognizerConfiguration.self, .recognizers)
        _ = one(Bool.self, .replaceDefaults)
        _ = list(SystemGestureConfiguration.self, .systemGestures)
        _ = list(ShortcutConfiguration.self, .shortcuts)
        _ = list(AppRule.self, .appRules)
        if let s = one(SocketSettings.self, .socket) { daemon.socket = s }
        if let a = one(AccessSettings.self, .access) { daemon.access = a }
        if let s = one(SchedulingSettings.self, .scheduling) { daemon.scheduling = s }
        // The gesture part as one value, as GestureConfiguration reads it
        // (the same decoders as above; the sections are read apart only to
        // report every error).
        if !failed {
            do {
                gestures = try GestureConfiguration(from: decoder)
            } catch {
                record(.surfaces, error)
            }
        }
    }
}

extension YAMLNode {
    /// The node a coding path leads to, or the deepest one on the way.
    func deepest(along path: [any CodingKey]) -> YAMLNode {
        var node = self
        for key in path {
            if let i = key.intValue, let items = node.sequence, items.indices.contains(i) {
                node = items[i]
            } else if let pairs = node.mapping, let pair = pairs.first(where: { $0.key.scalar == key.stringValue }) {
                node = pair.value
            } else {
                break
            }
        }
        return node
    }

    /// The line of the key a dotted path (`devices[1].screen`) names, or of the deepest node on the way.
    func line(of path: String) -> Int? {
        var node = self
        var line: Int?
        for part in path.split(separator: ".") {
            var name = Substring(part)
            var indices: [Int] = []
            while let open = name.lastIndex(of: "["), name.last == "]", let i = Int(name[name.index(after: open)..<name.index(before: name.endIndex)]) {
                indices.insert(i, at: 0)
                name = name[..<open]
            }
            if !name.isEmpty {
                guard let pair = node.mapping?.first(where: { $0.key.scalar == String(name) }) else { return line }
                line = pair.key.line
                node = pair.value
            }
            for i in indices {
                guard let items = node.sequence, items.indices.contains(i) else { return line }
                node = items[i]
                line = node.line
            }
        }
        return line
    }
}

extension TouchdConfiguration {
    /// Every key the configuration file may have, as read by the same decoders
    /// as a file: one line per mapping, `path: key, key...` (list indices left
    /// out, `(top level)` for the root), read from `sample`, a document with an
    /// item of every kind in every list. docs/configuration.md and
    /// touchd.yaml(5) list these lines (ConfigurationKeysTests compares them).
    package static func keyIndex(sample: String) throws -> [String] {
        guard let root = try YAMLParser.parse(sample) else { return [] }
        let known = try YAMLDecoder().knownKeys(ConfigurationFile.self, from: root)
        return known.keys.sorted().map { path in
            "\(path.isEmpty ? "(top level)" : path): " + known[path, default: []].sorted().joined(separator: ", ")
        }
    }
}
