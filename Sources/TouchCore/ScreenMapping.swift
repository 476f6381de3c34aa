// SPDX-License-Identifier: MIT
/// A screen devices map onto, in pixels, as the user sees it.
package struct ScreenConfiguration: Hashable, Sendable, Codable {
    /// A name for logs and the `hello` message.
    package var name: String
    /// Width in pixels as the user sees the screen (after ``rotation``).
    package var width: Int
    /// Height in pixels as the user sees the screen (after ``rotation``).
    package var height: Int
    /// How far the picture is turned clockwise on the panel (`xrandr --rotate
    /// right` is 90): a touchscreen bonded to the panel is turned back by it,
    /// so that touches land where the user sees the picture (semantics §11).
    package var rotation: Rotation

    /// Creates a screen; the default is a 1920 x 1080 screen named "default", unturned.
    package init(name: String = "default", width: Int = 1920, height: Int = 1080, rotation: Rotation = .none) {
        self.name = name
        self.width = width
        self.height = height
        self.rotation = rotation
    }
}

/// Clockwise rotation from the device's axes to the screen's.
package enum Rotation: Int, Hashable, Sendable, CaseIterable, Codable {
    /// Device axes are screen axes.
    case none = 0
    /// Device turned 90 degrees clockwise: device top-left lands at screen top-right.
    case quarter = 90
    /// Upside down.
    case half = 180
    /// Device turned 270 degrees clockwise (90 counter-clockwise).
    case threeQuarters = 270

    /// Rotates a normalised point (0...1 on both axes) clockwise.
    @inlinable package func apply(_ p: Point) -> Point {
        switch self {
        case .none: return p
        case .quarter: return Point(x: 1 - p.y, y: p.x)
        case .half: return Point(x: 1 - p.x, y: 1 - p.y)
        case .threeQuarters: return Point(x: p.y, y: 1 - p.x)
        }
    }

    /// The rotation in radians, clockwise on screen.
    package var radians: Double { Double(rawValue) * Double.pi / 180 }

    /// This rotation followed by `other` (both clockwise).
    package func then(_ other: Rotation) -> Rotation {
        Rotation(rawValue: (rawValue + other.rawValue) % 360)!
    }

    /// The rotation that undoes this one.
    package var inverse: Rotation { Rotation(rawValue: (360 - rawValue) % 360)! }

    /// Whether it swaps width and height (90 or 270 degrees).
    package var swapsAxes: Bool { self == .quarter || self == .threeQuarters }
}

/// Where a device's normalised points land on a screen: calibration, then the
/// device's rotation combined with the screen's, then the screen's pixels.
/// A touch keeps the placement it began with until it ends (semantics §11.2);
/// ``generation`` tells placements of one pipeline apart.
package struct ScreenPlacement: Hashable, Sendable {
    /// Calibration applied to normalised coordinates first.
    package var calibration: CalibrationMatrix
    /// The device's rotation, then the screen's turn undone.
    package var rotation: Rotation
    /// Screen width in pixels, as the user sees it.
    package var width: Double
    /// Screen height in pixels, as the user sees it.
    package var height: Double
    /// Index of the screen.
    package var screen: Int
    /// Changes whenever the pipeline's geometry changes.
    package var generation: UInt32

    /// No placement yet: identity calibration, no turn, a zero-sized screen 0, generation 0
    /// (what a sample holds before the sampler places it; built without a mapping or a screen,
    /// since every contact of every frame starts from it).
    package init() {
        calibration = .identity
        rotation = .none
        width = 0
        height = 0
        screen = 0
        generation = 0
    }

    /// The placement of a device with `mapping` on `screen` (its index `index`).
    package init(mapping: DeviceMapping, screen: ScreenConfiguration, index: Int, generation: UInt32 = 0) {
        calibration = mapping.calibration
        rotation = mapping.rotation.then(screen.rotation.inverse)
        width = Double(screen.width)
        height = Double(screen.height)
        self.screen = index
        self.generation = generation
    }

    /// A normalised device point in screen pixels.
    @inlinable package func place(_ p: Point) -> Point {
        let r = rotation.apply(calibration.apply(p))
        return Point(x: r.x * width, y: r.y * height)
    }
}

/// A 2x3 affine matrix with the semantics of libinput's
/// `LIBINPUT_CALIBRATION_MATRIX`: applied to normalised device coordinates
/// (0...1 on both axes), `x' = a*x + b*y + c`, `y' = d*x + e*y + f`.
package struct CalibrationMatrix: Hashable, Sendable, Codable, CustomStringConvertible {
    /// Row one: a, b, c.
    package var a: Double, b: Double, c: Double
    /// Row two: d, e, f.
    package var d: Double, e: Double, f: Double

    /// Creates a matrix from its six values in libinput's order.
    package init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double) {
        self.a = a; self.b = b; self.c = c
        self.d = d; self.e = e; self.f = f
    }

    /// The matrix that changes nothing.
    package static let identity = CalibrationMatrix(1, 0, 0, 0, 1, 0)

    /// Parses six numbers separated by spaces or tabs ("1 0 0 0 1 0", the udev
    /// property's form); nil when there are not exactly six numbers.
    package init?(_ text: String) {
        let parts = text.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "," })
        guard parts.count == 6 else { return nil }
        var v: [Double] = []
        for p in parts {
            guard let n = Double(p), n.isFinite else { return nil }
            v.append(n)
        }
        self.init(v[0], v[1], v[2], v[3], v[4], v[5])
    }

    /// Applies the matrix to a normalised point.
    @inlinable package func apply(_ p: Point) -> Point {
        Point(x: a * p.x + b * p.y + c, y: d * p.x + e * p.y + f)
    }

    /// The six values separated by spaces.
    package var description: String { "\(a) \(b) \(c) \(d) \(e) \(f)" }
}

/// A physical size in millimetres.
package struct SizeMM: Hashable, Sendable, Codable {
    /// Width in millimetres.
    package var width: Double
    /// Height in millimetres.
    package var height: Double
    /// Creates a size.
    package init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}

/// How one device maps onto a screen (configuration, per device).
package struct DeviceMapping: Hashable, Sendable {
    /// Index of the screen in the pipeline's screen list.
    package var screen: Int
    /// Clockwise rotation applied after calibration.
    package var rotation: Rotation
    /// Calibration applied to normalised coordinates before rotation.
    package var calibration: CalibrationMatrix
    /// Physical size override; replaces resolution and the fallback.
    package var sizeMM: SizeMM?
    /// What counts as a contact and as a palm (from libinput quirks; empty: every reported contact).
    package var contactThresholds = ContactThresholds()
    /// The libinput quirks that matched the device, with where each came from (for reports).
    package var quirks = QuirkAttributes()
    /// Whether ``sizeMM`` is a quirk's size or resolution hint rather than an override.
    package var sizeFromQuirk = false

    /// Creates a mapping; the default maps the whole device onto screen 0 unrotated.
    package init(screen: Int = 0, rotation: Rotation = .none, calibration: CalibrationMatrix = .identity, sizeMM: SizeMM? = nil) {
        self.screen = screen
        self.rotation = rotation
        self.calibration = calibration
        self.sizeMM = sizeMM
    }
}
