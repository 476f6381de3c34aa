// SPDX-License-Identifier: MIT
import TouchCore

extension UinputDevice {
    /// Creates touchd's pass-through mirror of `original`: a uinput device
    /// declaring ``MirrorDescription/make(from:)`` (protocol B, `MT_TOOL_PALM`
    /// in range, the name ending in ``MirrorDescription/nameSuffix``), for the
    /// compositor to read instead of the grabbed original. Write it as
    /// ``MirrorConventions`` says.
    ///
    /// Phys: uinput takes one (`UI_SET_PHYS`, before the device is created),
    /// but libevdev's `libevdev_uinput_create_from_device` never sets it
    /// (`libevdev_set_phys` changes only libevdev's copy; checked against
    /// libevdev 1.13's libevdev-uinput.c). So when `original` has a phys (a
    /// description read from a live device does), this opens `/dev/uinput`
    /// itself, sets the original's phys and hands the descriptor to libevdev:
    /// libinput's `80-libinput-device-groups.rules` (`ATTRS{phys}=="?*"`,
    /// `libinput-device-group`) then puts the mirror in the original's
    /// device group, with its pen or touch siblings.
    ///
    /// - Throws: ``EvdevError`` `.uinputFailed` naming the mirror when
    ///   `/dev/uinput` is missing or not writable or the kernel refuses the description.
    package static func mirror(of original: DeviceDescription, key: String = "0") throws(EvdevError) -> UinputDevice {
        try UinputDevice(description: MirrorDescription.make(from: original, key: key))
    }
}
