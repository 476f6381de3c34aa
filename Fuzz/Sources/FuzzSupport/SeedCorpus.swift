// SPDX-License-Identifier: MIT
import Foundation
import TouchCore
import Trace

/// Seed corpora, written by the harnesses themselves: when the environment
/// variable `TOUCHD_FUZZ_SEEDS` names a directory, a harness's
/// `LLVMFuzzerInitialize` writes its seeds there and exits instead of fuzzing
/// (scripts/fuzz.sh does this before each run; nothing is committed).
package enum SeedCorpus {
    /// Writes `seeds()` into `$TOUCHD_FUZZ_SEEDS` and exits, when that variable is set.
    package static func writeIfAsked(_ seeds: () -> [(name: String, bytes: [UInt8])]) {
        guard let dir = ProcessInfo.processInfo.environment["TOUCHD_FUZZ_SEEDS"], !dir.isEmpty else { return }
        do {
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            var count = 0
            for seed in seeds() {
                let safe = String(seed.name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
                try Data(seed.bytes).write(to: URL(fileURLWithPath: dir).appendingPathComponent(safe))
                count += 1
            }
            print("wrote \(count) seeds to \(dir)")
            exit(0)
        } catch {
            print("cannot write seeds to \(dir): \(error)")
            exit(1)
        }
    }

    /// The real recordings of Tests/Fixtures/real (their relative paths), sorted.
    package static var realRecordingPaths: [String] {
        let root = repositoryRoot + "/Tests/Fixtures/real"
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return all.filter { p in [".events", ".event", ".evemu", ".yml"].contains { p.hasSuffix($0) } }.sorted()
    }

    /// The raw files of Tests/Fixtures/real whose names end with one of `suffixes`, at most `maxBytes` each.
    package static func rawFiles(suffixes: [String], maxBytes: Int = 64 * 1024) -> [(name: String, bytes: [UInt8])] {
        let root = repositoryRoot + "/Tests/Fixtures/real"
        let all = FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String } ?? []
        return all.filter { p in suffixes.contains { p.hasSuffix($0) } }.sorted().compactMap { p in
            guard let data = FileManager.default.contents(atPath: root + "/" + p), data.count <= maxBytes else { return nil }
            return ("raw-" + p, Array(data))
        }
    }

    /// Files of the repository by their relative paths (missing ones are left out).
    package static func projectFiles(_ paths: [String]) -> [(name: String, bytes: [UInt8])] {
        paths.compactMap { p in
            guard let data = FileManager.default.contents(atPath: repositoryRoot + "/" + p) else { return nil }
            return ("file-" + p.replacingOccurrences(of: "/", with: "-"), Array(data))
        }
    }

    /// Every real recording (its first `maxEvents` events) rewritten in `format` by TraceWriter.
    package static func converted(to format: TraceFormat, maxEvents: Int = 40) -> [(name: String, bytes: [UInt8])] {
        realRecordingPaths.compactMap { p in
            guard var r = try? TraceReader.read(path: repositoryRoot + "/Tests/Fixtures/real/" + p) else { return nil }
            if r.events.count > maxEvents { r.events.removeSubrange(maxEvents...) }
            guard let text = try? TraceWriter.render(r, as: format) else { return nil }
            return ("\(format.rawValue)-" + p, Array(text.utf8))
        }
    }

    /// The request messages of docs/schemas/examples.jsonl, one per seed.
    package static var exampleRequests: [[UInt8]] {
        guard let text = try? String(contentsOfFile: repositoryRoot + "/docs/schemas/examples.jsonl", encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line -> [UInt8]? in
            // Each line is {"schema":...,"valid":...,"message":{...}}: the message is the last field.
            guard let start = line.range(of: "\"message\":") else { return nil }
            var message = line[start.upperBound...]
            guard message.hasSuffix("}") else { return nil }
            message.removeLast()
            return message.contains("\"op\"") ? Array(message.utf8) : nil
        }
    }
}
