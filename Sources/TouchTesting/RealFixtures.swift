// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Trace
import TouchCore

/// Locates the real recordings copied into the repository (Tests/Fixtures/real).
package enum RealFixtures {
    /// `Tests/Fixtures/real` of this checkout.
    package static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Tests/Fixtures/real")

    /// The path of a file below ``root``.
    package static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// Reads a recording below ``root``.
    package static func read(_ relative: String) throws -> Recording { try TraceReader.read(path: path(relative)) }

    /// Relative paths of files with one of `extensions`, sorted.
    package static func files(_ extensions: Set<String>) -> [String] {
        let all = (try? FileManager.default.subpathsOfDirectory(atPath: root.path)) ?? []
        return all.filter { extensions.contains(URL(fileURLWithPath: $0).pathExtension) }.sorted()
    }
}
