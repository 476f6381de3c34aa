// SPDX-License-Identifier: MIT
import JSON

/// Writes compact JSON into a reusable byte buffer, without Foundation and
/// without allocating per value once the buffer has grown.
///
/// The caller is responsible for structure (it writes keys and values in
/// order); the writer takes care of commas, escaping and number formatting.
///
/// Encoding is on the path of every event to every client, so each value is
/// one append to ``bytes`` (separator, quotes and digits written in place into
/// the room it reserves), which containers need a comma is kept as bits, and
/// the `field` methods write a key and its value with one append
/// (docs/performance.md, "Encoding").
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]
    /// How many containers are open.
    private var depth = 0
    /// Bit `d` set: the container open at depth `d` (0 the outermost) needs a
    /// comma before its next element.
    private var commas: UInt64 = 0
    /// The same flags for containers nested deeper than 64 (index `d - 64`).
    private var deepCommas: [Bool] = []
    /// A key was written: its value takes no comma.
    private var pendingValueAfterKey = false

    /// Creates an empty writer with some capacity reserved.
    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Forgets what was written, keeping the capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        depth = 0
        commas = 0
        deepCommas.removeAll(keepingCapacity: true)
        pendingValueAfterKey = false
    }

    /// The number of bytes written so far.
    public var count: Int { bytes.count }

    /// The bytes as a String.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    // MARK: Separators

    /// The innermost open container's flag (false when none is open).
    @inline(__always)
    private func innermostNeedsComma() -> Bool {
        guard depth > 0 else { return false }
        let d = depth &- 1
        return d < 64 ? commas & (1 &<< UInt64(d)) != 0 : deepCommas[d - 64]
    }

    @inline(__always)
    private mutating func setInnermost(_ needsComma: Bool) {
        guard depth > 0 else { return }
        let d = depth &- 1
        if d < 64 {
            if needsComma { commas |= 1 &<< UInt64(d) } else { commas &= ~(1 &<< UInt64(d)) }
        } else {
            deepCommas[d - 64] = needsComma
        }
    }

    /// Whether the next value takes a comma before it; marks the container
    /// as having an element.
    @inline(__always)
    mutating func valueNeedsComma() -> Bool {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
            setInnermost(true)
            return false
        }
        let comma = innermostNeedsComma()
        setInnermost(true)
        return comma
    }

    /// Whether a key and its value (a field) take a comma before them; marks
    /// the container as having an element.
    @inline(__always)
    private mutating func fieldNeedsComma() -> Bool {
        let comma = innermostNeedsComma()
        setInnermost(true)
        return comma
    }

    /// Reserves `room` bytes and lets `body` write into them (`n`: bytes written so far).
    @inline(__always)
    mutating func write(room: Int, _ body: (UnsafeMutableBufferPointer<UInt8>, inout Int) -> Void) {
        bytes.append(addingCapacity: room) { span in
            span.withUnsafeMutableBufferPointer { out, n in body(out, &n) }
        }
    }

    private mutating func open(_ bracket: UInt8) {
        let comma = valueNeedsComma()
        write(room: 2) { out, n in
            if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
            out[n] = bracket; n &+= 1
        }
        if depth >= 64 { deepCommas.append(false) }
        depth += 1
        setInnermost(false)
    }

    private mutating func close(_ bracket: UInt8) {
        if depth > 0 {
            setInnermost(false)
            if depth > 64 { deepCommas.removeLast() }
            depth -= 1
        }
        bytes.append(bracket)
    }

    // MARK: Structure

    /// Opens an object as the next value.
    public mutating func beginObject() { open(UInt8(ascii: "{")) }

    /// Closes the innermost object.
    public mutating func endObject() { close(UInt8(ascii: "}")) }

    /// Opens an array as the next value.
    public mutating func beginArray() { open(UInt8(ascii: "[")) }

    /// Closes the innermost array.
    public mutating func endArray() { close(UInt8(ascii: "]")) }

    /// Writes an object key; the next call writes its value.
    public mutating func key(_ name: StaticString) {
        let comma = innermostNeedsComma()
        setInnermost(false)
        pendingValueAfterKey = true
        name.withUTF8Buffer { utf8 in
            write(room: utf8.count + 4) { out, n in
                if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                Self.writeKey(utf8, into: out, at: &n)
            }
        }
    }

    /// Writes an object key given at run time (escaped).
    public mutating func key(dynamic name: String) {
        let comma = innermostNeedsComma()
        setInnermost(false)
        appendEscaped(name, comma: comma)
        bytes.append(UInt8(ascii: ":"))
        pendingValueAfterKey = true
    }

    // MARK: Values

    /// Writes a string value.
    public mutating func string(_ value: String) {
        appendEscaped(value, comma: valueNeedsComma())
    }

    /// Writes an integer value.
    public mutating func int<T: BinaryInteger>(_ value: T) {
        let comma = valueNeedsComma()
        let v = Int64(value)
        write(room: 21) { out, n in
            if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
            JSONText.writeInteger(v, into: out, at: &n)
        }
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        appendLiteral(value ? "true" : "false", comma: valueNeedsComma())
    }

    /// Writes `null`.
    public mutating func null() {
        appendLiteral("null", comma: valueNeedsComma())
    }

    /// Writes a number with at most `decimals` fraction digits, trailing zeros
    /// trimmed. Non-finite values are written as `null` (JSON has no NaN).
    public mutating func number(_ value: Double, decimals: Int) {
        let comma = valueNeedsComma()
        guard let fixed = Fixed(value, decimals: decimals) else {
            appendUnfixed(value, comma: comma)
            return
        }
        write(room: fixed.room + 1) { out, n in
            if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
            fixed.write(into: out, at: &n)
        }
    }

    /// Writes `{"x":X,"y":Y}` with the given precision.
    public mutating func point(x: Double, y: Double, decimals: Int) {
        let comma = valueNeedsComma()
        appendPoint(x: x, y: y, decimals: decimals, comma: comma, key: nil)
    }

    /// Writes a parsed value as the next value (``JSONValue/append(to:)``).
    public mutating func value(_ value: JSONValue) {
        if valueNeedsComma() { bytes.append(UInt8(ascii: ",")) }
        value.append(to: &bytes)
    }

    /// Appends raw, already valid JSON as the next value.
    public mutating func raw(_ json: String) {
        if valueNeedsComma() { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: json.utf8)
    }

    /// Appends raw, already valid JSON given as UTF-8 bytes as the next value.
    public mutating func raw(bytes json: [UInt8]) {
        if valueNeedsComma() { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: json)
    }

    /// Appends a newline (between JSON lines).
    public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    // MARK: Fields (a key and its value in one append)

    /// Writes `"name":"value"` (the value escaped): `key(name)` then `string(value)`.
    public mutating func field(_ name: StaticString, string value: String) {
        let comma = fieldNeedsComma()
        name.withUTF8Buffer { key in appendEscaped(value, comma: comma, key: key) }
    }

    /// Writes `"name":"value"` for a value that is a protocol name (an event
    /// type, an enum's raw value): `key(name)` then `string(value)`, without
    /// looking for characters to escape, which such a value does not have.
    public mutating func field(_ name: StaticString, literal value: StaticString) {
        let comma = fieldNeedsComma()
        name.withUTF8Buffer { key in
            value.withUTF8Buffer { text in
                write(room: key.count + text.count + 6) { out, n in
                    if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                    Self.writeKey(key, into: out, at: &n)
                    out[n] = UInt8(ascii: "\""); n &+= 1
                    Self.copy(text, into: out, at: &n)
                    out[n] = UInt8(ascii: "\""); n &+= 1
                }
            }
        }
    }

    /// Writes `"name":value`: `key(name)` then `int(value)`.
    public mutating func field<T: BinaryInteger>(_ name: StaticString, int value: T) {
        let comma = fieldNeedsComma()
        let v = Int64(value)
        name.withUTF8Buffer { key in
            write(room: key.count + 25) { out, n in
                if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                Self.writeKey(key, into: out, at: &n)
                JSONText.writeInteger(v, into: out, at: &n)
            }
        }
    }

    /// Writes `"name":value` with at most `decimals` fraction digits: `key(name)` then `number(value, decimals:)`.
    public mutating func field(_ name: StaticString, number value: Double, decimals: Int) {
        let comma = fieldNeedsComma()
        name.withUTF8Buffer { key in
            guard let fixed = Fixed(value, decimals: decimals) else {
                write(room: key.count + 4) { out, n in
                    if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                    Self.writeKey(key, into: out, at: &n)
                }
                appendUnfixed(value, comma: false)
                return
            }
            write(room: key.count + 4 + fixed.room) { out, n in
                if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                Self.writeKey(key, into: out, at: &n)
                fixed.write(into: out, at: &n)
            }
        }
    }

    /// Writes `"name":S` where S is a time given in microseconds, as seconds
    /// with six decimals: `field(name, number: Double(microseconds) / 1e6, decimals: 6)`
    /// without floating point.
    public mutating func field(_ name: StaticString, seconds microseconds: Int64) {
        guard let fixed = Fixed(microseconds: microseconds) else {
            // Too large for fixed point: the general path writes its shortest text.
            field(name, number: Double(microseconds) / 1_000_000, decimals: 6)
            return
        }
        let comma = fieldNeedsComma()
        name.withUTF8Buffer { key in
            write(room: key.count + 4 + fixed.room) { out, n in
                if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                Self.writeKey(key, into: out, at: &n)
                fixed.write(into: out, at: &n)
            }
        }
    }

    /// Writes `"name":{"x":X,"y":Y}`: `key(name)` then `point(x:y:decimals:)`.
    public mutating func field(_ name: StaticString, x: Double, y: Double, decimals: Int) {
        let comma = fieldNeedsComma()
        name.withUTF8Buffer { key in appendPoint(x: x, y: y, decimals: decimals, comma: comma, key: key) }
    }

    /// Writes `"name":true` or `"name":false`: `key(name)` then `bool(value)`.
    public mutating func field(_ name: StaticString, bool value: Bool) {
        key(name)
        bool(value)
    }

    // MARK: Bytes

    /// A number as fixed-point decimal text: sign, whole part, and the
    /// fraction's significant digits (trailing zeros trimmed).
    struct Fixed {
        var negative: Bool
        var whole: UInt64
        var fraction: UInt64
        /// Digits of `fraction` to write (zero-padded on the left); 0 when there is no fraction.
        var digits: Int

        /// Nil when `value` is not finite or too large for 64-bit fixed point.
        @inline(__always)
        init?(_ value: Double, decimals: Int) {
            guard value.isFinite else { return nil }
            let scaled = value * Fixed.scale(decimals)
            guard scaled.magnitude < 9.0e18 else { return nil }
            // Rounded half away from zero, as `rounded()` does, without its library call:
            // the part below the truncation is exact (a double at or over 2^52 is an integer).
            // The correction is arithmetic, not a branch (its direction is a coin toss on real
            // coordinates, and a mispredicted branch cost more than the rest of the rounding):
            // `rest` is in (-1, 1) and doubling it is exact, so truncating `2 * rest` gives 1 when
            // rest >= 0.5, -1 when rest <= -0.5, else 0.
            var units = Int64(scaled)
            let rest = scaled - Double(units)
            units &+= Int64(rest + rest)
            self.init(units: units.magnitude, negative: units < 0, decimals: decimals)
        }

        /// `units` (the number times 10^decimals, rounded) with its sign; a zero is never negative.
        @inline(__always)
        init(units: UInt64, negative: Bool, decimals: Int) {
            self.negative = negative && units != 0
            (whole, fraction) = Fixed.split(units, decimals: decimals)
            digits = decimals
            if fraction == 0 {
                digits = 0
            } else {
                while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            }
        }

        /// `microseconds` as seconds with six decimals: the digits
        /// `Fixed(Double(microseconds) / 1e6, decimals: 6)` writes, with integer
        /// arithmetic only (the two agree below 2^51 microseconds, 71 years; beyond, the floating-point path).
        @inline(__always)
        init?(microseconds: Int64) {
            guard microseconds.magnitude < 1 &<< 51 else {
                self.init(Double(microseconds) / 1_000_000, decimals: 6)
                return
            }
            self.init(units: microseconds.magnitude, negative: microseconds < 0, decimals: 6)
        }

        /// Bytes it may take: sign, 20 digits, point, fraction digits.
        var room: Int { 22 + digits }

        @inline(__always)
        func write(into out: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
            if negative { out[n] = UInt8(ascii: "-"); n &+= 1 }
            JSONText.writeDigits(whole, minDigits: 1, into: out, at: &n)
            if digits > 0 {
                out[n] = UInt8(ascii: "."); n &+= 1
                JSONText.writeDigits(fraction, count: digits, into: out, at: &n)
            }
        }

        /// 10^decimals, as repeated multiplication by 10 from 1 gives it (exact up to 10^22).
        @inline(__always)
        static func scale(_ decimals: Int) -> Double {
            switch decimals {
            case 0: return 1
            case 1: return 1e1
            case 2: return 1e2
            case 4: return 1e4
            case 6: return 1e6
            default:
                var scale: Double = 1
                for _ in 0..<decimals { scale *= 10 }
                return scale
            }
        }

        /// Whole part and fraction of `units` with `decimals` fraction digits: constant divisors
        /// for the precisions the protocol uses (a multiplication instead of a division).
        @inline(__always)
        static func split(_ units: UInt64, decimals: Int) -> (UInt64, UInt64) {
            switch decimals {
            case 0: return (units, 0)
            case 1: return (units / 10, units % 10)
            case 2: return (units / 100, units % 100)
            case 4: return (units / 10_000, units % 10_000)
            case 6: return (units / 1_000_000, units % 1_000_000)
            default:
                var divisor: UInt64 = 1
                for _ in 0..<decimals { divisor *= 10 }
                return (units / divisor, units % divisor)
            }
        }
    }

    /// A number `Fixed` cannot take: `null` when not finite, else its shortest text.
    private mutating func appendUnfixed(_ value: Double, comma: Bool) {
        guard value.isFinite else { appendLiteral("null", comma: comma); return }
        if comma { bytes.append(UInt8(ascii: ",")) }
        bytes.append(contentsOf: value.description.utf8)
    }

    /// `[,]["key":]{"x":X,"y":Y}`.
    private mutating func appendPoint(x: Double, y: Double, decimals: Int, comma: Bool, key: UnsafeBufferPointer<UInt8>?) {
        guard let fx = Fixed(x, decimals: decimals), let fy = Fixed(y, decimals: decimals) else {
            // Not finite or huge: the general path.
            if let key {
                write(room: key.count + 4) { out, n in
                    if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                    Self.writeKey(key, into: out, at: &n)
                }
            } else if comma {
                bytes.append(UInt8(ascii: ","))
            }
            bytes.append(UInt8(ascii: "{"))
            bytes.append(contentsOf: #""x":"#.utf8)
            appendNumberText(x, decimals: decimals)
            bytes.append(contentsOf: #","y":"#.utf8)
            appendNumberText(y, decimals: decimals)
            bytes.append(UInt8(ascii: "}"))
            return
        }
        write(room: (key?.count ?? 0) + 16 + fx.room + fy.room) { out, n in
            if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
            if let key { Self.writeKey(key, into: out, at: &n) }
            out[n] = UInt8(ascii: "{"); out[n &+ 1] = UInt8(ascii: "\""); out[n &+ 2] = UInt8(ascii: "x")
            out[n &+ 3] = UInt8(ascii: "\""); out[n &+ 4] = UInt8(ascii: ":"); n &+= 5
            fx.write(into: out, at: &n)
            out[n] = UInt8(ascii: ","); out[n &+ 1] = UInt8(ascii: "\""); out[n &+ 2] = UInt8(ascii: "y")
            out[n &+ 3] = UInt8(ascii: "\""); out[n &+ 4] = UInt8(ascii: ":"); n &+= 5
            fy.write(into: out, at: &n)
            out[n] = UInt8(ascii: "}"); n &+= 1
        }
    }

    /// A number's text with no separator (inside ``appendPoint``'s general path).
    private mutating func appendNumberText(_ value: Double, decimals: Int) {
        if let fixed = Fixed(value, decimals: decimals) {
            write(room: fixed.room) { out, n in fixed.write(into: out, at: &n) }
        } else {
            appendUnfixed(value, comma: false)
        }
    }

    private mutating func appendLiteral(_ s: StaticString, comma: Bool) {
        s.withUTF8Buffer { utf8 in
            write(room: utf8.count + 1) { out, n in
                if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                Self.copy(utf8, into: out, at: &n)
            }
        }
    }

    @inline(__always)
    private static func copy(_ source: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
        guard let base = source.baseAddress, source.count > 0 else { return }
        (out.baseAddress! + n).initialize(from: base, count: source.count)
        n &+= source.count
    }

    /// `"name":` (the name is a literal the caller knows needs no escaping).
    @inline(__always)
    private static func writeKey(_ name: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>, at n: inout Int) {
        out[n] = UInt8(ascii: "\""); n &+= 1
        copy(name, into: out, at: &n)
        out[n] = UInt8(ascii: "\""); out[n &+ 1] = UInt8(ascii: ":"); n &+= 2
    }

    /// `[,]["key":]"s"`, escaped: one copy of the string's bytes when nothing
    /// in it needs escaping (names, ids, enum values).
    private mutating func appendEscaped(_ s: String, comma: Bool, key: UnsafeBufferPointer<UInt8>? = nil) {
        let copied = s.utf8.withContiguousStorageIfAvailable { utf8 -> Bool in
            for b in utf8 where JSONText.needsEscape(b) { return false }
            write(room: utf8.count + (key?.count ?? 0) + 7) { out, n in
                if comma { out[n] = UInt8(ascii: ","); n &+= 1 }
                if let key { Self.writeKey(key, into: out, at: &n) }
                out[n] = UInt8(ascii: "\""); n &+= 1
                Self.copy(utf8, into: out, at: &n)
                out[n] = UInt8(ascii: "\""); n &+= 1
            }
            return true
        }
        if copied == true { return }
        if comma { bytes.append(UInt8(ascii: ",")) }
        if let key {
            write(room: key.count + 3) { out, n in Self.writeKey(key, into: out, at: &n) }
        }
        let utf8 = s.utf8
        write(room: 2 + JSONText.maxEscapedByteCount * utf8.count) { out, n in
            let base = out.baseAddress!
            base[n] = UInt8(ascii: "\""); n &+= 1
            for b in utf8 { JSONText.writeEscaped(b, into: base, at: &n) }
            base[n] = UInt8(ascii: "\""); n &+= 1
        }
    }
}

extension JSONValue {
    /// Writes the value as compact JSON, as ``JSONValue/append(to:)`` does
    /// (object keys sorted), as the writer's next value.
    public func write(into w: inout JSONWriter) {
        w.value(self)
    }
}
