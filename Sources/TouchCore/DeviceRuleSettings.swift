// SPDX-License-Identifier: MIT
/// What the configuration's device rules set for one device; nil means "the
/// rules say nothing", so lower-priority sources decide.
public struct DeviceRuleSettings: Hashable, Sendable {
    /// Screen index.
    public var screen: Int?
    /// Rotation.
    public var rotation: Rotation?
    /// Calibration matrix.
    public var calibration: CalibrationMatrix?
    /// Physical size override.
    public var sizeMM: SizeMM?
    /// Exclusive grab.
    public var grab: Bool?
    /// Why a rule ignores the device, when one does.
    public var ignoredBecause: String?
    /// Pass-through: grab the device and serve the app world a mirror of it (semantics §9).
    public var passThrough: Bool?
    /// How a taken touch ends on the pass-through mirror (``MirrorEnding``).
    public var passThroughEnding: MirrorEnding?

    /// Creates rule settings; the default sets nothing.
    public init(screen: Int? = nil, rotation: Rotation? = nil, calibration: CalibrationMatrix? = nil,
                sizeMM: SizeMM? = nil, grab: Bool? = nil, ignoredBecause: String? = nil, passThrough: Bool? = nil) {
        self.screen = screen
        self.rotation = rotation
        self.calibration = calibration
        self.sizeMM = sizeMM
        self.grab = grab
        self.ignoredBecause = ignoredBecause
        self.passThrough = passThrough
    }
}
