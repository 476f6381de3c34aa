// SPDX-License-Identifier: MIT
/// The range and resolution of one absolute axis (`struct input_absinfo`
/// without its current value, which neither trace format stores).
public struct AbsInfo: Hashable, Sendable {
    /// Smallest value the axis reports.
    public var minimum: Int32
    /// Largest value the axis reports.
    public var maximum: Int32
    /// Noise filter width.
    public var fuzz: Int32
    /// Dead zone.
    public var flat: Int32
    /// Units per millimetre for positions, units per radian for angles; 0 = unknown.
    public var resolution: Int32

    /// Creates an absinfo.
    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// `maximum - minimum` as a Double (may be zero or negative for a broken device).
    @inlinable public var span: Double { Double(maximum) - Double(minimum) }
}

/// A set of event codes of one type (the kernel's capability bitmask).
public struct CodeSet: Hashable, Sendable, Sequence {
    @usableFromInline var words: [UInt64]

    /// An empty set.
    public init() { words = [] }

    /// A set holding `codes`.
    public init(_ codes: some Sequence<UInt16>) {
        words = []
        for c in codes { insert(c) }
    }

    /// Adds a code.
    public mutating func insert(_ code: UInt16) {
        let w = Int(code >> 6)
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w - words.count + 1)) }
        words[w] |= 1 << UInt64(code & 63)
    }

    /// Removes a code.
    public mutating func remove(_ code: UInt16) {
        let w = Int(code >> 6)
        if w < words.count { words[w] &= ~(1 << UInt64(code & 63)) }
    }

    /// Whether the set holds `code`.
    @inlinable public func contains(_ code: UInt16) -> Bool {
        let w = Int(code >> 6)
        return w < words.count && words[w] & (1 << UInt64(code & 63)) != 0
    }

    /// True when no code is set.
    public var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// The codes, ascending.
    public var codes: [UInt16] { Array(self) }

    /// Iterates the codes in ascending order.
    public func makeIterator() -> AnyIterator<UInt16> {
        var w = 0
        var bits: UInt64 = words.first ?? 0
        let words = self.words
        return AnyIterator {
            while w < words.count {
                if bits != 0 {
                    let b = bits.trailingZeroBitCount
                    bits &= bits - 1
                    return UInt16(w * 64 + b)
                }
                w += 1
                bits = w < words.count ? words[w] : 0
            }
            return nil
        }
    }

    public static func == (a: CodeSet, b: CodeSet) -> Bool {
        let n = Swift.max(a.words.count, b.words.count)
        for i in 0..<n where (i < a.words.count ? a.words[i] : 0) != (i < b.words.count ? b.words[i] : 0) {
            return false
        }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        var end = words.count
        while end > 0 && words[end - 1] == 0 { end -= 1 }
        for i in 0..<end { hasher.combine(words[i]) }
    }
}

/// Bus type, vendor, product and version (`struct input_id`).
public struct InputID: Hashable, Sendable {
    /// `BUS_*` number (0x03 USB, 0x18 I2C, 0x11 i8042, 0x05 Bluetooth, 0x1d RMI).
    public var bustype: UInt16
    /// Vendor id.
    public var vendor: UInt16
    /// Product id.
    public var product: UInt16
    /// Version.
    public var version: UInt16
    /// Creates an input id.
    public init(bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// Everything known about an input device before any event arrives: what a
/// trace header (evemu `N:/I:/P:/B:/A:` lines, libinput-record `evdev:`) or
/// libevdev says about it.
public struct DeviceDescription: Hashable, Sendable {
    /// The kernel's device name.
    public var name: String
    /// Bus, vendor, product, version.
    public var id: InputID
    /// `INPUT_PROP_*` bits.
    public var properties: InputProperties
    /// Supported codes per event type. A type with no codes but present as a key is still "supported".
    public var codes: [EventType: CodeSet]
    /// Absinfo per `ABS_*` code.
    public var absInfo: [UInt16: AbsInfo]
    /// udev properties recorded with the device (libinput-record `udev.properties`), if any.
    public var udevProperties: [String: String]
    /// The kernel's physical path (`EVIOCGPHYS`, e.g. `usb-0000:00:14.0-7/input0`) when
    /// read from a live device that has one; traces do not record it.
    public var phys: String?

    /// Creates a description.
    public init(
        name: String,
        id: InputID = InputID(),
        properties: InputProperties = [],
        codes: [EventType: CodeSet] = [:],
        absInfo: [UInt16: AbsInfo] = [:],
        udevProperties: [String: String] = [:],
        phys: String? = nil
    ) {
        self.name = name
        self.id = id
        self.properties = properties
        self.codes = codes
        self.absInfo = absInfo
        self.udevProperties = udevProperties
        self.phys = phys
    }

    /// Whether the device declares `code` of `type`.
    @inlinable public func supports(_ type: EventType, _ code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }

    /// Whether the device declares any code of `type`.
    public func supports(_ type: EventType) -> Bool { codes[type] != nil }

    /// Number of multitouch slots (`ABS_MT_SLOT` max + 1), or 0 when the device has no slots.
    public var slotCount: Int {
        guard supports(.abs, EventCode.absMTSlot), let info = absInfo[EventCode.absMTSlot] else { return 0 }
        return max(0, Int(info.maximum) - Int(info.minimum) + 1)
    }

    /// Declares `code` of `type`, optionally with its absinfo.
    public mutating func enable(_ type: EventType, _ code: UInt16, absInfo info: AbsInfo? = nil) {
        codes[type, default: CodeSet()].insert(code)
        if let info { absInfo[code] = info }
    }
}
