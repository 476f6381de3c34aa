// SPDX-License-Identifier: MIT
import ArgumentParser
import Dispatch
import JSON
import LiveInput
import Quirks
import TouchClient
import TouchCore
import Session
import TouchDaemon
import Trace

/// `touchctl devices`: the live touch devices, how touchd would use them, and why any is left alone.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the touch devices present: node, name, type, slots, size, screen mapping, and why any is ignored."
    )

    @Option(name: .customLong("config"), help: "Configuration file (YAML) whose device rules apply.")
    var config: String?

    @Option(name: .customLong("quirks"), help: "Directory of libinput quirks files to apply instead of the installed ones (/usr/share/libinput, /etc/libinput/local-overrides.quirks).")
    var quirks: String?

    @Flag(help: "Ask the running touchd instead: its devices and screens as they are now, with changes made at runtime.")
    var running = false

    @Option(help: "Socket path (with --running).")
    var socket: String = DaemonSettings.defaultSocketPath

    func run() throws {
        if running {
            let socket = self.socket
            let done = DispatchSemaphore(value: 0)
            let status = StatusBox()
            Task {
                status.value = await RunningDevicesText.print(socket: socket)
                done.signal()
            }
            done.wait()
            if status.value != 0 { throw ExitCode(status.value) }
            return
        }
        var configuration = try loadConfiguration(path: config)
        if let quirks {
            configuration.quirks = try loadQuirks(directory: quirks)
        } else {
            do {
                configuration.quirks = try QuirksLoader.loadInstalled()
            } catch {
                printError("touchctl: warning: libinput quirks not used: " + error.description)
            }
        }
        let session: LiveTouchSession
        do {
            session = try LiveTouchSession(configuration: configuration, watchesHotplug: false)
        } catch {
            printError("touchctl: " + error.description)
            throw ExitCode(69)
        }
        var lines: [String] = []
        var found = 0
        do {
            try session.start { output in
                switch output {
                case .deviceAdded(let device, let live):
                    found += 1
                    lines.append(contentsOf: LiveDeviceText.describe(device, live, screens: configuration.screens))
                case .deviceIgnored(let node, let reason):
                    found += 1
                    lines.append("\(node): ignored: \(reason)")
                case .openFailed(let node, let error):
                    found += 1
                    lines.append("\(node): cannot be used: \(error.description)")
                case .deviceChanged, .deviceRemoved, .resynced, .touch, .engine, .woken:
                    break
                }
            }
        } catch {
            printError("touchctl: " + error.description)
            throw ExitCode(69)
        }
        session.finish { _ in }
        var out = Output()
        if found == 0 { out.line("no touch devices") }
        for line in lines { out.line(line) }
        out.flush()
    }
}

/// Human text for a live device.
enum LiveDeviceText {
    static func describe(_ device: DeviceInfo, _ live: LiveDeviceInfo, screens: [ScreenEntry]) -> [String] {
        let s = live.settings
        let c = device.classification
        var lines = ["\(live.node): \(device.description.name)"]
        let touchTypes = c.touchTypes.map(\.rawValue).joined(separator: ", ")
        lines.append("  type: \(live.kind?.rawValue ?? "unknown") (touch types: \(touchTypes.isEmpty ? "none" : touchTypes))")
        lines.append("  slots: \(device.description.slotCount)")
        let sizeSource = s.origins.size == .device ? device.geometry.source.rawValue : s.origins.size.description
        lines.append("  size: \(TouchText.fixed(device.geometry.width, 1)) x \(TouchText.fixed(device.geometry.height, 1)) mm (\(sizeSource))")
        let screenName = screens.indices.contains(s.mapping.screen) ? screens[s.mapping.screen].name : "?"
        var mapping = "  screen: \(s.mapping.screen) \"\(screenName)\" (\(s.origins.screen))"
        if screens.indices.contains(s.mapping.screen), screens[s.mapping.screen].rotation != .none {
            mapping += ", screen turned \(screens[s.mapping.screen].rotation.rawValue)"
        }
        if s.mapping.rotation != .none { mapping += ", rotation \(s.mapping.rotation.rawValue) (\(s.origins.rotation))" }
        if s.mapping.calibration != .identity {
            mapping += ", calibration \(s.mapping.calibration) (\(s.origins.calibration))"
        }
        if s.grab { mapping += ", grabbed (\(s.origins.grab))" }
        lines.append(mapping)
        lines.append("  pass-through: \(s.passThrough ? "on" : "off") (\(s.origins.passThrough))"
                     + (s.passThrough ? ", taken touches end: \(s.passThroughEnding.rawValue)" : ""))
        lines.append("  syspath: \(live.syspath)")
        lines.append(contentsOf: DeviceText.quirkLines(device.mapping.quirks))
        for w in s.warnings { lines.append("  warning: \(w)") }
        return lines
    }
}

/// `touchctl devices --running`: what touchd's `hello` says now.
enum RunningDevicesText {
    static func print(socket: String) async -> Int32 {
        guard let client = await connectedClient(socket, reconnect: nil) else {
            return 69
        }
        var hello: ServerMessage?
        for await event in client.events {
            if case .hello(let m) = event { hello = m; break }
        }
        await client.close()
        guard let hello else {
            printError("touchctl: no hello from \(socket)")
            return 69
        }
        var out = Output()
        for line in describe(hello) { out.line(line) }
        out.flush()
        return 0
    }

    /// The screens, then each device with the screen it maps to.
    static func describe(_ hello: ServerMessage) -> [String] {
        let screens = hello["screens"]?.arrayValue ?? []
        var lines: [String] = []
        var names: [Int64: String] = [:]
        for s in screens {
            let id = s["id"]?.int64Value ?? -1
            let name = s["name"]?.stringValue ?? "?"
            names[id] = name
            var line = "screen \(id) \"\(name)\": \(s["width"]?.int64Value ?? 0) x \(s["height"]?.int64Value ?? 0) px"
            if let r = s["rotation"]?.int64Value, r != 0 { line += ", turned \(r)" }
            if let size = s["size"], let w = size["width"]?.doubleValue, let h = size["height"]?.doubleValue {
                line += ", \(TouchText.fixed(w, 1)) x \(TouchText.fixed(h, 1)) mm"
            }
            if let i = s["insets"] {
                let edges = ["top", "right", "bottom", "left"].compactMap { k in
                    i[k]?.doubleValue.flatMap { $0 > 0 ? "\(k) \(TouchText.fixed($0, 0))" : nil }
                }
                if !edges.isEmpty { line += ", insets " + edges.joined(separator: ", ") }
            }
            lines.append(line)
        }
        let devices = hello["devices"]?.arrayValue ?? []
        if devices.isEmpty { lines.append("no touch devices in service") }
        for d in devices {
            let screen = d["screen"]?.int64Value ?? 0
            lines.append("device \(d["id"]?.int64Value ?? -1) \"\(d["name"]?.stringValue ?? "?")\": screen \(screen) \"\(names[screen] ?? "?")\"")
            if let p = d["passThrough"] {
                lines.append("  pass-through: on, mirror \(p["mirror"]?.stringValue ?? "?") \"\(p["name"]?.stringValue ?? "?")\", taken touches end: \(p["ending"]?.stringValue ?? "?")"
                             + (p["endingReason"]?.stringValue.map { " (\($0))" } ?? ""))
            } else {
                lines.append("  pass-through: off")
            }
        }
        return lines
    }
}
