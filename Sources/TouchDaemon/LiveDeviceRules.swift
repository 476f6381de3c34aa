// SPDX-License-Identifier: MIT
import LiveInput
import Session
import TouchCore

extension TouchdConfiguration {
    /// The decision for a live device: ``TouchdConfiguration/deviceSettings(for:syspath:udevProperties:node:)``
    /// with what udev says about the node.
    package func deviceSettings(for candidate: LiveDeviceCandidate) -> DeviceSettingsDecision {
        deviceSettings(for: candidate.description, syspath: candidate.udev.syspath,
                       udevProperties: candidate.udev.properties, node: candidate.node)
    }
}

/// The configuration in force for live devices (device rules, screens,
/// quirks), held for the live input, which asks it at enumeration, at
/// hot-plug, on udev `change` events and when a reload decides every device
/// again, so a device plugged after a SIGHUP follows the new rules. The
/// decision itself is the configuration's (``TouchdConfiguration/deviceSettings(for:syspath:udevProperties:node:)``),
/// the same for every path.
///
/// Read and replaced on the input thread only (the engine's reload, the
/// input's rounds): that confinement is why it may be `@unchecked Sendable`.
final class LiveDeviceDecider: @unchecked Sendable {
    /// The configuration decisions come from.
    private(set) var configuration: TouchdConfiguration

    /// A decider for a configuration.
    init(_ configuration: TouchdConfiguration) {
        self.configuration = configuration
    }

    /// Decides from now on with `configuration`.
    func replace(_ configuration: TouchdConfiguration) {
        self.configuration = configuration
    }

    /// What to do with a device.
    func decide(_ candidate: LiveDeviceCandidate) -> DeviceSettingsDecision {
        configuration.deviceSettings(for: candidate)
    }
}
