// SPDX-License-Identifier: MIT
/// A key of a mapping that nothing read: a typo, or a key in the wrong place.
package struct YAMLUnreadKey: Hashable, Sendable {
    /// The key's path from the document's root (`devices[0].passthrough`).
    package var path: String
    /// The key as written.
    package var key: String
    /// The line of the key, from 1.
    package var line: Int
    /// The keys the mapping may have, sorted.
    package var known: [String]
    /// The known key nearest to the one written, when one is near
    /// (``YAMLKeySpelling/suggestion(for:among:)``).
    package var suggestion: String?

    /// "unknown key (did you mean 'passThrough'?; known: ...)".
    package var message: String {
        var s = "unknown key"
        if let suggestion { s += " (did you mean '\(suggestion)'?)" }
        if !known.isEmpty { s += "; known: " + known.joined(separator: ", ") }
        return s
    }
}

/// Near misses of a known key: the same letters in another case
/// (`passthrough`), or at most two edits away (`screnn`) for keys long enough
/// that two edits do not make another word.
package enum YAMLKeySpelling {
    /// The known key nearest to `key`, or nil when none is near.
    package static func suggestion(for key: String, among known: some Sequence<String>) -> String? {
        let lower = key.lowercased()
        var best: (key: String, distance: Int)?
        for candidate in known {
            if candidate.lowercased() == lower { return candidate }
            let d = distance(Array(lower.unicodeScalars), Array(candidate.lowercased().unicodeScalars))
            let allowed = min(key.count, candidate.count) <= 4 ? 1 : 2
            if d <= allowed, d < (best?.distance ?? .max) { best = (candidate, d) }
        }
        return best?.key
    }

    /// Optimal string alignment distance (Levenshtein with transpositions).
    static func distance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var before = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], before[j - 2] + 1)
                }
            }
            before = previous
            previous = current
        }
        return previous[b.count]
    }
}

/// What a strict decode read of each mapping: the keys asked for (present or
/// not) and the keys of every `CaseIterable` coding-key type a container was
/// opened with. A mapping's key in neither is unread: nothing in the decoded
/// types knows it.
final class YAMLKeyLedger {
    struct Mapping {
        var path: String
        var node: YAMLNode
        var known: Set<String> = []
        /// Decoded as a dictionary (`[String: String]`): its keys are data, not keys of the file.
        var isDictionary = false
    }

    /// By the mapping node's position (a node's line and column are unique in a document).
    var mappings: [Int: Mapping] = [:]
    var order: [Int] = []

    static func id(_ node: YAMLNode) -> Int { node.line &* 1_000_003 &+ node.column }

    func opened<Key: CodingKey>(_ node: YAMLNode, path: [any CodingKey], keys: Key.Type) {
        let id = Self.id(node)
        if mappings[id] == nil {
            mappings[id] = Mapping(path: YAMLKeyLedger.describe(path), node: node)
            order.append(id)
        }
        // The standard library decodes a dictionary through a container keyed by its own private key type.
        if String(describing: Key.self).contains("DictionaryCodingKey") { mappings[id]!.isDictionary = true }
        if let all = Key.self as? any CaseIterable.Type {
            for k in Self.names(all) { mappings[id]!.known.insert(k) }
        }
    }

    private static func names<T: CaseIterable>(_ type: T.Type) -> [String] {
        T.allCases.compactMap { ($0 as? any CodingKey)?.stringValue }
    }

    func asked(_ node: YAMLNode, key: String) {
        mappings[Self.id(node)]?.known.insert(key)
    }

    /// Every key nothing knows, in document order.
    var unread: [YAMLUnreadKey] {
        var result: [YAMLUnreadKey] = []
        for id in order {
            guard let m = mappings[id], !m.isDictionary, let pairs = m.node.mapping else { continue }
            for pair in pairs {
                guard let key = pair.key.scalar, !m.known.contains(key) else { continue }
                let known = m.known.sorted()
                result.append(YAMLUnreadKey(path: m.path.isEmpty ? key : "\(m.path).\(key)", key: key, line: pair.key.line,
                                            known: known, suggestion: YAMLKeySpelling.suggestion(for: key, among: known)))
            }
        }
        return result
    }

    /// The known keys of every mapping, by its path with list indices left out (`devices[].match`).
    var knownKeys: [String: Set<String>] {
        var result: [String: Set<String>] = [:]
        for m in mappings.values where !m.isDictionary {
            var pattern = ""
            var skipping = false
            for ch in m.path {
                if ch == "[" { skipping = true; pattern += "[]" } else if ch == "]" { skipping = false } else if !skipping { pattern.append(ch) }
            }
            result[pattern, default: []].formUnion(m.known)
        }
        return result
    }

    /// `devices[0].match` from a coding path.
    static func describe(_ path: [any CodingKey]) -> String {
        var s = ""
        for k in path {
            if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
        }
        return s
    }
}

extension CodingUserInfoKey {
    /// Present (true) in a decoder's `userInfo` when the decoder itself reports
    /// keys no type reads (``YAMLDecoder/decodeStrictly(_:from:)``), so that a
    /// type's own check of unknown keys can leave them to it.
    package static let unknownKeysReportedByDecoder = CodingUserInfoKey(rawValue: "touchd.unknownKeysReportedByDecoder")!
}
