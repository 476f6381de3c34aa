import ArgumentParser
import LiveInput
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

    func run() throws {
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
        let sizeSource: String
        switch s.sizeSource {
        case .configuration: sizeSource = "configuration"
        case .touchdProperty: sizeSource = "udev TOUCHD_SIZE_MM"
        case .udevProperty: sizeSource = "udev ID_INPUT_WIDTH_MM/ID_INPUT_HEIGHT_MM"
        case .quirk: sizeSource = "libinput quirk"
        case .device: sizeSource = device.geometry.source.rawValue
        }
        lines.append("  size: \(TouchText.fixed(device.geometry.width, 1)) x \(TouchText.fixed(device.geometry.height, 1)) mm (\(sizeSource))")
        let screenName = screens.indices.contains(s.mapping.screen) ? screens[s.mapping.screen].name : "?"
        var mapping = "  screen: \(s.mapping.screen) \"\(screenName)\" (\(source(s.screenSource)))"
        if s.mapping.rotation != .none { mapping += ", rotation \(s.mapping.rotation.rawValue)" }
        if s.mapping.calibration != .identity {
            mapping += ", calibration \(s.mapping.calibration) (\(source(s.calibrationSource)))"
        }
        if s.grab { mapping += ", grabbed" }
        lines.append(mapping)
        lines.append("  pass-through: \(s.passThrough ? "on" : "off") (\(source(s.passThroughSource)))")
        lines.append("  syspath: \(live.syspath)")
        lines.append(contentsOf: DeviceText.quirkLines(device.mapping.quirks))
        for w in s.warnings { lines.append("  warning: \(w)") }
        return lines
    }

    static func source(_ s: SettingSource) -> String {
        switch s {
        case .configuration: return "configuration"
        case .touchdProperty: return "udev TOUCHD_*"
        case .udevProperty: return "udev LIBINPUT_CALIBRATION_MATRIX"
        case .quirk: return "libinput quirk"
        case .device: return "default"
        }
    }
}
