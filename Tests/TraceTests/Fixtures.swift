// SPDX-License-Identifier: MIT
import Foundation

/// Locates the real recordings copied into the repository.
enum Fixtures {
    /// `Tests/Fixtures/real`, found from this source file so tests run in a clean clone.
    static let real: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real")

    /// Path of a file under `Tests/Fixtures/real`.
    static func path(_ relative: String) -> String { real.appendingPathComponent(relative).path }

    /// The text of a fixture.
    static func text(_ relative: String) throws -> String { try String(contentsOfFile: path(relative), encoding: .utf8) }

    /// Number of lines starting with `prefix` (counted independently of the readers).
    static func countLines(_ relative: String, startingWith prefix: String) throws -> Int {
        try text(relative).split(separator: "\n", omittingEmptySubsequences: false).filter { $0.hasPrefix(prefix) }.count
    }

    /// Every trace or description file under `Tests/Fixtures/real`, relative paths, sorted.
    static func allTraceFiles() -> [String] {
        let extensions: Set<String> = ["events", "event", "evemu", "desc", "prop", "device", "yml"]
        let enumerator = FileManager.default.enumerator(atPath: real.path)
        var result: [String] = []
        while let entry = enumerator?.nextObject() as? String {
            if extensions.contains(URL(fileURLWithPath: entry).pathExtension) { result.append(entry) }
        }
        return result.sorted()
    }
}
