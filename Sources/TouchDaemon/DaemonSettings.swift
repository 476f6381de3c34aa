// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Session
import Publisher

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
package struct DaemonSettings: Hashable, Sendable {
    /// The socket path used when neither `--socket` nor the file gives one.
    package static let defaultSocketPath = "/run/touchd/touchd.sock"

    /// The socket path (nil: the default or `--socket`).
    package var socketPath: String?
    /// Permission bits of the socket file.
    package var socketMode: UInt32 = SocketSettings().mode
    /// Group of the socket file (nil: the daemon's group).
    package var socketGroup: UInt32?
    /// Who sees the raw touches of other clients' surfaces.
    package var seeAllTouches = AccessGrant()
    /// `access.claimTouches`: who may register recognizers that claim their touches (nobody by default).
    package var claimTouches = AccessGrant()
    /// `access.changeScreens`: who may change the screen geometry at runtime (nobody by default).
    package var changeScreens = AccessGrant()
    /// Who may connect (nil: whoever the socket file's permissions let in).
    package var connect: AccessGrant?
    /// `SCHED_FIFO` priority of the input thread and the event loop
    /// (``ThreadScheduling``); 0: normal scheduling.
    package var realtimePriority = SchedulingSettings().realtimePriority

    /// The defaults.
    package init() {}

    /// The daemon keys of a configuration (``TouchdConfiguration/daemon``), with
    /// users and groups (names or numbers) resolved to ids.
    package init(_ configuration: TouchdConfiguration) throws(ConfigurationError) {
        let file = configuration.daemon
        socketPath = file.socket.path
        socketMode = file.socket.mode
        if let g = file.socket.group { socketGroup = try Self.groupID(g, in: configuration, path: "socket.group") }
        seeAllTouches = try Self.grant(file.access.seeAllTouches, in: configuration, path: "access.seeAllTouches")
        claimTouches = try Self.grant(file.access.claimTouches, in: configuration, path: "access.claimTouches")
        changeScreens = try Self.grant(file.access.changeScreens, in: configuration, path: "access.changeScreens")
        if let c = file.access.connect { connect = try Self.grant(c, in: configuration, path: "access.connect") }
        realtimePriority = file.scheduling.realtimePriority
    }

    /// Reads the `socket`, `access` and `scheduling` keys of a configuration file
    /// (the whole file is read and checked: ``TouchdConfiguration/load(path:)``).
    package static func load(path: String) throws(ConfigurationError) -> DaemonSettings {
        try DaemonSettings(TouchdConfiguration.load(path: path))
    }

    /// Parses the daemon keys of configuration text; `file` names it in errors.
    package static func parse(yaml: String, file: String) throws(ConfigurationError) -> DaemonSettings {
        try DaemonSettings(TouchdConfiguration.parse(yaml: yaml, file: file))
    }

    /// The publisher's access policy.
    package var accessPolicy: AccessPolicy {
        AccessPolicy(seeAllTouches: seeAllTouches, connect: connect, claimTouches: claimTouches, changeScreens: changeScreens)
    }

    /// Users and groups, names or numbers, as ids.
    static func grant(_ names: AccessNames, in configuration: TouchdConfiguration, path: String) throws(ConfigurationError) -> AccessGrant {
        var grant = AccessGrant()
        for (i, name) in names.users.enumerated() {
            grant.uids.insert(try userID(name, in: configuration, path: "\(path).users[\(i)]"))
        }
        for (i, name) in names.groups.enumerated() {
            grant.gids.insert(try groupID(name, in: configuration, path: "\(path).groups[\(i)]"))
        }
        return grant
    }

    static func userID(_ name: String, in configuration: TouchdConfiguration, path: String) throws(ConfigurationError) -> UInt32 {
        if let n = UInt32(name) { return n }
        guard let pw = getpwnam(name) else { throw configuration.error(at: path, "no user \"\(name)\"") }
        return pw.pointee.pw_uid
    }

    static func groupID(_ name: String, in configuration: TouchdConfiguration, path: String) throws(ConfigurationError) -> UInt32 {
        if let n = UInt32(name) { return n }
        guard let gr = getgrnam(name) else { throw configuration.error(at: path, "no group \"\(name)\"") }
        return gr.pointee.gr_gid
    }
}
