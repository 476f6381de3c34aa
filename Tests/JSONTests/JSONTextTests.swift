// SPDX-License-Identifier: MIT
import JSON
import Testing

@Suite struct JSONTextTests {
    /// Every power of ten and its neighbours (where the digit count changes), random values of
    /// every length, and zero padding: as `String(value)` writes them, padded on the left; a
    /// fraction's fixed count of digits likewise.
    @Test func digitsAtEveryCountChange() {
        var values: [UInt64] = [0, 1, 9, UInt64.max, UInt64.max - 1]
        var p: UInt64 = 1
        for _ in 0..<19 {
            p *= 10
            values += [p - 1, p, p + 1]
        }
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            values.append(UInt64.random(in: 0...UInt64.max, using: &generator) >> UInt64.random(in: 0...63, using: &generator))
        }
        var buffer = [UInt8](repeating: 0, count: 64)
        for v in values {
            for minDigits in [1, 2, 6, 21] {
                let written = buffer.withUnsafeMutableBufferPointer { out -> String in
                    var n = 3
                    JSONText.writeDigits(v, minDigits: minDigits, into: out, at: &n)
                    return String(decoding: out[3..<n], as: UTF8.self)
                }
                let plain = String(v)
                let expected = String(repeating: "0", count: max(0, minDigits - plain.count)) + plain
                #expect(written == expected, "\(v), at least \(minDigits) digits")
            }
            let last6 = buffer.withUnsafeMutableBufferPointer { out -> String in
                var n = 0
                JSONText.writeDigits(v % 1_000_000, count: 6, into: out, at: &n)
                return String(decoding: out[0..<n], as: UTF8.self)
            }
            let plain6 = String(v % 1_000_000)
            #expect(last6 == String(repeating: "0", count: 6 - plain6.count) + plain6, "\(v), 6 digits")
        }
    }

    @Test func integersAreTheirDecimalText() {
        for v: Int64 in [0, 7, -7, 10, 99, 100, -100, 123_456_789, Int64.max, Int64.min] {
            var out: [UInt8] = []
            JSONText.appendInteger(v, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == String(v))
        }
    }

    @Test func doublesAreTheirShortestTextAndNotFiniteIsNull() {
        for (v, text) in [(2.5, "2.5"), (-0.1, "-0.1"), (1e300, "1e+300"), (.nan, "null"), (.infinity, "null")] as [(Double, String)] {
            var out: [UInt8] = []
            JSONText.appendDouble(v, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == text)
        }
    }

    /// Quotes, backslashes, the three named control characters and every
    /// other control character (lower-case `\u00xx`); slashes, DEL and
    /// non-ASCII text as they are. The same bytes into a string and into bytes.
    @Test func stringsAreQuotedAndEscaped() {
        let cases: [(String, String)] = [
            ("", #""""#),
            ("plain", #""plain""#),
            ("a\"b\\c", #""a\"b\\c""#),
            ("\n\r\t", #""\n\r\t""#),
            ("\u{0}\u{1}\u{1F}", #""\u0000\u0001\u001f""#),
            ("Pad\u{1}B", #""Pad\u0001B""#),
            ("/\u{7F}é😀", "\"/\u{7F}é😀\""),
        ]
        for (s, expected) in cases {
            var bytes: [UInt8] = []
            JSONText.appendString(s, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == expected)
            var text = "x"
            JSONText.appendString(s, to: &text)
            #expect(text == "x" + expected)
        }
    }

    @Test func everyByteNeedingAnEscapeIsEscaped() {
        for b in UInt8.min...UInt8.max {
            #expect(JSONText.needsEscape(b) == (b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\")))
            var room = [UInt8](repeating: 0, count: JSONText.maxEscapedByteCount)
            let n = room.withUnsafeMutableBufferPointer { out -> Int in
                var n = 0
                JSONText.writeEscaped(b, into: out.baseAddress!, at: &n)
                return n
            }
            #expect(n == (JSONText.needsEscape(b) ? ([0x09, 0x0A, 0x0D, 0x22, 0x5C].contains(b) ? 2 : 6) : 1), "byte \(b)")
        }
    }
}
