// SPDX-License-Identifier: MIT

/// How far a screen's picture is turned clockwise on its panel, in degrees: `rotation` of a
/// screen in `hello` and `screens`, and of a `screens` request.
public enum WireRotation: Int, CaseIterable, Hashable, Sendable, BitwiseCopyable {
    /// Not turned.
    case degrees0 = 0
    /// A quarter clockwise.
    case degrees90 = 90
    /// Upside down.
    case degrees180 = 180
    /// Three quarters clockwise (a quarter counter-clockwise).
    case degrees270 = 270
}

/// A screen's `insets`: pixels the system keeps along each edge, as the user sees the screen.
public struct WireInsets: Hashable, Sendable {
    /// Pixels along the top edge.
    public var top: Double
    /// Pixels along the right edge.
    public var right: Double
    /// Pixels along the bottom edge.
    public var bottom: Double
    /// Pixels along the left edge.
    public var left: Double

    /// Creates insets; every edge defaults to none.
    public init(top: Double = 0, right: Double = 0, bottom: Double = 0, left: Double = 0) {
        self.top = top; self.right = right; self.bottom = bottom; self.left = left
    }

    /// Whether no edge is kept (a screen's `insets` is then left out).
    public var isEmpty: Bool { top == 0 && right == 0 && bottom == 0 && left == 0 }
}

/// A physical size in millimetres: a screen's `size` in `hello`, `sizeMM` of a `screens` request.
public struct WireSize: Hashable, Sendable {
    /// Width in millimetres.
    public var width: Double
    /// Height in millimetres.
    public var height: Double

    /// Creates a size.
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }
}
