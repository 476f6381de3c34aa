// SPDX-License-Identifier: MIT
import Wire

/// Identifies one connection for its lifetime (never reused while the publisher runs).
package struct ClientID: RawRepresentable, Hashable, Sendable, BitwiseCopyable, CustomStringConvertible {
    package var rawValue: UInt64
    package init(rawValue: UInt64) { self.rawValue = rawValue }
    package var description: String { "client \(rawValue)" }
}

/// The peer's credentials as the kernel reports them: `SO_PEERCRED`
/// (`struct ucred`) and `SO_PEERGROUPS`, both as of when it connected.
package struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    /// Effective user id of the peer when it connected.
    package var uid: UInt32
    /// Effective group id of the peer when it connected.
    package var gid: UInt32
    /// Process id of the peer.
    package var pid: Int32
    /// Supplementary group ids of the peer when it connected, ascending
    /// without repeats (they may or may not include ``gid``; empty when the
    /// kernel could not tell).
    package private(set) var groups: [UInt32]

    /// Creates credentials; `groups` are sorted and their repeats dropped.
    package init(uid: UInt32, gid: UInt32, pid: Int32, groups: [UInt32] = []) {
        self.uid = uid
        self.gid = gid
        self.pid = pid
        self.groups = Self.normalized(groups)
    }

    /// Whether `group` is among the supplementary ``groups`` (binary search).
    package func hasSupplementaryGroup(_ group: UInt32) -> Bool {
        var low = 0
        var high = groups.count
        while low < high {
            let mid = (low + high) / 2
            if groups[mid] < group { low = mid + 1 } else { high = mid }
        }
        return low < groups.count && groups[low] == group
    }

    private static func normalized(_ groups: [UInt32]) -> [UInt32] {
        // The kernel's list is already sorted; only other callers pay for sorting.
        var isStrictlyAscending = true
        for i in groups.indices.dropFirst() where groups[i - 1] >= groups[i] {
            isStrictlyAscending = false
            break
        }
        if isStrictlyAscending { return groups }
        var sorted = groups.sorted()
        var kept = 0
        for g in sorted where kept == 0 || sorted[kept - 1] != g {
            sorted[kept] = g
            kept += 1
        }
        sorted.removeLast(sorted.count - kept)
        return sorted
    }

    package var description: String { "uid \(uid) gid \(gid) pid \(pid)" }
}

/// Who a request or a disconnection comes from.
package struct ClientInfo: Hashable, Sendable, CustomStringConvertible {
    /// The connection's id.
    package var id: ClientID
    /// Peer credentials; nil when the transport has none (in-memory test channels).
    package var credentials: PeerCredentials?

    /// Creates a client description.
    package init(id: ClientID, credentials: PeerCredentials?) {
        self.id = id
        self.credentials = credentials
    }

    package var description: String {
        if let credentials { return "\(id) (\(credentials))" }
        return id.description
    }
}

/// A set of users and groups that a privilege is granted to.
package struct AccessGrant: Hashable, Sendable {
    /// User ids granted.
    package var uids: Set<UInt32>
    /// Group ids granted, matched against the peer's primary group and its
    /// supplementary groups.
    package var gids: Set<UInt32>

    /// Creates a grant.
    package init(uids: Set<UInt32> = [], gids: Set<UInt32> = []) {
        self.uids = uids
        self.gids = gids
    }

    /// Whether a peer with these credentials holds the grant (never without credentials).
    package func includes(_ credentials: PeerCredentials?) -> Bool {
        guard let credentials else { return false }
        if uids.contains(credentials.uid) || gids.contains(credentials.gid) { return true }
        // Walk the smaller side: a peer may be in thousands of groups.
        if gids.count < credentials.groups.count {
            return gids.contains(where: credentials.hasSupplementaryGroup)
        }
        return credentials.groups.contains(where: gids.contains)
    }
}

/// What the configuration allows beyond the defaults.
package struct AccessPolicy: Hashable, Sendable {
    /// Who sees the raw touches of other clients' surfaces.
    package var seeAllTouches: AccessGrant
    /// Who may hold a connection, checked on the peer's credentials when it
    /// connects and again when a new policy is put in force; nil: anyone the
    /// socket file's permissions let in. A peer left out gets
    /// `not-permitted` and is closed.
    package var connect: AccessGrant?
    /// Who may register recognizers that claim their touches
    /// (`claimsTouches`): taking touches from every other app, through a
    /// pass-through mirror too (semantics §9.5). Nobody by default.
    package var claimTouches: AccessGrant
    /// Who may change the screen geometry (the `screens` request: rotation,
    /// insets, screens added or removed, devices mapped; semantics §11).
    /// Nobody by default.
    package var changeScreens: AccessGrant

    /// Creates a policy; by default nobody sees other clients' touches, claims
    /// touches or changes the screens, and the socket file's permissions
    /// alone decide who connects.
    package init(seeAllTouches: AccessGrant = AccessGrant(), connect: AccessGrant? = nil, claimTouches: AccessGrant = AccessGrant(),
                changeScreens: AccessGrant = AccessGrant()) {
        self.seeAllTouches = seeAllTouches
        self.connect = connect
        self.claimTouches = claimTouches
        self.changeScreens = changeScreens
    }

    /// Whether a peer with these credentials may connect (never without
    /// credentials when ``connect`` is set).
    package func admits(_ credentials: PeerCredentials?) -> Bool {
        guard let connect else { return true }
        return connect.includes(credentials)
    }
}
