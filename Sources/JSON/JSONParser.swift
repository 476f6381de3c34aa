// SPDX-License-Identifier: MIT
/// Why bytes are not an acceptable JSON value.
public struct JSONParseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The broad reason, which maps to a protocol error code.
    public enum Reason: Hashable, Sendable {
        /// The bytes are not valid UTF-8 (protocol code `bad-utf8`).
        case invalidUTF8
        /// The text is not JSON, or nests deeper than allowed (protocol code `bad-json`).
        case syntax
    }

    /// The broad reason.
    public var reason: Reason
    /// Byte offset (0-based) where the problem was found.
    public var offset: Int
    /// What is wrong, in words.
    public var message: String

    /// Creates an error.
    public init(reason: Reason, offset: Int, message: String) {
        self.reason = reason
        self.offset = offset
        self.message = message
    }

    public var description: String { "\(message) (byte \(offset + 1))" }
}

/// A strict JSON parser (RFC 8259) for protocol lines and trace lines: no
/// comments, no trailing commas, no NaN, no duplicate object keys, valid
/// UTF-8 only, nesting limited to ``defaultMaxDepth`` unless told otherwise.
/// No Foundation.
public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted by default.
    public static let defaultMaxDepth = 64

    private let bytes: UnsafeRawBufferPointer
    private var i: Int
    private var depth: Int
    private let maxDepth: Int

    private init(bytes: UnsafeRawBufferPointer, maxDepth: Int) {
        self.bytes = bytes
        self.i = 0
        self.depth = 0
        self.maxDepth = maxDepth
    }

    /// Parses exactly one JSON value (surrounding whitespace allowed).
    public static func parse(_ bytes: UnsafeRawBufferPointer, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        if let bad = firstInvalidUTF8(bytes) {
            throw JSONParseError(reason: .invalidUTF8, offset: bad, message: "invalid UTF-8")
        }
        var p = JSONParser(bytes: bytes, maxDepth: maxDepth)
        p.skipSpace()
        let value = try p.value()
        p.skipSpace()
        guard p.i == bytes.count else { throw p.syntax("text after the JSON value") }
        return value
    }

    /// Parses exactly one JSON value from a byte array.
    public static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        let result: Result<JSONValue, JSONParseError> = bytes.withUnsafeBytes { raw in
            do throws(JSONParseError) { return .success(try parse(raw, maxDepth: maxDepth)) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// Parses exactly one JSON value from a string.
    public static func parse(_ text: String, maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8), maxDepth: maxDepth)
    }

    /// The offset of the first byte that starts an invalid UTF-8 sequence
    /// (overlong forms, surrogates and values past U+10FFFF are invalid), or nil.
    public static func firstInvalidUTF8(_ b: UnsafeRawBufferPointer) -> Int? {
        var i = 0
        let n = b.count
        while i < n {
            let c0 = b[i]
            if c0 < 0x80 { i += 1; continue }
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch c0 {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return i
            }
            guard i + length <= n else { return i }
            let c1 = b[i + 1]
            guard c1 >= lower, c1 <= upper else { return i }
            for k in 2..<length where b[i + k] & 0xC0 != 0x80 { return i }
            i += length
        }
        return nil
    }

    private func syntax(_ message: String) -> JSONParseError {
        JSONParseError(reason: .syntax, offset: i, message: message)
    }

    private var current: UInt8? { i < bytes.count ? bytes[i] : nil }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0A, 0x0D: i += 1
            default: return
            }
        }
    }

    private mutating func value() throws(JSONParseError) -> JSONValue {
        guard let b = current else { throw syntax("the text ends where a value should be") }
        switch b {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
        default: throw syntax("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONParseError) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw syntax("unexpected character") }
        let matches = word.withUTF8Buffer { w in
            for k in 0..<n where bytes[i + k] != w[k] { return false }
            return true
        }
        guard matches else { throw syntax("unexpected character") }
        i += n
    }

    private mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > maxDepth { throw syntax("nesting deeper than \(maxDepth) levels") }
    }

    private mutating func object() throws(JSONParseError) -> JSONValue {
        try enter()
        i += 1
        var members: [String: JSONValue] = [:]
        skipSpace()
        if current == UInt8(ascii: "}") { i += 1; depth -= 1; return .object(members) }
        while true {
            skipSpace()
            guard current == UInt8(ascii: "\"") else { throw syntax("expected a string key") }
            let keyStart = i
            let key = try string()
            skipSpace()
            guard current == UInt8(ascii: ":") else { throw syntax("expected ':' after a key") }
            i += 1
            skipSpace()
            let v = try value()
            if members.updateValue(v, forKey: key) != nil {
                throw JSONParseError(reason: .syntax, offset: keyStart, message: "duplicate key \"\(key)\"")
            }
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "}"): i += 1; depth -= 1; return .object(members)
            default: throw syntax("expected ',' or '}' in an object")
            }
        }
    }

    private mutating func array() throws(JSONParseError) -> JSONValue {
        try enter()
        i += 1
        var elements: [JSONValue] = []
        skipSpace()
        if current == UInt8(ascii: "]") { i += 1; depth -= 1; return .array(elements) }
        while true {
            skipSpace()
            elements.append(try value())
            skipSpace()
            switch current {
            case UInt8(ascii: ","): i += 1
            case UInt8(ascii: "]"): i += 1; depth -= 1; return .array(elements)
            default: throw syntax("expected ',' or ']' in an array")
            }
        }
    }

    private mutating func string() throws(JSONParseError) -> String {
        i += 1
        let start = i
        // Fast path: no escapes (UTF-8 was validated up front).
        while i < bytes.count {
            let b = bytes[i]
            if b == UInt8(ascii: "\"") {
                let s = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
                i += 1
                return s
            }
            if b == UInt8(ascii: "\\") { break }
            if b < 0x20 { throw syntax("control character in a string") }
            i += 1
        }
        var out = Array(bytes[start..<i])
        while i < bytes.count {
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                i += 1
                guard let e = current else { throw syntax("the text ends inside a string") }
                i += 1
                switch e {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"): try unicodeEscape(into: &out)
                default: i -= 1; throw syntax("invalid escape")
                }
            case 0..<0x20:
                throw syntax("control character in a string")
            default:
                out.append(b)
                i += 1
            }
        }
        throw syntax("the text ends inside a string")
    }

    private mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard i + 4 <= bytes.count else { throw syntax("invalid \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(c - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(c - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(c - UInt8(ascii: "A") + 10)
            default: throw syntax("invalid \\u escape")
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func unicodeEscape(into out: inout [UInt8]) throws(JSONParseError) {
        var scalar = try hex4()
        if scalar >= 0xD800, scalar <= 0xDBFF {
            guard i + 2 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                throw syntax("unpaired surrogate in a \\u escape")
            }
            i += 2
            let low = try hex4()
            guard low >= 0xDC00, low <= 0xDFFF else { throw syntax("unpaired surrogate in a \\u escape") }
            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
        } else if scalar >= 0xDC00, scalar <= 0xDFFF {
            throw syntax("unpaired surrogate in a \\u escape")
        }
        guard let u = Unicode.Scalar(scalar) else { throw syntax("invalid \\u escape") }
        out.append(contentsOf: UTF8.encode(u)!)
    }

    private mutating func digits() -> Int {
        let start = i
        while let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { i += 1 }
        return i - start
    }

    private mutating func number() throws(JSONParseError) -> JSONValue {
        let start = i
        let negative = current == UInt8(ascii: "-")
        if negative { i += 1 }
        guard let first = current, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "9") else {
            throw syntax("expected a digit")
        }
        // Integers are read as their digits go by: a trace holds millions of
        // them, and text for Int64(_:) to read again would cost as much as the
        // rest of the line. At most 18 digits cannot overflow; longer ones take
        // the general path.
        var magnitude: Int64 = 0
        let digitsStart = i
        if first == UInt8(ascii: "0") {
            i += 1
            if let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") { throw syntax("leading zero in a number") }
        } else {
            while let c = current, c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") {
                magnitude = magnitude &* 10 &+ Int64(c &- UInt8(ascii: "0"))
                i += 1
            }
        }
        let integerDigits = i - digitsStart
        var isInteger = true
        if current == UInt8(ascii: ".") {
            i += 1
            isInteger = false
            guard digits() > 0 else { throw syntax("expected a digit after '.'") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            i += 1
            isInteger = false
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { i += 1 }
            guard digits() > 0 else { throw syntax("expected a digit in the exponent") }
        }
        if isInteger, integerDigits <= 18 { return .int(negative ? -magnitude : magnitude) }
        let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<i]), as: UTF8.self)
        if isInteger, let v = Int64(text) { return .int(v) }
        guard let d = Double(text), d.isFinite else {
            i = start
            throw syntax("number out of range")
        }
        return .double(d)
    }
}
