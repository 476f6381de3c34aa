// SPDX-License-Identifier: MIT
/// The pieces of JSON text every writer shares: string escaping and integer
/// digits.
///
/// Wire's writers (`JSONWriter`, and the cursor that lays out a touch or
/// gesture line for every frame) write through these in place, into room
/// they reserved; they are `@inlinable` so that those writers compile to the
/// same code as when the pieces were their own. The trace writer and
/// ``JSONValue/jsonString`` append through them to a string or bytes.
public enum JSONText {
    // MARK: Strings

    /// Whether `byte` of a string's UTF-8 must be escaped: a quote, a
    /// backslash or a control character. Every other byte, multi-byte UTF-8
    /// included, is written as it is.
    @inlinable @inline(__always)
    public static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    /// The most bytes ``writeEscaped(_:into:at:)`` writes for one byte (`\u00XX`).
    @inlinable public static var maxEscapedByteCount: Int { 6 }

    /// Writes one byte of a string's UTF-8 as JSON requires at `base[n...]`
    /// and advances `n`: `\"`, `\\`, `\n`, `\r`, `\t`, other control
    /// characters as `\u00xx` (lower-case hex), anything else as it is. The
    /// caller reserved ``maxEscapedByteCount`` bytes.
    @inlinable @inline(__always)
    public static func writeEscaped(_ byte: UInt8, into base: UnsafeMutablePointer<UInt8>, at n: inout Int) {
        let backslash = UInt8(ascii: "\\")
        switch byte {
        case UInt8(ascii: "\""), backslash:
            base[n] = backslash; base[n &+ 1] = byte; n &+= 2
        case 0x0A:
            base[n] = backslash; base[n &+ 1] = UInt8(ascii: "n"); n &+= 2
        case 0x0D:
            base[n] = backslash; base[n &+ 1] = UInt8(ascii: "r"); n &+= 2
        case 0x09:
            base[n] = backslash; base[n &+ 1] = UInt8(ascii: "t"); n &+= 2
        case 0..<0x20:
            base[n] = backslash; base[n &+ 1] = UInt8(ascii: "u")
            base[n &+ 2] = UInt8(ascii: "0"); base[n &+ 3] = UInt8(ascii: "0")
            base[n &+ 4] = hexDigit(byte >> 4); base[n &+ 5] = hexDigit(byte & 15)
            n &+= 6
        default:
            base[n] = byte; n &+= 1
        }
    }

    /// The lower-case hex digit of `value` (0 to 15).
    @inlinable @inline(__always)
    public static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") &+ value : UInt8(ascii: "a") &+ value &- 10
    }

    /// Appends `s` as a JSON string literal, quoted and escaped.
    public static func appendString(_ s: String, to out: inout [UInt8]) {
        let utf8 = s.utf8
        out.append(addingCapacity: 2 + maxEscapedByteCount * utf8.count) { span in
            span.withUnsafeMutableBufferPointer { buffer, n in
                let base = buffer.baseAddress!
                base[n] = UInt8(ascii: "\""); n &+= 1
                for b in utf8 { writeEscaped(b, into: base, at: &n) }
                base[n] = UInt8(ascii: "\""); n &+= 1
            }
        }
    }

    /// Appends `s` as a JSON string literal, quoted and escaped.
    public static func appendString(_ s: String, to out: inout String) {
        var bytes: [UInt8] = []
        appendString(s, to: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    // MARK: Integers

    /// How many decimal digits `value` has (1 for 0): comparisons with
    /// powers of ten, no division.
    @inlinable @inline(__always)
    public static func digitCount(_ value: UInt64) -> Int {
        var count = 1
        var power: UInt64 = 10
        while value >= power {
            count &+= 1
            if count == 20 { break }  // 10^20 does not fit in 64 bits
            power &*= 10
        }
        return count
    }

    /// Writes the decimal digits of `value`, at least `minDigits` of them
    /// (zero-padded), at `out[n...]`. The caller reserved the room (at most
    /// 20 digits, or `minDigits`).
    @inlinable @inline(__always)
    public static func writeDigits(_ value: UInt64, minDigits: Int, into out: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
        writeDigits(value, count: Swift.max(digitCount(value), minDigits), into: out, at: &n)
    }

    /// "00", "01", ... "99": two digits per division by 100.
    @usableFromInline
    static var digitPairs: StaticString { "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899" }

    /// Writes the last `count` decimal digits of `value` (zero-padded) at
    /// `out[n...]`, two at a time from the right: a fraction, whose number of
    /// digits is known, or a whole part after ``digitCount(_:)``.
    @inlinable @inline(__always)
    public static func writeDigits(_ value: UInt64, count: Int, into out: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
        let pairs = digitPairs.utf8Start
        let base = out.baseAddress!
        var v = value
        var i = n &+ count
        while i &- n >= 2 {
            let q = v / 100
            let r = Int(truncatingIfNeeded: v &- q &* 100) &<< 1
            i &-= 2
            base[i] = pairs[r]
            base[i &+ 1] = pairs[r &+ 1]
            v = q
        }
        if i > n { base[n] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: v % 10) }
        n &+= count
    }

    /// Bytes ``writeInteger(_:into:at:)`` takes at most (sign and 20 digits).
    @inlinable public static var maxIntegerByteCount: Int { 21 }

    /// Writes `value` in decimal at `out[n...]`; the caller reserved
    /// ``maxIntegerByteCount`` bytes.
    @inlinable @inline(__always)
    public static func writeInteger(_ value: Int64, into out: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
        if value < 0 { out[n] = UInt8(ascii: "-"); n &+= 1 }
        writeDigits(value.magnitude, minDigits: 1, into: out, at: &n)
    }

    /// Appends `value` in decimal.
    public static func appendInteger(_ value: Int64, to out: inout [UInt8]) {
        out.append(addingCapacity: maxIntegerByteCount) { span in
            span.withUnsafeMutableBufferPointer { buffer, n in writeInteger(value, into: buffer, at: &n) }
        }
    }

    /// Appends a double as its shortest round-tripping text, or `null` when
    /// it is not finite (JSON has no NaN or infinity).
    public static func appendDouble(_ value: Double, to out: inout [UInt8]) {
        if value.isFinite {
            out.append(contentsOf: value.description.utf8)
        } else {
            out.append(contentsOf: "null".utf8)
        }
    }
}
