// SPDX-License-Identifier: MIT
import Foundation
import Logging
import Publisher
import Testing
import Session
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// `Daemon.reload` (what SIGHUP runs) called directly, against an engine and
/// a publisher on a real socket: the `access` keys of a reloaded file.
@Suite(.serialized) struct DaemonReloadTests {
    @Test func aReloadPutsTheAccessKeysInForceAndARejectedOneKeepsThem() async throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        let socket = directory.path + "/touchd.sock"
        func write(_ text: String) throws { try text.write(toFile: config, atomically: true, encoding: .utf8) }
        let me = getuid()
        let other: UInt32 = me == 4321 ? 4322 : 4321
        let refusal = #"{"type":"error","code":"not-permitted","message":"uid \#(me) gid \#(getgid()) may not connect (access.connect)"}"#

        try write("access:\n  connect: {users: [\(me)]}\n")
        let logger = Logger(label: "test")
        let board = HelloBoard()
        let engine = try TouchSessionActor(configuration: try TouchdConfiguration.load(path: config), board: board, logger: logger)
        let publisher = try await Publisher.listen(
            socketPath: socket, configuration: PublisherConfiguration(access: try DaemonSettings.load(path: config).accessPolicy),
            delegate: DaemonDelegate(engine: engine, logger: logger), hello: { board.read() })
        do {
            let connected = try WireSocket(path: socket)
            #expect(messageType(try connected.readLine() ?? "") == "hello")
            #expect(try connected.request(#"{"op":"ping","id":1}"#, id: 1) == [#"{"type":"ack","id":1}"#])

            // Another user only: the connected client is told and closed; new ones are refused.
            try write("access:\n  connect: {users: [\(other)]}\n  seeAllTouches: {groups: [4242]}\n")
            await Daemon.reload(path: config, engine: engine, publisher: publisher, logger: logger)
            let reloaded = AccessPolicy(seeAllTouches: AccessGrant(gids: [4242]), connect: AccessGrant(uids: [other]))
            #expect(await publisher.access() == reloaded)
            #expect(try connected.readLine() == #"{"type":"error","code":"not-permitted","message":"uid \#(me) gid \#(getgid()) may no longer connect (access.connect was reloaded)"}"#)
            #expect(try connected.readLine() == nil)
            #expect(try WireSocket(path: socket).readLine() == refusal)

            // Rejected files (a bad engine key, a bad access key) change nothing.
            try write("access:\n  connect: {users: [\(me)]}\ndevices:\n  - {match: {name: x}, rotation: 45}\n")
            await Daemon.reload(path: config, engine: engine, publisher: publisher, logger: logger)
            try write("access:\n  connect: {users: [\(me)], groups: [no-such-group-of-touchd]}\n")
            await Daemon.reload(path: config, engine: engine, publisher: publisher, logger: logger)
            #expect(await publisher.access() == reloaded)
            #expect(try WireSocket(path: socket).readLine() == refusal)

            // The key gone: the socket file's permissions decide again.
            try write("screens:\n  - {name: main, width: 800, height: 480}\n")
            await Daemon.reload(path: config, engine: engine, publisher: publisher, logger: logger)
            #expect(await publisher.access() == AccessPolicy())
            let admitted = try WireSocket(path: socket)
            let hello = try admitted.message()
            #expect(hello["type"] as? String == "hello")
            #expect(DaemonSystemTests.screenWidth(in: hello) == 800)
        } catch {
            await publisher.shutdown()
            throw error
        }
        await publisher.shutdown()
    }
}
