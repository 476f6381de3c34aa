// SPDX-License-Identifier: MIT
import Testing
@testable import Wire

@Suite struct JSONWriterTests {
    @Test func nestedStructureGetsCommasRight() {
        var w = JSONWriter()
        w.beginObject()
        w.key("a"); w.int(1)
        w.key("b"); w.beginArray(); w.int(-2); w.string("x"); w.beginObject(); w.endObject(); w.endArray()
        w.key("c"); w.beginObject(); w.key("d"); w.null(); w.key("e"); w.bool(true); w.endObject()
        w.endObject()
        #expect(w.string == #"{"a":1,"b":[-2,"x",{}],"c":{"d":null,"e":true}}"#)
    }

    @Test func numbersAreFixedPointTrimmed() {
        var w = JSONWriter()
        w.beginArray()
        w.number(1352020794.138597, decimals: 6)
        w.number(0.000001, decimals: 6)
        w.number(12.5, decimals: 2)
        w.number(3, decimals: 2)
        w.number(-0.25, decimals: 2)
        w.number(0.1 + 0.2, decimals: 4)
        w.number(.nan, decimals: 2)
        w.endArray()
        #expect(w.string == "[1352020794.138597,0.000001,12.5,3,-0.25,0.3,null]")
    }

    @Test func stringsAreEscaped() {
        var w = JSONWriter()
        w.string("a\"b\\c\nd\u{1}é")
        #expect(w.string == "\"a\\\"b\\\\c\\nd\\u0001é\"")
    }

    @Test func resetKeepsWorking() {
        var w = JSONWriter()
        w.beginObject(); w.key("k"); w.int(1); w.endObject()
        w.reset()
        w.beginObject(); w.key("k"); w.int(2); w.endObject()
        #expect(w.string == #"{"k":2}"#)
    }

    /// The formatting rule written out plainly (decimal digits of the rounded
    /// scaled value, point inserted, trailing zeros trimmed): the writer fills
    /// its buffer in place and must produce the same text.
    static func reference(_ value: Double, decimals: Int) -> String {
        guard value.isFinite else { return "null" }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.magnitude < 9.0e18 else { return value.description }
        let units = Int64(scaled)
        var digits = String(units.magnitude)
        while digits.count <= decimals { digits = "0" + digits }
        var whole = String(digits.dropLast(decimals))
        var fraction = String(digits.suffix(decimals))
        while fraction.hasSuffix("0") { fraction.removeLast() }
        if whole.isEmpty { whole = "0" }
        return (units < 0 ? "-" : "") + whole + (fraction.isEmpty ? "" : "." + fraction)
    }

    @Test func numbersMatchTheReferenceFormatting() {
        var generator = SystemRandomNumberGenerator()
        var values: [Double] = [0, -0.0, 1, -1, 0.5, -0.5, 0.004, -0.004, 0.005, 9.995, 123456789.987654, -1e-7, 1e17, -1e17, 5e18, 1e300, .infinity]
        // Halves (rounded away from zero), the largest double below a half, and halves just under 2^52.
        values += [0.125, -0.125, 2.5, -2.5, 0.0000005, -0.0000015, 0.49999999999999994, -0.49999999999999994,
                   4503599627370495.5, -4503599627370495.5, 8.999999999999998e18, -8.999999999999998e18]
        for _ in 0..<2000 {
            let magnitude = Double.random(in: -8...12, using: &generator)
            values.append((Bool.random(using: &generator) ? 1 : -1) * Double.random(in: 1...10, using: &generator) * pow10(magnitude))
        }
        for decimals in [0, 1, 2, 4, 6] {
            for v in values {
                var w = JSONWriter()
                w.number(v, decimals: decimals)
                #expect(w.string == Self.reference(v, decimals: decimals), "\(v) with \(decimals) decimals")
                var p = JSONWriter()
                p.point(x: v, y: -v, decimals: decimals)
                #expect(p.string == #"{"x":\#(Self.reference(v, decimals: decimals)),"y":\#(Self.reference(-v, decimals: decimals))}"#)
            }
        }
    }

    private func pow10(_ e: Double) -> Double {
        var r = 1.0
        var k = Int(e.rounded(.down))
        while k > 0 { r *= 10; k -= 1 }
        while k < 0 { r /= 10; k += 1 }
        return r
    }

    @Test func integersOfEveryWidth() {
        var w = JSONWriter()
        w.beginArray()
        let values: [Int64] = [0, 7, -7, 10, 99, -100, 1_000_000_007, Int64.max, Int64.min + 1]
        for v in values { w.int(v) }
        w.int(UInt32.max)
        w.endArray()
        #expect(w.string == "[" + values.map(String.init).joined(separator: ",") + ",4294967295]")
    }

    @Test func linesBackToBackEachStartWithoutAComma() {
        var w = JSONWriter()
        for i in 0..<3 {
            w.beginObject(); w.key("i"); w.int(i); w.key("s"); w.string("long enough to be stored out of line"); w.endObject()
            w.newline()
        }
        #expect(w.string == (0..<3).map { #"{"i":\#($0),"s":"long enough to be stored out of line"}"# + "\n" }.joined())
    }

    @Test func deepNestingBeyondSixtyFourLevels() {
        var w = JSONWriter()
        var expected = ""
        for _ in 0..<70 { w.beginArray(); w.int(1); expected += "[1," }
        w.int(2)
        expected += "2"
        for level in 0..<70 {
            w.endArray()
            expected += "]"
            if level < 69 { w.int(3); expected += ",3" }  // a value after each inner array, in its parent
        }
        #expect(w.string == expected)
    }

    @Test func dynamicKeysAndStringsNeedingEscapesKeepTheirCommas() {
        var w = JSONWriter()
        w.beginObject()
        w.key(dynamic: "plain"); w.string("tab\there")
        w.key(dynamic: "quote\"d"); w.string("ok")
        w.key("n"); w.bool(false)
        w.endObject()
        #expect(w.string == #"{"plain":"tab\there","quote\"d":"ok","n":false}"#)
    }

    /// Each `field` method writes what `key` and the value method write.
    @Test func fieldsWriteWhatAKeyAndItsValueWrite() {
        var generator = SystemRandomNumberGenerator()
        var numbers: [Double] = [0, -0.0, .nan, .infinity, -.infinity, 1e19, -3e25, 0.00004, 12.345678]
        for _ in 0..<300 { numbers.append(Double.random(in: -1e7...1e7, using: &generator)) }
        let strings = ["", "touch", "quote\"inside", "line\nbreak", "é and more than fifteen bytes", "\u{1}"]
        for (i, v) in numbers.enumerated() {
            let text = strings[i % strings.count]
            var pairs = JSONWriter(), fields = JSONWriter()
            pairs.beginObject()
            pairs.key("n"); pairs.number(v, decimals: i % 7)
            pairs.key("s"); pairs.string(text)
            pairs.key("i"); pairs.int(i * (i % 2 == 0 ? 1 : -1))
            pairs.key("p"); pairs.point(x: v, y: -v / 3, decimals: 2)
            pairs.key("b"); pairs.bool(i % 3 == 0)
            pairs.key("l"); pairs.string("edge-swipe")
            pairs.key("in"); pairs.beginArray(); pairs.point(x: v, y: 1, decimals: 1); pairs.number(v, decimals: 4); pairs.endArray()
            pairs.endObject()
            fields.beginObject()
            fields.field("n", number: v, decimals: i % 7)
            fields.field("s", string: text)
            fields.field("i", int: i * (i % 2 == 0 ? 1 : -1))
            fields.field("p", x: v, y: -v / 3, decimals: 2)
            fields.field("b", bool: i % 3 == 0)
            fields.field("l", literal: "edge-swipe")
            fields.key("in"); fields.beginArray(); fields.point(x: v, y: 1, decimals: 1); fields.number(v, decimals: 4); fields.endArray()
            fields.endObject()
            #expect(fields.string == pairs.string)
        }
    }

    // MARK: Rounding and times

    /// A fixed-point number's text (`nil` when it takes the general path).
    static func text(_ fixed: JSONWriter.Fixed?) -> String? {
        guard let fixed else { return nil }
        var out = [UInt8](repeating: 0, count: 64)
        var n = 0
        out.withUnsafeMutableBufferPointer { fixed.write(into: $0, at: &n) }
        return String(decoding: out[..<n], as: UTF8.self)
    }

    /// The rounding (its correction added without a branch) is half away
    /// from zero at every precision: on halves and the doubles beside them,
    /// where the product's own rounding decides the digit.
    @Test func roundingAtHalvesIsTheReferences() {
        var g = SplitMix(state: 42)
        var values: [Double] = [1.005, 1.115, 0.285, 2.675, -1.005, -1.115]
        for _ in 0..<5000 {
            let d = [1, 2, 4, 6].randomElement(using: &g)!
            let half = (Double(Int.random(in: -10_000_000...10_000_000, using: &g)) + 0.5) / JSONWriter.Fixed.scale(d)
            values += [half, half.nextUp, half.nextDown]
        }
        for v in values {
            for d in [0, 1, 2, 4, 6] {
                let text = Self.text(JSONWriter.Fixed(v, decimals: d))
                #expect(text == Self.reference(v, decimals: d), "\(v) with \(d) decimals")
                if text != Self.reference(v, decimals: d) { return }
            }
        }
        #expect(Self.text(JSONWriter.Fixed(1.115, decimals: 2)) == "1.12")  // the product is 111.50000000000001
        #expect(Self.text(JSONWriter.Fixed(1.005, decimals: 2)) == "1")     // 100.49999999999999
        #expect(Self.text(JSONWriter.Fixed(-2.5, decimals: 0)) == "-3")
    }

    /// A time in microseconds is written as `Double(us) / 1e6` with six
    /// decimals would be, without floating point.
    @Test func microsecondsAreWrittenAsTheirSeconds() {
        var g = SplitMix(state: 43)
        var times: [Int64] = [0, 1, -1, 10, 999_999, 1_000_000, 1_000_001, -1_000_000, 1_352_020_794_138_597,
                              (1 << 51) - 1, -((1 << 51) - 1), 1 << 51, -(1 << 51), .max, .min]
        for _ in 0..<50_000 {
            times.append(Int64.random(in: -(1 << 51)...(1 << 51), using: &g))
            times.append(Int64.random(in: 0...10_000_000_000_000, using: &g))
        }
        for us in times {
            let integer = Self.text(JSONWriter.Fixed(microseconds: us))
            let floating = Self.text(JSONWriter.Fixed(Double(us) / 1_000_000, decimals: 6))
            #expect(integer == floating, "\(us) us")
            if integer != floating { return }
        }
        var w = JSONWriter()
        w.beginObject()
        w.field("time", seconds: 1_352_020_794_138_597)
        w.field("t", seconds: -1_500_000)
        w.field("z", seconds: 0)
        w.endObject()
        #expect(w.string == #"{"time":1352020794.138597,"t":-1.5,"z":0}"#)
        // Too large for fixed point: the general path's shortest text, in the writer and in a cursor.
        var big = JSONWriter(), general = JSONWriter()
        big.beginObject(); big.field("t", seconds: .max); big.endObject()
        general.beginObject(); general.field("t", number: Double(Int64.max) / 1_000_000, decimals: 6); general.endObject()
        #expect(big.string == general.string && big.string == #"{"t":9223372036854.775}"#)
        var cursor = JSONWriter()
        cursor.value(room: JSONCursor.numberRoom(SixDecimals.self)) { $0.seconds(microseconds: .min) }
        var number = JSONWriter()
        number.number(Double(Int64.min) / 1_000_000, decimals: 6)
        #expect(cursor.string == number.string)
    }
}
