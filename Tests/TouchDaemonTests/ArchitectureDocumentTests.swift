// SPDX-License-Identifier: MIT
import Foundation
import Testing

/// docs/architecture.md's module graph is Package.swift's, both ways: a
/// target added, removed or given another import fails until the page says so.
@Suite struct ArchitectureDocumentTests {
    /// Target name to its imports (targets and products), from Package.swift's
    /// `.target`, `.executableTarget` and `.systemLibrary` entries.
    static func packageGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: PackagePaths.root + "/Package.swift", encoding: .utf8)
        let target = try Regex(#"\.(?:target|executableTarget|systemLibrary)\(\s*name:\s*"([^"]+)"(?:\s*,\s*dependencies:\s*\[([^\]]*)\])?"#)
        let dependency = try Regex(#"\.product\(name:\s*"([^"]+)",\s*package:\s*"[^"]+"\)|"([^"]+)""#)
        var graph: [String: Set<String>] = [:]
        for match in text.matches(of: target) {
            let name = String(try #require(match.output[1].substring))
            var imports = Set<String>()
            if let deps = match.output[2].substring {
                for d in deps.matches(of: dependency) {
                    if let product = d.output[1].substring { imports.insert(String(product)) }
                    else if let plain = d.output[2].substring { imports.insert(String(plain)) }
                }
            }
            graph[name] = imports
        }
        return graph
    }

    /// The table between the `module-graph` markers of docs/architecture.md.
    static func documentedGraph() throws -> [String: Set<String>] {
        let text = try String(contentsOfFile: PackagePaths.root + "/docs/architecture.md", encoding: .utf8)
        let begin = try #require(text.range(of: "<!-- module-graph: begin -->"))
        let end = try #require(text.range(of: "<!-- module-graph: end -->"))
        var graph: [String: Set<String>] = [:]
        for line in text[begin.upperBound..<end.lowerBound].split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            guard cells.count == 2 else { continue }
            let names = { (cell: String) in Set(cell.split(separator: ",").map { $0.trimmingCharacters(in: CharacterSet(charactersIn: " `")) }.filter { $0 != "-" && !$0.isEmpty }) }
            graph[try #require(names(cells[0]).first)] = names(cells[1])
        }
        return graph
    }

    @Test func theModuleGraphOnThePageIsPackageSwifts() throws {
        let package = try Self.packageGraph()
        let page = try Self.documentedGraph()
        #expect(package.count > 20, "Package.swift's targets were read")
        for (target, imports) in package {
            #expect(page[target] == imports, "\(target): Package.swift imports \(imports.sorted()), docs/architecture.md says \(page[target].map { $0.sorted() } ?? [])")
        }
        for target in page.keys where package[target] == nil {
            Issue.record("\(target) is on docs/architecture.md but not in Package.swift")
        }
    }
}
