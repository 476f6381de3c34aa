// SPDX-License-Identifier: MIT
import JSON

/// Writes JSON text straight into room a ``JSONWriter`` reserved for one
/// value (``JSONWriter/value(room:_:)``). It is for encoders that lay out a
/// whole object themselves (the touch and gesture lines, written for every
/// frame to every client): keys, punctuation and commas are the encoder's
/// static strings, copied as they are, and numbers are written as digits in
/// place, so a line costs no per-value bookkeeping (docs/performance.md,
/// "A line through a cursor").
///
/// The encoder reserves the room its line can take at most (``numberRoom``
/// and ``stringRoom`` for the parts whose size it does not know); each write
/// checks that it fits, so an encoder that reserved too little stops with a
/// precondition failure instead of writing past the buffer. A cursor is valid
/// only inside the closure it is given to.
struct JSONCursor {
    private let base: UnsafeMutablePointer<UInt8>
    private let limit: Int
    /// Bytes written into the reserved room (the writer's `n`).
    private(set) var count: Int

    init(base: UnsafeMutablePointer<UInt8>, count: Int, limit: Int) {
        self.base = base
        self.count = count
        self.limit = limit
    }

    /// Bytes a ``number(_:_:)`` takes at most: a fixed-point number (sign,
    /// 20 digits, point, fraction) or the shortest text of a double too large
    /// for it (at most 24 bytes), or `null`.
    static func numberRoom<D: Decimals>(_: D.Type) -> Int { 26 + D.count }

    /// Bytes ``int(_:)`` takes at most.
    static let intRoom = 21

    /// Bytes ``string(_:)`` takes at most for `s`: quotes and every byte
    /// escaped as `\u00XX`.
    static func stringRoom(_ s: String) -> Int { 2 + JSONText.maxEscapedByteCount * s.utf8.count }

    @inline(__always)
    private func check(_ room: Int) {
        precondition(room <= limit &- count, "JSONCursor: the line is longer than the room reserved for it")
    }

    /// Writes `text` as it is: punctuation and keys the caller knows to be
    /// valid JSON text (`,"device":`).
    @inline(__always)
    mutating func raw(_ text: StaticString) {
        let size = text.utf8CodeUnitCount
        check(size)
        (base + count).initialize(from: text.utf8Start, count: size)
        count &+= size
    }

    /// Writes `"name"`: a protocol name (an enum's raw value), which needs no escaping.
    @inline(__always)
    mutating func quoted(_ name: StaticString) {
        let size = name.utf8CodeUnitCount
        check(size &+ 2)
        base[count] = UInt8(ascii: "\"")
        (base + (count &+ 1)).initialize(from: name.utf8Start, count: size)
        base[count &+ 1 &+ size] = UInt8(ascii: "\"")
        count &+= size &+ 2
    }

    /// Writes an integer.
    @inline(__always)
    mutating func int<T: BinaryInteger>(_ value: T) {
        check(Self.intRoom)
        let out = UnsafeMutableBufferPointer(start: base, count: limit)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count &+= 1
            JSONText.writeDigits(UInt64(truncatingIfNeeded: value.magnitude), minDigits: 1, into: out, at: &count)
        } else {
            JSONText.writeDigits(UInt64(truncatingIfNeeded: value), minDigits: 1, into: out, at: &count)
        }
    }

    /// Writes a number with at most `D.count` fraction digits, trailing zeros
    /// trimmed, as ``JSONWriter/number(_:decimals:)`` does (`null` when not
    /// finite). Specialized for each precision, so its scale and divisors are
    /// constants: with the precision a run-time value, the compiler made the
    /// divisors a table and each number a hardware division
    /// (docs/performance.md, "Numbers specialized by precision").
    mutating func number<D: Decimals>(_ value: Double, _: D.Type) {
        check(Self.numberRoom(D.self))
        let out = UnsafeMutableBufferPointer(start: base, count: limit)
        if let fixed = JSONWriter.Fixed(value, decimals: D.count) {
            fixed.write(into: out, at: &count)
        } else {
            unfixed(value)
        }
    }

    /// Writes a time given in microseconds as seconds with six decimals,
    /// trailing zeros trimmed: what ``number(_:_:)`` writes for
    /// `Double(microseconds) / 1e6` with ``SixDecimals``, without floating point.
    @inline(__always)
    mutating func seconds(microseconds: Int64) {
        guard let fixed = JSONWriter.Fixed(microseconds: microseconds) else {
            number(Double(microseconds) / 1_000_000, SixDecimals.self)  // too large for fixed point
            return
        }
        check(Self.numberRoom(SixDecimals.self))
        fixed.write(into: UnsafeMutableBufferPointer(start: base, count: limit), at: &count)
    }

    /// A number fixed point cannot take: `null`, or its shortest text.
    private mutating func unfixed(_ value: Double) {
        guard value.isFinite else { raw("null"); return }
        var text = value.description
        text.withUTF8 { utf8 in
            (base + count).initialize(from: utf8.baseAddress!, count: utf8.count)
            count &+= utf8.count
        }
    }

    /// Writes `{"x":X,"y":Y}` with at most `D.count` fraction digits each.
    mutating func point<D: Decimals>(x: Double, y: Double, _: D.Type) {
        raw(#"{"x":"#)
        number(x, D.self)
        raw(#","y":"#)
        number(y, D.self)
        raw("}")
    }

    /// Writes `true` or `false`.
    @inline(__always)
    mutating func bool(_ value: Bool) {
        if value { raw("true") } else { raw("false") }
    }

    /// Writes a string, quoted and escaped; the caller reserved
    /// ``stringRoom(_:)`` for it.
    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            check(2 &+ JSONText.maxEscapedByteCount &* utf8.count)
            base[count] = UInt8(ascii: "\"")
            count &+= 1
            var plain = true
            for b in utf8 where JSONText.needsEscape(b) { plain = false; break }
            if plain, let start = utf8.baseAddress {
                (base + count).initialize(from: start, count: utf8.count)
                count &+= utf8.count
            } else {
                for b in utf8 { escape(b) }
            }
            base[count] = UInt8(ascii: "\"")
            count &+= 1
        }
    }

    /// One byte of a string, escaped as JSON requires.
    @inline(__always)
    private mutating func escape(_ b: UInt8) {
        JSONText.writeEscaped(b, into: base, at: &count)
    }
}

/// A number of fraction digits the protocol writes, as a type
/// (``JSONCursor/number(_:_:)`` is specialized for each).
protocol Decimals {
    /// The number of fraction digits.
    static var count: Int { get }
}

/// One fraction digit (velocities).
enum OneDecimal: Decimals { static var count: Int { 1 } }
/// Two fraction digits (pixels, millimetres).
enum TwoDecimals: Decimals { static var count: Int { 2 } }
/// Four fraction digits (force, angles, scale).
enum FourDecimals: Decimals { static var count: Int { 4 } }
/// Six fraction digits (times in seconds: microseconds).
enum SixDecimals: Decimals { static var count: Int { 6 } }

extension JSONWriter {
    /// Writes one value that `body` lays out in full through a ``JSONCursor``
    /// (an object with its keys, punctuation and commas), into `room` bytes
    /// reserved for it: the most that value can take. The comma before it, if
    /// its container needs one, is the writer's.
    @inline(__always)
    mutating func value(room: Int, _ body: (inout JSONCursor) -> Void) {
        let comma = valueNeedsComma()
        write(room: room &+ 1) { out, n in
            if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
            var cursor = JSONCursor(base: out.baseAddress!, count: n, limit: out.count)
            body(&cursor)
            n = cursor.count
        }
    }
}
