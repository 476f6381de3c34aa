/// A JSON value as protocol v1 carries it.
///
/// Integers that fit are kept exact (`int`); other numbers are `double`.
/// Objects are dictionaries: the parser rejects duplicate keys, so nothing is
/// lost, and ``write(into:)`` writes keys sorted so output is deterministic.
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

    /// Writes the value as compact JSON (object keys sorted).
    public func write(into w: inout JSONWriter) {
        switch self {
        case .null: w.null()
        case let .bool(v): w.bool(v)
        case let .int(v): w.int(v)
        case let .double(v):
            // Shortest round-tripping form; Swift never prints NaN/inf for parsed input.
            if v.isFinite { w.raw(v.description) } else { w.null() }
        case let .string(v): w.string(v)
        case let .array(elements):
            w.beginArray()
            for e in elements { e.write(into: &w) }
            w.endArray()
        case let .object(members):
            w.beginObject()
            for key in members.keys.sorted() {
                w.key(dynamic: key)
                members[key]!.write(into: &w)
            }
            w.endObject()
        }
    }

    /// The value as a compact JSON string (object keys sorted).
    public var jsonString: String {
        var w = JSONWriter(capacity: 64)
        write(into: &w)
        return w.string
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
