// SPDX-License-Identifier: MIT
/// Reads one YAML document into a ``YAMLNode`` tree.
///
/// touchd reads the YAML that its configuration file and `libinput record`
/// files are written in (docs/configuration.md, "The YAML touchd reads"):
/// block mappings and lists, flow `[...]` and `{...}` collections (over several
/// lines too), plain, single- and double-quoted scalars, `|` and `>` blocks,
/// comments, anchors and aliases, and `---`/`...` around one document. It
/// refuses, with the line and column, what it does not read: tags (`!!str`),
/// `?` keys, a second document, tabs in indentation, a plain value continued on
/// the next line, and duplicate keys.
package enum YAMLParser {
    /// The document's root node; nil when the text holds no node (empty, or only comments).
    package static func parse(_ text: String) throws(YAMLError) -> YAMLNode? {
        var bytes = Array(text.utf8)
        return try bytes.withUnsafeMutableBufferPointer { (buffer) throws(YAMLError) -> YAMLNode? in
            var parser = Parser(UnsafeBufferPointer(buffer))
            return try parser.document()
        }
    }

    /// The document in UTF-8 bytes (invalid UTF-8 in a scalar becomes U+FFFD).
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(YAMLError) -> YAMLNode? {
        var parser = Parser(bytes)
        return try parser.document()
    }
}

private let space: UInt8 = 0x20, tab: UInt8 = 0x09, lf: UInt8 = 0x0A, cr: UInt8 = 0x0D
private let hash: UInt8 = 0x23, colon: UInt8 = 0x3A, dash: UInt8 = 0x2D, comma: UInt8 = 0x2C
private let openBracket: UInt8 = 0x5B, closeBracket: UInt8 = 0x5D, openBrace: UInt8 = 0x7B, closeBrace: UInt8 = 0x7D
private let doubleQuote: UInt8 = 0x22, singleQuote: UInt8 = 0x27, backslash: UInt8 = 0x5C
private let ampersand: UInt8 = 0x26, asterisk: UInt8 = 0x2A, bang: UInt8 = 0x21, question: UInt8 = 0x3F
private let pipe: UInt8 = 0x7C, greater: UInt8 = 0x3E, percent: UInt8 = 0x25, dot: UInt8 = 0x2E
private let plus: UInt8 = 0x2B, at: UInt8 = 0x40, backtick: UInt8 = 0x60

/// Nesting deeper than this is refused (a hostile file cannot exhaust the stack).
private let maximumDepth = 200

/// Aliases may repeat at most this many nodes in all (a hostile file cannot make
/// a few lines of anchors and aliases expand to billions of nodes).
private let maximumAliasedNodes = 100_000

private struct Parser {
    let b: UnsafeBufferPointer<UInt8>
    var pos = 0
    var line = 1
    var lineStart = 0
    var depth = 0
    var anchors: [String: YAMLNode] = [:]
    /// Nodes made so far, each alias counting as the nodes it repeats.
    var nodes = 0
    /// Per anchor, how many nodes its node counts as.
    var anchorSizes: [String: Int] = [:]
    /// Nodes repeated by aliases so far.
    var aliasedNodes = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        b = bytes
    }

    // MARK: positions

    var atEnd: Bool { pos >= b.count }

    func peek(_ offset: Int = 0) -> UInt8? {
        let i = pos + offset
        return i < b.count ? b[i] : nil
    }

    /// Column from 0 (the indentation when at a line's first content).
    var column: Int { pos - lineStart }

    func error(_ message: String) -> YAMLError {
        YAMLError(line: line, column: column + 1, message)
    }

    func error(at node: YAMLNode, _ message: String) -> YAMLError {
        YAMLError(line: node.line, column: node.column, message)
    }

    func isBlankOrEnd(_ c: UInt8?) -> Bool {
        c == nil || c == space || c == tab || c == lf || c == cr
    }

    func isLineEnd(_ c: UInt8?) -> Bool {
        c == nil || c == lf || c == cr
    }

    /// Consumes a line break (LF, CR LF or CR).
    mutating func consumeLineBreak() {
        if peek() == cr { pos += 1 }
        if peek() == lf { pos += 1 }
        line += 1
        lineStart = pos
    }

    mutating func skipSpaces() {
        while let c = peek(), c == space || c == tab { pos += 1 }
    }

    mutating func skipToLineEnd() {
        while let c = peek(), c != lf, c != cr { pos += 1 }
    }

    /// Skips spaces, comments and line breaks up to the next content (or the end).
    mutating func skipToContent() throws(YAMLError) {
        while let c = peek() {
            if c == space {
                pos += 1
            } else if c == tab {
                if b[lineStart..<pos].allSatisfy({ $0 == space }) {
                    // A tab at the start of a blank or comment line is harmless; before content it is indentation.
                    var j = pos
                    while j < b.count, b[j] == space || b[j] == tab { j += 1 }
                    if j < b.count, b[j] != lf, b[j] != cr, b[j] != hash {
                        throw error("a tab in indentation (YAML indents with spaces)")
                    }
                }
                pos += 1
            } else if c == hash {
                skipToLineEnd()
            } else if c == lf || c == cr {
                consumeLineBreak()
            } else {
                return
            }
        }
    }

    /// After a node that ends its line: only spaces and a comment may follow.
    mutating func expectLineEnd(_ what: String) throws(YAMLError) {
        skipSpaces()
        if peek() == hash { skipToLineEnd() }
        guard isLineEnd(peek()) else { throw error("unexpected text after \(what)") }
    }

    /// `---` or `...` at column 0, followed by a blank or the end.
    func atDocumentMarker(_ c: UInt8) -> Bool {
        column == 0 && peek() == c && peek(1) == c && peek(2) == c && isBlankOrEnd(peek(3))
    }

    /// `- ` (a block list's item indicator).
    func atSequenceIndicator() -> Bool {
        peek() == dash && isBlankOrEnd(peek(1))
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: b[range]), as: UTF8.self)
    }

    // MARK: document

    mutating func document() throws(YAMLError) -> YAMLNode? {
        if b.count >= 3, b[0] == 0xEF, b[1] == 0xBB, b[2] == 0xBF { pos = 3; lineStart = 3 }
        try skipToContent()
        while column == 0, peek() == percent {
            let start = pos
            skipToLineEnd()
            let directive = text(start..<pos)
            guard directive.hasPrefix("%YAML ") else { throw YAMLError(line: line, column: 1, "directive \(directive) is not supported") }
            try skipToContent()
        }
        if atDocumentMarker(dash) {
            pos += 3
            skipSpaces()
            if peek() == hash { skipToLineEnd() }
            if !isLineEnd(peek()) {
                // `--- value` on the marker's line.
                let node = try blockNode(parentIndent: -1)
                return try finishDocument(node)
            }
            try skipToContent()
        }
        if atEnd || atDocumentMarker(dot) {
            try finishDocument(nil)
            return nil
        }
        let node = try blockNode(parentIndent: -1)
        return try finishDocument(node)
    }

    @discardableResult
    mutating func finishDocument(_ node: YAMLNode?) throws(YAMLError) -> YAMLNode? {
        try skipToContent()
        if atDocumentMarker(dot) {
            pos += 3
            try skipToContent()
        }
        if atEnd { return node }
        if atDocumentMarker(dash) { throw error("a second document (touchd reads one document per file)") }
        throw error(column == 0 ? "unexpected text (a second top-level node?)" : "unexpected indentation")
    }

    // MARK: block context

    /// The node starting at the current content (at a line's first content, or after `- `, `--- `).
    /// A node that starts at or left of `parentIndent` is empty (null).
    mutating func blockNode(parentIndent: Int) throws(YAMLError) -> YAMLNode {
        let indent = column
        if atEnd || indent <= parentIndent { return YAMLNode(.scalar("", .plain), line: line, column: column + 1) }
        depth += 1
        defer { depth -= 1 }
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        if peek() == ampersand {
            let anchor = try anchor(flow: false)
            let node: YAMLNode
            if peek() == hash || isLineEnd(peek()) {
                try skipToContent()
                if !atEnd, column > parentIndent {
                    node = try blockNode(parentIndent: parentIndent)
                } else {
                    node = YAMLNode(.scalar("", .plain), line: line, column: column + 1)
                }
            } else {
                node = try blockNode(parentIndent: parentIndent)
            }
            register(anchor, node)
            return node
        }
        if atSequenceIndicator() { return try blockSequence(indent: indent) }
        if peek() == question, isBlankOrEnd(peek(1)) { throw error("\"? \" keys are not supported") }
        if try lineHasMappingKey() { return try blockMapping(indent: indent) }
        return try inlineValue(parentIndent: parentIndent)
    }

    /// A scalar, flow collection, block scalar or alias that starts on the current line.
    mutating func inlineValue(parentIndent: Int) throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        guard let c = peek() else { return YAMLNode(.scalar("", .plain), line: startLine, column: startColumn) }
        switch c {
        case openBracket, openBrace:
            let node = try flowNode()
            try expectLineEnd(c == openBracket ? "a [...] list" : "a {...} mapping")
            return node
        case doubleQuote, singleQuote:
            let node = try quotedScalar()
            try expectLineEnd("a quoted string")
            return node
        case pipe, greater:
            return try blockScalar(parentIndent: parentIndent)
        case asterisk:
            let node = try alias()
            try expectLineEnd("an alias")
            return node
        case ampersand:
            let anchor = try anchor(flow: false)
            let node = try inlineValue(parentIndent: parentIndent)
            register(anchor, node)
            return node
        case bang:
            throw error("tags (\"!...\") are not supported")
        case at, backtick:
            throw error("a plain value cannot start with \"\(Character(Unicode.Scalar(c)))\" (quote it)")
        default:
            if atSequenceIndicator() { throw error("a list cannot start on the line of its key (start it on the next line)") }
            return try plainBlockScalar()
        }
    }

    /// Whether the current line, from here, starts a `key:` entry.
    mutating func lineHasMappingKey() throws(YAMLError) -> Bool {
        var i = pos
        guard i < b.count else { return false }
        let c = b[i]
        if c == doubleQuote || c == singleQuote {
            i += 1
            while i < b.count, b[i] != lf, b[i] != cr {
                if c == doubleQuote, b[i] == backslash { i += 2; continue }
                if b[i] == c {
                    if c == singleQuote, i + 1 < b.count, b[i + 1] == singleQuote { i += 2; continue }
                    break
                }
                i += 1
            }
            guard i < b.count, b[i] == c else { return false }
            i += 1
            while i < b.count, b[i] == space || b[i] == tab { i += 1 }
            return i < b.count && b[i] == colon && (i + 1 == b.count || isBlankOrEnd(b[i + 1]))
        }
        if c == openBracket || c == openBrace || c == pipe || c == greater || c == asterisk || c == hash { return false }
        while i < b.count, b[i] != lf, b[i] != cr {
            if b[i] == colon, i + 1 == b.count || isBlankOrEnd(b[i + 1]) { return true }
            if b[i] == hash, i > pos, b[i - 1] == space || b[i - 1] == tab { return false }
            i += 1
        }
        return false
    }

    mutating func blockMapping(indent: Int) throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        var pairs: [YAMLPair] = []
        var seen: Set<String> = []
        while true {
            guard try lineHasMappingKey() else {
                if atSequenceIndicator() { throw error("a list item where a \"key:\" was expected") }
                throw error("expected a \"key: value\" entry")
            }
            let key = try mappingKey()
            let keyText = key.scalar ?? ""
            guard seen.insert(keyText).inserted else { throw error(at: key, "duplicate key \"\(keyText)\"") }
            skipSpaces()
            let value: YAMLNode
            if peek() == hash || isLineEnd(peek()) {
                value = try valueOnFollowingLines(indent: indent)
            } else if peek() == ampersand {
                let anchor = try anchor(flow: false)
                if peek() == hash || isLineEnd(peek()) {
                    value = try valueOnFollowingLines(indent: indent)
                } else {
                    value = try inlineValue(parentIndent: indent)
                }
                register(anchor, value)
            } else {
                value = try inlineValue(parentIndent: indent)
            }
            pairs.append(YAMLPair(key: key, value: value))
            try skipToContent()
            if atEnd || atDocumentMarker(dash) || atDocumentMarker(dot) { break }
            if column < indent { break }
            if column > indent {
                throw error("unexpected indentation (a value continued on the next line? quote it, or indent a nested entry under a key that ends with \":\")")
            }
        }
        nodes += 1
        return YAMLNode(.mapping(pairs), line: startLine, column: startColumn)
    }

    /// A key's value that starts on a later line: a nested node, a list at the key's own indentation, or null.
    mutating func valueOnFollowingLines(indent: Int) throws(YAMLError) -> YAMLNode {
        let emptyLine = line, emptyColumn = column + 1
        try skipToContent()
        if atEnd || atDocumentMarker(dash) || atDocumentMarker(dot) {
            return YAMLNode(.scalar("", .plain), line: emptyLine, column: emptyColumn)
        }
        if column > indent { return try blockNode(parentIndent: indent) }
        if column == indent, atSequenceIndicator() { return try blockSequence(indent: indent) }
        return YAMLNode(.scalar("", .plain), line: emptyLine, column: emptyColumn)
    }

    /// A block mapping's key, through its `:`.
    mutating func mappingKey() throws(YAMLError) -> YAMLNode {
        let key: YAMLNode
        if peek() == doubleQuote || peek() == singleQuote {
            key = try quotedScalar()
            skipSpaces()
        } else {
            let startLine = line, startColumn = column + 1
            let start = pos
            while let c = peek(), !(c == colon && isBlankOrEnd(peek(1))) { pos += 1 }
            var end = pos
            while end > start, b[end - 1] == space || b[end - 1] == tab { end -= 1 }
            key = YAMLNode(.scalar(text(start..<end), .plain), line: startLine, column: startColumn)
        }
        guard peek() == colon else { throw error("expected \":\" after a key") }
        pos += 1
        return key
    }

    mutating func blockSequence(indent: Int) throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        var items: [YAMLNode] = []
        while true {
            pos += 1  // the dash
            skipSpaces()
            if peek() == hash || isLineEnd(peek()) {
                let emptyLine = line, emptyColumn = column + 1
                try skipToContent()
                if !atEnd, column > indent, !atDocumentMarker(dash), !atDocumentMarker(dot) {
                    items.append(try blockNode(parentIndent: indent))
                } else {
                    items.append(YAMLNode(.scalar("", .plain), line: emptyLine, column: emptyColumn))
                }
            } else {
                items.append(try blockNode(parentIndent: indent))
            }
            try skipToContent()
            if atEnd || atDocumentMarker(dash) || atDocumentMarker(dot) { break }
            if column == indent, atSequenceIndicator() { continue }
            if column <= indent { break }
            throw error("unexpected indentation in a list")
        }
        nodes += 1
        return YAMLNode(.sequence(items), line: startLine, column: startColumn)
    }

    /// A plain scalar in block context: to the end of the line or a ` #` comment.
    mutating func plainBlockScalar() throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        let start = pos
        var end = pos
        while let c = peek(), c != lf, c != cr {
            if c == hash, pos > start, b[pos - 1] == space || b[pos - 1] == tab { break }
            if c == colon, isBlankOrEnd(peek(1)) {
                throw error("\": \" inside a plain value (quote the value)")
            }
            pos += 1
            if c != space && c != tab { end = pos }
        }
        if peek() == hash { skipToLineEnd() }
        nodes += 1
        return YAMLNode(.scalar(text(start..<end), .plain), line: startLine, column: startColumn)
    }

    // MARK: block scalars

    /// A `|` or `>` block: its header, then the lines indented past the parent.
    mutating func blockScalar(parentIndent: Int) throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        let folded = peek() == greater
        pos += 1
        var chomp: UInt8? = nil
        var explicitIndent: Int? = nil
        for _ in 0..<2 {
            if let c = peek(), c == dash || c == plus, chomp == nil {
                chomp = c
                pos += 1
            } else if let c = peek(), c >= 0x31, c <= 0x39, explicitIndent == nil {
                explicitIndent = Int(c - 0x30)
                pos += 1
            }
        }
        try expectLineEnd("a block scalar's header")
        if !atEnd { consumeLineBreak() }
        let base = max(parentIndent, 0)
        var contentIndent = explicitIndent.map { base + $0 }
        var lines: [Range<Int>] = []  // empty range: an empty line
        while !atEnd {
            var i = pos
            while i < b.count, b[i] == space { i += 1 }
            let spaces = i - pos
            let blank = i == b.count || b[i] == lf || b[i] == cr
            if blank {
                if let ci = contentIndent, spaces > ci {
                    lines.append((pos + ci)..<i)
                } else {
                    lines.append(i..<i)
                }
                pos = i
                if atEnd { break }
                consumeLineBreak()
                continue
            }
            if contentIndent == nil {
                guard spaces > parentIndent else { break }
                contentIndent = spaces
            }
            guard let ci = contentIndent, spaces >= ci else { break }
            var end = i
            while end < b.count, b[end] != lf, b[end] != cr { end += 1 }
            lines.append((pos + ci)..<end)
            pos = end
            if atEnd { break }
            consumeLineBreak()
        }
        // Here: at the start of the line that ended the block (the caller reads its indentation).
        var lastText = lines.count - 1
        while lastText >= 0, lines[lastText].isEmpty { lastText -= 1 }
        var out: [UInt8] = []
        if lastText >= 0 {
            if folded {
                var pendingBreaks = 0
                var previousMoreIndented = false
                var started = false
                for r in lines[0...lastText] {
                    if r.isEmpty {
                        pendingBreaks += 1
                        continue
                    }
                    let moreIndented = b[r.lowerBound] == space || b[r.lowerBound] == tab
                    if started {
                        if pendingBreaks == 0 {
                            out.append(previousMoreIndented || moreIndented ? lf : space)
                        } else {
                            out.append(contentsOf: repeatElement(lf, count: pendingBreaks + (previousMoreIndented || moreIndented ? 1 : 0)))
                        }
                    } else {
                        out.append(contentsOf: repeatElement(lf, count: pendingBreaks))
                    }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[r]))
                    pendingBreaks = 0
                    previousMoreIndented = moreIndented
                    started = true
                }
            } else {
                for (n, r) in lines[0...lastText].enumerated() {
                    if n > 0 { out.append(lf) }
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: b[r]))
                }
            }
            switch chomp {
            case dash: break
            case plus: out.append(contentsOf: repeatElement(lf, count: 1 + (lines.count - 1 - lastText)))
            default: out.append(lf)
            }
        } else if chomp == plus {
            out.append(contentsOf: repeatElement(lf, count: lines.count))
        }
        nodes += 1
        return YAMLNode(.scalar(String(decoding: out, as: UTF8.self), folded ? .folded : .literal), line: startLine, column: startColumn)
    }

    // MARK: anchors and aliases

    mutating func anchorName() throws(YAMLError) -> String {
        pos += 1  // & or *
        let start = pos
        while let c = peek(), !isBlankOrEnd(c), c != comma, c != openBracket, c != closeBracket, c != openBrace, c != closeBrace { pos += 1 }
        guard pos > start else { throw error("an anchor or alias needs a name") }
        return text(start..<pos)
    }

    /// An anchor read, waiting for its node.
    struct Anchor {
        let name: String
        /// ``Parser/nodes`` before its node.
        let nodesBefore: Int
    }

    /// Reads `&name` and the space after it; a node has one anchor at most.
    mutating func anchor(flow: Bool) throws(YAMLError) -> Anchor {
        let name = try anchorName()
        if flow { skipFlowSpace() } else { skipSpaces() }
        if peek() == ampersand { throw error("a node has one anchor at most") }
        return Anchor(name: name, nodesBefore: nodes)
    }

    /// Keeps `node` under the anchor's name, with how many nodes an alias of it repeats.
    mutating func register(_ anchor: Anchor, _ node: YAMLNode) {
        anchors[anchor.name] = node
        anchorSizes[anchor.name] = max(nodes - anchor.nodesBefore, 1)
    }

    mutating func alias() throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        let name = try anchorName()
        guard var node = anchors[name] else {
            throw YAMLError(line: startLine, column: startColumn, "alias *\(name) names no anchor before it")
        }
        let size = anchorSizes[name] ?? 1
        aliasedNodes += size
        nodes += size
        guard aliasedNodes <= maximumAliasedNodes else {
            throw YAMLError(line: startLine, column: startColumn, "aliases repeat more than \(maximumAliasedNodes) nodes")
        }
        node.line = startLine
        node.column = startColumn
        return node
    }

    // MARK: flow context

    /// Skips spaces, line breaks and comments between flow tokens.
    mutating func skipFlowSpace() {
        while let c = peek() {
            if c == space || c == tab {
                pos += 1
            } else if c == lf || c == cr {
                consumeLineBreak()
            } else if c == hash {
                skipToLineEnd()
            } else {
                return
            }
        }
    }

    mutating func flowNode() throws(YAMLError) -> YAMLNode {
        guard let c = peek() else { throw error("the text ends where a value was expected") }
        depth += 1
        defer { depth -= 1 }
        guard depth <= maximumDepth else { throw error("nesting deeper than \(maximumDepth) levels") }
        switch c {
        case openBracket: return try flowSequence()
        case openBrace: return try flowMapping()
        case doubleQuote, singleQuote: return try quotedScalar()
        case asterisk: return try alias()
        case ampersand:
            let anchor = try anchor(flow: true)
            let node = try flowNode()
            register(anchor, node)
            return node
        case bang: throw error("tags (\"!...\") are not supported")
        default: return try plainFlowScalar()
        }
    }

    func endsFlowPlain(_ c: UInt8) -> Bool {
        c == comma || c == openBracket || c == closeBracket || c == openBrace || c == closeBrace
    }

    mutating func plainFlowScalar() throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        let start = pos
        var end = pos
        while let c = peek(), c != lf, c != cr, !endsFlowPlain(c) {
            if c == colon, let n = peek(1), isBlankOrEnd(n) || endsFlowPlain(n) { break }
            if c == colon, peek(1) == nil { break }
            if c == hash, pos > start, b[pos - 1] == space || b[pos - 1] == tab { break }
            pos += 1
            if c != space && c != tab { end = pos }
        }
        guard end > start else { throw error("expected a value") }
        nodes += 1
        return YAMLNode(.scalar(text(start..<end), .plain), line: startLine, column: startColumn)
    }

    mutating func flowSequence() throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        pos += 1
        var items: [YAMLNode] = []
        while true {
            skipFlowSpace()
            guard let c = peek() else { throw YAMLError(line: startLine, column: startColumn, "a [ list is not closed with ]") }
            if c == closeBracket { pos += 1; break }
            var item = try flowNode()
            skipFlowSpace()
            if peek() == colon {
                // `[key: value]`: a one-pair mapping as the item.
                pos += 1
                skipFlowSpace()
                let value: YAMLNode
                if let n = peek(), n == comma || n == closeBracket {
                    value = YAMLNode(.scalar("", .plain), line: line, column: column + 1)
                } else {
                    value = try flowNode()
                }
                item = YAMLNode(.mapping([YAMLPair(key: item, value: value)]), line: item.line, column: item.column)
                skipFlowSpace()
            }
            items.append(item)
            guard let n = peek() else { throw YAMLError(line: startLine, column: startColumn, "a [ list is not closed with ]") }
            if n == comma { pos += 1; continue }
            if n == closeBracket { pos += 1; break }
            throw error("expected \",\" or \"]\" in a [...] list")
        }
        nodes += 1
        return YAMLNode(.sequence(items), line: startLine, column: startColumn)
    }

    mutating func flowMapping() throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        pos += 1
        var pairs: [YAMLPair] = []
        var seen: Set<String> = []
        while true {
            skipFlowSpace()
            guard let c = peek() else { throw YAMLError(line: startLine, column: startColumn, "a { mapping is not closed with }") }
            if c == closeBrace { pos += 1; break }
            if c == openBracket || c == openBrace { throw error("a key must be a scalar") }
            if c == question, isBlankOrEnd(peek(1)) { throw error("\"? \" keys are not supported") }
            let key = try flowNode()
            guard let keyText = key.scalar else { throw error(at: key, "a key must be a scalar") }
            guard seen.insert(keyText).inserted else { throw error(at: key, "duplicate key \"\(keyText)\"") }
            skipFlowSpace()
            let value: YAMLNode
            if peek() == colon {
                pos += 1
                skipFlowSpace()
                if let n = peek(), n == comma || n == closeBrace {
                    value = YAMLNode(.scalar("", .plain), line: line, column: column + 1)
                } else {
                    value = try flowNode()
                }
                skipFlowSpace()
            } else {
                value = YAMLNode(.scalar("", .plain), line: line, column: column + 1)
            }
            pairs.append(YAMLPair(key: key, value: value))
            guard let n = peek() else { throw YAMLError(line: startLine, column: startColumn, "a { mapping is not closed with }") }
            if n == comma { pos += 1; continue }
            if n == closeBrace { pos += 1; break }
            throw error("expected \",\" or \"}\" in a {...} mapping")
        }
        nodes += 1
        return YAMLNode(.mapping(pairs), line: startLine, column: startColumn)
    }

    // MARK: quoted scalars

    mutating func quotedScalar() throws(YAMLError) -> YAMLNode {
        let startLine = line, startColumn = column + 1
        let quote = b[pos]
        pos += 1
        var out: [UInt8] = []
        while true {
            guard let c = peek() else {
                throw YAMLError(line: startLine, column: startColumn, quote == doubleQuote ? "a \" string is not closed" : "a ' string is not closed")
            }
            if c == quote {
                if quote == singleQuote, peek(1) == singleQuote {
                    out.append(singleQuote)
                    pos += 2
                    continue
                }
                pos += 1
                break
            }
            if c == lf || c == cr {
                // A line break folds into a space; empty lines each into a line break.
                while let t = out.last, t == space || t == tab { out.removeLast() }
                consumeLineBreak()
                var breaks = 0
                while true {
                    skipSpaces()
                    if let n = peek(), n == lf || n == cr {
                        breaks += 1
                        consumeLineBreak()
                    } else {
                        break
                    }
                }
                if atDocumentMarker(dash) || atDocumentMarker(dot) { throw error("a document marker inside a quoted string") }
                out.append(contentsOf: breaks == 0 ? [space] : Array(repeating: lf, count: breaks))
                continue
            }
            if quote == doubleQuote, c == backslash {
                try escape(into: &out)
                continue
            }
            out.append(c)
            pos += 1
        }
        nodes += 1
        return YAMLNode(.scalar(String(decoding: out, as: UTF8.self), quote == doubleQuote ? .doubleQuoted : .singleQuoted),
                        line: startLine, column: startColumn)
    }

    mutating func escape(into out: inout [UInt8]) throws(YAMLError) {
        pos += 1
        guard let e = peek() else { throw error("a \\ at the end of the text") }
        pos += 1
        func append(_ scalar: Unicode.Scalar) {
            out.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        switch e {
        case 0x30: out.append(0)
        case 0x61: out.append(0x07)
        case 0x62: out.append(0x08)
        case 0x74, tab: out.append(tab)
        case 0x6E: out.append(lf)
        case 0x76: out.append(0x0B)
        case 0x66: out.append(0x0C)
        case 0x72: out.append(cr)
        case 0x65: out.append(0x1B)
        case space: out.append(space)
        case doubleQuote: out.append(doubleQuote)
        case 0x2F: out.append(0x2F)
        case backslash: out.append(backslash)
        case 0x4E: append("\u{85}")
        case 0x5F: append("\u{A0}")
        case 0x4C: append("\u{2028}")
        case 0x50: append("\u{2029}")
        case 0x78, 0x75, 0x55:
            let count = e == 0x78 ? 2 : e == 0x75 ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let h = peek(), let d = hexDigit(h) else { throw error("\\\(Character(Unicode.Scalar(e))) needs \(count) hexadecimal digits") }
                value = value << 4 | UInt32(d)
                pos += 1
            }
            guard let scalar = Unicode.Scalar(value) else { throw error("\\\(Character(Unicode.Scalar(e))) names no Unicode character") }
            append(scalar)
        case lf, cr:
            // An escaped line break: the lines join without a space.
            pos -= 1
            consumeLineBreak()
            skipSpaces()
        default:
            throw error("unknown escape \\\(Character(Unicode.Scalar(e)))")
        }
    }

    func hexDigit(_ c: UInt8) -> UInt8? {
        switch c {
        case 0x30...0x39: return c - 0x30
        case 0x41...0x46: return c - 0x41 + 10
        case 0x61...0x66: return c - 0x61 + 10
        default: return nil
        }
    }
}
