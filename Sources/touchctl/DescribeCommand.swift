// SPDX-License-Identifier: MIT
import ArgumentParser
import TouchCore
import Session
import TouchDaemon
import Trace

/// `touchctl describe`: device description and classification, for people.
struct DescribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "describe",
        abstract: "Print each device of traces: identity, capabilities, classification, size."
    )

    @OptionGroup var input: TraceInputOptions

    func run() throws {
        let recordings = try readRecordings(input)
        var out = Output()
        for (fileIndex, r) in recordings.enumerated() {
            let file = input.files[fileIndex]
            let span: String
            if let first = r.events.first, let last = r.events.last {
                span = ", \(r.events.count) events over \(TouchText.fixed(last.event.time.milliseconds(since: first.event.time) / 1000, 3)) s"
            } else {
                span = ", no events"
            }
            out.line("\(file): \(r.format.rawValue)\(span)")
            let session = ReplaySession(recordings: [r], configuration: try loadConfiguration(input))
            let pipeline = session.makePipeline()
            for info in pipeline.devices {
                for line in DeviceText.describe(info, node: r.devices[Int(info.id.rawValue)].node) { out.line(line) }
            }
            for (id, reason) in session.ignoredDevices {
                out.line("device \(id): \(r.devices[Int(id.rawValue)].description.name): \(reason)")
            }
            for w in r.warnings { out.line("  warning: \(w.description)") }
        }
        out.flush()
    }
}

/// Multi-line human descriptions of devices.
enum DeviceText {
    static func hex4(_ v: UInt16) -> String {
        let s = String(v, radix: 16)
        return "0x" + String(repeating: "0", count: max(0, 4 - s.count)) + s
    }

    /// One line per quirk that applied: key, value, file, line and section.
    static func quirkLines(_ quirks: QuirkAttributes) -> [String] {
        if quirks.entries.isEmpty { return ["  quirks: none"] }
        return ["  quirks:"] + quirks.entries.map { "    \($0.description)" }
    }

    static func describe(_ info: DeviceInfo, node: String?) -> [String] {
        let d = info.description
        let c = info.classification
        var lines: [String] = []
        lines.append("device \(info.id): \(d.name)" + (node.map { " (\($0))" } ?? ""))
        lines.append("  id: bus \(hex4(d.id.bustype)) vendor \(hex4(d.id.vendor)) product \(hex4(d.id.product)) version \(hex4(d.id.version))")
        let props = d.properties.numbers.map(EventNames.property)
        lines.append("  properties: " + (props.isEmpty ? "none" : props.joined(separator: " ")))
        let types = c.touchTypes.map(\.rawValue).joined(separator: ", ")
        lines.append("  touch types: " + (types.isEmpty ? "none (not a touch device)" : types))
        lines.append("  classification: \(c.reason)")
        let contacts: String
        switch c.contactProtocol {
        case .slotted(let slots): contacts = "multitouch protocol B, \(slots) slots"
        case .anonymous: contacts = "multitouch protocol A (no slots)"
        case .singleTouch: contacts = "single touch"
        case .none: contacts = "no finger contacts"
        }
        lines.append("  contacts: \(contacts), up to \(c.maxFingerCount) fingers" + (c.isSemiMT ? ", semi-mt (bounding box)" : ""))
        if c.hasStylus { lines.append("  stylus tools: " + c.stylusTools.map(\.rawValue).joined(separator: ", ")) }
        let g = info.geometry
        lines.append("  size: \(TouchText.fixed(g.width)) x \(TouchText.fixed(g.height)) mm (\(g.source.rawValue)), screen \(info.mapping.screen)")
        lines.append(contentsOf: quirkLines(info.mapping.quirks))
        for code in (d.codes[.abs] ?? CodeSet()) {
            let a = d.absInfo[code]
            let range = a.map { "\($0.minimum)..\($0.maximum) fuzz \($0.fuzz) flat \($0.flat) resolution \($0.resolution)" } ?? "no absinfo"
            lines.append("  \(EventNames.code(.abs, code)): \(range)")
        }
        let keys = (d.codes[.key] ?? CodeSet()).map { EventNames.code(.key, $0) }
        if !keys.isEmpty { lines.append("  keys: " + keys.joined(separator: " ")) }
        for t in d.codes.keys.sorted() where t != .abs && t != .key && t != .syn {
            let codes = (d.codes[t] ?? CodeSet()).map { EventNames.code(t, $0) }
            lines.append("  \(EventNames.type(t)): " + (codes.isEmpty ? "(none)" : codes.joined(separator: " ")))
        }
        return lines
    }
}
