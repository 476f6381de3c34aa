// SPDX-License-Identifier: MIT
// The standard library has no trigonometry and Gestures may not import Foundation
// or libc, so the few functions the recognizers need are here. Accuracy is far
// beyond what touch input needs (errors below 1e-8 rad).

import TouchCore

enum Angles {
    static let pi = 3.141592653589793

    /// atan(z) for z in [0, 1].
    private static func atanUnit(_ z: Double) -> Double {
        // Shift by 30 degrees so the series only ever sees |t| <= tan(15 degrees).
        let tan15 = 0.2679491924311227
        let sqrt3 = 1.7320508075688772
        var offset = 0.0
        var t = z
        if z > tan15 {
            offset = pi / 6
            t = (z * sqrt3 - 1) / (z + sqrt3)
        }
        // The series t - t^3/3 + t^5/5 - ... - t^15/15 + t^17/17, in Horner form: multiplications
        // by constants instead of a division per term.
        let t2 = t * t
        var p = 1.0 / 17
        p = p * t2 - 1.0 / 15
        p = p * t2 + 1.0 / 13
        p = p * t2 - 1.0 / 11
        p = p * t2 + 1.0 / 9
        p = p * t2 - 1.0 / 7
        p = p * t2 + 1.0 / 5
        p = p * t2 - 1.0 / 3
        p = p * t2 + 1
        return offset + t * p
    }

    /// The angle of (x, y) in radians, in (-pi, pi].
    static func atan2(_ y: Double, _ x: Double) -> Double {
        if x == 0 && y == 0 { return 0 }
        let ax = abs(x), ay = abs(y)
        var a = ay <= ax ? atanUnit(ay / ax) : pi / 2 - atanUnit(ax / ay)
        if x < 0 { a = pi - a }
        return y < 0 ? -a : a
    }

    /// The signed angle from direction `a` to direction `b`, in (-pi, pi]
    /// (clockwise positive on screen, where y grows downwards): the angle of
    /// `b` minus the angle of `a`, wrapped, measured with one atan2 of their
    /// cross and dot products instead of two.
    static func turn(from a: Point, to b: Point) -> Double {
        atan2(a.x * b.y - a.y * b.x, a.x * b.x + a.y * b.y)
    }

    /// `a` wrapped into (-pi, pi].
    static func wrapped(_ a: Double) -> Double {
        var r = a
        while r > pi { r -= 2 * pi }
        while r <= -pi { r += 2 * pi }
        return r
    }

    /// cos(a) for any a.
    static func cos(_ a: Double) -> Double {
        let x = wrapped(a)
        let x2 = x * x
        var term = 1.0, sum = 1.0
        var n = 0.0
        for _ in 0..<12 {
            term *= -x2 / ((n + 1) * (n + 2))
            n += 2
            sum += term
        }
        return sum
    }

    /// Degrees to radians.
    static func radians(degrees: Double) -> Double { degrees * pi / 180 }
}
