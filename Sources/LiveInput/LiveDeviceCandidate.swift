// SPDX-License-Identifier: MIT
import TouchCore
import Udev

/// A touch device found by udev and opened, before touchd decides what to do with it.
public struct LiveDeviceCandidate: Sendable {
    /// `/dev/input/eventN`.
    public var node: String
    /// What udev says about the node: syspath, kind, properties.
    public var udev: UdevDeviceInfo
    /// What the device declares (libevdev).
    public var description: DeviceDescription

    /// Creates a candidate.
    public init(node: String, udev: UdevDeviceInfo, description: DeviceDescription) {
        self.node = node
        self.udev = udev
        self.description = description
    }
}

