// SPDX-License-Identifier: MIT
import Testing
@testable import YAMLReader

/// Decoding `Decodable` values from YAML (docs/configuration.md, "The YAML touchd reads").
@Suite struct YAMLDecoderTests {
    struct Screen: Decodable, Equatable {
        var name: String
        var width: Int
        var scale: Double?
        var primary: Bool?
        var size: [UInt16]?
    }

    struct Layout: Decodable, Equatable {
        var screens: [Screen]
        var tags: [String: String]?
        var note: String?
    }

    @Test func plainScalarsReadAsTheTypeAskedFor() throws {
        let layout = try YAMLDecoder().decode(Layout.self, from: """
            screens:
              - {name: 42, width: 0x10, scale: 1_000.5, primary: yes, size: [217, "136"]}
              - name: "main"
                width: -7
                scale: .inf
                primary: False
                size: ~
            tags: {a: 1, b: true}
            note:
            """)
        #expect(layout.screens[0] == Screen(name: "42", width: 16, scale: 1000.5, primary: true, size: [217, 136]))
        #expect(layout.screens[1] == Screen(name: "main", width: -7, scale: .infinity, primary: false, size: nil))
        #expect(layout.tags == ["a": "1", "b": "true"])
        #expect(layout.note == nil)
        #expect(try YAMLDecoder().decode([Double].self, from: "[1, -2.5e3, .nan, 0o17, 0b101]").enumerated().map {
            $0.offset == 2 ? ($0.element.isNaN ? 1 : 0) : $0.element
        } == [1, -2500, 1, 15, 5])
        #expect(try YAMLDecoder().decode(Int8.self, from: "-128") == -128)
        #expect(try YAMLDecoder().decode([String: Int].self, from: "# nothing but a comment\n") == [:])
    }

    @Test func keysComeInDocumentOrder() throws {
        struct Keys: Decodable {
            var names: [String]
            struct AnyKey: CodingKey {
                var stringValue: String
                var intValue: Int? { nil }
                init?(stringValue: String) { self.stringValue = stringValue }
                init?(intValue: Int) { nil }
            }
            init(from decoder: any Decoder) throws {
                names = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            }
        }
        #expect(try YAMLDecoder().decode(Keys.self, from: "zeta: 1\nalpha: 2\nmid: {x: 1}\n").names == ["zeta", "alpha", "mid"])
    }

    func decodingError<T: Decodable>(_ type: T.Type, _ text: String) throws -> (path: String, message: String) {
        do {
            _ = try YAMLDecoder().decode(type, from: text)
        } catch let e as DecodingError {
            let context: DecodingError.Context
            var path: [any CodingKey]
            switch e {
            case .typeMismatch(_, let c), .valueNotFound(_, let c), .dataCorrupted(let c):
                context = c
                path = c.codingPath
            case .keyNotFound(let key, let c):
                context = c
                path = c.codingPath + [key]
            @unknown default:
                throw e
            }
            let rendered = path.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (rendered, context.debugDescription)
        }
        Issue.record("decoded \(text.debugDescription)")
        return ("", "")
    }

    @Test func errorsNameTheKeyTheLineAndWhatWasFound() throws {
        let width = try decodingError(Layout.self, "screens:\n  - name: a\n    width: wide\n")
        #expect(width.path == ".screens[0].width")
        #expect(width.message == "expected an integer, found \"wide\" at line 3, column 12")
        let missing = try decodingError(Layout.self, "screens:\n  - {name: a}\n")
        #expect(missing.path == ".screens[0].width" && missing.message.contains("line 2, column 5"))
        let list = try decodingError(Layout.self, "screens: {name: a}\n")
        #expect(list.path == ".screens" && list.message == "expected a list, found a mapping at line 1, column 10")
        let range = try decodingError(Layout.self, "screens: [{name: a, width: 1, size: [70000]}]\n")
        #expect(range.path == ".screens[0].size[0]" && range.message.contains("out of range (0...65535)"))
        let bool = try decodingError(Layout.self, "screens: [{name: a, width: 1, primary: \"yes\"}]\n")
        #expect(bool.path == ".screens[0].primary" && bool.message.hasPrefix("expected true or false"))
        let number = try decodingError([Double].self, "[1, inf]\n")
        #expect(number.path == "[1]" && number.message.hasPrefix("expected a number"))
        let nested = try decodingError([String].self, "- [a]\n")
        #expect(nested.path == "[0]" && nested.message == "expected a string, found a list at line 1, column 3")
        #expect(throws: YAMLError.self) { try YAMLDecoder().decode(Layout.self, from: "screens: [\n") }
    }
}
