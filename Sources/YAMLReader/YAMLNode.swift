// SPDX-License-Identifier: MIT
/// One node of a YAML document: a scalar, a sequence or a mapping, with the
/// line and column where it starts (docs/configuration.md, "The YAML touchd
/// reads").
///
/// Scalars keep their text and how it was written: a plain scalar's meaning
/// (null, a boolean, a number or a string) is decided by whoever reads it
/// (``YAMLDecoder`` decides by the type it is asked for); a quoted one is always
/// text.
package struct YAMLNode: Hashable, Sendable {
    /// How a scalar was written.
    package enum ScalarStyle: Hashable, Sendable {
        /// Unquoted: `name`, `42`, `~`, or nothing at all.
        case plain
        /// `'text'`.
        case singleQuoted
        /// `"text"`, with backslash escapes.
        case doubleQuoted
        /// A `|` block.
        case literal
        /// A `>` block.
        case folded
    }

    /// What the node holds.
    package enum Content: Hashable, Sendable {
        /// Text and how it was written.
        case scalar(String, ScalarStyle)
        /// Items in document order.
        case sequence([YAMLNode])
        /// Key and value pairs in document order (keys are unique).
        case mapping([YAMLPair])
    }

    /// What the node holds.
    package var content: Content
    /// The line the node starts on, from 1.
    package var line: Int
    /// The column the node starts at, from 1 (in bytes of UTF-8).
    package var column: Int

    /// A node at a position.
    package init(_ content: Content, line: Int, column: Int) {
        self.content = content
        self.line = line
        self.column = column
    }

    /// A scalar's text (whatever its style); nil for a collection.
    package var scalar: String? {
        if case .scalar(let s, _) = content { return s }
        return nil
    }

    /// A sequence's items; nil for anything else.
    package var sequence: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    /// A mapping's pairs; nil for anything else.
    package var mapping: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    /// True for a plain scalar that YAML reads as null: nothing, `~`, `null`, `Null` or `NULL`.
    package var isNull: Bool {
        guard case .scalar(let s, .plain) = content else { return false }
        return s.isEmpty || s == "~" || s == "null" || s == "Null" || s == "NULL"
    }

    /// The value of a mapping's key written as `key` (nil when the node is not a
    /// mapping or has no such key).
    package subscript(key: String) -> YAMLNode? {
        guard case .mapping(let pairs) = content else { return nil }
        for pair in pairs where pair.key.scalar == key { return pair.value }
        return nil
    }

    /// "line L, column C".
    package var position: String { "line \(line), column \(column)" }

    /// A short description of the node's kind for messages: "a mapping", "a list", `"text"`, "null".
    package var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .scalar(let s, _):
            if isNull { return "null" }
            let shown = s.count > 40 ? String(s.prefix(40)) + "…" : s
            return "\"\(shown)\""
        }
    }
}

/// A mapping's key and value.
package struct YAMLPair: Hashable, Sendable {
    /// The key (a scalar).
    package var key: YAMLNode
    /// The value.
    package var value: YAMLNode

    /// A pair.
    package init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// Text that is not YAML touchd reads, with where.
package struct YAMLError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The line, from 1.
    package var line: Int
    /// The column, from 1 (in bytes of UTF-8).
    package var column: Int
    /// What is wrong.
    package var message: String

    /// An error at a position.
    package init(line: Int, column: Int, _ message: String) {
        self.line = line
        self.column = column
        self.message = message
    }

    /// "line L, column C: message".
    package var description: String { "line \(line), column \(column): \(message)" }
}
