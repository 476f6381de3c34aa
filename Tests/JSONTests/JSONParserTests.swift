// SPDX-License-Identifier: MIT
import JSON
import Testing

@Suite struct JSONParserTests {
    @Test func parsesEveryKindOfValue() throws {
        let v = try JSONParser.parse(#" {"a":[1,-2.5,1e3,true,false,null],"b":{"c":"d"},"e":"","big":12345678901234567890} "#)
        #expect(v["a"] == .array([.int(1), .double(-2.5), .double(1000), .bool(true), .bool(false), .null]))
        #expect(v["b"]?["c"] == .string("d"))
        #expect(v["e"] == .string(""))
        #expect(v["big"] == .double(1.2345678901234567e19))
        #expect(v["missing"] == nil)
    }

    @Test func integersStayExact() throws {
        #expect(try JSONParser.parse("9223372036854775807") == .int(Int64.max))
        #expect(try JSONParser.parse("-9223372036854775808") == .int(Int64.min))
        #expect(try JSONParser.parse("-0") == .int(0))
    }

    /// Integers of up to 18 digits are read as they go by, longer ones as text: both sides of that edge.
    @Test func integersOnBothSidesOfTheDigitByDigitPath() throws {
        #expect(try JSONParser.parse("999999999999999999") == .int(999_999_999_999_999_999))
        #expect(try JSONParser.parse("-999999999999999999") == .int(-999_999_999_999_999_999))
        #expect(try JSONParser.parse("1000000000000000000") == .int(1_000_000_000_000_000_000))
        #expect(try JSONParser.parse("-9223372036854775807") == .int(-Int64.max))
        #expect(try JSONParser.parse("9223372036854775808") == .double(9_223_372_036_854_775_808))
        #expect(try JSONParser.parse("[0,7,-12,1.0,1e2]") == .array([.int(0), .int(7), .int(-12), .double(1), .double(100)]))
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        let v = try JSONParser.parse(#""a\"b\\c\/d\n\t\u00e9\ud83d\ude00 é""#)
        #expect(v == .string("a\"b\\c/d\n\té😀 é"))
    }

    @Test(arguments: [
        "", "{", "[1,]", "{\"a\":1,}", "01", "1.", ".5", "+1", "1e", "tru", "nul", "[1 2]", "{\"a\" 1}",
        "{a:1}", "'x'", "\"\\x\"", "\"\\ud800\"", "\"\\udc00\"", "\"\\ud800\\u0041\"", "\"\u{1}\"", "1 2", "NaN", "1e999",
    ])
    func rejectsInvalidJSON(_ text: String) {
        #expect(throws: JSONParseError.self) { try JSONParser.parse(text) }
        do {
            _ = try JSONParser.parse(text)
        } catch {
            #expect(error.reason == .syntax)
        }
    }

    @Test func rejectsDuplicateKeys() {
        do {
            _ = try JSONParser.parse(#"{"a":1,"a":2}"#)
            Issue.record("accepted a duplicate key")
        } catch {
            #expect(error.message == "duplicate key \"a\"")
            #expect(error.offset == 7)
        }
    }

    @Test(arguments: [
        [0x22, 0xC0, 0x80, 0x22],              // overlong NUL
        [0x22, 0xED, 0xA0, 0x80, 0x22],        // UTF-16 surrogate
        [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22],  // past U+10FFFF
        [0x22, 0xE2, 0x82, 0x22],              // truncated sequence
        [0x22, 0xFF, 0x22],                    // never valid
        [0x22, 0x80, 0x22],                    // lone continuation
    ] as [[UInt8]])
    func rejectsInvalidUTF8(_ bytes: [UInt8]) {
        do {
            _ = try JSONParser.parse(bytes)
            Issue.record("accepted invalid UTF-8")
        } catch {
            #expect(error.reason == .invalidUTF8)
            #expect(error.offset == 1)
        }
    }

    @Test func acceptsValidMultibyteUTF8() throws {
        #expect(try JSONParser.parse(Array("\"ü€😀\u{10FFFF}\"".utf8)) == .string("ü€😀\u{10FFFF}"))
    }

    @Test func limitsNesting() throws {
        let ok = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try JSONParser.parse(ok) }
        let deep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        do {
            _ = try JSONParser.parse(deep)
            Issue.record("accepted 65 levels")
        } catch {
            #expect(error.message == "nesting deeper than 64 levels")
        }
        // A hostile line of a million brackets fails fast instead of overflowing the stack.
        #expect(throws: JSONParseError.self) { try JSONParser.parse(String(repeating: "{\"a\":", count: 1_000_000)) }
    }

    @Test func writesBackCompactWithSortedKeys() throws {
        let v = try JSONParser.parse(#"{"b":[1,2.5,"x\n"],"a":{"z":null,"y":true}}"#)
        #expect(v.jsonString == #"{"a":{"y":true,"z":null},"b":[1,2.5,"x\n"]}"#)
        #expect(try JSONParser.parse(v.jsonString) == v)
    }

    @Test func accessorsConvert() {
        let v: JSONValue = ["n": 3, "d": 2.0, "f": 2.5, "s": "x", "b": true, "a": [1]]
        #expect(v["n"]?.doubleValue == 3)
        #expect(v["d"]?.int64Value == 2)
        #expect(v["f"]?.int64Value == nil)
        #expect(v["s"]?.stringValue == "x")
        #expect(v["b"]?.boolValue == true)
        #expect(v["a"]?[0] == .int(1))
        #expect(v["a"]?[1] == nil)
        #expect(v["s"]?.kindDescription == "a string")
    }
}
