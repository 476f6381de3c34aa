// SPDX-License-Identifier: MIT
/// An accelerometer's orientation as iio-sensor-proxy names it (its D-Bus
/// property `AccelerometerOrientation`, printed by `monitor-sensor`).
public enum SensorOrientation: String, Hashable, Sendable, CaseIterable {
    /// The panel as built: its top edge up.
    case normal
    /// Upside down.
    case bottomUp = "bottom-up"
    /// The panel's left edge up (turned a quarter clockwise).
    case leftUp = "left-up"
    /// The panel's right edge up (turned a quarter counter-clockwise).
    case rightUp = "right-up"
    /// Lying flat or unknown: no orientation to follow.
    case undefined

    /// How far the picture must turn clockwise on the panel to stay upright
    /// for the user, in degrees (touchd's screen `rotation`); nil when undefined.
    /// With the right edge up, the physical left side is at the bottom: the
    /// picture turns a quarter clockwise (90).
    public var screenRotation: Int? {
        switch self {
        case .normal: return 0
        case .rightUp: return 90
        case .bottomUp: return 180
        case .leftUp: return 270
        case .undefined: return nil
        }
    }

    /// The orientation a line of `monitor-sensor`'s output reports, if any:
    /// `=== Has accelerometer (orientation: normal)` at start (newer
    /// versions add `, tilt: ...`) and `    Accelerometer orientation changed: left-up`
    /// on each change (iio-sensor-proxy, src/monitor-sensor.c).
    public static func reported(in line: some StringProtocol) -> SensorOrientation? {
        let text = Substring(String(line)).drop { $0 == " " || $0 == "\t" }
        let changed = "Accelerometer orientation changed:", initial = "=== Has accelerometer ("
        var value: Substring
        if text.hasPrefix(changed) {
            value = text.dropFirst(changed.count)
        } else if text.hasPrefix(initial) {
            // `orientation: X` or `orientation: X, tilt: Y`, up to the closing parenthesis.
            let inner = text.dropFirst(initial.count).prefix { $0 != ")" }
            guard let field = inner.split(separator: ",").first(where: { $0.drop { $0 == " " }.hasPrefix("orientation:") }) else {
                return nil
            }
            value = field.drop { $0 == " " }.dropFirst("orientation:".count)
        } else {
            return nil
        }
        value = value.drop { $0 == " " || $0 == "\t" }
        while let last = value.last, last == " " || last == "\t" || last == "\r" || last == "\n" { value = value.dropLast() }
        return SensorOrientation(rawValue: String(value))
    }
}

/// Decides which rotations to send to touchd while following an
/// accelerometer: each new orientation once, nothing while locked, and on
/// unlocking the orientation the panel has then (if not sent already).
/// Pure: the caller reads `monitor-sensor` and the lock and sends.
public struct RotationFollower: Sendable {
    /// Whether the rotation is locked (changes are not sent).
    public private(set) var locked: Bool
    /// The last rotation sent, in degrees.
    public private(set) var sent: Int?
    /// The rotation the sensor reports now, in degrees.
    public private(set) var current: Int?

    /// Starts following; `locked` when the lock is already set.
    public init(locked: Bool = false) {
        self.locked = locked
    }

    /// Takes one line of `monitor-sensor`'s output; returns the rotation to send now, if any.
    public mutating func take(line: some StringProtocol) -> Int? {
        guard let o = SensorOrientation.reported(in: line), let r = o.screenRotation else { return nil }
        current = r
        return due()
    }

    /// Locks or unlocks; unlocking returns the rotation to send, if the panel turned meanwhile.
    public mutating func setLocked(_ on: Bool) -> Int? {
        locked = on
        return due()
    }

    /// touchd was restarted (its screens are the configuration's again):
    /// returns the rotation to send again, unless locked.
    public mutating func reconnected() -> Int? {
        sent = nil
        return due()
    }

    private mutating func due() -> Int? {
        guard !locked, let r = current, r != sent else { return nil }
        sent = r
        return r
    }
}
