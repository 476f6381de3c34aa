// SPDX-License-Identifier: MIT
/// The kind of touch device udev's `input_id` builtin says a node is.
public enum TouchDeviceKind: String, Hashable, Sendable, CaseIterable {
    /// `ID_INPUT_TOUCHSCREEN=1`
    case touchscreen
    /// `ID_INPUT_TABLET=1`: graphics tablets and pens (including screen pens).
    case tablet
    /// `ID_INPUT_TOUCHPAD=1`
    case touchpad
}

/// A physical size in millimetres.
public struct PhysicalSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in millimetres.
    public var width: Double
    /// Height in millimetres.
    public var height: Double
    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
    /// `WxH`, the `TOUCHD_SIZE_MM` format.
    public var description: String { "\(width)x\(height)" }
}

/// One udev device (normally an input event node) with its properties, and
/// typed accessors for the properties touchd uses (see docs/udev.md).
public struct UdevDeviceInfo: Hashable, Sendable {
    /// `/sys/devices/.../input/inputN/eventM`.
    public var syspath: String
    /// `/dev/input/eventM`, nil for devices without a node (the `inputN` parent).
    public var devnode: String?
    /// `eventM`.
    public var sysname: String
    /// Whether udev has processed the device (its rules ran, its properties are final).
    public var isInitialized: Bool
    /// Every udev property (`ID_INPUT_*`, `LIBINPUT_*`, `TOUCHD_*`, ...).
    public var properties: [String: String]

    /// Creates a device record.
    public init(
        syspath: String, devnode: String? = nil, sysname: String, isInitialized: Bool = true,
        properties: [String: String] = [:]
    ) {
        self.syspath = syspath
        self.devnode = devnode
        self.sysname = sysname
        self.isInitialized = isInitialized
        self.properties = properties
    }

    /// The device node, else the syspath: how errors name the device.
    public var name: String { devnode ?? syspath }

    /// Whether this is an evdev node (`eventN`), the only kind touchd reads.
    public var isEventNode: Bool { sysname.hasPrefix("event") }

    /// `ID_INPUT_TOUCHSCREEN=1`
    public var isTouchscreen: Bool { flag("ID_INPUT_TOUCHSCREEN") }
    /// `ID_INPUT_TABLET=1`
    public var isTablet: Bool { flag("ID_INPUT_TABLET") }
    /// `ID_INPUT_TOUCHPAD=1`
    public var isTouchpad: Bool { flag("ID_INPUT_TOUCHPAD") }

    /// The touch kind, checked in the order touchscreen, tablet, touchpad; nil
    /// for every other input device (keyboards, mice, ...), which touchd ignores.
    public var touchKind: TouchDeviceKind? {
        if isTouchscreen { return .touchscreen }
        if isTablet { return .tablet }
        if isTouchpad { return .touchpad }
        return nil
    }

    /// `TOUCHD_SCREEN`: the name of the screen (output) this device maps to, nil when unset or empty.
    public var screen: String? {
        guard let value = properties["TOUCHD_SCREEN"]?.trimmed, !value.isEmpty else { return nil }
        return value
    }

    /// `TOUCHD_MIRROR=1`: touchd's own pass-through mirror (set by the shipped
    /// rule in `70-touchd.rules` on devices whose phys starts `touchd-mirror-`),
    /// which touchd never reads.
    public var isTouchdMirror: Bool { properties["TOUCHD_MIRROR"]?.trimmed == "1" }

    /// `TOUCHD_IGNORE`: true when a udev rule tells touchd to leave the device alone.
    ///
    /// - Throws: ``UdevError`` `.badProperty` for a value other than
    ///   `1/0`, `true/false`, `yes/no`, `on/off` (any case) or empty.
    public func isIgnored() throws(UdevError) -> Bool {
        guard let raw = properties["TOUCHD_IGNORE"] else { return false }
        switch raw.trimmed.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off", "": return false
        default: throw badProperty("TOUCHD_IGNORE", raw, expected: "1 or 0 (also true/false, yes/no, on/off)")
        }
    }

    /// `TOUCHD_PASS_THROUGH`: serve the device through a pass-through mirror
    /// (semantics §9); nil when unset.
    ///
    /// - Throws: ``UdevError`` `.badProperty` for a value other than
    ///   `1/0`, `true/false`, `yes/no`, `on/off` (any case).
    public func passThrough() throws(UdevError) -> Bool? {
        guard let raw = properties["TOUCHD_PASS_THROUGH"] else { return nil }
        switch raw.trimmed.lowercased() {
        case "1", "true", "yes", "on": return true
        case "0", "false", "no", "off": return false
        default: throw badProperty("TOUCHD_PASS_THROUGH", raw, expected: "1 or 0 (also true/false, yes/no, on/off)")
        }
    }

    /// `TOUCHD_SIZE_MM` (`WIDTHxHEIGHT`, e.g. `293.5x165`): the active area's size, overriding what the device reports.
    ///
    /// - Returns: nil when unset.
    /// - Throws: ``UdevError`` `.badProperty` when malformed or not positive.
    public func sizeOverride() throws(UdevError) -> PhysicalSize? {
        guard let raw = properties["TOUCHD_SIZE_MM"] else { return nil }
        let parts = raw.trimmed.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]),
              width > 0, height > 0, width.isFinite, height.isFinite else {
            throw badProperty("TOUCHD_SIZE_MM", raw, expected: "WIDTHxHEIGHT in millimetres, e.g. 293.5x165")
        }
        return PhysicalSize(width: width, height: height)
    }

    /// `ID_INPUT_WIDTH_MM` and `ID_INPUT_HEIGHT_MM`, which udev derives from the
    /// axis resolution; nil unless both are present and positive numbers.
    public var reportedSize: PhysicalSize? {
        guard let w = properties["ID_INPUT_WIDTH_MM"].flatMap({ Double($0.trimmed) }),
              let h = properties["ID_INPUT_HEIGHT_MM"].flatMap({ Double($0.trimmed) }),
              w > 0, h > 0 else { return nil }
        return PhysicalSize(width: w, height: h)
    }

    /// The size touchd uses: `TOUCHD_SIZE_MM` when set, else `ID_INPUT_WIDTH_MM`/`HEIGHT_MM`.
    public func size() throws(UdevError) -> PhysicalSize? {
        try sizeOverride() ?? reportedSize
    }

    /// `LIBINPUT_CALIBRATION_MATRIX` as written (six numbers separated by spaces).
    public var calibrationMatrixText: String? { properties["LIBINPUT_CALIBRATION_MATRIX"] }

    /// `LIBINPUT_CALIBRATION_MATRIX` as libinput reads it: the first two rows
    /// `a b c d e f` of a 3x3 matrix applied to coordinates normalized to 0...1:
    /// `x' = a*x + b*y + c`, `y' = d*x + e*y + f`.
    ///
    /// - Returns: nil when unset.
    /// - Throws: ``UdevError`` `.badProperty` unless it is exactly six finite numbers.
    public func calibrationMatrix() throws(UdevError) -> [Double]? {
        guard let raw = calibrationMatrixText else { return nil }
        let numbers = raw.split(whereSeparator: { $0 == " " || $0 == "\t" }).map { Double($0) }
        guard numbers.count == 6, numbers.allSatisfy({ $0?.isFinite ?? false }) else {
            throw badProperty("LIBINPUT_CALIBRATION_MATRIX", raw, expected: "six numbers, e.g. 1 0 0 0 1 0")
        }
        return numbers.compactMap { $0 }
    }

    private func flag(_ key: String) -> Bool { properties[key] == "1" }

    private func badProperty(_ key: String, _ raw: String, expected: String) -> UdevError {
        UdevError(.badProperty, subject: name, message: "\(key)=\"\(raw)\": expected \(expected)")
    }
}

extension String {
    fileprivate var trimmed: String {
        var view = Substring(self)
        while let first = view.first, first.isWhitespace { view.removeFirst() }
        while let last = view.last, last.isWhitespace { view.removeLast() }
        return String(view)
    }
}
