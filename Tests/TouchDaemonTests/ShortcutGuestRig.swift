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

    /// Starts touchd with `shortcuts` (YAML list lines), waits for the device touchd logs as
    /// `outputCreated` ("shortcut keyboard created", "shortcut pointer created"), plays nothing yet. `ready` runs once touchd is up, before the devices
    /// are looked for (the locked test waits for logind's state there).
    init(suite namePrefix: String, shortcuts: String, recording path: String, outputCreated: String,
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
        let outputNode = try ShortcutGuestRig.node(loggedAs: outputCreated, by: daemon)
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

    /// The node of the device `daemon` logged as `created` (its `device=` field), once it exists.
    /// Not looked up by name: the suites beside this one run daemons of their own, each with a
    /// keyboard of the same name.
    static func node(loggedAs created: String, by daemon: DaemonProcess) throws -> String {
        var found: String?
        try poll("touchd to log '\(created)' with its device, and the node") {
            guard let line = daemon.log.split(separator: "\n").first(where: { $0.contains(created) }),
                  let field = line.split(separator: " ").first(where: { $0.hasPrefix("device=/dev/input/") }) else { return false }
            let node = String(field.dropFirst("device=".count))
            guard FileManager.default.fileExists(atPath: node) else { return false }
            found = node
            return true
        }
        return found!
    }
}
