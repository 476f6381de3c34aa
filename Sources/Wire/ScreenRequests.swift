// SPDX-License-Identifier: MIT

/// A screen named by its index in `hello`'s `screens` or by its name.
public enum ScreenSelector: Hashable, Sendable {
    /// By position.
    case index(Int)
    /// By name.
    case name(String)
}

/// One screen's part of a `screens` request: the keys given change, the
/// others stay. A name not yet known adds a screen (then `width` and
/// `height` are required); `remove` takes the screen away.
public struct ScreenUpdate: Hashable, Sendable {
    /// The screen's name.
    public var name: String
    /// Width in pixels of the panel unturned.
    public var width: Int?
    /// Height in pixels of the panel unturned.
    public var height: Int?
    /// Physical size of the panel unturned, in millimetres.
    public var sizeMM: WireSize?
    /// How far the picture is turned clockwise on the panel.
    public var rotation: WireRotation?
    /// Pixels the system keeps along each edge, as the user sees the screen.
    public var insets: WireInsets?
    /// Takes the screen away.
    public var remove: Bool

    /// Creates an update; nil keys stay as they are.
    public init(name: String, width: Int? = nil, height: Int? = nil, sizeMM: WireSize? = nil, rotation: WireRotation? = nil,
                insets: WireInsets? = nil, remove: Bool = false) {
        self.name = name
        self.width = width
        self.height = height
        self.sizeMM = sizeMM
        self.rotation = rotation
        self.insets = insets
        self.remove = remove
    }
}

/// Maps devices to a screen at runtime: the device with id `device`, or
/// every device whose name matches `name` (`*` and `?` patterns).
public struct DeviceScreenAssignment: Hashable, Sendable {
    /// A device id from `hello` or a `device` event.
    public var device: UInt32?
    /// A device name pattern.
    public var name: String?
    /// The screen.
    public var screen: ScreenSelector

    /// Creates an assignment; one of `device` and `name` is expected.
    public init(device: UInt32? = nil, name: String? = nil, screen: ScreenSelector) {
        self.device = device
        self.name = name
        self.screen = screen
    }
}

/// A change of the screen geometry while touchd runs (the `screens`
/// request; semantics §11): screens first, in order, then devices.
public struct ScreenChange: Hashable, Sendable {
    /// Screens to change, add or remove.
    public var screens: [ScreenUpdate]
    /// Devices to map to a screen.
    public var devices: [DeviceScreenAssignment]

    /// Creates a change.
    public init(screens: [ScreenUpdate] = [], devices: [DeviceScreenAssignment] = []) {
        self.screens = screens
        self.devices = devices
    }
}
