// SPDX-License-Identifier: MIT
import Foundation
import Testing
import Yams
@testable import YAMLReader

/// touchd's YAML reader against Yams (libyaml), kept as a test-only oracle: on
/// every YAML file of the project (configuration, fixtures, recordings) and
/// every ```yaml block of the docs, both read the same tree with the scalars on
/// the same lines, or both refuse.
@Suite struct YamsAgreementTests {
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)  // Tests/YAMLReaderTests/YamsAgreementTests.swift
        return parts.joined(separator: "/")
    }()

    /// (name, text) of every YAML document in the project.
    static func documents() -> [(String, String)] {
        var out: [(String, String)] = []
        let fm = FileManager.default
        for dir in ["config", "Tests/Fixtures", "docs"] {
            guard let e = fm.enumerator(atPath: root + "/" + dir) else { continue }
            for case let path as String in e {
                let full = root + "/" + dir + "/" + path
                if path.hasSuffix(".yaml") || path.hasSuffix(".yml"), let text = try? String(contentsOfFile: full, encoding: .utf8) {
                    out.append((dir + "/" + path, text))
                } else if path.hasSuffix(".md"), let text = try? String(contentsOfFile: full, encoding: .utf8) {
                    var block: [Substring]? = nil
                    var n = 0
                    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                        if block == nil, line.trimmingCharacters(in: .whitespaces) == "```yaml" {
                            block = []
                        } else if block != nil, line.trimmingCharacters(in: .whitespaces) == "```" {
                            n += 1
                            out.append(("\(dir)/\(path) yaml block \(n)", block!.joined(separator: "\n") + "\n"))
                            block = nil
                        } else if block != nil {
                            block!.append(line)
                        }
                    }
                }
            }
        }
        return out
    }

    static func yamsShape(_ node: Yams.Node) -> String {
        switch node {
        case .scalar(let s):
            let plain = s.style == .plain || s.style == .any
            if plain, s.string.isEmpty || ["~", "null", "Null", "NULL"].contains(s.string) { return "~@\(s.mark?.line ?? 0)" }
            return (plain ? "'\(s.string)'" : "\"\(s.string)\"") + "@\(s.mark?.line ?? 0)"
        case .sequence(let seq):
            return "[" + seq.map(yamsShape).joined(separator: ",") + "]"
        case .mapping(let map):
            return "{" + map.map { "\($0.key.string ?? "?"):\(yamsShape($0.value))" }.joined(separator: ",") + "}"
        case .alias:
            return "alias"
        }
    }

    static func shape(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let s, let style):
            if node.isNull { return "~@\(node.line)" }
            return (style == .plain ? "'\(s)'" : "\"\(s)\"") + "@\(node.line)"
        case .sequence(let items):
            return "[" + items.map(shape).joined(separator: ",") + "]"
        case .mapping(let pairs):
            return "{" + pairs.map { "\($0.key.scalar ?? "?"):\(shape($0.value))" }.joined(separator: ",") + "}"
        }
    }

    @Test func everyYAMLDocumentOfTheProjectReadsAsYamsReadsIt() throws {
        let documents = Self.documents()
        #expect(documents.count >= 10, "found only \(documents.map(\.0))")
        for (name, text) in documents {
            let theirs: String?
            do {
                theirs = try Yams.compose(yaml: text).map(Self.yamsShape) ?? "none"
            } catch {
                theirs = nil
            }
            let ours: String?
            do {
                ours = try YAMLParser.parse(text).map(Self.shape) ?? "none"
            } catch {
                ours = nil
            }
            #expect(ours == theirs, "\(name)")
        }
    }

    /// The random documents of YAMLParserTests, whose flow lists stay on one line (Yams wants
    /// a flow collection's later lines indented past its block).
    @Test(arguments: 0..<4)
    func randomDocumentsReadAsYamsReadsThem(seed: UInt64) throws {
        var rng = SplitMix(seed: seed &+ 100)
        for _ in 0..<40 {
            let tree = Tree.random(&rng, depth: 0)
            let text = tree.emitDocument(&rng, wrap: false)
            let theirs = try Yams.compose(yaml: text).map(Self.yamsShape)
            let ours = try YAMLParser.parse(text).map(Self.shape)
            #expect(ours == theirs, "\(text)")
        }
    }
}
