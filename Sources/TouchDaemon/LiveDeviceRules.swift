import LiveInput
import TouchCore

extension TouchdConfiguration {
    /// What the device rules set for a device, key by key (a later matching
    /// rule overrides the keys it sets); keys no rule sets stay nil so udev
    /// properties can decide them (``LiveDeviceSettings/merged(rule:udev:description:screenNames:)``).
    public func ruleSettings(for d: DeviceDescription, syspath: String? = nil, udevProperties: [String: String] = [:]) -> DeviceRuleSettings {
        var s = DeviceRuleSettings()
        for (i, rule) in devices.enumerated() where rule.match.matches(d, syspath: syspath, udevProperties: udevProperties) {
            switch rule.screen {
            case .index(let n)?: s.screen = n
            case .name(let n)?: s.screen = screens.firstIndex { $0.name == n } ?? s.screen
            case nil: break
            }
            if let r = rule.rotation { s.rotation = r }
            if let m = rule.calibration { s.calibration = CalibrationMatrix(m[0], m[1], m[2], m[3], m[4], m[5]) }
            if let size = rule.sizeMM { s.sizeMM = size }
            if let ignore = rule.ignore { s.ignoredBecause = ignore ? "ignored by devices[\(i)] of the configuration" : nil }
            if let g = rule.grab { s.grab = g }
        }
        return s
    }

    /// The live decision for a device: ignored when a rule says so or when no
    /// touch can come from it (``DeviceClassification/unusableReason``), else its
    /// settings merged from the rules, touchd's udev properties, the generic
    /// udev properties and the device, in that order of precedence.
    public func liveDecision(_ candidate: LiveDeviceCandidate) -> LiveDeviceDecision {
        let rule = ruleSettings(for: candidate.description, syspath: candidate.udev.syspath,
                                udevProperties: candidate.udev.properties)
        if let reason = rule.ignoredBecause { return .ignore(reason: reason) }
        // udev may call it a touchscreen while its absinfo makes it useless (no range).
        if let reason = DeviceClassification(candidate.description).unusableReason { return .ignore(reason: reason) }
        return .use(LiveDeviceSettings.merged(rule: rule, udev: candidate.udev, description: candidate.description,
                                              screenNames: screens.map(\.name)))
    }
}
