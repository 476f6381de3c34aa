// SPDX-License-Identifier: MIT
/// Stylus tilt: from `ABS_TILT_X`/`ABS_TILT_Y` to altitude and azimuth angles.
///
/// TouchCore may not import a C math library, so the few functions needed are
/// implemented here with series that are exact to ~1e-15 on the ranges used.
package enum StylusTilt {
    /// Tilt angle in radians of a raw tilt value.
    ///
    /// With a resolution (units per radian) the value is measured from 0 when the
    /// range is signed, else from the range's centre. Without one, the range is
    /// assumed to span -64...+64 degrees around its centre (old Wacom 0...127).
    package static func radians(_ value: Int32, axis: AbsInfo) -> Double {
        let lo = Double(axis.minimum), hi = Double(axis.maximum)
        let centre = (lo < 0 && hi > 0) ? 0 : (lo + hi) / 2
        let v = Double(value) - centre
        if axis.resolution > 0 { return v / Double(axis.resolution) }
        let half = (hi - lo) / 2
        guard half > 0 else { return 0 }
        return v / half * 64 * Double.pi / 180
    }

    /// Altitude (pi/2 = perpendicular) and azimuth (0 along +x, clockwise, 0..<2pi)
    /// from tilt angles, as W3C Pointer Events convert `tiltX`/`tiltY`.
    package static func altitudeAzimuth(tiltX: Double, tiltY: Double) -> (altitude: Double, azimuth: Double) {
        let limit = Double.pi / 2
        let tx = min(max(tiltX, -limit), limit), ty = min(max(tiltY, -limit), limit)
        if tx == 0 && ty == 0 { return (limit, 0) }
        // tan(altitude) = 1 / |(tan tx, tan ty)|, multiplied through by cos tx * cos ty
        // (>= 0 on this range) so that a pen lying flat needs no division by zero.
        let cx = max(cosine(tx), 0), cy = max(cosine(ty), 0)
        let u = sine(tx) * cy, v = sine(ty) * cx
        let altitude = arcTangent2(cx * cy, (u * u + v * v).squareRoot())
        return (altitude, normaliseAngle(arcTangent2(v, u)))
    }

    /// An angle folded into 0..<2pi.
    package static func normaliseAngle(_ a: Double) -> Double {
        let full = 2 * Double.pi
        var r = a.truncatingRemainder(dividingBy: full)
        if r < 0 { r += full }
        return r >= full ? 0 : r
    }

    /// Sine for |x| <= pi (Taylor series).
    static func sine(_ x: Double) -> Double {
        var term = x, sum = x
        let x2 = x * x
        var n = 1.0
        for _ in 0..<20 {
            term *= -x2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// Cosine for |x| <= pi (Taylor series).
    static func cosine(_ x: Double) -> Double {
        var term = 1.0, sum = 1.0
        let x2 = x * x
        var n = 0.0
        for _ in 0..<20 {
            term *= -x2 / ((n + 1) * (n + 2))
            sum += term
            n += 2
        }
        return sum
    }

    /// Arc tangent, any finite x.
    static func arcTangent(_ x: Double) -> Double {
        if x < 0 { return -arcTangent(-x) }
        if x > 1 { return Double.pi / 2 - arcTangent(1 / x) }
        // atan(x) = pi/4 + atan((x-1)/(x+1)) keeps the series argument below tan(pi/8).
        if x > 0.4142135623730950 { return Double.pi / 4 + arcTangent((x - 1) / (x + 1)) }
        var term = x, sum = x
        let x2 = x * x
        var k = 1.0
        for _ in 0..<40 {
            term *= -x2
            k += 2
            sum += term / k
        }
        return sum
    }

    /// Two-argument arc tangent (angle of the vector (x, y)), -pi...pi.
    static func arcTangent2(_ y: Double, _ x: Double) -> Double {
        if x > 0 { return arcTangent(y / x) }
        if x < 0 { return y >= 0 ? arcTangent(y / x) + Double.pi : arcTangent(y / x) - Double.pi }
        if y > 0 { return Double.pi / 2 }
        if y < 0 { return -Double.pi / 2 }
        return 0
    }
}
