// SPDX-License-Identifier: MIT
import TouchCore

/// touchd's own pointer for one screen: a uinput device with absolute axes spanning the screen
/// and the three mouse buttons, so udev tags it `ID_INPUT_MOUSE` and libinput (every Wayland
/// compositor), X11 and the console take it as an absolute pointer, as they take a virtual
/// machine's tablet. It clicks what the daemon's configuration binds to shortcuts (`click`,
/// docs/shortcuts.md): a right click at a long press's location for apps without touch support.
package final class VirtualPointer {
    /// The name of screen 0's pointer; another screen's adds ` <screen name>`.
    package static let deviceName = "touchd pointer"
    /// The axes' range: 0 is the screen's left (top) edge, `axisMaximum` its right (bottom) one.
    package static let axisMaximum: Int32 = 32767

    /// The uinput device.
    package let device: UinputDevice
    private var frame: [InputEvent] = []

    /// The description a pointer is created from: `BUS_VIRTUAL`, `ABS_X`/`ABS_Y` over
    /// 0...``axisMaximum``, `BTN_LEFT`, `BTN_RIGHT`, `BTN_MIDDLE`.
    package static func deviceDescription(name: String) -> DeviceDescription {
        DeviceDescription(
            name: name, id: InputID(bustype: 0x06, vendor: 0x7464, product: 0x7074, version: 1),
            codes: [.syn: CodeSet([0]), .key: CodeSet([EventCode.btnLeft, EventCode.btnRight, EventCode.btnMiddle]),
                    .abs: CodeSet([EventCode.absX, EventCode.absY])],
            absInfo: [EventCode.absX: AbsInfo(minimum: 0, maximum: axisMaximum),
                      EventCode.absY: AbsInfo(minimum: 0, maximum: axisMaximum)])
    }

    /// Creates a pointer. Needs write access to `/dev/uinput`.
    ///
    /// - Throws: ``EvdevError`` `.uinputFailed` when `/dev/uinput` cannot be used.
    package init(name: String = VirtualPointer.deviceName) throws(EvdevError) {
        device = try UinputDevice(description: Self.deviceDescription(name: name))
        frame.reserveCapacity(4)
    }

    /// Clicks `button` at (`x`, `y`), fractions of the screen (0...1): the pointer moves there
    /// (one frame), the button is pressed (a second) and released (a third), as a mouse would.
    package func click(_ button: UInt16, x: Double, y: Double) throws(EvdevError) {
        func axis(_ f: Double) -> Int32 { Int32((min(max(f, 0), 1) * Double(Self.axisMaximum)).rounded()) }
        frame.removeAll(keepingCapacity: true)
        frame.append(InputEvent(time: .zero, type: .abs, code: EventCode.absX, value: axis(x)))
        frame.append(InputEvent(time: .zero, type: .abs, code: EventCode.absY, value: axis(y)))
        frame.append(InputEvent(time: .zero, type: .syn, code: 0, value: 0))
        try device.writeBatch(frame)
        for value: Int32 in [1, 0] {
            frame.removeAll(keepingCapacity: true)
            frame.append(InputEvent(time: .zero, type: .key, code: button, value: value))
            frame.append(InputEvent(time: .zero, type: .syn, code: 0, value: 0))
            try device.writeBatch(frame)
        }
    }

    /// Destroys the device.
    package func close() { device.close() }
}
