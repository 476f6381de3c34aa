// SPDX-License-Identifier: MIT
import Foundation
import Gestures
import Testing
import Session

/// docs/configuration.md and touchd.yaml(5) list the keys the decoders read:
/// a key documented but not read, or read but not documented, fails here.
@Suite struct ConfigurationKeysTests {
    /// A file with an item of every kind in every list, so that the decoders ask for every key they know.
    static var sample: String {
        let kinds = RecognizerKind.allCases.map(\.rawValue)
        func recognizers(_ kinds: [String]) -> String {
            kinds.map { "  - {name: r-\($0), kind: \($0)}\n" }.joined()
        }
        let shortcutKinds = ShortcutConfiguration.kinds.map(\.rawValue)
        return """
            screens:
              - {name: a, width: 10, height: 10, sizeMM: {width: 1, height: 1}, insets: {top: 1}}
            devices:
              - {match: {name: x, udev: {A: b}}, sizeMM: {width: 1, height: 1}}
            surfaces:
              - id: s
                frame: {width: 10, height: 10}
                recognizers:
            \(recognizers(kinds).split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            recognizers:
            \(recognizers(kinds))systemRecognizers:
            \(recognizers(kinds))systemGestures:
              - {screen: 0}
            shortcuts:
            \(recognizers(shortcutKinds))socket: {path: /x}
            access: {connect: {users: [root]}, seeAllTouches: {}, claimTouches: {}, changeScreens: {}}
            scheduling: {}
            appRules:
              - {match: {appId: x}}
            replaceDefaults: false
            """
    }

    static func documented(_ file: String, from start: String, to end: String) throws -> [String] {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../\(file)")
        let text = try String(contentsOf: url, encoding: .utf8)
        guard let a = text.range(of: start), let b = text.range(of: end, range: a.upperBound..<text.endIndex) else {
            Issue.record("\(file) has no key index between \(start) and \(end)")
            return []
        }
        return text[a.upperBound..<b.lowerBound].split(separator: "\n").map { $0.replacingOccurrences(of: "\\-", with: "-") }
            .filter { !$0.isEmpty && !$0.hasPrefix("```") && !$0.hasPrefix(".") }
    }

    @Test func theDocumentedKeysAreTheKeysRead() throws {
        let read = try TouchdConfiguration.keyIndex(sample: Self.sample)
        #expect(read.count > 20 && read.contains { $0.hasPrefix("devices[]: ") && $0.contains("passThrough") }, "\(read)")
        for (file, start, end) in [("docs/configuration.md", "<!-- key index: begin -->", "<!-- key index: end -->"),
                                   ("docs/man/touchd.yaml.5", ".\\\" key index: begin", ".\\\" key index: end")] {
            let documented = try Self.documented(file, from: start, to: end)
            let notRead = documented.filter { !read.contains($0) }
            let notDocumented = read.filter { !documented.contains($0) }
            #expect(notRead.isEmpty && notDocumented.isEmpty,
                    "\(file): documented but not read: \(notRead); read but not documented: \(notDocumented); the index is:\n\(read.joined(separator: "\n"))")
        }
    }
}
