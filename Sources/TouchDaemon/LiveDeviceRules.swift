import LiveInput
import Session
import TouchCore

extension TouchdConfiguration {
    /// The live decision for a device: ignored when a rule says so or when no
    /// touch can come from it (``DeviceClassification/unusableReason``), else its
    /// settings merged from the rules, touchd's udev properties, the generic
    /// udev properties, libinput's quirks and the device, in that order of precedence.
    public func liveDecision(_ candidate: LiveDeviceCandidate) -> LiveDeviceDecision {
        let rule = ruleSettings(for: candidate.description, syspath: candidate.udev.syspath,
                                udevProperties: candidate.udev.properties)
        if let reason = rule.ignoredBecause { return .ignore(reason: reason) }
        // udev may call it a touchscreen while its absinfo makes it useless (no range).
        if let reason = DeviceClassification(candidate.description).unusableReason { return .ignore(reason: reason) }
        var settings = LiveDeviceSettings.merged(rule: rule, udev: candidate.udev, description: candidate.description,
                                                 screenNames: screens.map(\.name))
        // Quirks come below the rules and udev: they size the device only when those did not.
        var description = candidate.description
        description.udevProperties = candidate.udev.properties
        quirks.attributes(for: description).apply(to: &settings.mapping, description: candidate.description)
        if settings.mapping.sizeFromQuirk { settings.sizeSource = .quirk }
        return .use(settings)
    }
}
