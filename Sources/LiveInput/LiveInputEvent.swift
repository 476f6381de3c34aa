// SPDX-License-Identifier: MIT
import Evdev
import TouchCore
import Udev

/// What touchd knows about a live device it reads.
package struct LiveDeviceInfo: Hashable, Sendable {
    /// `/dev/input/eventN`.
    package var node: String
    /// `/sys/devices/.../eventN`.
    package var syspath: String
    /// Touchscreen, tablet or touchpad, as udev classified it.
    package var kind: TouchDeviceKind?
    /// Every udev property of the node.
    package var udevProperties: [String: String]
    /// Mapping, grab, and where each setting came from.
    package var settings: DeviceSettings
    /// The device's kernel state when it was opened (libevdev's slot, key
    /// and axis values): the pipeline starts from it, so the first contact
    /// is placed where the device says (semantics §9). Nil when unknown.
    package var stateAtOpen: DeviceState?

    /// Creates a device record.
    package init(node: String, syspath: String, kind: TouchDeviceKind?, udevProperties: [String: String],
                settings: DeviceSettings, stateAtOpen: DeviceState? = nil) {
        self.node = node
        self.syspath = syspath
        self.kind = kind
        self.udevProperties = udevProperties
        self.settings = settings
        self.stateAtOpen = stateAtOpen
    }
}

/// One thing a ``LiveDeviceSource`` reports, in the order it happened.
package enum LiveInputEvent: Sendable {
    /// A device was opened and is read from now on. `description` is what libevdev reported.
    case deviceAdded(DeviceID, DeviceDescription, info: LiveDeviceInfo)
    /// udev reported new properties for a device being read (a `change` event,
    /// e.g. after `udevadm trigger` with a new rule) and the device is still
    /// used: `info` holds its new properties and settings. Events read before
    /// it belong to the old settings.
    case deviceChanged(DeviceID, info: LiveDeviceInfo)
    /// The events of one read of a device, in kernel order, with `CLOCK_MONOTONIC` kernel times.
    case events(DeviceID, [InputEvent])
    /// The kernel dropped events (`SYN_DROPPED`); the report holds the device's
    /// state after libevdev re-read it. Events reported before it are valid.
    case resynced(DeviceID, DeviceResync)
    /// The device is gone (unplugged, udev `remove`, ENODEV) or was closed; `at` is `CLOCK_MONOTONIC` now.
    case deviceRemoved(DeviceID, at: Timestamp)
    /// A touch device that is left alone, and why (`TOUCHD_IGNORE`, a configuration rule, not selected).
    case deviceIgnored(node: String, reason: String)
    /// A touch device that could not be opened (its node vanished, permission
    /// denied, not evdev); the error names the node. Other devices are unaffected.
    case openFailed(node: String, error: EvdevError)
    /// ``LiveWakeup/wake()`` was called: the caller asked the poll to return early.
    case woken
}
