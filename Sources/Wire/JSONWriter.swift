/// Writes compact JSON into a reusable byte buffer, without Foundation and
/// without allocating per value once the buffer has grown.
///
/// The caller is responsible for structure (it writes keys and values in
/// order); the writer takes care of commas, escaping and number formatting.
public struct JSONWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8]
    // One flag per open container: does it need a comma before the next element?
    private var needsComma: [Bool]

    /// Creates an empty writer with some capacity reserved.
    public init(capacity: Int = 512) {
        bytes = []
        bytes.reserveCapacity(capacity)
        needsComma = []
        needsComma.reserveCapacity(8)
    }

    /// Forgets what was written, keeping the capacity.
    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma.removeAll(keepingCapacity: true)
    }

    /// The bytes as a String.
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    private mutating func separate() {
        if let last = needsComma.last {
            if last { bytes.append(UInt8(ascii: ",")) }
            needsComma[needsComma.count - 1] = true
        }
    }

    /// Opens an object as the next value.
    public mutating func beginObject() {
        beginValue()
        bytes.append(UInt8(ascii: "{"))
        needsComma.append(false)
    }

    /// Closes the innermost object.
    public mutating func endObject() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "}"))
    }

    /// Opens an array as the next value.
    public mutating func beginArray() {
        beginValue()
        bytes.append(UInt8(ascii: "["))
        needsComma.append(false)
    }

    /// Closes the innermost array.
    public mutating func endArray() {
        needsComma.removeLast()
        bytes.append(UInt8(ascii: "]"))
    }

    /// Writes an object key; the next call writes its value.
    public mutating func key(_ name: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        name.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
        // The value that follows must not be preceded by a comma.
        needsComma[needsComma.count - 1] = false
        pendingValueAfterKey = true
    }

    /// Writes an object key given at run time (escaped).
    public mutating func key(dynamic name: String) {
        separate()
        appendEscaped(name)
        bytes.append(UInt8(ascii: ":"))
        needsComma[needsComma.count - 1] = false
        pendingValueAfterKey = true
    }

    private var pendingValueAfterKey = false

    private mutating func beginValue() {
        if pendingValueAfterKey {
            pendingValueAfterKey = false
            if !needsComma.isEmpty { needsComma[needsComma.count - 1] = true }
        } else {
            separate()
        }
    }

    /// Writes a string value.
    public mutating func string(_ value: String) {
        beginValue()
        appendEscaped(value)
    }

    /// Writes an integer value.
    public mutating func int<T: BinaryInteger>(_ value: T) {
        beginValue()
        appendInteger(Int64(value))
    }

    /// Writes a boolean value.
    public mutating func bool(_ value: Bool) {
        beginValue()
        if value { appendASCII("true") } else { appendASCII("false") }
    }

    /// Writes `null`.
    public mutating func null() {
        beginValue()
        appendASCII("null")
    }

    /// Writes a number with at most `decimals` fraction digits, trailing zeros
    /// trimmed. Non-finite values are written as `null` (JSON has no NaN).
    public mutating func number(_ value: Double, decimals: Int) {
        beginValue()
        appendFixed(value, decimals: decimals)
    }

    /// Writes `{"x":X,"y":Y}` with the given precision.
    public mutating func point(x: Double, y: Double, decimals: Int) {
        beginObject()
        key("x"); number(x, decimals: decimals)
        key("y"); number(y, decimals: decimals)
        endObject()
    }

    /// Appends raw, already valid JSON as the next value.
    public mutating func raw(_ json: String) {
        beginValue()
        bytes.append(contentsOf: json.utf8)
    }

    /// Appends a newline (between JSON lines).
    public mutating func newline() { bytes.append(UInt8(ascii: "\n")) }

    private mutating func appendASCII(_ s: StaticString) {
        s.withUTF8Buffer { bytes.append(contentsOf: $0) }
    }

    private mutating func appendInteger(_ value: Int64) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendUnsigned(value.magnitude, minDigits: 1)
    }

    private mutating func appendUnsigned(_ value: UInt64, minDigits: Int) {
        var n = value
        var count = 0
        repeat { count += 1; n /= 10 } while n > 0
        count = Swift.max(count, minDigits)
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: count))
        var i = start + count - 1
        n = value
        while n > 0 {
            bytes[i] = UInt8(ascii: "0") + UInt8(n % 10)
            n /= 10
            i -= 1
        }
    }

    private mutating func appendFixed(_ value: Double, decimals: Int) {
        guard value.isFinite else { appendASCII("null"); return }
        var scale: Double = 1
        for _ in 0..<decimals { scale *= 10 }
        let scaled = (value * scale).rounded()
        guard scaled.magnitude < 9.0e18 else {
            bytes.append(contentsOf: value.description.utf8)
            return
        }
        var units = Int64(scaled)
        if units < 0 { bytes.append(UInt8(ascii: "-")); units = -units }
        let magnitude = UInt64(units)
        var divisor: UInt64 = 1
        for _ in 0..<decimals { divisor *= 10 }
        appendUnsigned(magnitude / divisor, minDigits: 1)
        var fraction = magnitude % divisor
        guard fraction != 0 else { return }
        var digits = decimals
        while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
        bytes.append(UInt8(ascii: "."))
        appendUnsigned(fraction, minDigits: digits)
    }

    private static func hexDigit(_ v: UInt8) -> UInt8 {
        v < 10 ? UInt8(ascii: "0") + v : UInt8(ascii: "a") + v - 10
    }

    private mutating func appendEscaped(_ s: String) {
        bytes.append(UInt8(ascii: "\""))
        for b in s.utf8 {
            switch b {
            case UInt8(ascii: "\""): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case UInt8(ascii: "\\"): bytes.append(UInt8(ascii: "\\")); bytes.append(b)
            case 0x0A: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "n"))
            case 0x0D: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "r"))
            case 0x09: bytes.append(UInt8(ascii: "\\")); bytes.append(UInt8(ascii: "t"))
            case 0..<0x20:
                bytes.append(UInt8(ascii: "\\"))
                bytes.append(UInt8(ascii: "u"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(UInt8(ascii: "0"))
                bytes.append(JSONWriter.hexDigit(b >> 4))
                bytes.append(JSONWriter.hexDigit(b & 15))
            default: bytes.append(b)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
