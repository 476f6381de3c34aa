// SPDX-License-Identifier: MIT
/// The range and resolution of one absolute axis (`struct input_absinfo`
/// without its current value, which neither trace format stores).
package struct AbsInfo: Hashable, Sendable {
    /// Smallest value the axis reports.
    package var minimum: Int32
    /// Largest value the axis reports.
    package var maximum: Int32
    /// Noise filter width.
    package var fuzz: Int32
    /// Dead zone.
    package var flat: Int32
    /// Units per millimetre for positions, units per radian for angles; 0 = unknown.
    package var resolution: Int32

    /// Creates an absinfo.
    package init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.fuzz = fuzz
        self.flat = flat
        self.resolution = resolution
    }

    /// `maximum - minimum` as a Double (may be zero or negative for a broken device).
    @inlinable package var span: Double { Double(maximum) - Double(minimum) }
}

/// A set of event codes of one type (the kernel's capability bitmask).
package struct CodeSet: Hashable, Sendable, Sequence {
    @usableFromInline var words: [UInt64]

    /// An empty set.
    package init() { words = [] }

    /// A set holding `codes`.
    package init(_ codes: some Sequence<UInt16>) {
        words = []
        for c in codes { insert(c) }
    }

    /// Adds a code.
    package mutating func insert(_ code: UInt16) {
        let w = Int(code >> 6)
        if w >= words.count { words.append(contentsOf: repeatElement(0, count: w - words.count + 1)) }
        words[w] |= 1 << UInt64(code & 63)
    }

    /// Removes a code.
    package mutating func remove(_ code: UInt16) {
        let w = Int(code >> 6)
        if w < words.count { words[w] &= ~(1 << UInt64(code & 63)) }
    }

    /// Whether the set holds `code`.
    @inlinable package func contains(_ code: UInt16) -> Bool {
        let w = Int(code >> 6)
        return w < words.count && words[w] & (1 << UInt64(code & 63)) != 0
    }

    /// True when no code is set.
    package var isEmpty: Bool { words.allSatisfy { $0 == 0 } }

    /// The codes, ascending.
    package var codes: [UInt16] { Array(self) }

    /// Iterates the codes in ascending order.
    package func makeIterator() -> AnyIterator<UInt16> {
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

    package static func == (a: CodeSet, b: CodeSet) -> Bool {
        let n = Swift.max(a.words.count, b.words.count)
        for i in 0..<n where (i < a.words.count ? a.words[i] : 0) != (i < b.words.count ? b.words[i] : 0) {
            return false
        }
        return true
    }

    package func hash(into hasher: inout Hasher) {
        var end = words.count
        while end > 0 && words[end - 1] == 0 { end -= 1 }
        for i in 0..<end { hasher.combine(words[i]) }
    }
}

/// Bus type, vendor, product and version (`struct input_id`).
package struct InputID: Hashable, Sendable {
    /// `BUS_*` number (0x03 USB, 0x18 I2C, 0x11 i8042, 0x05 Bluetooth, 0x1d RMI).
    package var bustype: UInt16
    /// Vendor id.
    package var vendor: UInt16
    /// Product id.
    package var product: UInt16
    /// Version.
    package var version: UInt16
    /// Creates an input id.
    package init(bustype: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0) {
        self.bustype = bustype
        self.vendor = vendor
        self.product = product
        self.version = version
    }
}

/// Everything known about an input device before any event arrives: what a
/// trace header (evemu `N:/I:/P:/B:/A:` lines, libinput-record `evdev:`) or
/// libevdev says about it.
package struct DeviceDescription: Hashable, Sendable {
    /// The kernel's device name.
    package var name: String
    /// Bus, vendor, product, version.
    package var id: InputID
    /// `INPUT_PROP_*` bits.
    package var properties: InputProperties
    /// Supported codes per event type. A type with no codes but present as a key is still "supported".
    package var codes: [EventType: CodeSet]
    /// Absinfo per `ABS_*` code.
    package var absInfo: [UInt16: AbsInfo]
    /// udev properties recorded with the device (libinput-record `udev.properties`), if any.
    package var udevProperties: [String: String]
    /// The kernel's physical path (`EVIOCGPHYS`, e.g. `usb-0000:00:14.0-7/input0`) when
    /// read from a live device that has one; traces do not record it.
    package var phys: String?

    /// Creates a description.
    package init(
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
    @inlinable package func supports(_ type: EventType, _ code: UInt16) -> Bool {
        codes[type]?.contains(code) ?? false
    }

    /// Whether the device declares any code of `type`.
    package func supports(_ type: EventType) -> Bool { codes[type] != nil }

    /// Number of multitouch slots (`ABS_MT_SLOT` max + 1), or 0 when the device has no slots.
    package var slotCount: Int {
        guard supports(.abs, EventCode.absMTSlot), let info = absInfo[EventCode.absMTSlot] else { return 0 }
        return max(0, Int(info.maximum) - Int(info.minimum) + 1)
    }

    /// Declares `code` of `type`, optionally with its absinfo.
    package mutating func enable(_ type: EventType, _ code: UInt16, absInfo info: AbsInfo? = nil) {
        codes[type, default: CodeSet()].insert(code)
        if let info { absInfo[code] = info }
    }
}
