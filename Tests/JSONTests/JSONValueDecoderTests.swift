// SPDX-License-Identifier: MIT
import JSON
import Testing

@Suite struct JSONValueDecoderTests {
    struct Point: Decodable, Equatable {
        var x: Double
        var y: Double
    }

    struct Shape: Decodable, Equatable {
        var name: String
        var corners: Int
        var closed: Bool
        var scale: Float?
        var points: [Point]
        var tags: Set<String>
        var origin: Point?
        var depth: UInt8?
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONValueDecoder().decode(type, from: try JSONParser.parse(text))
    }

    /// The failure's coding path as `a.b[2].c`.
    static func path(_ context: DecodingError.Context) -> String {
        var s = ""
        for key in context.codingPath {
            if let i = key.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + key.stringValue }
        }
        return s
    }

    @Test func decodesNestedValuesWithOptionalsAbsentOrNull() throws {
        let shape = try Self.decode(Shape.self, #"""
            {"name":"tri","corners":3.0,"closed":true,"scale":null,"points":[{"x":0,"y":1.5},{"x":-2,"y":3}],
             "tags":["a","b"],"extra":[1,2]}
            """#)
        #expect(shape == Shape(name: "tri", corners: 3, closed: true, scale: nil,
                               points: [Point(x: 0, y: 1.5), Point(x: -2, y: 3)], tags: ["a", "b"], origin: nil, depth: nil))
        #expect(try Self.decode([Int?].self, "[1,null,3]") == [1, nil, 3])
        #expect(try Self.decode(String.self, #""top""#) == "top")
    }

    @Test func aMissingKeyIsKeyNotFoundAtItsContainer() {
        #expect {
            _ = try Self.decode(Shape.self, #"{"name":"t","corners":3,"closed":true,"points":[{"x":0}],"tags":[]}"#)
        } throws: { error in
            guard case let .keyNotFound(key, context)? = error as? DecodingError else { return false }
            return key.stringValue == "y" && Self.path(context) == "points[0]"
        }
    }

    @Test(arguments: [
        (#"{"name":1,"corners":3,"closed":true,"points":[],"tags":[]}"#, "name", "String"),
        (#"{"name":"t","corners":2.5,"closed":true,"points":[],"tags":[]}"#, "corners", "Int"),
        (#"{"name":"t","corners":3,"closed":1,"points":[],"tags":[]}"#, "closed", "Bool"),
        (#"{"name":"t","corners":3,"closed":true,"points":{},"tags":[]}"#, "points", "Array<Any>"),
        (#"{"name":"t","corners":3,"closed":true,"points":[5],"tags":[]}"#, "points[0]", "Dictionary<String, Any>"),
        (#"{"name":"t","corners":3,"closed":true,"points":[],"tags":["a",2]}"#, "tags[1]", "String"),
        (#"{"name":"t","corners":3,"closed":true,"points":[],"tags":[],"depth":256}"#, "depth", "UInt8"),
        (#"{"name":"t","corners":3,"closed":true,"points":[],"tags":[],"depth":-1}"#, "depth", "UInt8"),
    ])
    func aValueOfTheWrongKindIsATypeMismatchAtItsPath(_ text: String, _ path: String, _ type: String) {
        #expect {
            _ = try Self.decode(Shape.self, text)
        } throws: { error in
            guard case let .typeMismatch(t, context)? = error as? DecodingError else { return false }
            return "\(t)" == type && Self.path(context) == path
        }
    }

    @Test func nullWhereAValueIsRequiredIsValueNotFound() {
        #expect {
            _ = try Self.decode(Shape.self, #"{"name":null,"corners":3,"closed":true,"points":[],"tags":[]}"#)
        } throws: { error in
            guard case let .valueNotFound(_, context)? = error as? DecodingError else { return false }
            return Self.path(context) == "name"
        }
    }

    /// What a type's own `init(from:)` sees: every key of the object, for
    /// rejecting unknown ones, and its own errors passed through.
    @Test func typesSeeAllKeysAndThrowTheirOwnErrors() throws {
        struct Strict: Decodable {
            struct AnyKey: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            var keys: [String]
            init(from decoder: any Decoder) throws {
                let c = try decoder.container(keyedBy: AnyKey.self)
                keys = c.allKeys.map(\.stringValue).sorted()
                if keys.contains("bad") {
                    throw DecodingError.dataCorruptedError(forKey: AnyKey(stringValue: "bad"), in: c, debugDescription: "bad is bad")
                }
            }
        }
        #expect(try Self.decode(Strict.self, #"{"b":1,"a":null}"#).keys == ["a", "b"])
        #expect {
            _ = try Self.decode([Strict].self, #"[{},{"bad":0}]"#)
        } throws: { error in
            guard case let .dataCorrupted(context)? = error as? DecodingError else { return false }
            return Self.path(context) == "[1].bad" && context.debugDescription == "bad is bad"
        }
    }
}
