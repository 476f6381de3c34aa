// SPDX-License-Identifier: MIT
import TouchCore
import Udev

/// A touch device found by udev and opened, before touchd decides what to do with it.
package struct LiveDeviceCandidate: Sendable {
    /// `/dev/input/eventN`.
    package var node: String
    /// What udev says about the node: syspath, kind, properties.
    package var udev: UdevDeviceInfo
    /// What the device declares (libevdev).
    package var description: DeviceDescription

    /// Creates a candidate.
    package init(node: String, udev: UdevDeviceInfo, description: DeviceDescription) {
        self.node = node
        self.udev = udev
        self.description = description
    }
}

