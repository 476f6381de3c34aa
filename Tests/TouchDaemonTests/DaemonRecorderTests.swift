// SPDX-License-Identifier: MIT
import Foundation
import Testing
import Trace
import Wire
import Session
@testable import TouchDaemon

/// `touchd --record`: the daemon's input as a native trace; a recording that
/// cannot be written (issue 9: disk full, unwritable path) is logged and
/// ends, and the daemon keeps serving.
@Suite(.serialized) struct DaemonRecorderTests {
    /// Starts touchd on the 4-finger drag with `--record path`, subscribes to gestures and
    /// returns the gesture lines received and the daemon (exited).
    static func serve(recordingTo path: String) throws -> (gestures: [String], daemon: DaemonProcess) {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--speed", "0", "--wait-for-subscribers", "1",
                                        "--exit-after-replay", "--record", path])
        let socket = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try socket.readLine() ?? "") == "hello")
        _ = try socket.request(#"{"op":"subscribe","id":1,"events":["gesture"]}"#, id: 1)
        let lines = try socket.lines { messageType($0) == "goodbye" }
        #expect(try daemon.waitForExit() == 0)
        return (lines.filter { messageType($0) == "gesture" }, daemon)
    }

    @Test func theRecordingReplaysToTheGesturesServed() throws {
        let expected = try DaemonEndToEndTests.offline(PackagePaths.drag4).gestures
        let directory = TemporaryDirectory()
        let path = directory.path + "/input.trace"
        let (gestures, daemon) = try Self.serve(recordingTo: path)
        #expect(gestures == expected)
        #expect(daemon.log.contains("recording finished"))

        let recorded = try TraceReader.read(path: path)
        #expect(recorded.format == .native)
        let original = try TraceReader.read(path: PackagePaths.drag4)
        #expect(recorded.devices.map(\.description.name) == original.devices.map(\.description.name))
        #expect(recorded.events == original.events)
        let replayed = try DaemonEndToEndTests.offline(path).gestures
        #expect(replayed == expected)
    }

    @Test func aFullDiskEndsTheRecordingNotTheDaemon() throws {
        let expected = try DaemonEndToEndTests.offline(PackagePaths.drag4).gestures
        let (gestures, daemon) = try Self.serve(recordingTo: "/dev/full")
        #expect(gestures == expected)
        let log = daemon.log
        #expect(log.contains("recording stopped: /dev/full: cannot write: No space left on device (errno 28)"), "\(log)")
        #expect(!log.contains("recording finished"))
    }

    @Test func anUnwritablePathIsLoggedAndServingGoesOn() throws {
        let expected = try DaemonEndToEndTests.offline(PackagePaths.drag4).gestures
        let (gestures, daemon) = try Self.serve(recordingTo: "/nonexistent-touchd-dir/input.trace")
        #expect(gestures == expected)
        #expect(daemon.log.contains("cannot record: /nonexistent-touchd-dir/input.trace: cannot create: No such file or directory (errno 2); serving without recording"),
                "\(daemon.log)")
    }
}
