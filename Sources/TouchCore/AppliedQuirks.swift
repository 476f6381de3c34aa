// SPDX-License-Identifier: MIT
// What the libinput quirks that matched a device change in the touch pipeline
// (sizes, contact and palm thresholds, capabilities). The database and its
// matching rules are the Quirks module's; the pipeline only needs the result.

/// The attributes of the sections that matched one device, later sections
/// overriding earlier ones key by key, each with the section it came from.
package struct QuirkAttributes: Hashable, Sendable {
    /// One applied key: its value and where it came from.
    package struct Entry: Hashable, Sendable {
        /// `AttrSizeHint`, `ModelAppleTouchpad`...
        package var key: String
        /// The value as written.
        package var value: String
        /// The file it came from.
        package var file: String
        /// Its line in the file.
        package var line: Int
        /// The section's name.
        package var section: String
        /// Creates an entry.
        package init(key: String, value: String, file: String, line: Int, section: String) {
            self.key = key
            self.value = value
            self.file = file
            self.line = line
            self.section = section
        }
        /// `AttrSizeHint=104x75 (50-system-apple.quirks:8 [Apple Touchpads USB])`.
        package var description: String { "\(key)=\(value) (\(file):\(line) [\(section)])" }
    }

    /// The applied keys in first-seen order.
    package private(set) var entries: [Entry] = []

    /// Creates an empty set.
    package init() {}

    /// Sets the entry's key (replacing an earlier value of that key).
    package mutating func set(_ e: Entry) {
        if let i = entries.firstIndex(where: { $0.key == e.key }) { entries[i] = e } else { entries.append(e) }
    }

    /// The entry for `key`, if any.
    package subscript(key: String) -> Entry? { entries.first { $0.key == key } }

    /// `AttrSizeHint` in mm.
    package var sizeHint: SizeMM? { self["AttrSizeHint"].flatMap { Self.dimensions($0.value) }.map { SizeMM(width: Double($0.0), height: Double($0.1)) } }
    /// `AttrResolutionHint` in units per mm (x, y).
    package var resolutionHint: (x: Int32, y: Int32)? { self["AttrResolutionHint"].flatMap { Self.dimensions($0.value) }.map { (Int32($0.0), Int32($0.1)) } }

    /// `AttrEventCode` and `AttrInputProp`: what the device is made to have or lack.
    package var capabilityChanges: QuirkCapabilityChanges {
        QuirkCapabilityChanges(eventCodes: self["AttrEventCode"]?.value, inputProperties: self["AttrInputProp"]?.value)
    }

    /// Whether `ModelPressurePad=1`: the pad reports force, not contact, as pressure.
    package var isPressurePad: Bool { self["ModelPressurePad"]?.value == "1" }

    /// What makes a contact a contact, or a palm (docs/udev.md). On a pressure pad
    /// pressure decides neither, as in libinput (a light finger is still a finger).
    package var contactThresholds: ContactThresholds {
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
    package func apply(to mapping: inout DeviceMapping, description d: DeviceDescription) {
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
    package static func reportsResolution(_ d: DeviceDescription) -> Bool {
        let axes = [EventCode.absMTPositionX, EventCode.absMTPositionY, EventCode.absX, EventCode.absY]
        return axes.contains { (d.absInfo[$0]?.resolution ?? 0) > 0 }
    }

    /// `WxH` as two positive integers (the Quirks parser checks values with it).
    package static func dimensions(_ s: String) -> (Int, Int)? {
        let parts = s.split(separator: "x")
        guard parts.count == 2, let w = Int(parts[0]), let h = Int(parts[1]), w > 0, h > 0 else { return nil }
        return (w, h)
    }

    /// `HIGH:LOW` as two integers.
    package static func range(_ s: String) -> (high: Int32, low: Int32)? {
        let parts = s.split(separator: ":")
        guard parts.count == 2, let hi = Int32(parts[0]), let lo = Int32(parts[1]) else { return nil }
        return (hi, lo)
    }
}

/// Pressure and touch-size limits that decide what is a contact and what is
/// a palm (libinput's `AttrPressureRange`, `AttrTouchSizeRange`,
/// `AttrPalmPressureThreshold`, `AttrPalmSizeThreshold`), in raw axis units.
package struct ContactThresholds: Hashable, Sendable {
    /// A contact begins above `high` pressure and ends below `low`.
    package var pressure: (high: Int32, low: Int32)?
    /// A contact begins above `high` touch major and ends below `low`.
    package var touchSize: (high: Int32, low: Int32)?
    /// At or above this pressure a contact is a palm.
    package var palmPressure: Int32?
    /// At or above this touch major a contact is a palm.
    package var palmSize: Int32?

    /// No limits: every reported contact is one.
    package init() {}

    /// Whether any limit is set.
    package var isEmpty: Bool { pressure == nil && touchSize == nil && palmPressure == nil && palmSize == nil }

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
    package static func == (a: ContactThresholds, b: ContactThresholds) -> Bool {
        a.pressure?.high == b.pressure?.high && a.pressure?.low == b.pressure?.low
            && a.touchSize?.high == b.touchSize?.high && a.touchSize?.low == b.touchSize?.low
            && a.palmPressure == b.palmPressure && a.palmSize == b.palmSize
    }

    /// Hashes the limits.
    package func hash(into h: inout Hasher) {
        h.combine(pressure?.high); h.combine(pressure?.low); h.combine(touchSize?.high); h.combine(touchSize?.low)
        h.combine(palmPressure); h.combine(palmSize)
    }
}

/// The capability changes of `AttrEventCode` (`-EV_ABS`, `-ABS_MT_TOOL_TYPE`,
/// `+BTN_RIGHT`, `-EV_KEY:0x118`) and `AttrInputProp` (`+INPUT_PROP_SEMI_MT`):
/// libinput makes the device look as if it had (or lacked) them, and drops the
/// events of disabled codes. Names touchd does not know are left out, not errors.
package struct QuirkCapabilityChanges: Hashable, Sendable {
    /// One change of an event type (all its codes when `code` is nil) or code.
    package struct CodeChange: Hashable, Sendable {
        /// True for `+`, false for `-`.
        package var enable: Bool
        /// The event type.
        package var type: EventType
        /// The code, or nil for the whole type.
        package var code: UInt16?
    }

    /// Code changes in the order written.
    package var codes: [CodeChange] = []
    /// Property changes (`INPUT_PROP_*` numbers) in the order written.
    package var properties: [(enable: Bool, number: Int)] = []

    /// Creates the changes of `AttrEventCode` and `AttrInputProp` values.
    package init(eventCodes: String?, inputProperties: String?) {
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
    package var isEmpty: Bool { codes.isEmpty && properties.isEmpty }

    /// `d` with the changes applied.
    package func applied(to d: DeviceDescription) -> DeviceDescription {
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
    package var disabled: DisabledCodes {
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
    package static func == (a: Self, b: Self) -> Bool {
        a.codes == b.codes && a.properties.map(\.enable) == b.properties.map(\.enable) && a.properties.map(\.number) == b.properties.map(\.number)
    }

    /// Hashes the changes.
    package func hash(into h: inout Hasher) {
        h.combine(codes)
        for p in properties { h.combine(p.enable); h.combine(p.number) }
    }

    static let propertyNames = (0..<8).map(EventNames.property)

    package static func items(_ s: String?) -> [Substring] {
        (s ?? "").split(separator: ";").map { $0.drop { $0 == " " } }.filter { !$0.isEmpty }
    }

    package static func sign(_ item: Substring) -> (Bool, String)? {
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
package struct DisabledCodes: Hashable, Sendable {
    /// Whole types.
    package var types: Set<EventType> = []
    /// Single codes per type.
    package var codes: [EventType: CodeSet] = [:]
    /// Nothing disabled.
    package init() {}
    /// Whether nothing is disabled.
    package var isEmpty: Bool { types.isEmpty && codes.values.allSatisfy(\.isEmpty) }
    /// Whether events of `type`/`code` are dropped.
    @inlinable package func contains(_ type: EventType, _ code: UInt16) -> Bool {
        types.contains(type) || (codes[type]?.contains(code) ?? false)
    }
}
