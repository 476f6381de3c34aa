// SPDX-License-Identifier: MIT
import Foundation
import Logging
import Publisher
import Session
import Testing
import TouchCore
import TouchTesting
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Screens changed at runtime through the socket (semantics §11): who may
/// change them, who is told, and how a reload and a runtime change combine.
@Suite(.serialized) struct TouchSessionActorScreensTests {
    static let file = "screens:\n  - {name: main, width: 1600, height: 1000}\n"

    /// An engine and a publisher on a real socket, serving `yaml`; `body` runs while they do.
    static func serve(_ yaml: String, _ body: (_ socket: String, _ config: String, _ engine: TouchSessionActor, _ publisher: Publisher) async throws -> Void) async throws {
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        let socket = directory.path + "/touchd.sock"
        try yaml.write(toFile: config, atomically: true, encoding: .utf8)
        let logger = Logger(label: "test")
        let board = HelloBoard()
        let engine = try TouchSessionActor(configuration: try TouchdConfiguration.load(path: config), board: board, logger: logger)
        let publisher = try await Publisher.listen(
            socketPath: socket, configuration: PublisherConfiguration(access: try DaemonSettings.load(path: config).accessPolicy),
            delegate: DaemonDelegate(engine: engine, logger: logger), hello: { board.read() })
        await engine.attach({ batch in publisher.publish(batch) }, wants: { publisher.wants($0) })
        do {
            try await body(socket, config, engine, publisher)
        } catch {
            await publisher.shutdown()
            throw error
        }
        await publisher.shutdown()
    }

    static func screens(in message: [String: Any]) -> [String] {
        ((message["screens"] as? [[String: Any]]) ?? []).map {
            "\($0["name"] as? String ?? "?") \($0["width"] as? Int ?? 0)x\($0["height"] as? Int ?? 0) r\($0["rotation"] as? Int ?? 0)"
        }
    }

    static let turn = #"{"op":"screens","id":7,"screens":[{"name":"main","rotation":90,"insets":{"top":48}}]}"#

    @Test("a client the configuration does not grant access.changeScreens is refused with not-permitted; nothing changes")
    func unpermittedChangeIsRefused() async throws {
        try await Self.serve(Self.file) { socket, _, engine, _ in
            let client = try WireSocket(path: socket)
            _ = try client.message()
            let answer = try client.request(Self.turn, id: 7)
            #expect(answer == [#"{"type":"error","id":7,"code":"not-permitted","message":"this client may not change the screens (access.changeScreens)"}"#])
            #expect(await engine.configuration.screens.first?.rotation == Rotation.none)
            #expect(Self.screens(in: try WireSocket(path: socket).message()) == ["main 1600x1000 r0"])
        }
    }

    @Test("a permitted change reaches every client, subscribed or not, and the hello of later connections carries it")
    func permittedChangeReachesEveryClient() async throws {
        let yaml = Self.file + "access:\n  changeScreens: {users: [\(getuid())]}\n"
        try await Self.serve(yaml) { socket, _, engine, _ in
            let helper = try WireSocket(path: socket)
            _ = try helper.message()
            let app = try WireSocket(path: socket)
            _ = try app.message()
            let subscriber = try WireSocket(path: socket)
            _ = try subscriber.message()
            try subscriber.request(#"{"op":"subscribe","id":1,"events":["gesture"],"filter":{"kinds":["tap"]}}"#, id: 1)

            let answer = try helper.request(Self.turn, id: 7)
            #expect(answer.last == #"{"type":"ack","id":7}"#)
            let told = answer.dropLast().filter { messageType($0) == "screens" }
            #expect(told.count == 1)
            for client in [app, subscriber] {
                let m = try client.message()
                #expect(m["type"] as? String == "screens")
                #expect(Self.screens(in: m) == ["main 1000x1600 r90"])
                let insets = (m["screens"] as? [[String: Any]])?.first?["insets"] as? [String: Any]
                #expect(insets?["top"] as? Double == 48)
            }
            #expect(Self.screens(in: try WireSocket(path: socket).message()) == ["main 1000x1600 r90"])
            #expect(await engine.configuration.screens.first?.rotation == .quarter)

            // A bad change names its field and changes nothing.
            let bad = try helper.request(#"{"op":"screens","id":8,"screens":[{"name":"main","rotation":45}]}"#, id: 8)
            #expect(bad == [#"{"type":"error","id":8,"code":"bad-field","message":"screens[0].rotation: expected 0, 90, 180 or 270"}"#])
            let unknown = try helper.request(#"{"op":"screens","id":9,"screens":[{"name":"side","remove":true}]}"#, id: 9)
            #expect(unknown == [#"{"type":"error","id":9,"code":"bad-field","message":"screens[0].name: no screen named \"side\""}"#])
        }
    }

    @Test("a reload and a runtime change in either order: the latest change of each value wins")
    func reloadAndRuntimeChangeInEitherOrder() async throws {
        let access = "access:\n  changeScreens: {users: [\(getuid())]}\n"
        try await Self.serve(Self.file + access) { socket, config, engine, publisher in
            let logger = Logger(label: "test")
            let helper = try WireSocket(path: socket)
            _ = try helper.message()
            func hello() throws -> [String] { Self.screens(in: try WireSocket(path: socket).message()) }

            // Runtime first, then a reload that leaves the screen as it was: the turn stays.
            try helper.request(Self.turn, id: 7)
            try (Self.file + access + "devices: []\n").write(toFile: config, atomically: true, encoding: .utf8)
            await Daemon.reload(path: config, engine: engine, publisher: publisher, logger: logger)
            #expect(try hello() == ["main 1000x1600 r90"])

            // A reload that turns the screen: the file's value is the latest; every client is told.
            try (Self.file.replacing("height: 1000}", with: "height: 1000, rotation: 180}") + access)
                .write(toFile: config, atomically: true, encoding: .utf8)
            await Daemon.reload(path: config, engine: engine, publisher: publisher, logger: logger)
            #expect(try hello() == ["main 1600x1000 r180"])
            let told = try helper.message()
            #expect(told["type"] as? String == "screens")
            #expect(Self.screens(in: told) == ["main 1600x1000 r180"])

            // Runtime after the reload wins.
            try helper.request(#"{"op":"screens","id":10,"screens":[{"name":"main","rotation":270}]}"#, id: 10)
            #expect(try hello() == ["main 1000x1600 r270"])
            #expect(await engine.configuration.screens.first?.rotation == .threeQuarters)
        }
    }
}
