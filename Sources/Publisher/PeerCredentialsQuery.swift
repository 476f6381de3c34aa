// SPDX-License-Identifier: MIT
import NIOCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads a connected Unix socket's peer credentials from the kernel:
/// `SO_PEERCRED` for the uid, primary gid and pid, `SO_PEERGROUPS` for the
/// supplementary groups, both as of when the peer connected.
///
/// NIO reads socket options into a value of a fixed type and keeps the
/// length the kernel answers to itself, so the groups are read into
/// zero-filled buffers of growing size (64, 2048, then 65536 = NGROUPS_MAX
/// ids) until the list fits (`ERANGE` until then). The kernel's list is
/// sorted ascending, so the zeros past its end are told apart from it,
/// except when every id read is 0: a zero-length read then tells "no group"
/// (it succeeds) from "group 0" (`ERANGE`).
enum PeerCredentialsQuery {
    /// `SO_PEERGROUPS` of <asm-generic/socket.h> (not exported by Glibc's module).
    static let peerGroupsOption: CInt = 59

    /// The peer credentials of `channel`; nil if it has none (not a socket,
    /// or `SO_PEERCRED` fails). Groups that cannot be read count as none:
    /// the peer is then matched on its uid and primary gid only.
    static func read(_ channel: Channel) -> EventLoopFuture<PeerCredentials?> {
        guard let provider = channel as? SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
        let future: EventLoopFuture<KernelPeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future
            .flatMap { c in
                supplementaryGroups(provider, on: channel.eventLoop).map { groups -> PeerCredentials? in
                    PeerCredentials(uid: c.uid, gid: c.gid, pid: c.pid, groups: groups)
                }
            }
            .recover { _ -> PeerCredentials? in nil }
    }

    /// `struct ucred` of <sys/socket.h> (hidden by Glibc's module without _GNU_SOURCE).
    private struct KernelPeerCredentials: Sendable {
        var pid: Int32
        var uid: UInt32
        var gid: UInt32
    }

    /// A zero-length answer buffer: reading into it succeeds only when the
    /// peer has no supplementary group.
    private struct NoGroups: Sendable {}

    /// What one `SO_PEERGROUPS` read into a buffer of fixed size gave.
    private enum Answer: Sendable {
        /// The list, or nil when every id read was 0 (no group, or only group 0).
        case read([UInt32]?)
        /// The list is longer than the buffer.
        case tooLong
        /// Any other failure.
        case failed
    }

    /// The peer's supplementary groups, ascending; empty when they cannot be read.
    static func supplementaryGroups(_ provider: SocketOptionProvider, on loop: EventLoop) -> EventLoopFuture<[UInt32]> {
        query(provider, InlineArray<64, UInt32>.self).flatMap { answer in
            switch answer {
            case .tooLong: query(provider, InlineArray<2048, UInt32>.self)
            case .read, .failed: loop.makeSucceededFuture(answer)
            }
        }.flatMap { answer in
            switch answer {
            case .tooLong: query(provider, InlineArray<65536, UInt32>.self)
            case .read, .failed: loop.makeSucceededFuture(answer)
            }
        }.flatMap { answer in
            switch answer {
            case let .read(groups?): loop.makeSucceededFuture(groups)
            case .read(nil): onlyGroupZero(provider).map { $0 ? [0] : [] }
            case .tooLong, .failed: loop.makeSucceededFuture([])
            }
        }
    }

    private static func query<let n: Int>(_ provider: SocketOptionProvider, _ buffer: InlineArray<n, UInt32>.Type) -> EventLoopFuture<Answer> {
        let future: EventLoopFuture<InlineArray<n, UInt32>> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(peerGroupsOption))
        return future
            .map { ids -> Answer in
                var end = n
                while end > 0, ids[end - 1] == 0 { end -= 1 }
                guard end > 0 else { return .read(nil) }
                var groups: [UInt32] = []
                groups.reserveCapacity(end)
                for i in 0..<end { groups.append(ids[i]) }
                return .read(groups)
            }
            .recover { error -> Answer in
                (error as? IOError)?.errnoCode == ERANGE ? .tooLong : .failed
            }
    }

    /// After a read of only zeros: whether the list is not empty (it is then
    /// group 0, possibly repeated).
    private static func onlyGroupZero(_ provider: SocketOptionProvider) -> EventLoopFuture<Bool> {
        let future: EventLoopFuture<NoGroups> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(peerGroupsOption))
        return future.map { _ in false }.recover { error in (error as? IOError)?.errnoCode == ERANGE }
    }
}
