// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TouchCore

@testable import Gestures

/// The angle functions the recognizers use (Sources/Gestures/Angles.swift),
/// against the C library: the rotate recognizer's turn (semantics section 3,
/// rotation) is measured with them.
@Suite struct AnglesTests {
    @Test func atan2MatchesTheCLibraryInEveryQuadrant() {
        var generator = SystemRandomNumberGenerator()
        var points: [(Double, Double)] = [(1, 0), (0, 1), (-1, 0), (0, -1), (1, 1), (-1, -1), (1e-9, 1), (1, -1e-9), (3, 4)]
        for _ in 0..<5000 {
            points.append((Double.random(in: -500...500, using: &generator), Double.random(in: -500...500, using: &generator)))
        }
        for (x, y) in points {
            #expect(abs(Angles.atan2(y, x) - Glibc.atan2(y, x)) < 1e-8, "atan2(\(y), \(x))")
        }
        #expect(Angles.atan2(0, 0) == 0)
    }

    /// One atan2 of the cross and dot products gives the angle from one
    /// direction to the other that two atan2 and a wrap give.
    @Test func turnIsTheWrappedDifferenceOfTheAngles() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let a = Point(x: Double.random(in: -300...300, using: &generator), y: Double.random(in: -300...300, using: &generator))
            let b = Point(x: Double.random(in: -300...300, using: &generator), y: Double.random(in: -300...300, using: &generator))
            let expected = Angles.wrapped(Glibc.atan2(b.y, b.x) - Glibc.atan2(a.y, a.x))
            var difference = abs(Angles.turn(from: a, to: b) - expected)
            if difference > Angles.pi { difference = 2 * Angles.pi - difference }  // +pi and -pi are the same turn
            #expect(difference < 1e-8, "from \(a) to \(b)")
        }
        // A quarter turn clockwise on screen (y grows downwards): right, then down.
        #expect(abs(Angles.turn(from: Point(x: 1, y: 0), to: Point(x: 0, y: 1)) - Angles.pi / 2) < 1e-12)
        #expect(abs(Angles.turn(from: Point(x: 0, y: 1), to: Point(x: 1, y: 0)) + Angles.pi / 2) < 1e-12)
    }
}
