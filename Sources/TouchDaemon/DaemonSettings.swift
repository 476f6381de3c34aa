#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Session
import Publisher
import YAMLReader

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The daemon's own keys of the configuration file: the socket, who may
/// connect and see other clients' touches, and the scheduling of the input
/// path's threads (docs/daemon.md).
///
/// ```yaml
/// socket:
///   path: /run/touchd/touchd.sock
///   mode: "0660"
///   group: input
/// access:
///   seeAllTouches: {users: [root], groups: [touchd-debug]}
///   connect: {users: [root, kiosk], groups: [touchd-clients]}
/// scheduling:
///   realtimePriority: 10
/// ```
public struct DaemonSettings: Hashable, Sendable {
    /// The socket path used when neither `--socket` nor the file gives one.
    public static let defaultSocketPath = "/run/touchd/touchd.sock"

    /// The socket path (nil: the default or `--socket`).
    public var socketPath: String?
    /// Permission bits of the socket file.
    public var socketMode: UInt32 = 0o660
    /// Group of the socket file (nil: the daemon's group).
    public var socketGroup: UInt32?
    /// Who sees the raw touches of other clients' surfaces.
    public var seeAllTouches = AccessGrant()
    /// `access.claimTouches`: who may register recognizers that claim their touches (nobody by default).
    public var claimTouches = AccessGrant()
    /// `access.changeScreens`: who may change the screen geometry at runtime (nobody by default).
    public var changeScreens = AccessGrant()
    /// Who may connect (nil: whoever the socket file's permissions let in).
    public var connect: AccessGrant?
    /// `SCHED_FIFO` priority of the engine's thread and the event loop
    /// (``ThreadScheduling``); 0: normal scheduling.
    public var realtimePriority = ThreadScheduling.defaultPriority

    /// The defaults.
    public init() {}

    /// Reads the `socket`, `access` and `scheduling` keys of a configuration file; other keys are left to
    /// ``TouchdConfiguration``. Users and groups may be names or numbers.
    public static func load(path: String) throws(ConfigurationError) -> DaemonSettings {
        guard let data = FileManager.default.contents(atPath: path), let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, "cannot read the file")
        }
        return try parse(yaml: text, file: path)
    }

    /// Parses the daemon keys of configuration text; `file` names it in errors.
    public static func parse(yaml: String, file: String) throws(ConfigurationError) -> DaemonSettings {
        var s = DaemonSettings()
        let root: YAMLNode?
        do {
            root = try YAMLParser.parse(yaml)
        } catch {
            throw ConfigurationError(file: file, "not valid YAML: \(error)")
        }
        guard let map = root, map.mapping != nil else { return s }
        if let socket = map["socket"] {
            guard let pairs = socket.mapping else { throw ConfigurationError(file: file, path: "socket", "expected a mapping") }
            for pair in pairs where !["path", "mode", "group"].contains(pair.key.scalar ?? "") {
                throw ConfigurationError(file: file, path: "socket.\(pair.key.scalar ?? "?")", "unknown key (known: path, mode, group)")
            }
            if let p = socket["path"] {
                guard let v = p.scalar, v.hasPrefix("/") else { throw ConfigurationError(file: file, path: "socket.path", "expected an absolute path") }
                s.socketPath = v
            }
            if let mode = socket["mode"] {
                guard let text = mode.scalar, let v = UInt32(text, radix: 8), v <= 0o777 else {
                    throw ConfigurationError(file: file, path: "socket.mode", "expected octal permission bits like \"0660\"")
                }
                s.socketMode = v
            }
            if let g = socket["group"] {
                s.socketGroup = try groupID(g.scalar ?? "", file: file, path: "socket.group")
            }
        }
        if let access = map["access"] {
            guard let m = access.mapping else { throw ConfigurationError(file: file, path: "access", "expected a mapping") }
            for pair in m {
                let k = pair.key, v = pair.value
                switch k.scalar {
                case "seeAllTouches": s.seeAllTouches = try grant(v, file: file, path: "access.seeAllTouches")
                case "claimTouches": s.claimTouches = try grant(v, file: file, path: "access.claimTouches")
                case "changeScreens": s.changeScreens = try grant(v, file: file, path: "access.changeScreens")
                case "connect": s.connect = try grant(v, file: file, path: "access.connect")
                default:
                    throw ConfigurationError(file: file, path: "access.\(k.scalar ?? "?")", "unknown key (known: seeAllTouches, connect, claimTouches, changeScreens)")
                }
            }
        }
        if let scheduling = map["scheduling"] {
            guard let m = scheduling.mapping else { throw ConfigurationError(file: file, path: "scheduling", "expected a mapping") }
            for pair in m {
                let k = pair.key, v = pair.value
                switch k.scalar {
                case "realtimePriority":
                    guard let text = v.scalar, let p = Int(text), (0...ThreadScheduling.maximumPriority).contains(p) else {
                        throw ConfigurationError(file: file, path: "scheduling.realtimePriority",
                                                 "expected a SCHED_FIFO priority from 1 to \(ThreadScheduling.maximumPriority), or 0 for normal scheduling")
                    }
                    s.realtimePriority = p
                default:
                    throw ConfigurationError(file: file, path: "scheduling.\(k.scalar ?? "?")", "unknown key (known: realtimePriority)")
                }
            }
        }
        return s
    }

    /// The publisher's access policy.
    public var accessPolicy: AccessPolicy {
        AccessPolicy(seeAllTouches: seeAllTouches, connect: connect, claimTouches: claimTouches, changeScreens: changeScreens)
    }

    /// A `{users: [...], groups: [...]}` mapping; names or numbers.
    static func grant(_ node: YAMLNode, file: String, path: String) throws(ConfigurationError) -> AccessGrant {
        guard let mapping = node.mapping else { throw ConfigurationError(file: file, path: path, "expected users and groups") }
        var grant = AccessGrant()
        for pair in mapping {
            let gk = pair.key, list = pair.value
            let key = gk.scalar ?? "?"
            let path = "\(path).\(key)"
            guard let items = list.sequence else { throw ConfigurationError(file: file, path: path, "expected a list") }
            for (i, item) in items.enumerated() {
                switch key {
                case "users": grant.uids.insert(try userID(item.scalar ?? "", file: file, path: "\(path)[\(i)]"))
                case "groups": grant.gids.insert(try groupID(item.scalar ?? "", file: file, path: "\(path)[\(i)]"))
                default: throw ConfigurationError(file: file, path: path, "unknown key (known: users, groups)")
                }
            }
        }
        return grant
    }

    static func userID(_ name: String, file: String, path: String) throws(ConfigurationError) -> UInt32 {
        if let n = UInt32(name) { return n }
        guard let pw = getpwnam(name) else { throw ConfigurationError(file: file, path: path, "no user \"\(name)\"") }
        return pw.pointee.pw_uid
    }

    static func groupID(_ name: String, file: String, path: String) throws(ConfigurationError) -> UInt32 {
        if let n = UInt32(name) { return n }
        guard let gr = getgrnam(name) else { throw ConfigurationError(file: file, path: path, "no group \"\(name)\"") }
        return gr.pointee.gr_gid
    }
}
