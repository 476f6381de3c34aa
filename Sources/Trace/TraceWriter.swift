// SPDX-License-Identifier: MIT
import JSON
import TouchCore

/// Renders a whole ``Recording`` in any format touchd knows.
package enum TraceWriter {
    /// The recording as text in `format`.
    ///
    /// - evemu: 1.3, self-contained (N/I/P/B/A header, then `E:` lines with
    ///   the original times). One device only.
    /// - libinput YAML: version 1, every device, times relative to the
    ///   earliest event (as `libinput record` writes them).
    /// - native: `touchd-trace` version 1, times and runtime screen changes kept.
    ///
    /// - Throws: ``TraceError`` (code ``TraceError/Code/unwritable``) when the
    ///   recording cannot be expressed in `format` (several devices in evemu,
    ///   runtime screen changes in evemu or libinput YAML).
    package static func render(_ recording: Recording, as format: TraceFormat) throws -> String {
        if format != .native, !recording.screenChanges.isEmpty {
            // Dropping them would replay the session on the wrong geometry after the first change.
            throw TraceError(.unwritable, file: format.rawValue,
                             "\(format.rawValue) has no place for the recording's \(recording.screenChanges.count) runtime screen change(s) "
                                 + "(screens lines); convert to native, which keeps them")
        }
        switch format {
        case .native: return try native(recording)
        case .evemu: return try evemu(recording)
        case .libinputYAML: return libinputYAML(recording)
        }
    }

    private static func native(_ recording: Recording) throws -> String {
        var writer = NativeTraceWriter()
        for (i, device) in recording.devices.enumerated() { writer.addDevice(DeviceID(i), device, at: nil) }
        // A screens line comes after every event up to its time, as the recorder wrote it.
        var changes = recording.screenChanges[...]
        for event in recording.events {
            while let c = changes.first, c.time < event.event.time {
                try write(c, into: &writer)
                changes = changes.dropFirst()
            }
            try writer.append(event)
        }
        for c in changes { try write(c, into: &writer) }
        try writer.finish()
        return writer.text
    }

    /// A runtime change as the line of its kind: `focus` for a focus report, `screens` otherwise.
    private static func write(_ c: RecordedScreenChange, into writer: inout NativeTraceWriter) throws(TraceError) {
        if c.request["op"]?.stringValue == "focus" {
            try writer.focus(request: c.request.jsonString, at: c.time)
        } else {
            try writer.screens(request: c.request.jsonString, at: c.time)
        }
    }

    // MARK: evemu

    /// Lines evemu writes per type (`B:` lines of 8 mask bytes), for the types it always writes.
    private static let evemuTypeLines: [(type: UInt16, lines: Int)] = [
        (0x00, 1), (0x01, 12), (0x02, 1), (0x03, 1), (0x04, 1), (0x05, 1), (0x11, 1), (0x12, 1), (0x14, 1), (0x15, 2),
    ]

    private static func evemu(_ recording: Recording) throws -> String {
        guard recording.devices.count == 1 else {
            throw TraceError(.unwritable, file: "evemu",
                             "evemu files describe exactly one device; this recording has \(recording.devices.count) "
                                 + "(convert to native or libinput-yaml, which keep several)")
        }
        let d = recording.devices[0].description
        var out = "# EVEMU 1.3\n# Input device name: \"\(d.name)\"\n"
        out += "N: \(d.name)\n"
        out += "I: \(hexDigits(UInt64(d.id.bustype), width: 4)) \(hexDigits(UInt64(d.id.vendor), width: 4)) "
            + "\(hexDigits(UInt64(d.id.product), width: 4)) \(hexDigits(UInt64(d.id.version), width: 4))\n"
        let p = d.properties.rawValue
        out += "P:" + (0..<8).map { " " + hexDigits(UInt64($0 < 4 ? (p >> UInt32($0 * 8)) & 0xFF : 0), width: 2) }.joined() + "\n"
        var types = evemuTypeLines
        for type in d.codes.keys.sorted() where !types.contains(where: { $0.type == type.rawValue }) {
            types.append((type.rawValue, 1))
        }
        for (type, standardLines) in types.sorted(by: { $0.type < $1.type }) {
            let codes = d.codes[EventType(rawValue: type)] ?? CodeSet()
            let highest = codes.codes.last.map(Int.init) ?? -1
            let lines = max(standardLines, (highest + 64) / 64)
            var mask = [UInt8](repeating: 0, count: lines * 8)
            for code in codes { mask[Int(code) / 8] |= 1 << UInt8(code % 8) }
            for l in 0..<lines {
                out += "B: " + hexDigits(UInt64(type), width: 2)
                for b in mask[(l * 8)..<(l * 8 + 8)] { out += " " + hexDigits(UInt64(b), width: 2) }
                out += "\n"
            }
        }
        for code in d.absInfo.keys.sorted() {
            let a = d.absInfo[code]!
            out += "A: \(hexDigits(UInt64(code), width: 2)) \(a.minimum) \(a.maximum) \(a.fuzz) \(a.flat) \(a.resolution)\n"
        }
        out += "################################\n#      Waiting for events      #\n################################\n"
        out.reserveCapacity(out.utf8.count + recording.events.count * 30)
        for r in recording.events {
            let e = r.event
            guard e.time.microseconds >= 0 else {
                throw TraceError(.unwritable, file: "evemu", "evemu cannot write the negative time \(e.time)")
            }
            out += "E: \(e.time.microseconds / 1_000_000).\(padded(e.time.microseconds % 1_000_000, 6)) "
                + "\(hexDigits(UInt64(e.type.rawValue), width: 4)) \(hexDigits(UInt64(e.code), width: 4)) \(printfD04(e.value))\n"
        }
        return out
    }

    /// `%04d`: zero-padded to 4 characters including the sign (`-001`).
    static func printfD04(_ v: Int32) -> String {
        let magnitude = String(Int64(v).magnitude)
        let sign = v < 0 ? "-" : ""
        let width = 4 - sign.count
        return sign + (magnitude.count >= width ? magnitude : String(repeating: "0", count: width - magnitude.count) + magnitude)
    }

    private static func padded(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
    }

    /// `%Nd`: right-aligned with spaces.
    private static func rightAligned(_ v: Int64, _ width: Int) -> String {
        let s = String(v)
        return s.count >= width ? s : String(repeating: " ", count: width - s.count) + s
    }

    // MARK: libinput record YAML

    private static func libinputYAML(_ recording: Recording) -> String {
        var out = "# libinput record\n# written by touchd\nversion: 1\nndevices: \(recording.devices.count)\n"
        out += "libinput:\n  version: \"unknown\"\n  git: \"unknown\"\nsystem:\n  kernel: \"unknown\"\n  dmi: \"unknown\"\ndevices:\n"
        let base = recording.events.map(\.event.time).min() ?? .zero
        for (index, device) in recording.devices.enumerated() {
            let d = device.description
            if let node = device.node {
                out += "- node: " + yamlScalar(node) + "\n  evdev:\n"
            } else {
                out += "- evdev:\n"
            }
            out += "    # Name: \(d.name)\n"
            out += "    # ID: bus 0x\(String(d.id.bustype, radix: 16)) vendor 0x\(String(d.id.vendor, radix: 16)) "
                + "product 0x\(String(d.id.product, radix: 16)) version 0x\(String(d.id.version, radix: 16))\n"
            var name = ""
            JSONText.appendString(d.name, to: &name)
            out += "    name: \(name)\n"
            out += "    id: [\(d.id.bustype), \(d.id.vendor), \(d.id.product), \(d.id.version)]\n"
            out += "    codes:\n"
            for type in d.codes.keys.sorted() {
                out += "      \(type.rawValue): [" + d.codes[type]!.codes.map(String.init).joined(separator: ", ") + "]\n"
            }
            if !d.absInfo.isEmpty {
                out += "    absinfo:\n"
                for code in d.absInfo.keys.sorted() {
                    let a = d.absInfo[code]!
                    out += "      \(code): [\(a.minimum), \(a.maximum), \(a.fuzz), \(a.flat), \(a.resolution)]\n"
                }
            }
            out += "    properties: [" + d.properties.numbers.map(String.init).joined(separator: ", ") + "]\n"
            out += "  udev:\n    properties:\n"
            for key in d.udevProperties.keys.sorted() {
                out += "    - " + yamlScalar(key + "=" + d.udevProperties[key]!) + "\n"
            }
            out += "  quirks:\n  events:\n"
            var inFrame = false
            for r in recording.events where r.device == DeviceID(index) {
                if !inFrame { out += "  - evdev:\n" }
                inFrame = !r.event.isSynReport
                let rel = r.event.time.microseconds - base.microseconds
                out += "    - [" + rightAligned(rel / 1_000_000, 3) + ", " + rightAligned(rel % 1_000_000, 6) + ", "
                    + rightAligned(Int64(r.event.type.rawValue), 3) + ", " + rightAligned(Int64(r.event.code), 3) + ", "
                    + rightAligned(Int64(r.event.value), 7) + "]\n"
            }
        }
        return out
    }

    /// A plain YAML scalar when that is unambiguous, a double-quoted one otherwise.
    private static func yamlScalar(_ s: String) -> String {
        let plain = !s.isEmpty && s.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || "_=/.,+-:".unicodeScalars.contains($0)
        } && !s.contains(": ") && !s.hasSuffix(":") && s.first != "-"
        if plain { return s }
        var quoted = ""
        JSONText.appendString(s, to: &quoted)
        return quoted
    }
}
