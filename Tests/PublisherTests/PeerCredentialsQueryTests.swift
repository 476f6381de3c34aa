// SPDX-License-Identifier: MIT
import Foundation
import Testing

@testable import Publisher

#if canImport(Glibc)
import Glibc
#endif

/// Peer credentials read from the kernel on real connections: `SO_PEERCRED`
/// and `SO_PEERGROUPS`, for this process and for peers started with other
/// credentials (setpriv, which needs root like the isolation tests).
@Suite(.serialized) struct PeerCredentialsQueryTests {
    /// A socket file anyone may connect to.
    static let open = PublisherConfiguration(socketMode: 0o666)

    /// This process's supplementary groups, ascending without repeats.
    static func processGroups() -> [UInt32] {
        let n = getgroups(0, nil)
        var list = [gid_t](repeating: 0, count: Int(max(n, 0)))
        let m = getgroups(n, &list)
        return Array(Set(list.prefix(Int(max(m, 0))))).sorted()
    }

    /// Runs a Python client under `setpriv` with `arguments`: it connects,
    /// prints the first line it receives, and holds the connection until its
    /// standard input closes. Returns the publisher's view of it while connected.
    static func foreignPeer(_ arguments: [String], path: String, publisher: Publisher) async throws -> ClientInfo? {
        // Let the other user reach the socket (its file has mode 0666 here).
        chmod((path as NSString).deletingLastPathComponent, 0o711)
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(30)
            s.connect(sys.argv[1])
            sys.stdout.write(s.makefile("rb").readline().decode())
            sys.stdout.flush()
            sys.stdin.read()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = arguments + ["/usr/bin/python3", "-c", script, path]
        let output = Pipe()
        let input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        try process.run()
        var received = Data()
        while !received.contains(0x0A) {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received.append(chunk)
        }
        // The hello came after the session was counted: the client is listed.
        let clients = await publisher.clients()
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        #expect(String(decoding: received, as: UTF8.self) == helloLine + "\n")
        #expect(process.terminationStatus == 0)
        #expect(clients.count == 1)
        return clients.first
    }

    @Test func aClientInThisProcessHasThisProcesssCredentialsAndGroups() async throws {
        try await withSocketPublisher { publisher, path, _ in
            let client = try LineSocket(path: path)
            #expect(try client.expectLine() == helloLine)
            let credentials = try #require(await publisher.clients().first?.credentials)
            #expect(credentials.uid == getuid())
            #expect(credentials.gid == getgid())
            #expect(credentials.pid == getpid())
            #expect(credentials.groups == Self.processGroups())
        }
    }

    @Test(arguments: [
        // The primary gid is not a supplementary group unless listed.
        (["--regid=4321", "--groups=100,200"], 4321, [100, 200]),
        (["--regid=4321", "--groups=4321,7"], 4321, [7, 4321]),
        (["--regid=65534", "--clear-groups"], 65534, []),
        // Group 0 alone reads as zeros only: told apart from no group.
        (["--regid=65534", "--groups=0"], 65534, [0]),
        (["--regid=65534", "--groups=0,9"], 65534, [0, 9]),
    ] as [([String], UInt32, [UInt32])])
    func aPeerStartedWithOtherGroupsIsSeenWithThem(arguments: [String], gid: UInt32, groups: [UInt32]) async throws {
        try #require(getuid() == 0, "running a peer with other groups needs root (make test runs as root)")
        try await withSocketPublisher(configuration: Self.open) { publisher, path, _ in
            let info = try await Self.foreignPeer(["--reuid=65534"] + arguments, path: path, publisher: publisher)
            let credentials = try #require(info?.credentials)
            #expect(credentials.uid == 65534)
            #expect(credentials.gid == gid)
            #expect(credentials.groups == groups)
        }
    }

    /// More groups than the first buffers hold (64, then 2048 ids).
    @Test(arguments: [65, 2048, 3000]) func aPeerInManyGroupsIsSeenWithAllOfThem(count: Int) async throws {
        try #require(getuid() == 0, "running a peer with other groups needs root (make test runs as root)")
        let groups = (0..<count).map { UInt32(10_000 + 7 * $0) }
        try await withSocketPublisher(configuration: Self.open) { publisher, path, _ in
            let list = groups.reversed().map(String.init).joined(separator: ",")
            let info = try await Self.foreignPeer(["--reuid=65534", "--regid=65534", "--groups=\(list)"], path: path, publisher: publisher)
            let credentials = try #require(info?.credentials)
            #expect(credentials.groups.count == count)
            #expect(credentials.groups == groups)
        }
    }

    @Test func aPeerAdmittedOnlyThroughASupplementaryGroupIsServed() async throws {
        try #require(getuid() == 0, "running a peer with other groups needs root (make test runs as root)")
        var configuration = Self.open
        configuration.access = AccessPolicy(connect: AccessGrant(gids: [4242]))
        try await withSocketPublisher(configuration: configuration) { publisher, path, _ in
            let info = try await Self.foreignPeer(["--reuid=65534", "--regid=65534", "--groups=100,4242"], path: path, publisher: publisher)
            #expect(info?.credentials?.groups == [100, 4242])
            // This process (root, not in 4242) is refused.
            let root = try LineSocket(path: path)
            #expect(try root.expectLine() == #"{"type":"error","code":"not-permitted","message":"uid \#(getuid()) gid \#(getgid()) may not connect (access.connect)"}"#)
            #expect(try root.readLine() == nil)
        }
    }
}
