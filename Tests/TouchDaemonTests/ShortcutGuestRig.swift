// SPDX-License-Identifier: MIT
import Foundation
import KernelTesting
import Testing
import Trace
@testable import TouchDaemon

/// The guest rig of the shortcut tests (keys, clicks, the locked session): a live touchd with
/// `shortcuts`, a recording played on a uinput touchscreen of the suite's own (its name prefixed,
/// so only it is read and passed through, by default with the `cancel` ending: a claim shows as a
/// cancel), and real
/// libinput reading touchd's output device (its keyboard or pointer) and the suite's mirror.
final class ShortcutGuestRig {
    let directory: TemporaryDirectory
    let daemon: DaemonProcess
    let replay: UinputReplay
    /// libinput on touchd's keyboard or pointer.
    let output: LibinputDebugEvents
    /// libinput on the mirror of the suite's touchscreen.
    let mirror: LibinputDebugEvents

    /// Starts touchd with `shortcuts` (YAML list lines), waits for `outputDevice` (a device
    /// touchd creates), plays nothing yet. `ready` runs once touchd is up, before the devices
    /// are looked for (the locked test waits for logind's state there).
    init(suite namePrefix: String, shortcuts: String, recording path: String, outputDevice: String,
         outputArguments: [String] = [], ending: String = "cancel", directory: TemporaryDirectory = TemporaryDirectory(),
         daemonArguments: [String] = [], environment: [String: String] = [:],
         ready: (DaemonProcess) throws -> Void = { _ in }) throws {
        self.directory = directory
        let config = directory.path + "/touchd.yaml"
        try """
        devices:
          # Only the suite's own touchscreen: suites beside it in the guest play theirs at the same
          # time, and their fingers on the same screen would make this shortcut's touch count wrong.
          - match: {name: "*"}
            ignore: true
          - match: {name: "\(namePrefix)*"}
            ignore: false
            passThrough: true
            passThroughEnding: \(ending)
        shortcuts:
        \(shortcuts)
        """.write(toFile: config, atomically: true, encoding: .utf8)
        daemon = try DaemonProcess(["--config", config] + daemonArguments, environment: environment)
        try ready(daemon)
        let outputNode = try ShortcutGuestRig.node(named: outputDevice)
        var recording = try TraceReader.read(path: path)
        for i in recording.devices.indices { recording.devices[i].description.name = namePrefix + recording.devices[i].description.name }
        replay = try UinputReplay(recording: recording)
        try daemon.waitForLog("pass-through: on")
        // The suite's own mirror (PassThroughTests' mirrors may exist beside it).
        let mirrorNode = try PassThroughTests.Rig.mirrorNode(of: try #require(replay.devices.first?.devnode))
        output = try LibinputDebugEvents.started(node: outputNode, extraArguments: outputArguments)
        mirror = try LibinputDebugEvents.started(node: mirrorNode)
    }

    /// Stops libinput and unplugs the touchscreen (callers `defer` it: that also keeps the
    /// rig alive to the end of the test).
    func stop() {
        output.stop()
        mirror.stop()
        replay.close()
    }

    /// The mirror's touch events (frames left out) among the first `count` it prints.
    func mirrorTouches(count: Int) throws -> [String] {
        try mirror.touchEvents(count: count).map(\.kind).filter { $0 != "TOUCH_FRAME" }
    }

    /// The node of the input device named `name`, once it exists.
    static func node(named name: String) throws -> String {
        var found: String?
        try poll("the input device \(name)") {
            let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/sys/class/input")) ?? []
            for n in entries where n.hasPrefix("event") {
                let device = (try? String(contentsOfFile: "/sys/class/input/\(n)/device/name", encoding: .utf8)) ?? ""
                if device.trimmingCharacters(in: .whitespacesAndNewlines) == name, FileManager.default.fileExists(atPath: "/dev/input/" + n) {
                    found = "/dev/input/" + n
                    return true
                }
            }
            return false
        }
        return found!
    }
}
