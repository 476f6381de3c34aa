// SPDX-License-Identifier: MIT
import Testing
@testable import TouchCore

@Suite struct StylusTiltTests {
    @Test func signedRangeWithResolution() {
        let axis = AbsInfo(minimum: -64, maximum: 63, resolution: 57)
        #expect(StylusTilt.radians(57, axis: axis) == 1)
        #expect(StylusTilt.radians(0, axis: axis) == 0)
    }

    @Test func unsignedRangeWithoutResolutionSpansPlusMinus64Degrees() {
        let axis = AbsInfo(minimum: 0, maximum: 127)
        #expect(abs(StylusTilt.radians(127, axis: axis) - 64 * Double.pi / 180) < 1e-12)
        #expect(abs(StylusTilt.radians(0, axis: axis) + 64 * Double.pi / 180) < 1e-12)
        #expect(StylusTilt.radians(Int32(63), axis: axis) < 0)
    }

    @Test func hidRangeInHundredthsOfDegrees() {
        let axis = AbsInfo(minimum: -9000, maximum: 9000, resolution: 5730)
        #expect(abs(StylusTilt.radians(4500, axis: axis) - 4500.0 / 5730) < 1e-12)
    }

    @Test func altitudeAndAzimuthLikePointerEvents() {
        let q = Double.pi / 4
        let a = StylusTilt.altitudeAzimuth(tiltX: 0, tiltY: q)
        #expect(abs(a.altitude - q) < 1e-12)
        #expect(abs(a.azimuth - Double.pi / 2) < 1e-12)
        let b = StylusTilt.altitudeAzimuth(tiltX: -q, tiltY: 0)
        #expect(abs(b.azimuth - Double.pi) < 1e-12)
        let c = StylusTilt.altitudeAzimuth(tiltX: q, tiltY: q)
        // tan(alt) = 1 / sqrt(2)
        #expect(abs(c.altitude - 0.6154797086703874) < 1e-12)
        #expect(abs(c.azimuth - q) < 1e-12)
        let flat = StylusTilt.altitudeAzimuth(tiltX: Double.pi / 2, tiltY: 0)
        #expect(abs(flat.altitude) < 1e-12)
    }

    @Test func seriesMatchKnownValues() {
        #expect(abs(StylusTilt.arcTangent(1) - Double.pi / 4) < 1e-15)
        #expect(abs(StylusTilt.arcTangent(-1e6) + Double.pi / 2 - 1e-6) < 1e-12)
        #expect(abs(StylusTilt.sine(Double.pi / 6) - 0.5) < 1e-15)
        #expect(abs(StylusTilt.cosine(Double.pi / 3) - 0.5) < 1e-15)
        #expect(abs(StylusTilt.arcTangent2(-1, -1) + 3 * Double.pi / 4) < 1e-15)
    }
}
