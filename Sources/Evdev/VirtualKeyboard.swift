// SPDX-License-Identifier: MIT
import KeyboardKeys
import TouchCore

/// touchd's own keyboard: a uinput device that declares every keyboard key, so udev tags it
/// `ID_INPUT_KEYBOARD` and every reader (libinput, so every Wayland compositor; X11; the
/// console) takes it as a keyboard. It types what the daemon's configuration binds to system
/// shortcuts (docs/shortcuts.md).
package final class VirtualKeyboard {
    /// The device's name as readers see it.
    package static let deviceName = "touchd keyboard"

    /// The uinput device.
    package let device: UinputDevice
    private var frame: [InputEvent] = []

    /// The description the keyboard is created from: `BUS_VIRTUAL`, `EV_KEY` with every keyboard key.
    package static var deviceDescription: DeviceDescription {
        DeviceDescription(name: deviceName, id: InputID(bustype: 0x06, vendor: 0x7464, product: 0x6b62, version: 1),
                          codes: [.syn: CodeSet([0]), .key: CodeSet(KeyboardKey.allCodes)])
    }

    /// Creates the keyboard. Needs write access to `/dev/uinput`.
    ///
    /// - Throws: ``EvdevError`` `.uinputFailed` when `/dev/uinput` cannot be used.
    package init() throws(EvdevError) {
        device = try UinputDevice(description: Self.deviceDescription)
        frame.reserveCapacity(20)
    }

    /// Types a combination: presses the keys in order (one frame), then releases them in reverse
    /// order (a second frame), as a person holding a modifier would.
    package func type(_ keys: [KeyboardKey]) throws(EvdevError) {
        guard !keys.isEmpty else { return }
        frame.removeAll(keepingCapacity: true)
        for k in keys { frame.append(InputEvent(time: .zero, type: .key, code: k.code, value: 1)) }
        frame.append(InputEvent(time: .zero, type: .syn, code: 0, value: 0))
        try device.writeBatch(frame)
        frame.removeAll(keepingCapacity: true)
        for k in keys.reversed() { frame.append(InputEvent(time: .zero, type: .key, code: k.code, value: 0)) }
        frame.append(InputEvent(time: .zero, type: .syn, code: 0, value: 0))
        try device.writeBatch(frame)
    }

    /// Destroys the device.
    package func close() { device.close() }
}
