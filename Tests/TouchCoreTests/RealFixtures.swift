// SPDX-License-Identifier: MIT
import Foundation
import Trace
import TouchCore

/// Locates the real recordings copied into the repository (Tests/Fixtures/real).
enum RealFixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func read(_ relative: String) throws -> Recording { try TraceReader.read(path: path(relative)) }

    /// Relative paths of files with one of `extensions`, sorted.
    static func files(_ extensions: Set<String>) -> [String] {
        let e = FileManager.default.enumerator(atPath: root.path)
        var out: [String] = []
        while let entry = e?.nextObject() as? String {
            if extensions.contains(URL(fileURLWithPath: entry).pathExtension) { out.append(entry) }
        }
        return out.sorted()
    }
}
