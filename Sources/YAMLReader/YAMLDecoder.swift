// SPDX-License-Identifier: MIT
/// Decodes `Decodable` values from YAML (docs/configuration.md, "The YAML touchd
/// reads").
///
/// A plain scalar is read as the type asked for: `~`, `null` or nothing is
/// null; `true`/`false` (and YAML 1.1's `yes`/`no`/`on`/`off`) a boolean;
/// decimal, `0x`, `0o` and `0b` integers (with `_` between digits); decimal
/// and exponent numbers and `.inf`, `-.inf`, `.nan`. Any scalar, quoted or
/// not, decodes as a string; a quoted scalar also decodes as a number when
/// its text is one. A document with no node decodes as an empty mapping.
///
/// Errors are `DecodingError`s whose coding path names the key and whose
/// description gives the line and column; text that is not YAML throws
/// ``YAMLError``.
package struct YAMLDecoder: Sendable {
    /// A decoder.
    package init() {}

    /// Parses `text` and decodes its document as `T`.
    package func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        let node = try YAMLParser.parse(text) ?? YAMLNode(.mapping([]), line: 1, column: 1)
        return try decode(type, from: node)
    }

    /// Decodes a parsed node as `T`.
    package func decode<T: Decodable>(_ type: T.Type, from node: YAMLNode) throws -> T {
        try T(from: NodeDecoder(node: node, codingPath: [], ledger: nil))
    }

    /// Decodes a parsed node as `T` and returns, with the value, every key of
    /// a mapping that nothing in `T` knows (``YAMLUnreadKey``): a key is known
    /// when a type asked for it, present or not, or when it is a case of a
    /// `CaseIterable` coding-key type a container of that mapping was opened
    /// with. Decoders see ``Swift/CodingUserInfoKey/unknownKeysReportedByDecoder``
    /// in `userInfo`.
    ///
    /// A `T` whose decoding throws gives no keys; ``decodeStrictly(_:from:)``
    /// with ``YAMLSection`` values inside keeps going past errors.
    package func decodeStrictly<T: Decodable>(_ type: T.Type, from node: YAMLNode) throws -> (value: T, unread: [YAMLUnreadKey]) {
        let ledger = YAMLKeyLedger()
        let value = try T(from: NodeDecoder(node: node, codingPath: [], ledger: ledger))
        return (value, ledger.unread)
    }

    /// The keys `T` knows in each mapping of a document (as in
    /// ``decodeStrictly(_:from:)``), by the mapping's path with list indices
    /// left out (`devices[].match`; the root is `""`): with a document that
    /// has an item of every kind in every list, the keys a file may have.
    package func knownKeys<T: Decodable>(_ type: T.Type, from node: YAMLNode) throws -> [String: Set<String>] {
        let ledger = YAMLKeyLedger()
        _ = try T(from: NodeDecoder(node: node, codingPath: [], ledger: ledger))
        return ledger.knownKeys
    }
}

/// A value decoded, or the error that decoding it threw: inside a
/// ``YAMLDecoder/decodeStrictly(_:from:)``, sections of a file made of these
/// are decoded (and their unread keys found) even when another fails, so that
/// one pass reports every error.
package struct YAMLSection<T: Decodable>: Decodable {
    /// The value or the error.
    package var result: Result<T, any Error>

    /// Decodes `T`, keeping the error instead of throwing it.
    package init(from decoder: any Decoder) {
        do {
            result = .success(try T(from: decoder))
        } catch {
            result = .failure(error)
        }
    }
}

/// A key of a list item (its index) or of a mapping (its text).
struct IndexKey: CodingKey {
    var stringValue: String { "Index \(index)" }
    var intValue: Int? { index }
    let index: Int
    init(_ index: Int) { self.index = index }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { index = intValue }
}

private struct NodeDecoder: Decoder {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let ledger: YAMLKeyLedger?
    var userInfo: [CodingUserInfoKey: Any] { ledger == nil ? [:] : [.unknownKeysReportedByDecoder: true] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard let pairs = node.mapping else {
            throw DecodingError.typeMismatch([String: Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "expected a mapping, found \(node.kindDescription) at \(node.position)"))
        }
        ledger?.opened(node, path: codingPath, keys: Key.self)
        return KeyedDecodingContainer(KeyedContainer<Key>(node: node, pairs: pairs, codingPath: codingPath, ledger: ledger))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard let items = node.sequence else {
            throw DecodingError.typeMismatch([Any].self, DecodingError.Context(
                codingPath: codingPath, debugDescription: "expected a list, found \(node.kindDescription) at \(node.position)"))
        }
        return UnkeyedContainer(items: items, codingPath: codingPath, ledger: ledger)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleValueContainer(node: node, codingPath: codingPath, ledger: ledger)
    }
}

// MARK: scalars

private func mismatch(_ type: Any.Type, _ node: YAMLNode, _ path: [any CodingKey], _ expected: String) -> DecodingError {
    DecodingError.typeMismatch(type, DecodingError.Context(
        codingPath: path, debugDescription: "expected \(expected), found \(node.kindDescription) at \(node.position)"))
}

private func decodeString(_ node: YAMLNode, _ path: [any CodingKey]) throws -> String {
    guard let s = node.scalar else { throw mismatch(String.self, node, path, "a string") }
    return s
}

private func decodeBool(_ node: YAMLNode, _ path: [any CodingKey]) throws -> Bool {
    if case .scalar(let s, .plain) = node.content {
        switch s {
        case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON": return true
        case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF": return false
        default: break
        }
    }
    throw mismatch(Bool.self, node, path, "true or false")
}

/// Digits with `_` between them, an optional sign, and `0x`/`0o`/`0b` prefixes.
func parseInteger<T: FixedWidthInteger>(_ text: String, as type: T.Type) -> T? {
    var s = Substring(text)
    var negative = false
    if s.first == "-" || s.first == "+" {
        negative = s.first == "-"
        s = s.dropFirst()
    }
    var radix = 10
    if s.count > 2, s.first == "0", let p = s.dropFirst().first, "xXoObB".contains(p) {
        radix = p == "x" || p == "X" ? 16 : p == "o" || p == "O" ? 8 : 2
        s = s.dropFirst(2)
    }
    guard let first = s.first, first != "_", s.last != "_" else { return nil }
    let digits = s.contains("_") ? String(s.filter { $0 != "_" }) : String(s)
    guard let magnitude = T.Magnitude(digits, radix: radix) else { return nil }
    if negative {
        guard T.isSigned else { return magnitude == 0 ? 0 : nil }
        if magnitude == T.Magnitude(T.max) + 1 { return T.min }
        guard magnitude <= T.Magnitude(T.max) else { return nil }
        return 0 - T(magnitude)
    }
    guard magnitude <= T.Magnitude(T.max) else { return nil }
    return T(magnitude)
}

/// Decimal and exponent numbers, `.inf`, `-.inf`, `.nan` (YAML's spellings).
func parseFloatingPoint(_ text: String) -> Double? {
    switch text {
    case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
    case "-.inf", "-.Inf", "-.INF": return -.infinity
    case ".nan", ".NaN", ".NAN": return .nan
    default: break
    }
    guard let first = text.unicodeScalars.first,
          first == "-" || first == "+" || first == "." || ("0"..."9").contains(first) else { return nil }
    // Swift's parser also takes "inf", "nan" and hexadecimal floats; YAML does not.
    guard !text.contains(where: { $0.isLetter && $0 != "e" && $0 != "E" }) else { return nil }
    let digits = text.contains("_") ? text.filter { $0 != "_" } : text
    return Double(digits)
}

private func decodeInteger<T: FixedWidthInteger>(_ type: T.Type, _ node: YAMLNode, _ path: [any CodingKey]) throws -> T {
    guard let s = node.scalar, !node.isNull else { throw mismatch(T.self, node, path, "an integer") }
    guard let v = parseInteger(s, as: T.self) else {
        if parseInteger(s, as: Int64.self) != nil || parseInteger(s, as: UInt64.self) != nil {
            throw DecodingError.dataCorrupted(DecodingError.Context(
                codingPath: path, debugDescription: "\(s) at \(node.position) is out of range (\(T.min)...\(T.max))"))
        }
        throw mismatch(T.self, node, path, "an integer")
    }
    return v
}

private func decodeDouble(_ node: YAMLNode, _ path: [any CodingKey]) throws -> Double {
    guard let s = node.scalar, !node.isNull else { throw mismatch(Double.self, node, path, "a number") }
    if let v = parseFloatingPoint(s) { return v }
    if let i = parseInteger(s, as: Int64.self) { return Double(i) }
    throw mismatch(Double.self, node, path, "a number")
}

// MARK: containers

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let node: YAMLNode
    let pairs: [YAMLPair]
    let codingPath: [any CodingKey]
    let ledger: YAMLKeyLedger?

    var allKeys: [Key] { pairs.compactMap { $0.key.scalar.flatMap(Key.init(stringValue:)) } }

    func contains(_ key: Key) -> Bool { value(key) != nil }

    func value(_ key: Key) -> YAMLNode? {
        ledger?.asked(node, key: key.stringValue)
        for pair in pairs where pair.key.scalar == key.stringValue { return pair.value }
        return nil
    }

    func require(_ key: Key) throws -> YAMLNode {
        guard let v = value(key) else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(
                codingPath: codingPath, debugDescription: "no key \"\(key.stringValue)\" in the mapping at \(node.position)"))
        }
        return v
    }

    func decodeNil(forKey key: Key) throws -> Bool { try require(key).isNull }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeBool(require(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeString(require(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeDouble(require(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try decodeDouble(require(key), codingPath + [key])) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeInteger(type, require(key), codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeInteger(type, require(key), codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: NodeDecoder(node: require(key), codingPath: codingPath + [key], ledger: ledger))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try NodeDecoder(node: require(key), codingPath: codingPath + [key], ledger: ledger).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try NodeDecoder(node: require(key), codingPath: codingPath + [key], ledger: ledger).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        let superValue = pairs.first(where: { $0.key.scalar == "super" })?.value
        return NodeDecoder(node: superValue ?? YAMLNode(.scalar("", .plain), line: node.line, column: node.column), codingPath: codingPath, ledger: ledger)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        NodeDecoder(node: value(key) ?? YAMLNode(.scalar("", .plain), line: node.line, column: node.column), codingPath: codingPath + [key], ledger: ledger)
    }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let items: [YAMLNode]
    let codingPath: [any CodingKey]
    let ledger: YAMLKeyLedger?
    var currentIndex = 0

    init(items: [YAMLNode], codingPath: [any CodingKey], ledger: YAMLKeyLedger?) {
        self.items = items
        self.codingPath = codingPath
        self.ledger = ledger
    }

    var count: Int? { items.count }
    var isAtEnd: Bool { currentIndex >= items.count }

    mutating func next<T>(_ type: T.Type) throws -> (YAMLNode, [any CodingKey]) {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, DecodingError.Context(
                codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the list has only \(items.count) items"))
        }
        defer { currentIndex += 1 }
        return (items[currentIndex], codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        if items[currentIndex].isNull {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let (n, p) = try next(type); return try decodeBool(n, p) }
    mutating func decode(_ type: String.Type) throws -> String { let (n, p) = try next(type); return try decodeString(n, p) }
    mutating func decode(_ type: Double.Type) throws -> Double { let (n, p) = try next(type); return try decodeDouble(n, p) }
    mutating func decode(_ type: Float.Type) throws -> Float { let (n, p) = try next(type); return Float(try decodeDouble(n, p)) }
    mutating func decode(_ type: Int.Type) throws -> Int { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let (n, p) = try next(type); return try decodeInteger(type, n, p) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let (n, p) = try next(type)
        return try T(from: NodeDecoder(node: n, codingPath: p, ledger: ledger))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let (n, p) = try next(KeyedDecodingContainer<NestedKey>.self)
        return try NodeDecoder(node: n, codingPath: p, ledger: ledger).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let (n, p) = try next((any UnkeyedDecodingContainer).self)
        return try NodeDecoder(node: n, codingPath: p, ledger: ledger).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let (n, p) = try next((any Decoder).self)
        return NodeDecoder(node: n, codingPath: p, ledger: ledger)
    }
}

private struct SingleValueContainer: SingleValueDecodingContainer {
    let node: YAMLNode
    let codingPath: [any CodingKey]
    let ledger: YAMLKeyLedger?

    func decodeNil() -> Bool { node.isNull }
    func decode(_ type: Bool.Type) throws -> Bool { try decodeBool(node, codingPath) }
    func decode(_ type: String.Type) throws -> String { try decodeString(node, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try decodeDouble(node, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try decodeDouble(node, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try decodeInteger(type, node, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeInteger(type, node, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeInteger(type, node, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeInteger(type, node, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeInteger(type, node, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeInteger(type, node, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeInteger(type, node, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeInteger(type, node, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeInteger(type, node, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeInteger(type, node, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: NodeDecoder(node: node, codingPath: codingPath, ledger: ledger))
    }
}
