/// A JSON value, as the native trace's lines hold them. Small and dedicated:
/// integers stay exact (`Int64`), objects keep their key order.
enum JSONValue: Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.integer(x), .integer(y)): return x == y
        case let (.double(x), .double(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.null, _), (.bool, _), (.integer, _), (.double, _), (.string, _), (.array, _), (.object, _): return false
        }
    }

    /// The value of `key` in an object (first match), nil otherwise.
    subscript(key: String) -> JSONValue? {
        guard case let .object(pairs) = self else { return nil }
        for (k, v) in pairs where k == key { return v }
        return nil
    }

    var integer: Int64? { if case let .integer(v) = self { return v } else { return nil } }
    var string: String? { if case let .string(v) = self { return v } else { return nil } }
    var array: [JSONValue]? { if case let .array(v) = self { return v } else { return nil } }
    var object: [(String, JSONValue)]? { if case let .object(v) = self { return v } else { return nil } }
}

/// Parses one JSON value spanning a whole line.
struct JSONParser {
    private var c: LineCursor
    private var depth = 0

    /// Why a line is not JSON (the message names the byte column, 1-based).
    struct Failure: Error {
        var message: String
    }

    static func parse(_ cursor: LineCursor) throws(Failure) -> JSONValue {
        var p = JSONParser(c: cursor)
        p.c.skipSpace()
        let value = try p.value()
        p.c.skipSpace()
        guard p.c.isAtEnd else { throw p.failure("text after the JSON value") }
        return value
    }

    private let lineStart: Int

    private init(c: LineCursor) {
        self.c = c
        self.lineStart = c.position
    }

    private func failure(_ message: String) -> Failure {
        Failure(message: "not valid JSON at column \(c.position - lineStart + 1): \(message)")
    }


    private mutating func value() throws(Failure) -> JSONValue {
        c.skipSpace()
        guard let b = c.current else { throw failure("line ends where a value should be") }
        switch b {
        case 0x7B: return try object()
        case 0x5B: return try array()
        case 0x22: return .string(try string())
        case 0x74: try literal("true"); return .bool(true)
        case 0x66: try literal("false"); return .bool(false)
        case 0x6E: try literal("null"); return .null
        case 0x2D, 0x30...0x39: return try number()
        default: throw failure("unexpected character")
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        for b in bytes where !c.consume(b) { throw failure("expected \(word)") }
    }

    private mutating func object() throws(Failure) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw failure("nested too deep") }
        _ = c.consume(0x7B)
        var pairs: [(String, JSONValue)] = []
        c.skipSpace()
        if c.consume(0x7D) { return .object(pairs) }
        while true {
            c.skipSpace()
            guard c.current == 0x22 else { throw failure("expected a \"key\"") }
            let key = try string()
            c.skipSpace()
            guard c.consume(0x3A) else { throw failure("expected ':'") }
            pairs.append((key, try value()))
            c.skipSpace()
            if c.consume(0x2C) { continue }
            if c.consume(0x7D) { return .object(pairs) }
            throw failure("expected ',' or '}'")
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        depth += 1
        defer { depth -= 1 }
        guard depth < 64 else { throw failure("nested too deep") }
        _ = c.consume(0x5B)
        var items: [JSONValue] = []
        c.skipSpace()
        if c.consume(0x5D) { return .array(items) }
        while true {
            items.append(try value())
            c.skipSpace()
            if c.consume(0x2C) { continue }
            if c.consume(0x5D) { return .array(items) }
            throw failure("expected ',' or ']'")
        }
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = c.position
        let negative = c.consume(0x2D)
        guard let magnitude = c.unsignedDecimal(maxDigits: 18) else { throw failure("bad number") }
        if let b = c.current, b == 0x2E || b == 0x65 || b == 0x45 {
            while let b = c.current, (0x30...0x39).contains(b) || b == 0x2E || b == 0x65 || b == 0x45 || b == 0x2B || b == 0x2D {
                c.position += 1
            }
            let text = String(decoding: UnsafeBufferPointer(rebasing: c.bytes[start..<c.position]), as: UTF8.self)
            guard let d = Double(text) else { throw failure("bad number") }
            return .double(d)
        }
        return .integer(negative ? -Int64(magnitude) : Int64(magnitude))
    }

    private mutating func string() throws(Failure) -> String {
        _ = c.consume(0x22)
        var bytes: [UInt8] = []
        while let b = c.current {
            c.position += 1
            switch b {
            case 0x22:
                return String(decoding: bytes, as: UTF8.self)
            case 0x5C:
                guard let e = c.current else { throw failure("unfinished escape") }
                c.position += 1
                switch e {
                case 0x22, 0x5C, 0x2F: bytes.append(e)
                case 0x62: bytes.append(0x08)
                case 0x66: bytes.append(0x0C)
                case 0x6E: bytes.append(0x0A)
                case 0x72: bytes.append(0x0D)
                case 0x74: bytes.append(0x09)
                case 0x75:
                    var scalar = try hex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard c.consume(0x5C), c.consume(0x75) else { throw failure("lone surrogate") }
                        let low = try hex4()
                        guard (0xDC00..<0xE000).contains(low) else { throw failure("bad surrogate pair") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw failure("bad \\u escape") }
                    bytes.append(contentsOf: Array(String(Character(u)).utf8))
                default: throw failure("bad escape")
                }
            case 0x00..<0x20:
                throw failure("control character in a string")
            default:
                bytes.append(b)
            }
        }
        throw failure("unterminated string")
    }

    /// The four hex digits of a `\u` escape: exactly four, even when a hex digit follows (`"\u0000B"` is NUL, B).
    private mutating func hex4() throws(Failure) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = c.current else { throw failure("bad \\u escape") }
            let d: UInt8
            switch b {
            case 0x30...0x39: d = b &- 0x30
            case 0x61...0x66: d = b &- 0x61 &+ 10
            case 0x41...0x46: d = b &- 0x41 &+ 10
            default: throw failure("bad \\u escape")
            }
            value = value << 4 | UInt32(d)
            c.position += 1
        }
        return value
    }
}

/// Appends `s` to `out` as a JSON string literal.
func appendJSONString(_ s: String, to out: inout String) {
    out.append("\"")
    for u in s.unicodeScalars {
        switch u {
        case "\"": out.append("\\\"")
        case "\\": out.append("\\\\")
        case "\n": out.append("\\n")
        case "\r": out.append("\\r")
        case "\t": out.append("\\t")
        default:
            if u.value < 0x20 {
                out.append("\\u" + hexDigits(UInt64(u.value), width: 4))
            } else {
                out.unicodeScalars.append(u)
            }
        }
    }
    out.append("\"")
}
