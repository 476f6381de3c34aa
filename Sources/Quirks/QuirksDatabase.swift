// SPDX-License-Identifier: MIT
import TouchCore

/// libinput's device quirks database (`/usr/share/libinput/*.quirks`,
/// `/etc/libinput/local-overrides.quirks`): the text format, its matching
/// rules and the attributes a touch daemon uses (docs/udev.md, "libinput
/// quirks"). Pure: the files are read by ``QuirksLoader``; what the matched
/// attributes change in the pipeline is TouchCore's ``QuirkAttributes``.

/// A parse error, naming the file and line.
package struct QuirksError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (as given to the parser).
    package var file: String
    /// 1-based line.
    package var line: Int
    /// What is wrong.
    package var message: String
    /// Creates an error.
    package init(file: String, line: Int, message: String) {
        self.file = file; self.line = line; self.message = message
    }
    /// `file:line: message`.
    package var description: String { "\(file):\(line): \(message)" }
}

/// One `Match*` line of a section.
package enum QuirkMatch: Hashable, Sendable {
    /// `MatchBus`: usb, bluetooth, i2c, ps2, rmi, spi, virtual, host.
    case bus(UInt16)
    /// `MatchVendor`.
    case vendor(UInt16)
    /// `MatchProduct` (one id, or several separated by `;`).
    case product([UInt16])
    /// `MatchVersion`.
    case version(UInt16)
    /// `MatchName`: a shell glob on the device name.
    case name(String)
    /// `MatchUniq`: a shell glob on the device's unique id.
    case uniq(String)
    /// `MatchUdevType`: touchpad, touchscreen, tablet, tablet-pad, mouse, pointingstick, keyboard, joystick, trackball.
    case udevType(String)
    /// `MatchDMIModalias`: a glob on `/sys/class/dmi/id/modalias`.
    case dmiModalias(String)
    /// `MatchDeviceTree`: a glob on the device tree's `compatible` string.
    case deviceTree(String)
}

/// One `Attr*` or `Model*` line.
package struct QuirkProperty: Hashable, Sendable {
    /// The key, such as `AttrSizeHint` or `ModelAppleTouchpad`.
    package var key: String
    /// The value as written.
    package var value: String
    /// 1-based line.
    package var line: Int
    /// Creates a property.
    package init(key: String, value: String, line: Int) { self.key = key; self.value = value; self.line = line }
}

/// One `[section]` of a quirks file.
package struct QuirkSection: Hashable, Sendable {
    /// The name between the brackets.
    package var name: String
    /// The file it is in.
    package var file: String
    /// Line of the `[name]` header.
    package var line: Int
    /// Its matches; all must hold.
    package var matches: [QuirkMatch]
    /// Its attributes and model flags, in file order.
    package var properties: [QuirkProperty]
    /// Creates a section.
    package init(name: String, file: String, line: Int, matches: [QuirkMatch], properties: [QuirkProperty]) {
        self.name = name; self.file = file; self.line = line; self.matches = matches; self.properties = properties
    }
}

/// What matching looks at: the device and, on a live system, the machine.
package struct QuirkDeviceFacts: Hashable, Sendable {
    /// Bus type, vendor, product, version.
    package var id: InputID
    /// Device name.
    package var name: String
    /// Unique id (`uniq`), when known.
    package var uniq: String?
    /// The udev types the device has (`touchpad`, `touchscreen`, `tablet`...).
    package var udevTypes: Set<String>
    /// `/sys/class/dmi/id/modalias`, when known (never in a recording).
    package var dmiModalias: String?
    /// The device tree's `compatible` string, when known.
    package var deviceTree: String?

    /// Creates facts.
    package init(id: InputID, name: String, uniq: String? = nil, udevTypes: Set<String>, dmiModalias: String? = nil, deviceTree: String? = nil) {
        self.id = id; self.name = name; self.uniq = uniq; self.udevTypes = udevTypes
        self.dmiModalias = dmiModalias; self.deviceTree = deviceTree
    }

    /// Facts from a description: udev's `ID_INPUT_*` properties when it has them,
    /// else the types the classification gives (indirect fingers: touchpad, direct:
    /// touchscreen, stylus: tablet), as udev's input_id would say.
    package init(_ d: DeviceDescription, classification: DeviceClassification, dmiModalias: String? = nil, deviceTree: String? = nil) {
        var types = Set<String>()
        let udevKeys: [(String, String)] = [
            ("ID_INPUT_TOUCHPAD", "touchpad"), ("ID_INPUT_TOUCHSCREEN", "touchscreen"), ("ID_INPUT_TABLET", "tablet"),
            ("ID_INPUT_TABLET_PAD", "tablet-pad"), ("ID_INPUT_MOUSE", "mouse"), ("ID_INPUT_POINTINGSTICK", "pointingstick"),
            ("ID_INPUT_KEYBOARD", "keyboard"), ("ID_INPUT_JOYSTICK", "joystick"), ("ID_INPUT_TRACKBALL", "trackball"),
        ]
        for (key, type) in udevKeys where d.udevProperties[key] == "1" { types.insert(type) }
        if types.isEmpty {
            if classification.fingerType == .indirect { types.insert("touchpad") }
            if classification.fingerType == .direct { types.insert("touchscreen") }
            if classification.hasStylus { types.insert("tablet") }
        }
        self.init(id: d.id, name: d.name, uniq: d.udevProperties["UNIQ"], udevTypes: types,
                  dmiModalias: dmiModalias, deviceTree: deviceTree)
    }
}

/// Parses libinput quirks files.
package enum QuirksParser {
    /// Bus names libinput accepts in `MatchBus`, with their `BUS_*` numbers.
    package static let buses: [String: UInt16] = [
        "usb": 0x03, "bluetooth": 0x05, "virtual": 0x06, "ps2": 0x11, "host": 0x19, "i2c": 0x18, "spi": 0x1C, "rmi": 0x1D,
    ]
    /// Udev types libinput accepts in `MatchUdevType`.
    package static let udevTypes: Set<String> = [
        "touchpad", "mouse", "pointingstick", "keyboard", "joystick", "tablet", "tablet-pad", "touchscreen", "trackball",
    ]

    /// The sections of one file's `text`, checked as libinput checks them:
    /// no leading whitespace, a section has at least one match and one
    /// attribute or model, no match twice, models are 0 or 1, no quoted
    /// strings, hex ids in upper case, and the attributes touchd uses well formed.
    package static func parse(_ text: String, file: String) throws(QuirksError) -> [QuirkSection] {
        var sections: [QuirkSection] = []
        var current: QuirkSection?
        var seenMatches = Set<String>()
        func fail(_ line: Int, _ message: String) -> QuirksError { QuirksError(file: file, line: line, message: message) }
        func close() throws(QuirksError) {
            guard let s = current else { return }
            if s.matches.isEmpty { throw fail(s.line, "section [\(s.name)] has no Match entry") }
            if s.properties.isEmpty { throw fail(s.line, "section [\(s.name)] has no Attr or Model entry") }
            sections.append(s)
        }
        var number = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.first == " " || line.first == "\t" {
                if line.allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
                throw fail(number, "whitespace at the beginning of the line")
            }
            if line.hasPrefix("[") {
                guard line.hasSuffix("]"), line.count > 2 else { throw fail(number, "malformed section header '\(line)'") }
                try close()
                current = QuirkSection(name: String(line.dropFirst().dropLast()), file: file, line: number, matches: [], properties: [])
                seenMatches = []
                continue
            }
            guard current != nil else { throw fail(number, "'\(line)' before the first [section]") }
            guard let eq = line.firstIndex(of: "=") else { throw fail(number, "expected Key=Value, got '\(line)'") }
            let key = String(line[..<eq]).trimmingTrailingSpaces()
            let value = String(line[line.index(after: eq)...]).trimmingTrailingSpaces()
            if value.isEmpty { throw fail(number, "\(key) has no value") }
            if value.hasPrefix("\"") || value.hasPrefix("'") { throw fail(number, "\(key): strings must not be quoted") }
            if key.hasPrefix("Match") {
                if !seenMatches.insert(key).inserted { throw fail(number, "\(key) repeated in section [\(current!.name)]") }
                current!.matches.append(try match(key: key, value: value, line: number, fail: fail))
            } else if key.hasPrefix("Model") {
                guard value == "0" || value == "1" else { throw fail(number, "\(key) must be 0 or 1, not '\(value)'") }
                current!.properties.append(QuirkProperty(key: key, value: value, line: number))
            } else if key.hasPrefix("Attr") {
                try checkAttribute(key: key, value: value, line: number, fail: fail)
                current!.properties.append(QuirkProperty(key: key, value: value, line: number))
            } else {
                throw fail(number, "unknown key '\(key)' (expected Match*, Attr* or Model*)")
            }
        }
        try close()
        return sections
    }

    private static func hex(_ value: String, _ key: String, _ line: Int, _ fail: (Int, String) -> QuirksError) throws(QuirksError) -> UInt16 {
        guard value.hasPrefix("0x"), value.count > 2 else { throw fail(line, "\(key): '\(value)' is not a hex number (0x...)") }
        let digits = value.dropFirst(2)
        if digits.contains(where: { $0 >= "a" && $0 <= "f" }) { throw fail(line, "\(key): hex digits must be upper case ('\(value)')") }
        guard let n = UInt16(digits, radix: 16) else { throw fail(line, "\(key): '\(value)' is not a 16-bit hex number") }
        return n
    }

    private static func match(key: String, value: String, line: Int, fail: (Int, String) -> QuirksError) throws(QuirksError) -> QuirkMatch {
        switch key {
        case "MatchBus":
            guard let bus = buses[value] else { throw fail(line, "MatchBus: unknown bus '\(value)' (known: \(buses.keys.sorted().joined(separator: ", ")))") }
            return .bus(bus)
        case "MatchVendor": return .vendor(try hex(value, key, line, fail))
        case "MatchProduct":
            var ids: [UInt16] = []
            for part in value.split(separator: ";") where !part.isEmpty { ids.append(try hex(String(part), key, line, fail)) }
            return .product(ids)
        case "MatchVersion": return .version(try hex(value, key, line, fail))
        case "MatchName": return .name(value)
        case "MatchUniq": return .uniq(value)
        case "MatchUdevType":
            guard udevTypes.contains(value) else { throw fail(line, "MatchUdevType: unknown type '\(value)'") }
            return .udevType(value)
        case "MatchDMIModalias": return .dmiModalias(value)
        case "MatchDeviceTree": return .deviceTree(value)
        default: throw fail(line, "unknown match '\(key)'")
        }
    }

    /// Checks the format of the attributes touchd reads; others are kept as written
    /// (a newer libinput may add attributes, and touchd has no use for them).
    private static func checkAttribute(key: String, value: String, line: Int, fail: (Int, String) -> QuirksError) throws(QuirksError) {
        switch key {
        case "AttrSizeHint", "AttrResolutionHint":
            guard QuirkAttributes.dimensions(value) != nil else { throw fail(line, "\(key): expected WIDTHxHEIGHT with positive integers, got '\(value)'") }
        case "AttrPressureRange", "AttrTouchSizeRange":
            guard let r = QuirkAttributes.range(value) else { throw fail(line, "\(key): expected HIGH:LOW integers, got '\(value)'") }
            if !(r.high == 0 && r.low == 0) && r.high <= r.low { throw fail(line, "\(key): the first value (begin) must be above the second (end)") }
        case "AttrEventCode", "AttrInputProp":
            for item in QuirkCapabilityChanges.items(value) where QuirkCapabilityChanges.sign(item) == nil {
                throw fail(line, "\(key): '\(item)' must start with + or -")
            }
        case "AttrPalmPressureThreshold", "AttrPalmSizeThreshold", "AttrThumbPressureThreshold", "AttrThumbSizeThreshold":
            guard let n = Int32(value), n >= 0 else { throw fail(line, "\(key): expected a non-negative integer, got '\(value)'") }
        default:
            break
        }
    }
}

/// The quirks database: sections of every file, in the order libinput reads them.
package struct QuirksDatabase: Hashable, Sendable {
    /// All sections, in reading order (files in version-sort order, `local-overrides.quirks` last).
    package var sections: [QuirkSection]
    /// This machine's `/sys/class/dmi/id/modalias`, for `MatchDMIModalias` (nil in replays).
    package var dmiModalias: String?
    /// This machine's device-tree `compatible` string, for `MatchDeviceTree` (nil in replays).
    package var deviceTree: String?

    /// Creates a database from sections already in reading order.
    package init(sections: [QuirkSection] = []) { self.sections = sections }

    /// The quirks for a device: matched on its description and this machine.
    package func attributes(for d: DeviceDescription) -> QuirkAttributes {
        guard !sections.isEmpty else { return QuirkAttributes() }
        return attributes(for: QuirkDeviceFacts(d, classification: DeviceClassification(d), dmiModalias: dmiModalias, deviceTree: deviceTree))
    }

    /// Parses files given as (name, text), sorting them as libinput does.
    package init(files: [(name: String, text: String)]) throws(QuirksError) {
        var all: [QuirkSection] = []
        for f in Self.readingOrder(files.map(\.name)).compactMap({ n in files.first { $0.name == n } }) {
            all += try QuirksParser.parse(f.text, file: f.name)
        }
        sections = all
    }

    /// Names in libinput's reading order: version sort (numbers compared as numbers), `local-overrides.quirks` last.
    package static func readingOrder(_ names: [String]) -> [String] {
        func isOverride(_ n: String) -> Bool { n.hasSuffix("local-overrides.quirks") }
        return names.sorted { a, b in
            if isOverride(a) != isOverride(b) { return !isOverride(a) }
            return versionLess(a, b)
        }
    }

    private static func versionLess(_ a: String, _ b: String) -> Bool {
        var i = a.startIndex, j = b.startIndex
        while i < a.endIndex && j < b.endIndex {
            if a[i].isNumber && b[j].isNumber {
                var ni = i, nj = j
                while ni < a.endIndex && a[ni].isNumber { ni = a.index(after: ni) }
                while nj < b.endIndex && b[nj].isNumber { nj = b.index(after: nj) }
                let x = Int(a[i..<ni]) ?? 0, y = Int(b[j..<nj]) ?? 0
                if x != y { return x < y }
                i = ni; j = nj
            } else {
                if a[i] != b[j] { return a[i] < b[j] }
                i = a.index(after: i); j = b.index(after: j)
            }
        }
        return a.count < b.count
    }

    /// Whether every match of `section` holds for `device`. A DMI or device-tree
    /// match never holds when the machine's value is unknown (replays).
    package static func matches(_ section: QuirkSection, _ device: QuirkDeviceFacts) -> Bool {
        section.matches.allSatisfy { m in
            switch m {
            case .bus(let b): return device.id.bustype == b
            case .vendor(let v): return device.id.vendor == v
            case .product(let ids): return ids.contains(device.id.product)
            case .version(let v): return device.id.version == v
            case .name(let g): return Glob.matches(g, device.name)
            case .uniq(let g): return device.uniq.map { Glob.matches(g, $0) } ?? false
            case .udevType(let t): return device.udevTypes.contains(t)
            case .dmiModalias(let g): return device.dmiModalias.map { Glob.matches(g, $0) } ?? false
            case .deviceTree(let g): return device.deviceTree.map { Glob.matches(g, $0) } ?? false
            }
        }
    }

    /// The attributes of every matching section, later ones overriding earlier ones.
    package func attributes(for device: QuirkDeviceFacts) -> QuirkAttributes {
        var a = QuirkAttributes()
        for s in sections where Self.matches(s, device) {
            for p in s.properties { a.set(QuirkAttributes.Entry(key: p.key, value: p.value, file: s.file, line: p.line, section: s.name)) }
        }
        return a
    }
}

extension String {
    fileprivate func trimmingTrailingSpaces() -> String {
        var s = Substring(self)
        while let l = s.last, l == " " || l == "\t" { s = s.dropLast() }
        return String(s)
    }
}
