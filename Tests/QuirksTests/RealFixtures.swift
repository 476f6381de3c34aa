// SPDX-License-Identifier: MIT
import Foundation
import Trace

/// Locates the real recordings and quirks files copied into the repository (Tests/Fixtures/real).
enum RealFixtures {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/real")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func read(_ relative: String) throws -> Recording { try TraceReader.read(path: path(relative)) }
}
