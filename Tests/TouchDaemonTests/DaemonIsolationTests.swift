// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import JSON
import Testing
import TouchCore
import Wire
import Session
@testable import TouchDaemon

#if canImport(Glibc)
import Glibc
#endif

/// Clients of one touchd cannot see or touch each other's surfaces, and the
/// configuration decides who may connect (docs/protocol.md, "Visibility and permissions").
@Suite(.serialized) struct DaemonIsolationTests {
    static let rect = #""rect":{"x":0,"y":0,"width":1,"height":1}"#

    /// What the owner of a full-screen tap-then-pan surface and a bystander
    /// subscribed to everything receive of one replay.
    static func ownerAndBystander(config: String?) throws -> (owner: [String], bystander: [String], expected: [String]) {
        let expected = try DaemonEndToEndTests.offline(PackagePaths.drag1, configuration: DaemonEndToEndTests.tapThenPanConfiguration)
        let directory = TemporaryDirectory()
        var arguments = ["--replay", PackagePaths.drag1, "--speed", "0", "--wait-for-subscribers", "2", "--exit-after-replay"]
        if let config {
            try config.write(toFile: directory.path + "/touchd.yaml", atomically: true, encoding: .utf8)
            arguments += ["--config", directory.path + "/touchd.yaml"]
        }
        let daemon = try DaemonProcess(arguments)
        let owner = try WireSocket(path: daemon.socketPath)
        _ = try owner.readLine()
        #expect(try owner.request(DaemonEndToEndTests.tapThenPan, id: 2) == [#"{"type":"ack","id":2}"#])
        try owner.request(#"{"op":"subscribe","id":3,"events":["touch"]}"#, id: 3)

        let bystander = try WireSocket(path: daemon.socketPath)
        _ = try bystander.readLine()
        // None of the owner's names mean anything on another connection.
        let attempts: [(Int, String, String)] = [
            (1, #"{"op":"update","id":1,"surface":{"id":"main",\#(rect)}}"#, "unknown-surface"),
            (2, #"{"op":"unregister","id":2,"surface":"main"}"#, "unknown-surface"),
            (3, #"{"op":"register","id":3,"surface":{"id":"child",\#(rect),"parent":"main"}}"#, "unknown-surface"),
            (4, #"{"op":"register","id":4,"surface":{"id":"b",\#(rect),"recognizers":[{"name":"mine","kind":"tap","requiresFailureOf":["tap"]}]}}"#, "unknown-recognizer"),
            (5, #"{"op":"register","id":5,"surface":{"id":"c",\#(rect),"delegateDeferralTo":"main"}}"#, "unknown-surface"),
        ]
        for (id, request, code) in attempts {
            let answer = try bystander.request(request, id: id)
            #expect(answer.count == 1)
            #expect((try JSONParser.parse(answer[0]))["code"]?.stringValue == code, "\(request)")
        }
        // The owner's "main" is answered as a name no client has: nothing tells the bystander it exists.
        let taken = try bystander.request(#"{"op":"register","id":50,"surface":{"id":"e",\#(rect),"delegateDeferralTo":"main"}}"#, id: 50)
        let free = try bystander.request(#"{"op":"register","id":51,"surface":{"id":"e",\#(rect),"delegateDeferralTo":"nowhere"}}"#, id: 51)
        #expect(taken == [#"{"type":"error","id":50,"code":"unknown-surface","message":"surface.delegateDeferralTo: no surface \"main\" on this connection"}"#])
        #expect(free == [#"{"type":"error","id":51,"code":"unknown-surface","message":"surface.delegateDeferralTo: no surface \"nowhere\" on this connection"}"#])
        // Names in simultaneousWith resolve among the client's own recognizers: the owner's pan is not one.
        try bystander.request(#"{"op":"register","id":6,"surface":{"id":"d",\#(rect),"recognizers":[{"name":"p","kind":"pan","simultaneousWith":["pan","tap"],"canPrevent":["pan"]}]}}"#, id: 6)
        try bystander.request(#"{"op":"subscribe","id":7,"events":["gesture","touch","system","device"]}"#, id: 7)

        let ownerLines = try owner.lines { messageType($0) == "goodbye" }
        let bystanderLines = try bystander.lines { messageType($0) == "goodbye" }
        #expect(try daemon.waitForExit() == 0)
        let ownerGestures = ownerLines.filter { messageType($0) == "gesture" }
        let expectedGestures = expected.gestures.filter { $0.contains(#""owner":"client-1""#) }
        #expect(!expectedGestures.isEmpty)
        #expect(ownerGestures.map { try? JSONParser.parse($0) } == expectedGestures.map { (try? JSONParser.parse($0)).map(Self.local) })
        return (ownerLines, bystanderLines, expected.touches)
    }

    /// An engine-side gesture line as its owner receives it (the surface under its own name).
    static func local(_ v: JSONValue) -> JSONValue {
        guard case .object(var members) = v else { return v }
        if members["surface"] == .string("client-1/main") { members["surface"] = .string("main") }
        return .object(members)
    }

    @Test func aClientGetsNothingOfAnotherClientsSurfaceAndCannotNameIt() throws {
        let (owner, bystander, _) = try Self.ownerAndBystander(config: nil)
        // The surface's raw touches until its pan takes them (cancelsTouchesInView).
        let ownerTouches = owner.filter { messageType($0) == "touch" }
        #expect(!ownerTouches.isEmpty)
        #expect(ownerTouches.allSatisfy { $0.contains(#""surface":"main""#) })
        #expect(!bystander.contains { messageType($0) == "touch" })
        #expect(!bystander.contains { messageType($0) == "gesture" })
        #expect(!bystander.contains { $0.contains("client-1") || $0.contains(#""surface":"main""#) })
    }

    @Test func theSeeAllTouchesGrantShowsTouchesButNeverActions() throws {
        let (owner, bystander, _) = try Self.ownerAndBystander(config: "access:\n  seeAllTouches: {users: [root]}\n")
        let ownerTouches = owner.filter { messageType($0) == "touch" }
        #expect(!ownerTouches.isEmpty)
        #expect(bystander.filter { messageType($0) == "touch" } == ownerTouches)
        #expect(!bystander.contains { messageType($0) == "gesture" })
    }

    /// Runs `/usr/bin/python3` as another user (setpriv) or in a new user
    /// namespace (unshare): it connects, prints `connected`, then every line
    /// it receives until the server closes (or only the first line).
    static func foreignClient(_ launcher: [String], socket: String, firstLineOnly: Bool = false) throws -> (status: Int32, lines: [String]) {
        let script = """
            import socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.settimeout(30)
            s.connect(sys.argv[1])
            print("connected", flush=True)
            for line in s.makefile("rb"):
                sys.stdout.write(line.decode())
                if sys.argv[2] == "first":
                    break
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: launcher[0])
        process.arguments = Array(launcher.dropFirst()) + ["/usr/bin/python3", "-c", script, socket, firstLineOnly ? "first" : "all"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output.split(separator: "\n").map(String.init))
    }

    @Test func aUserOutsideAccessConnectIsRefusedAndClosed() throws {
        // Running a client as another user needs root (make test runs as root).
        try #require(getuid() == 0)
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        // The socket file lets group nogroup in; access.connect lets only root in.
        try "socket: {mode: \"0660\", group: nogroup}\naccess:\n  connect: {users: [root]}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop"])
        chmod(daemon.directory.path, 0o711)
        var st = stat()
        #expect(stat(daemon.socketPath, &st) == 0)
        #expect(st.st_mode & 0o777 == 0o660)
        #expect(st.st_mode & 0o002 == 0)
        #expect(st.st_gid == 65534)

        let nobody = try Self.foreignClient(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"], socket: daemon.socketPath)
        #expect(nobody.status == 0)
        #expect(nobody.lines == ["connected", #"{"type":"error","code":"not-permitted","message":"uid 65534 gid 65534 may not connect (access.connect)"}"#])

        // A user namespace does not change who the peer is: it sees itself as
        // uid 65534, but SO_PEERCRED reports its kernel credentials (root), so
        // it is let in (and entering one cannot dodge a refusal either).
        let namespaced = try Self.foreignClient(["/usr/bin/unshare", "--user"], socket: daemon.socketPath, firstLineOnly: true)
        #expect(namespaced.status == 0)
        #expect(namespaced.lines.count == 2)
        #expect(namespaced.lines.last.flatMap(messageType) == "hello")

        // Root is served, before and after the refusal.
        let root = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try root.readLine() ?? "") == "hello")
        try root.request(#"{"op":"subscribe","id":1,"events":["gesture"]}"#, id: 1)
        _ = try root.lines { messageType($0) == "gesture" }
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }

    @Test func aUserInAGrantedSupplementaryGroupIsAdmittedUntilAReloadWithdrawsIt() throws {
        try #require(getuid() == 0)
        let directory = TemporaryDirectory()
        let config = directory.path + "/touchd.yaml"
        try "socket: {mode: \"0660\", group: nogroup}\naccess:\n  connect: {users: [root], groups: [4242]}\n".write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop"])
        chmod(daemon.directory.path, 0o711)
        let nobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534"]
        let refusal = #"{"type":"error","code":"not-permitted","message":"uid 65534 gid 65534 may not connect (access.connect)"}"#

        // Same uid and primary gid; only the supplementary group 4242 differs (SO_PEERGROUPS).
        let member = try Self.foreignClient(nobody + ["--groups=100,4242"], socket: daemon.socketPath, firstLineOnly: true)
        #expect(member.status == 0)
        #expect(member.lines.count == 2)
        #expect(member.lines.last.flatMap(messageType) == "hello")
        let outsider = try Self.foreignClient(nobody + ["--groups=100,4243"], socket: daemon.socketPath)
        #expect(outsider.lines == ["connected", refusal])

        // SIGHUP with the group gone from access.connect: the member is refused from then on.
        try "socket: {mode: \"0660\", group: nogroup}\naccess:\n  connect: {users: [root]}\n".write(toFile: config, atomically: true, encoding: .utf8)
        daemon.signal(SIGHUP)
        try daemon.waitForLog("configuration reloaded")
        let formerMember = try Self.foreignClient(nobody + ["--groups=100,4242"], socket: daemon.socketPath)
        #expect(formerMember.lines == ["connected", refusal])
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }
}
