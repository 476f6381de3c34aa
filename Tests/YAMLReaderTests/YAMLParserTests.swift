// SPDX-License-Identifier: MIT
import Testing
@testable import YAMLReader

/// The YAML touchd reads (docs/configuration.md, "The YAML touchd reads").
@Suite struct YAMLParserTests {
    func parse(_ text: String) throws -> YAMLNode {
        try #require(try YAMLParser.parse(text))
    }

    func failure(_ text: String) -> YAMLError? {
        do {
            _ = try YAMLParser.parse(text)
            return nil
        } catch {
            return error
        }
    }

    @Test func blockMappingsAndListsNestWithPositions() throws {
        let root = try parse("""
            # a comment
            screens:
              - name: left   # trailing comment
                width: 800
              - name: main
            devices:
            - match: {name: "Atmel*", vendor: 0x0eef}
              calibration: [1, 0, 0,
                            0, 1, 0]
            empty:
            last: value
            """)
        #expect(canonical(root) == """
            {screens:[{name:'left',width:'800'},{name:'main'}],devices:[{match:{name:"Atmel*",vendor:'0x0eef'},\
            calibration:['1','0','0','0','1','0']}],empty:~,last:'value'}
            """)
        let screens = try #require(root["screens"]?.sequence)
        #expect(screens[0].line == 3 && screens[0].column == 5)
        #expect(screens[0]["width"].map { ($0.line, $0.column) } ?? (0, 0) == (4, 12))
        let calibration = try #require(root["devices"]?.sequence?.first?["calibration"]?.sequence)
        #expect(calibration[3].line == 9 && calibration[3].column == 17, "\(calibration[3].position)")
        #expect(root["empty"]?.isNull == true)
        #expect(root["last"]?.line == 11)
    }

    @Test func quotedScalarsEscapeAndFold() throws {
        let root = try parse(#"""
            a: "tab\there \"q\" \u00e9 \x41 \\ end"
            b: 'it''s # not a comment'
            c: "folded
              onto one line

              and a paragraph"
            d: "joined \
              here"
            "quoted key": 'x'
            """#)
        #expect(root["a"]?.scalar == "tab\there \"q\" é A \\ end")
        #expect(root["b"]?.scalar == "it's # not a comment")
        #expect(root["c"]?.scalar == "folded onto one line\nand a paragraph")
        #expect(root["d"]?.scalar == "joined here")
        #expect(root["quoted key"]?.scalar == "x")
        #expect(root["a"]?.content == .scalar("tab\there \"q\" é A \\ end", .doubleQuoted))
    }

    @Test func blockScalarsKeepOrFoldLines() throws {
        let root = try parse("""
            literal: |
              line one
                indented

              after a blank
            folded: >-
              one
              two

              three
            keep: |+
              text

            next: 1
            """)
        #expect(root["literal"]?.scalar == "line one\n  indented\n\nafter a blank\n")
        #expect(root["folded"]?.scalar == "one two\nthree")
        #expect(root["keep"]?.scalar == "text\n\n")
        #expect(root["next"]?.scalar == "1")
    }

    @Test func anchorsAliasesMarkersAndLineEndings() throws {
        let root = try parse("\u{FEFF}%YAML 1.2\r\n--- # start\r\nbase: &b {x: 1}\r\ncopy: *b\r\nlist:\r\n- &i item\r\n- *i\r\n...\r\n")
        #expect(canonical(root) == "{base:{x:'1'},copy:{x:'1'},list:['item','item']}")
        #expect(root["copy"]?.line == 4)
        #expect(try YAMLParser.parse("# only a comment\n\n") == nil)
        #expect(try YAMLParser.parse("") == nil)
        #expect(try canonical(parse("--- [a, b]\n")) == "['a','b']")
        #expect(try canonical(parse("- - a\n  - b\n- c: 1\n  d: 2\n")) == "[['a','b'],{c:'1',d:'2'}]")
        #expect(try canonical(parse("url: http://x:80/a#b\nk: a:b\n")) == "{url:'http://x:80/a#b',k:'a:b'}")
        #expect(try canonical(parse("seq: [a: 1, b]\nmap: {a, b: }\n")) == "{seq:[{a:'1'},'b'],map:{a:~,b:~}}")
    }

    @Test(arguments: [
        ("a: 1\na: 2\n", 2, 1, "duplicate key \"a\""),
        ("a:\n\tb: 1\n", 2, 1, "a tab in indentation"),
        ("a: [1, 2\n", 1, 4, "a [ list is not closed with ]"),
        ("a: {x: 1\n", 1, 4, "a { mapping is not closed with }"),
        ("a: \"open\n", 1, 4, "a \" string is not closed"),
        ("a: !!str 1\n", 1, 4, "tags (\"!...\") are not supported"),
        ("a: 1\n---\nb: 2\n", 2, 1, "a second document"),
        ("a: 1\n  b: 2\n", 2, 3, "unexpected indentation"),
        ("a: b: c\n", 1, 5, "\": \" inside a plain value"),
        ("a: *nothing\n", 1, 4, "alias *nothing names no anchor before it"),
        ("a: - x\n", 1, 4, "a list cannot start on the line of its key"),
        ("- a\nb: 1\n", 2, 1, "unexpected text"),
        ("a: [1, 2] x\n", 1, 11, "unexpected text after a [...] list"),
        ("? a\n: b\n", 1, 1, "\"? \" keys are not supported"),
        ("a: \"\\q\"\n", 1, 7, "unknown escape \\q"),
        ("a:\n  - 1\n  b: 2\n", 3, 3, "unexpected indentation"),
        ("a: &x &y 1\n", 1, 7, "a node has one anchor at most"),
        ("a: 1\rb: [\r", 2, 4, "a [ list is not closed with ]"),
    ])
    func refusesWithLineAndColumn(_ text: String, _ line: Int, _ column: Int, _ message: String) throws {
        let e = try #require(failure(text), "accepted \(text.debugDescription)")
        #expect(e.line == line && e.column == column, "\(e)")
        #expect(e.message.hasPrefix(message) || e.message.contains(message), "\(e)")
    }

    /// A hostile file cannot exhaust the stack.
    @Test func deepNestingIsRefused() {
        let flow = String(repeating: "[", count: 100_000)
        #expect(failure(flow)?.message.contains("nesting deeper") == true)
        var block = ""
        for i in 0..<1_000 { block += String(repeating: " ", count: i) + "k:\n" }
        #expect(failure(block)?.message.contains("nesting deeper") == true)
    }

    /// A few lines of anchors and aliases cannot expand to billions of nodes ("billion laughs").
    @Test func aliasesRepeatABoundedNumberOfNodes() throws {
        var doc = "l0: &l0 [x, x, x, x, x, x, x, x, x, x]\n"
        for i in 1..<9 { doc += "l\(i): &l\(i) [" + Array(repeating: "*l\(i - 1)", count: 10).joined(separator: ", ") + "]\n" }
        let e = try #require(failure(doc))
        #expect(e.message == "aliases repeat more than 100000 nodes" && e.line == 5, "\(e)")
        // Within the bound, aliases repeat their anchor's node.
        let small = try parse("a: &a {x: [1, 2]}\nb: [*a, *a]\n")
        #expect(small["b"]?.sequence?.map { canonical($0) } == ["{x:['1','2']}", "{x:['1','2']}"])
    }

    /// Random trees written out in block and flow style, with plain and quoted
    /// scalars, read back as the same tree.
    @Test(arguments: 0..<8)
    func randomDocumentsReadBackAsWritten(seed: UInt64) throws {
        var rng = SplitMix(seed: seed)
        for _ in 0..<40 {
            let tree = Tree.random(&rng, depth: 0)
            let text = tree.emitDocument(&rng)
            let root = try YAMLParser.parse(text)
            #expect(root.map(Tree.init) == tree, "\(text)")
        }
    }
}

/// A compact rendering of a node: plain scalars in '', quoted in "", null as ~.
func canonical(_ node: YAMLNode) -> String {
    switch node.content {
    case .scalar(let s, let style):
        if node.isNull { return "~" }
        return style == .plain ? "'\(s)'" : "\"\(s)\""
    case .sequence(let items):
        return "[" + items.map(canonical).joined(separator: ",") + "]"
    case .mapping(let pairs):
        return "{" + pairs.map { "\($0.key.scalar ?? "?"):\(canonical($0.value))" }.joined(separator: ",") + "}"
    }
}

struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}

/// A document's shape: what the parser must give back.
indirect enum Tree: Equatable {
    case text(String)
    case list([Tree])
    case map([String], [Tree])

    init(_ node: YAMLNode) {
        switch node.content {
        case .scalar(let s, _): self = .text(s)
        case .sequence(let items): self = .list(items.map(Tree.init))
        case .mapping(let pairs): self = .map(pairs.map { $0.key.scalar ?? "" }, pairs.map { Tree($0.value) })
        }
    }

    static let words = ["tap", "pan", "0x1f", "-3", "1.5", "Atmel maXTouch", "a/b", "x:y", "ID_INPUT=1", "é", "true", "~"]
    static let hard = ["a: b", "# no", "[x]", "{y}", "it's", "say \"hi\"", "tab\there", "- dash", "", " lead", "trail ", "back\\slash", "line\nbreak"]

    static func random(_ rng: inout SplitMix, depth: Int) -> Tree {
        let roll = depth >= 3 ? 0 : rng.below(4)
        switch roll {
        case 1:
            return .list((0..<(1 + rng.below(4))).map { _ in random(&rng, depth: depth + 1) })
        case 2, 3:
            let n = 1 + rng.below(4)
            let keys = (0..<n).map { "k\($0)\(rng.below(2) == 0 ? "" : "-x")" }
            return .map(keys, keys.map { _ in random(&rng, depth: depth + 1) })
        default:
            return .text(rng.below(3) == 0 ? hard[rng.below(hard.count)] : words[rng.below(words.count)])
        }
    }

    /// A scalar as YAML text: plain when it reads back as itself, otherwise quoted.
    static func scalar(_ s: String, _ rng: inout SplitMix, flow: Bool) -> String {
        let plainSafe = words.contains(s) && s != "~" && !(flow && s.contains(":"))
        if plainSafe && rng.below(3) != 0 { return s }
        if rng.below(2) == 0, !s.contains("\n"), !s.contains("\t") {
            return "'" + s.replacingAll("'", "''") + "'"
        }
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.unicodeScalars.append(c)
            }
        }
        return out + "\""
    }

    func emitFlow(_ rng: inout SplitMix, wrap: Bool) -> String {
        switch self {
        case .text(let s): return Tree.scalar(s, &rng, flow: true)
        case .list(let items): return "[" + items.map { $0.emitFlow(&rng, wrap: wrap) }.joined(separator: wrap && rng.below(2) == 0 ? ",\n  " : ", ") + "]"
        case .map(let keys, let values):
            return "{" + zip(keys, values).map { "\($0): \($1.emitFlow(&rng, wrap: wrap))" }.joined(separator: ", ") + "}"
        }
    }

    /// Lines of block style at `indent`; collections sometimes in flow style.
    func emitBlock(_ rng: inout SplitMix, indent: Int, wrap: Bool) -> [String] {
        let pad = String(repeating: " ", count: indent)
        switch self {
        case .text(let s): return [pad + Tree.scalar(s, &rng, flow: false)]
        case .list(let items):
            var lines: [String] = []
            for item in items {
                let isText: Bool
                if case .text = item { isText = true } else { isText = false }
                if isText {
                    lines.append(pad + "- " + item.emitBlock(&rng, indent: 0, wrap: wrap)[0])
                } else if rng.below(2) == 0 {
                    lines.append(pad + "- " + item.emitFlow(&rng, wrap: wrap))
                } else if case .map = item, rng.below(2) == 0 {
                    // Compact: the first key on the dash's line.
                    var sub = item.emitBlock(&rng, indent: indent + 2, wrap: wrap)
                    sub[0] = pad + "- " + sub[0].dropFirst(indent + 2)
                    lines += sub
                } else {
                    lines.append(pad + "-" + (rng.below(2) == 0 ? "  # note" : ""))
                    lines += item.emitBlock(&rng, indent: indent + 2, wrap: wrap)
                }
            }
            return lines
        case .map(let keys, let values):
            var lines: [String] = []
            for (k, v) in zip(keys, values) {
                switch v {
                case .text:
                    lines.append(pad + k + ": " + v.emitBlock(&rng, indent: 0, wrap: wrap)[0] + (rng.below(3) == 0 ? " # c" : ""))
                case .list where rng.below(3) == 0:
                    lines.append(pad + k + ":")
                    lines += v.emitBlock(&rng, indent: indent, wrap: wrap)  // a list at the key's own indentation
                default:
                    if rng.below(3) == 0 {
                        lines.append(pad + k + ": " + v.emitFlow(&rng, wrap: wrap))
                    } else {
                        lines.append(pad + k + ":")
                        if rng.below(3) == 0 { lines.append("") }
                        lines += v.emitBlock(&rng, indent: indent + 2, wrap: wrap)
                    }
                }
            }
            return lines
        }
    }

    func emitDocument(_ rng: inout SplitMix, wrap: Bool = true) -> String {
        if case .text = self { return (rng.below(2) == 0 ? "--- " : "") + emitBlock(&rng, indent: 0, wrap: wrap)[0] + "\n" }
        return (rng.below(2) == 0 ? "---\n" : "") + emitBlock(&rng, indent: 0, wrap: wrap).joined(separator: "\n") + "\n"
    }
}

extension String {
    func replacingAll(_ a: String, _ b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}
