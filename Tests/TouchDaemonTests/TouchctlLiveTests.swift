// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import KernelTesting
import Testing
import TouchCore
import Session
import TouchDaemon
import Trace
import Evdev
import LiveInput
import Udev

/// `touchctl devices`, `record` and `replay --live` against the guest's kernel,
/// running the built binary (the guest sees the host's build directory).
@Suite(.serialized) struct TouchctlLiveTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let touchctl = packageRoot.appendingPathComponent(".build/debug/touchctl").path

    /// A running touchctl with its standard error readable line by line.
    final class Run {
        let process = Process()
        let stdout = Pipe()
        let stderr = Pipe()
        private var errorText = ""

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: TouchctlLiveTests.touchctl)
            process.arguments = arguments
            process.standardOutput = stdout
            process.standardError = stderr
            try process.run()
        }

        /// Reads standard error until a line contains `text`, it ends, or 30 s pass; returns that line.
        func waitForError(containing text: String) -> String? {
            let fd = stderr.fileHandleForReading.fileDescriptor
            let giveUp = LiveClock.now().adding(milliseconds: 30_000)
            var buffer = [UInt8](repeating: 0, count: 4096)
            while LiveClock.now() < giveUp {
                if let line = errorText.split(separator: "\n").first(where: { $0.contains(text) }) { return String(line) }
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                guard poll(&pfd, 1, 200) > 0 else { continue }
                let n = read(fd, &buffer, buffer.count)
                if n <= 0 { return nil }
                errorText += String(decoding: buffer[0..<n], as: UTF8.self)
            }
            return nil
        }

        /// Waits for the exit; returns the status, standard output and all of standard error.
        func finish() -> (status: Int32, output: String, error: String) {
            let out = stdout.fileHandleForReading.readDataToEndOfFile()
            let err = stderr.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            errorText += String(decoding: err, as: UTF8.self)
            return (process.terminationStatus, String(decoding: out, as: UTF8.self), errorText)
        }
    }

    static func waitUntilInitialized(_ devices: [UinputDevice]) throws {
        let udev = try UdevContext()
        for d in devices {
            let syspath = try #require(d.syspath)
            for _ in 0..<200 {
                if try udev.inputEventDevices().contains(where: { $0.syspath.hasPrefix(syspath + "/") && $0.isInitialized }) { break }
                UinputReplay.sleep(until: LiveClock.now().adding(milliseconds: 20))
            }
        }
    }

    static func gestures(_ outputs: [ReplayOutput]) -> [String] { Comparable(outputs).gestures }

    @Test(.requiresUinput)
    func devicesListsTheTouchscreenAndNotAKeyboard() throws {
        let description = try #require(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.desc").devices.first).description
        let touchscreen = try UinputDevice(description: description)
        let geometry = DeviceGeometry(description, classification: DeviceClassification(description))
        var keyboard = DeviceDescription(name: "touchd test keyboard", id: InputID(bustype: 3, vendor: 0x1234, product: 0x5678))
        keyboard.codes[.syn] = CodeSet([0])
        keyboard.codes[.key] = CodeSet(1...88)
        let uinputKeyboard = try UinputDevice(description: keyboard)
        try Self.waitUntilInitialized([touchscreen, uinputKeyboard])

        let result = try Run(["devices"]).finish()
        #expect(result.status == 0, "\(result.error)")
        let node = try #require(touchscreen.devnode)
        let lines = result.output.split(separator: "\n").map(String.init)
        let header = try #require(lines.firstIndex { $0 == "\(node): Atmel maXTouch Touchscreen" }, "\(result.output)")
        #expect(lines[header + 1].hasPrefix("  type: touchscreen (touch types: direct"))
        #expect(lines[header + 2] == "  slots: 10")
        // 799 x 479 units without resolution: the fallback gives 200 x 119.9 mm.
        #expect(geometry.source == .fallback && geometry.width == 200 && abs(geometry.height - 119.9) < 0.01)
        #expect(lines[header + 3].hasPrefix("  size: 200") && lines[header + 3].hasSuffix(" x 119.9 mm (fallback)"), "\(lines[header + 3])")
        #expect(lines[header + 4] == "  screen: 0 \"default\" (default)")
        // The installed libinput quirks (if any) have no section for this panel.
        #expect(lines[(header + 5)...].prefix(4).contains("  quirks: none"), "\(result.output)")
        #expect(!result.output.contains(try #require(uinputKeyboard.devnode) + ":"))
        #expect(!result.output.contains("touchd test keyboard"))
    }

    // Issue 9, faults: absurd absinfo and a node the user may not open; each
    // device is explained by name, the others are still listed.
    @Test(.requiresUinput)
    func devicesExplainsDevicesThatCannotBeUsed() throws {
        let atmel = try #require(try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.desc").devices.first).description
        // The kernel refuses maximum < minimum from uinput (a driver could still report it: TouchPipelineTests covers that).
        var inverted = atmel
        inverted.name = "touchd inverted touchscreen"
        for code in [EventCode.absX, EventCode.absMTPositionX] { inverted.absInfo[code] = AbsInfo(minimum: 800, maximum: 0) }
        #expect(throws: EvdevError.self) { _ = try UinputDevice(description: inverted) }

        var flat = atmel
        flat.name = "touchd zero-range touchscreen"
        for code in [EventCode.absX, EventCode.absY, EventCode.absMTPositionX, EventCode.absMTPositionY] {
            flat.absInfo[code] = AbsInfo(minimum: 100, maximum: 100, resolution: 0)
        }
        let flatDevice = try UinputDevice(description: flat)
        let good = try UinputDevice(description: atmel)
        try Self.waitUntilInitialized([flatDevice, good])
        let flatNode = try #require(flatDevice.devnode), goodNode = try #require(good.devnode)

        let asRoot = try Run(["devices"]).finish()
        #expect(asRoot.status == 0, "\(asRoot.error)")
        let lines = asRoot.output.split(separator: "\n").map(String.init)
        #expect(lines.contains("\(flatNode): ignored: ABS_MT_POSITION_X has no usable range (minimum 100, maximum 100), ABS_MT_POSITION_Y has no usable range (minimum 100, maximum 100), ABS_X has no usable range (minimum 100, maximum 100), ABS_Y has no usable range (minimum 100, maximum 100): no touches can come from it"),
                "\(asRoot.output)")
        #expect(lines.contains("\(goodNode): Atmel maXTouch Touchscreen"), "\(asRoot.output)")

        // As nobody: the node cannot be opened, and touchctl says so for each device.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Self.touchctl, "devices"]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.split(separator: "\n").contains { $0 == "\(goodNode): cannot be used: \(goodNode): cannot open device node: Permission denied (errno 13)" },
                "\(text)")
    }

    @Test(.requiresUinput, arguments: ["native", "evemu"])
    func recordThenReplayGivesTheOriginalGestures(_ format: String) throws {
        let original = try RealFixtures.recording("touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events")
        let replay = try UinputReplay(recording: original)
        defer { replay.close() }
        try Self.waitUntilInitialized(replay.devices)
        let node = try #require(replay.devices.first?.devnode)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("touchctl-record-\(getpid())-\(format).trace").path
        defer { try? FileManager.default.removeItem(atPath: file) }

        // --duration only bounds a broken run; SIGINT stops it.
        let run = try Run(["record", node, "-o", file, "--format", format, "--duration", "60"])
        guard run.waitForError(containing: "recording \(node)") != nil else {
            run.process.terminate()
            Issue.record("touchctl record did not open \(node): \(run.finish().error)")
            return
        }
        try replay.play(speed: 1)
        // Every event written is queued for the recorder; it reads the rest when stopped.
        run.process.interrupt()
        let result = run.finish()
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("touchctl: stopped by signal"))
        #expect(result.error.contains("recorded "))

        let recorded = try TraceReader.read(path: file)
        #expect(recorded.devices.count == 1)
        #expect(recorded.devices.first?.description.name == "Atmel maXTouch Touchscreen")
        // Timing jitter in the guest can shift how many pan updates come between; the outline cannot change.
        let expected = Comparable(LiveHarness.offlineOutputs(original)).gestureOutline
        #expect(expected == ["pan pan began 3", "pan pan ended 3"])
        #expect(Comparable(LiveHarness.offlineOutputs(recorded)).gestureOutline == expected)
        #expect(Comparable(LiveHarness.offlineOutputs(recorded)).touches == Comparable(LiveHarness.offlineOutputs(original)).touches)
    }

    @Test(.requiresUinput)
    func replayLiveFeedsALiveSession() throws {
        let fixture = "touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events"
        let recording = try RealFixtures.recording(fixture)
        let name = try #require(recording.devices.first?.description.name)
        let session = try LiveTouchSession(accepts: { _ in true })
        var outputs: [LiveSessionOutput] = []
        try session.start { outputs.append($0) }
        outputs.removeAll()

        // A generous settle: the guest's emulated CPU can be slow to open the new device.
        let run = try Run(["replay", "--live", "--speed", "1", "--settle", "3000", RealFixtures.root + "/real/evemu-devices/" + fixture])
        let giveUp = LiveClock.now().adding(milliseconds: 60_000)
        while run.process.isRunning && LiveClock.now() < giveUp {
            try session.runRound(maximumWaitMilliseconds: 100) { outputs.append($0) }
        }
        if run.process.isRunning { run.process.terminate() }
        try LiveHarness.settle(session, into: &outputs)
        let result = run.finish()
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("wrote 48 events"))

        // Only what the replayed device produced (other suites' devices may come and go).
        var ours = Set<DeviceID>()
        var live: [ReplayOutput] = []
        for o in outputs {
            if case .deviceAdded(let info, _) = o, info.description.name == name { ours.insert(info.id) }
            switch o.replayOutput {
            case .touch(var t)? where ours.contains(t.device):
                t.device = DeviceID(0)
                live.append(.touch(t))
            case .engine(.gesture(var g))? where ours.contains(g.device):
                g.device = DeviceID(0)
                live.append(.engine(.gesture(g)))
            default:
                break
            }
        }
        #expect(ours.count == 1)
        let offline = Comparable(LiveHarness.offlineOutputs(recording))
        let seen = Comparable(live)
        #expect(seen.gestures == offline.gestures)
        // Touch ids depend on other devices' touches: compare the rest.
        func withoutIDs(_ touches: [String]) -> [String] { touches.map { $0.split(separator: " ").dropFirst().joined(separator: " ") } }
        #expect(withoutIDs(seen.touches) == withoutIDs(offline.touches))
    }
}
