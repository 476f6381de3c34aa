// SPDX-License-Identifier: MIT
import Testing
import YAMLReader

/// Keys no decoded type reads, and near misses of known keys.
@Suite struct YAMLKeyLedgerTests {
    struct Rule: Decodable {
        var grab: Bool?
        var passThrough: Bool?
        var tags: [String: String]?
    }

    @Test func unreadKeysAreFoundWithTheirLineAndPath() throws {
        let node = try #require(try YAMLParser.parse("- grab: true\n  passthrough: true\n  tags: {a: b}\n- {grabb: false}\n"))
        let (rules, unread) = try YAMLDecoder().decodeStrictly([Rule].self, from: node)
        #expect(rules.count == 2)
        #expect(unread.map(\.path) == ["[0].passthrough", "[1].grabb"])
        #expect(unread.map(\.line) == [2, 4])
        #expect(unread.map(\.suggestion) == ["passThrough", "grab"])
        #expect(unread[0].known == ["grab", "passThrough", "tags"])
    }

    @Test func aPlainDecodeStillIgnoresUnknownKeys() throws {
        let rule = try YAMLDecoder().decode(Rule.self, from: "grab: true\ncolour: red\n")
        #expect(rule.grab == true)
    }

    @Test(arguments: [
        ("passthrough", "passThrough"), ("screnn", "screen"), ("rotaton", "rotation"), ("maxTouch", "maxTouches"),
        ("gab", "grab"), ("colour", nil), ("x", nil),
    ] as [(String, String?)])
    func suggestions(_ key: String, _ expected: String?) {
        let known = ["passThrough", "screen", "rotation", "maxTouches", "minTouches", "grab", "ignore", "match"]
        #expect(YAMLKeySpelling.suggestion(for: key, among: known) == expected)
    }
}
