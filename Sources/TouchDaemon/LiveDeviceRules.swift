// SPDX-License-Identifier: MIT
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

/// The one owner of live device decisions: the configuration in force
/// (device rules, screens, quirks) applied with udev's properties
/// (``TouchdConfiguration/liveDecision(_:)``). The daemon's engine holds it;
/// the live input asks it at enumeration, at hot-plug, on udev `change`
/// events and when a reload decides every device again, so a device plugged
/// after a SIGHUP follows the new rules.
///
/// Read and replaced on the input thread only (the engine's reload, the
/// input's rounds).
public final class LiveDeviceDecider: @unchecked Sendable {
    /// The configuration decisions come from.
    public private(set) var configuration: TouchdConfiguration

    /// A decider for a configuration.
    public init(_ configuration: TouchdConfiguration) {
        self.configuration = configuration
    }

    /// Decides from now on with `configuration`.
    func replace(_ configuration: TouchdConfiguration) {
        self.configuration = configuration
    }

    /// What to do with a device.
    public func decide(_ candidate: LiveDeviceCandidate) -> LiveDeviceDecision {
        configuration.liveDecision(candidate)
    }
}
