// SPDX-License-Identifier: MIT
import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `touchctl rotate` and `touchctl devices --running` against a running touchd
/// (the built binaries; a replayed touchscreen, no kernel device).
@Suite(.serialized) struct TouchctlRotateTests {
    /// Runs touchctl to its end: status and standard output.
    static func touchctl(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: PackagePaths.touchctl)
        p.arguments = arguments
        let out = Pipe()
        p.standardOutput = out
        p.standardError = FileHandle.nullDevice
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (p.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static func rotations(in lines: [String]) -> [Int] {
        lines.filter { messageType($0) == "screens" }.compactMap { line in
            guard let m = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let s = (m["screens"] as? [[String: Any]])?.first else { return nil }
            return s["rotation"] as? Int ?? 0
        }
    }

    @Test("touchctl rotate turns the screen once and follows a monitor-sensor transcript; devices --running shows it")
    func rotateOnceAndFollow() throws {
        let dir = TemporaryDirectory()
        let config = dir.path + "/touchd.yaml"
        try "screens:\n  - {name: main, width: 1920, height: 1080}\naccess:\n  changeScreens: {users: [\(getuid())]}\n"
            .write(toFile: config, atomically: true, encoding: .utf8)
        let daemon = try DaemonProcess(["--config", config, "--replay", PackagePaths.drag4, "--loop"])
        let watcher = try WireSocket(path: daemon.socketPath)
        _ = try watcher.message()

        #expect(try Self.touchctl(["rotate", "--socket", daemon.socketPath, "90"]).status == 0)
        let shown = try Self.touchctl(["devices", "--running", "--socket", daemon.socketPath])
        #expect(shown.status == 0)
        #expect(shown.output.contains("screen 0 \"main\": 1080 x 1920 px, turned 90"), "\(shown.output)")
        #expect(shown.output.contains(": screen 0 \"main\""), "\(shown.output)")
        #expect(Self.rotations(in: [try watcher.readLine() ?? ""]) == [90])

        // The transcript's monitor-sensor ends: touchctl sends what it said, then exits 69.
        let transcript = PackagePaths.root + "/Tests/Fixtures/synthetic/monitor-sensor-rotation.txt"
        let follow = try Self.touchctl(["rotate", "--socket", daemon.socketPath, "--follow-sensor",
                                        "--sensor-command", "cat '\(transcript)'", "--lock-file", dir.path + "/lock"])
        #expect(follow.status == 69)
        var told: [String] = []
        while told.count < 5, let line = try watcher.readLine() { if messageType(line) == "screens" { told.append(line) } }
        #expect(Self.rotations(in: told) == [0, 90, 180, 270, 0])

        // Locked: nothing is sent.
        #expect(try Self.touchctl(["rotate", "--lock", "--lock-file", dir.path + "/lock"]).status == 0)
        let locked = try Self.touchctl(["rotate", "--socket", daemon.socketPath, "--follow-sensor",
                                        "--sensor-command", "cat '\(transcript)'", "--lock-file", dir.path + "/lock"])
        #expect(locked.status == 69)
        #expect(try Self.touchctl(["rotate", "--unlock", "--lock-file", dir.path + "/lock"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: dir.path + "/lock"))
        #expect(try Self.touchctl(["rotate", "--socket", daemon.socketPath, "180"]).status == 0)
        // The next screens message is the 180 sent after the locked run: the locked one sent nothing.
        var next: String?
        while next == nil, let line = try watcher.readLine() { if messageType(line) == "screens" { next = line } }
        #expect(Self.rotations(in: [next ?? ""]) == [180])
        daemon.signal(SIGTERM)
        #expect(try daemon.waitForExit() == 0)
    }
}
