// SPDX-License-Identifier: MIT
/// A JSON value: a protocol line, a line of a native trace, a recognizer's
/// description.
///
/// Integers that fit are kept exact (`int`); other numbers are `double`.
/// Objects are dictionaries: the parser rejects duplicate keys, so nothing is
/// lost, and ``append(to:)`` writes keys sorted so output is deterministic.
public enum JSONValue: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    /// The member `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members[key]
    }

    /// The element at `index` of an array; nil when out of range or not an array.
    public subscript(index: Int) -> JSONValue? {
        guard case let .array(elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    /// The string, if this is a string.
    public var stringValue: String? { if case let .string(v) = self { return v } else { return nil } }
    /// The boolean, if this is a boolean.
    public var boolValue: Bool? { if case let .bool(v) = self { return v } else { return nil } }
    /// The number as a `Double`, if this is a number (integers convert).
    public var doubleValue: Double? {
        switch self {
        case let .int(v): return Double(v)
        case let .double(v): return v
        case .null, .bool, .string, .array, .object: return nil
        }
    }
    /// The number as an `Int64`, if it is an integer (a double with no fraction counts).
    public var int64Value: Int64? {
        switch self {
        case let .int(v): return v
        case let .double(v):
            guard v.rounded(.towardZero) == v, v >= -9.2e18, v <= 9.2e18 else { return nil }
            return Int64(v)
        case .null, .bool, .string, .array, .object: return nil
        }
    }
    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? { if case let .array(v) = self { return v } else { return nil } }
    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? { if case let .object(v) = self { return v } else { return nil } }
    /// Whether this is `null`.
    public var isNull: Bool { if case .null = self { return true } else { return false } }

    /// What kind of value this is, in words, for error messages ("a string").
    public var kindDescription: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// Appends the value as compact JSON: object keys sorted, so equal values
    /// write equal text; integers exact, other numbers as their shortest
    /// round-tripping text.
    public func append(to out: inout [UInt8]) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(v): out.append(contentsOf: (v ? "true" : "false").utf8)
        case let .int(v): JSONText.appendInteger(v, to: &out)
        case let .double(v): JSONText.appendDouble(v, to: &out)
        case let .string(v): JSONText.appendString(v, to: &out)
        case let .array(elements):
            out.append(UInt8(ascii: "["))
            for (i, e) in elements.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                e.append(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                JSONText.appendString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                members[key]!.append(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// The value as a compact JSON string (object keys sorted).
    public var jsonString: String {
        var out: [UInt8] = []
        out.reserveCapacity(64)
        append(to: &out)
        return String(decoding: out, as: UTF8.self)
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
