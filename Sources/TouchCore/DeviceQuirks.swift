// SPDX-License-Identifier: MIT
/// libinput's device quirks database (`/usr/share/libinput/*.quirks`,
/// `/etc/libinput/local-overrides.quirks`): the text format, its matching
/// rules and the attributes a touch daemon uses (docs/udev.md, "libinput
/// quirks"). Pure: the files are read by the caller (Trace's `QuirksLoader`).

/// A parse error, naming the file and line.
public struct QuirksError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file (as given to the parser).
    public var file: String
    /// 1-based line.
    public var line: Int
    /// What is wrong.
    public var message: String
    /// Creates an error.
    public init(file: String, line: Int, message: String) {
        self.file = file; self.line = line; self.message = message
    }
    /// `file:line: message`.
    public var description: String { "\(file):\(line): \(message)" }
}

/// One `Match*` line of a section.
public enum QuirkMatch: Hashable, Sendable {
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
public struct QuirkProperty: Hashable, Sendable {
    /// The key, such as `AttrSizeHint` or `ModelAppleTouchpad`.
    public var key: String
    /// The value as written.
    public var value: String
    /// 1-based line.
    public var line: Int
    /// Creates a property.
    public init(key: String, value: String, line: Int) { self.key = key; self.value = value; self.line = line }
}

/// One `[section]` of a quirks file.
public struct QuirkSection: Hashable, Sendable {
    /// The name between the brackets.
    public var name: String
    /// The file it is in.
    public var file: String
    /// Line of the `[name]` header.
    public var line: Int
    /// Its matches; all must hold.
    public var matches: [QuirkMatch]
    /// Its attributes and model flags, in file order.
    public var properties: [QuirkProperty]
    /// Creates a section.
    public init(name: String, file: String, line: Int, matches: [QuirkMatch], properties: [QuirkProperty]) {
        self.name = name; self.file = file; self.line = line; self.matches = matches; self.properties = properties
    }
}

/// What matching looks at: the device and, on a live system, the machine.
public struct QuirkDeviceFacts: Hashable, Sendable {
    /// Bus type, vendor, product, version.
    public var id: InputID
    /// Device name.
    public var name: String
    /// Unique id (`uniq`), when known.
    public var uniq: String?
    /// The udev types the device has (`touchpad`, `touchscreen`, `tablet`...).
    public var udevTypes: Set<String>
    /// `/sys/class/dmi/id/modalias`, when known (never in a recording).
    public var dmiModalias: String?
    /// The device tree's `compatible` string, when known.
    public var deviceTree: String?

    /// Creates facts.
    public init(id: InputID, name: String, uniq: String? = nil, udevTypes: Set<String>, dmiModalias: String? = nil, deviceTree: String? = nil) {
        self.id = id; self.name = name; self.uniq = uniq; self.udevTypes = udevTypes
        self.dmiModalias = dmiModalias; self.deviceTree = deviceTree
    }

    /// Facts from a description: udev's `ID_INPUT_*` properties when it has them,
    /// else the types the classification gives (indirect fingers: touchpad, direct:
    /// touchscreen, stylus: tablet), as udev's input_id would say.
    public init(_ d: DeviceDescription, classification: DeviceClassification, dmiModalias: String? = nil, deviceTree: String? = nil) {
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
public enum QuirksParser {
    /// Bus names libinput accepts in `MatchBus`, with their `BUS_*` numbers.
    public static let buses: [String: UInt16] = [
        "usb": 0x03, "bluetooth": 0x05, "virtual": 0x06, "ps2": 0x11, "host": 0x19, "i2c": 0x18, "spi": 0x1C, "rmi": 0x1D,
    ]
    /// Udev types libinput accepts in `MatchUdevType`.
    public static let udevTypes: Set<String> = [
        "touchpad", "mouse", "pointingstick", "keyboard", "joystick", "tablet", "tablet-pad", "touchscreen", "trackball",
    ]

    /// The sections of one file's `text`, checked as libinput checks them:
    /// no leading whitespace, a section has at least one match and one
    /// attribute or model, no match twice, models are 0 or 1, no quoted
    /// strings, hex ids in upper case, and the attributes touchd uses well formed.
    public static func parse(_ text: String, file: String) throws(QuirksError) -> [QuirkSection] {
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

/// The attributes of the sections that matched one device, later sections
/// overriding earlier ones key by key, each with the section it came from.
public struct QuirkAttributes: Hashable, Sendable {
    /// One applied key: its value and where it came from.
    public struct Entry: Hashable, Sendable {
        /// `AttrSizeHint`, `ModelAppleTouchpad`...
        public var key: String
        /// The value as written.
        public var value: String
        /// The file it came from.
        public var file: String
        /// Its line in the file.
        public var line: Int
        /// The section's name.
        public var section: String
        /// `AttrSizeHint=104x75 (50-system-apple.quirks:8 [Apple Touchpads USB])`.
        public var description: String { "\(key)=\(value) (\(file):\(line) [\(section)])" }
    }

    /// The applied keys in first-seen order.
    public private(set) var entries: [Entry] = []

    /// Creates an empty set.
    public init() {}

    /// Sets `key` (replacing an earlier value).
    public mutating func set(_ p: QuirkProperty, from section: QuirkSection) {
        let e = Entry(key: p.key, value: p.value, file: section.file, line: p.line, section: section.name)
        if let i = entries.firstIndex(where: { $0.key == p.key }) { entries[i] = e } else { entries.append(e) }
    }

    /// The entry for `key`, if any.
    public subscript(key: String) -> Entry? { entries.first { $0.key == key } }

    /// `AttrSizeHint` in mm.
    public var sizeHint: SizeMM? { self["AttrSizeHint"].flatMap { Self.dimensions($0.value) }.map { SizeMM(width: Double($0.0), height: Double($0.1)) } }
    /// `AttrResolutionHint` in units per mm (x, y).
    public var resolutionHint: (x: Int32, y: Int32)? { self["AttrResolutionHint"].flatMap { Self.dimensions($0.value) }.map { (Int32($0.0), Int32($0.1)) } }

    /// `AttrEventCode` and `AttrInputProp`: what the device is made to have or lack.
    public var capabilityChanges: QuirkCapabilityChanges {
        QuirkCapabilityChanges(eventCodes: self["AttrEventCode"]?.value, inputProperties: self["AttrInputProp"]?.value)
    }

    /// Whether `ModelPressurePad=1`: the pad reports force, not contact, as pressure.
    public var isPressurePad: Bool { self["ModelPressurePad"]?.value == "1" }

    /// What makes a contact a contact, or a palm (docs/udev.md). On a pressure pad
    /// pressure decides neither, as in libinput (a light finger is still a finger).
    public var contactThresholds: ContactThresholds {
        var t = ContactThresholds()
        if let r = self["AttrPressureRange"].flatMap({ Self.range($0.value) }), r.high > r.low, !isPressurePad { t.pressure = r }
        if let r = self["AttrTouchSizeRange"].flatMap({ Self.range($0.value) }), r.high > r.low { t.touchSize = r }
        if let v = self["AttrPalmPressureThreshold"].flatMap({ Int32($0.value) }), v > 0, !isPressurePad { t.palmPressure = v }
        if let v = self["AttrPalmSizeThreshold"].flatMap({ Int32($0.value) }), v > 0 { t.palmSize = v }
        return t
    }

    /// Applies these quirks to a device's mapping, below the configuration and udev
    /// (which set ``DeviceMapping/sizeMM`` first, if at all): when the device reports
    /// no resolution and nothing set a size, `AttrResolutionHint` (units per mm) or else
    /// `AttrSizeHint` (mm) gives it; the contact thresholds apply; the quirks are recorded.
    public func apply(to mapping: inout DeviceMapping, description d: DeviceDescription) {
        mapping.quirks = self
        mapping.contactThresholds = contactThresholds
        guard mapping.sizeMM == nil, !Self.reportsResolution(d) else { return }
        let mt = d.absInfo[EventCode.absMTPositionX] != nil
        let xa = d.absInfo[mt ? EventCode.absMTPositionX : EventCode.absX]
        let ya = d.absInfo[mt ? EventCode.absMTPositionY : EventCode.absY]
        if let r = resolutionHint, let xa, let ya, xa.span > 0, ya.span > 0 {
            mapping.sizeMM = SizeMM(width: xa.span / Double(r.x), height: ya.span / Double(r.y))
            mapping.sizeFromQuirk = true
        } else if let size = sizeHint {
            mapping.sizeMM = size
            mapping.sizeFromQuirk = true
        }
    }

    /// Whether a position axis reports a resolution (quirk hints apply only when none does).
    public static func reportsResolution(_ d: DeviceDescription) -> Bool {
        let axes = [EventCode.absMTPositionX, EventCode.absMTPositionY, EventCode.absX, EventCode.absY]
        return axes.contains { (d.absInfo[$0]?.resolution ?? 0) > 0 }
    }

    /// `WxH` as two positive integers.
    static func dimensions(_ s: String) -> (Int, Int)? {
        let parts = s.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        return (w, h)
    }

    /// `HIGH:LOW` as two integers.
    static func range(_ s: String) -> (high: Int32, low: Int32)? {
        let parts = s.split(separator: ":")
        guard parts.count == 2, let hi = Int32(parts[0]), let lo = Int32(parts[1]) else { return nil }
        return (hi, lo)
    }
}

/// The quirks database: sections of every file, in the order libinput reads them.
public struct QuirksDatabase: Hashable, Sendable {
    /// All sections, in reading order (files in version-sort order, `local-overrides.quirks` last).
    public var sections: [QuirkSection]
    /// This machine's `/sys/class/dmi/id/modalias`, for `MatchDMIModalias` (nil in replays).
    public var dmiModalias: String?
    /// This machine's device-tree `compatible` string, for `MatchDeviceTree` (nil in replays).
    public var deviceTree: String?

    /// Creates a database from sections already in reading order.
    public init(sections: [QuirkSection] = []) { self.sections = sections }

    /// The quirks for a device: matched on its description and this machine.
    public func attributes(for d: DeviceDescription) -> QuirkAttributes {
        guard !sections.isEmpty else { return QuirkAttributes() }
        return attributes(for: QuirkDeviceFacts(d, classification: DeviceClassification(d), dmiModalias: dmiModalias, deviceTree: deviceTree))
    }

    /// Parses files given as (name, text), sorting them as libinput does.
    public init(files: [(name: String, text: String)]) throws(QuirksError) {
        var all: [QuirkSection] = []
        for f in Self.readingOrder(files.map(\.name)).compactMap({ n in files.first { $0.name == n } }) {
            all += try QuirksParser.parse(f.text, file: f.name)
        }
        sections = all
    }

    /// Names in libinput's reading order: version sort (numbers compared as numbers), `local-overrides.quirks` last.
    public static func readingOrder(_ names: [String]) -> [String] {
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
    public static func matches(_ section: QuirkSection, _ device: QuirkDeviceFacts) -> Bool {
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
    public func attributes(for device: QuirkDeviceFacts) -> QuirkAttributes {
        var a = QuirkAttributes()
        for s in sections where Self.matches(s, device) {
            for p in s.properties { a.set(p, from: s) }
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

/// Pressure and touch-size limits that decide what is a contact and what is
/// a palm (libinput's `AttrPressureRange`, `AttrTouchSizeRange`,
/// `AttrPalmPressureThreshold`, `AttrPalmSizeThreshold`), in raw axis units.
public struct ContactThresholds: Hashable, Sendable {
    /// A contact begins above `high` pressure and ends below `low`.
    public var pressure: (high: Int32, low: Int32)?
    /// A contact begins above `high` touch major and ends below `low`.
    public var touchSize: (high: Int32, low: Int32)?
    /// At or above this pressure a contact is a palm.
    public var palmPressure: Int32?
    /// At or above this touch major a contact is a palm.
    public var palmSize: Int32?

    /// No limits: every reported contact is one.
    public init() {}

    /// Whether any limit is set.
    public var isEmpty: Bool { pressure == nil && touchSize == nil && palmPressure == nil && palmSize == nil }

    /// Whether a present contact touches: with hysteresis, a contact that touched keeps
    /// touching down to `low`, a new one needs more than `high`. Values the contact does
    /// not report do not decide.
    func touches(_ c: RawContact, wasTouching: Bool) -> Bool {
        if let r = pressure, let p = c.pressure {
            if wasTouching ? p < r.low : p <= r.high { return false }
        }
        if let r = touchSize, let m = c.touchMajor {
            if wasTouching ? m < r.low : m <= r.high { return false }
        }
        return true
    }

    /// Whether the contact is a palm by its pressure or size.
    func isPalm(_ c: RawContact) -> Bool {
        if let t = palmPressure, let p = c.pressure, p >= t { return true }
        if let t = palmSize, let m = c.touchMajor, m >= t { return true }
        return false
    }

    /// Equal limits.
    public static func == (a: ContactThresholds, b: ContactThresholds) -> Bool {
        a.pressure?.high == b.pressure?.high && a.pressure?.low == b.pressure?.low
            && a.touchSize?.high == b.touchSize?.high && a.touchSize?.low == b.touchSize?.low
            && a.palmPressure == b.palmPressure && a.palmSize == b.palmSize
    }

    /// Hashes the limits.
    public func hash(into h: inout Hasher) {
        h.combine(pressure?.high); h.combine(pressure?.low); h.combine(touchSize?.high); h.combine(touchSize?.low)
        h.combine(palmPressure); h.combine(palmSize)
    }
}

/// The capability changes of `AttrEventCode` (`-EV_ABS`, `-ABS_MT_TOOL_TYPE`,
/// `+BTN_RIGHT`, `-EV_KEY:0x118`) and `AttrInputProp` (`+INPUT_PROP_SEMI_MT`):
/// libinput makes the device look as if it had (or lacked) them, and drops the
/// events of disabled codes. Names touchd does not know are left out, not errors.
public struct QuirkCapabilityChanges: Hashable, Sendable {
    /// One change of an event type (all its codes when `code` is nil) or code.
    public struct CodeChange: Hashable, Sendable {
        /// True for `+`, false for `-`.
        public var enable: Bool
        /// The event type.
        public var type: EventType
        /// The code, or nil for the whole type.
        public var code: UInt16?
    }

    /// Code changes in the order written.
    public var codes: [CodeChange] = []
    /// Property changes (`INPUT_PROP_*` numbers) in the order written.
    public var properties: [(enable: Bool, number: Int)] = []

    /// Creates the changes of `AttrEventCode` and `AttrInputProp` values.
    public init(eventCodes: String?, inputProperties: String?) {
        for item in Self.items(eventCodes) {
            guard let (enable, name) = Self.sign(item), let change = Self.code(name, enable: enable) else { continue }
            codes.append(change)
        }
        for item in Self.items(inputProperties) {
            guard let (enable, name) = Self.sign(item) else { continue }
            if let n = Self.propertyNames.firstIndex(of: name) {
                properties.append((enable, n))
            } else if name.hasPrefix("0x"), let n = Int(name.dropFirst(2), radix: 16) {
                properties.append((enable, n))
            }
        }
    }

    /// Whether there is nothing to change.
    public var isEmpty: Bool { codes.isEmpty && properties.isEmpty }

    /// `d` with the changes applied.
    public func applied(to d: DeviceDescription) -> DeviceDescription {
        var d = d
        for c in codes {
            if let code = c.code {
                if c.enable { d.enable(c.type, code) } else {
                    d.codes[c.type]?.remove(code)
                    if c.type == .abs { d.absInfo[code] = nil }
                }
            } else if !c.enable {
                if c.type == .abs { for code in d.codes[.abs] ?? CodeSet() { d.absInfo[code] = nil } }
                d.codes[c.type] = nil
            }
        }
        for p in properties where p.number >= 0 && p.number < 32 {
            let bit = InputProperties(rawValue: 1 << UInt32(p.number))
            if p.enable { d.properties.insert(bit) } else { d.properties.remove(bit) }
        }
        return d
    }

    /// The codes whose events are dropped (disabled codes, all codes of disabled types).
    public var disabled: DisabledCodes {
        var out = DisabledCodes()
        for c in codes {
            if let code = c.code {
                if c.enable { out.codes[c.type]?.remove(code) } else { out.codes[c.type, default: CodeSet()].insert(code) }
            } else if c.enable {
                out.types.remove(c.type)
            } else {
                out.types.insert(c.type)
            }
        }
        return out
    }

    /// Equal changes.
    public static func == (a: Self, b: Self) -> Bool {
        a.codes == b.codes && a.properties.map(\.enable) == b.properties.map(\.enable) && a.properties.map(\.number) == b.properties.map(\.number)
    }

    /// Hashes the changes.
    public func hash(into h: inout Hasher) {
        h.combine(codes)
        for p in properties { h.combine(p.enable); h.combine(p.number) }
    }

    static let propertyNames = (0..<8).map(EventNames.property)

    static func items(_ s: String?) -> [Substring] {
        (s ?? "").split(separator: ";").map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
    }

    static func sign(_ item: Substring) -> (Bool, String)? {
        guard let first = item.first, first == "+" || first == "-" else { return nil }
        return (first == "+", String(item.dropFirst()))
    }

    static let typesByName: [String: EventType] = {
        var t: [String: EventType] = [:]
        for raw in UInt16(0)...0x1f { t[EventNames.type(EventType(rawValue: raw))] = EventType(rawValue: raw) }
        return t
    }()

    static let codesByName: [String: (EventType, UInt16)] = {
        var t: [String: (EventType, UInt16)] = [:]
        let tables: [(EventType, [UInt16: String])] = [
            (.syn, EventNames.synNames), (.key, EventNames.keyNames), (.rel, EventNames.relNames),
            (.abs, EventNames.absNames), (EventType(rawValue: 0x04), EventNames.mscNames),
        ]
        for (type, table) in tables { for (code, name) in table { t[name] = (type, code) } }
        return t
    }()

    /// `EV_ABS`, `EV_KEY:0x118` or a code name such as `ABS_MT_TOOL_TYPE`.
    static func code(_ name: String, enable: Bool) -> CodeChange? {
        if let colon = name.firstIndex(of: ":") {
            guard let type = typesByName[String(name[..<colon])] else { return nil }
            let number = name[name.index(after: colon)...]
            guard number.hasPrefix("0x"), let code = UInt16(number.dropFirst(2), radix: 16) else { return nil }
            return CodeChange(enable: enable, type: type, code: code)
        }
        if let type = typesByName[name] { return CodeChange(enable: enable, type: type, code: nil) }
        if let (type, code) = codesByName[name] { return CodeChange(enable: enable, type: type, code: code) }
        return nil
    }
}

/// Event codes a device's quirks disabled: their events are dropped before they reach a tracker.
public struct DisabledCodes: Hashable, Sendable {
    /// Whole types.
    public var types: Set<EventType> = []
    /// Single codes per type.
    public var codes: [EventType: CodeSet] = [:]
    /// Nothing disabled.
    public init() {}
    /// Whether nothing is disabled.
    public var isEmpty: Bool { types.isEmpty && codes.values.allSatisfy(\.isEmpty) }
    /// Whether events of `type`/`code` are dropped.
    @inlinable public func contains(_ type: EventType, _ code: UInt16) -> Bool {
        types.contains(type) || (codes[type]?.contains(code) ?? false)
    }
}
