// SPDX-License-Identifier: MIT
import FuzzSupport
import Gestures
import YAMLReader

/// libFuzzer entry: the input is YAML text (a configuration file).
///
/// - The parser never crashes; a refusal names a line and column inside the text.
/// - An accepted document, written out again in flow style with every scalar
///   double-quoted (nulls as `~`), reads back as the same tree.
/// - The gesture part decodes or is refused with a DecodingError (never a crash),
///   and what decodes validates or is refused.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let root: YAMLNode?
    do {
        root = try YAMLParser.parse(bytes)
    } catch {
        // Line breaks as YAML counts them: LF, CR LF or a lone CR.
        var lines = 1
        for (i, b) in bytes.enumerated() where b == 0x0A || (b == 0x0D && (i + 1 == bytes.count || bytes[i + 1] != 0x0A)) {
            lines += 1
        }
        precondition(error.line >= 1 && error.line <= lines + 1 && error.column >= 1 && !error.message.isEmpty, "\(error)")
        return 0
    }
    guard let root else { return 0 }
    let text = FlowWriter.write(root)
    do {
        let again = try YAMLParser.parse(text)
        precondition(again.map(FlowWriter.shape) == FlowWriter.shape(root), "read back differently: \(text)")
    } catch {
        // The flow form nests one level deeper at its scalars.
        precondition(error.message.hasPrefix("nesting deeper"), "\(error) reading back \(text)")
        return 0
    }
    if let configuration = try? YAMLDecoder().decode(GestureConfiguration.self, from: root) {
        _ = try? configuration.validate()
    }
    return 0
}

/// libFuzzer's start hook: writes the seed corpus when asked (see ``SeedCorpus``).
@_cdecl("LLVMFuzzerInitialize")
package func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    SeedCorpus.writeIfAsked {
        SeedCorpus.projectFiles(["config/touchd.yaml", "Tests/Fixtures/synthetic/edge-swipes.yaml", "Tests/Fixtures/synthetic/edge-swipes-deferred.yaml"])
            + FlowWriter.seeds.enumerated().map { ("inline-\($0.offset)", Array($0.element.utf8)) }
    }
    return 0
}

/// The tree written on one line in flow style.
enum FlowWriter {
    static func write(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let s, _):
            return node.isNull ? "~" : quoted(s)
        case .sequence(let items):
            return "[" + items.map(write).joined(separator: ", ") + "]"
        case .mapping(let pairs):
            return "{" + pairs.map { quoted($0.key.scalar ?? "") + ": " + write($0.value) }.joined(separator: ", ") + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for c in s.unicodeScalars {
            switch c {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default:
                if c.value < 0x20 || c.value == 0x7F {
                    let hex = String(c.value, radix: 16)
                    out += "\\x" + (hex.count < 2 ? "0" : "") + hex
                } else {
                    out.unicodeScalars.append(c)
                }
            }
        }
        return out + "\""
    }

    /// Structure, scalar text and null-ness (not how a scalar was written).
    static func shape(_ node: YAMLNode) -> String {
        switch node.content {
        case .scalar(let s, _): return node.isNull ? "~" : quoted(s)
        case .sequence(let items): return "[" + items.map(shape).joined(separator: ",") + "]"
        case .mapping(let pairs): return "{" + pairs.map { quoted($0.key.scalar ?? "") + ":" + shape($0.value) }.joined(separator: ",") + "}"
        }
    }

    static let seeds = [
        "replaceDefaults: true\nsurfaces:\n  - id: kiosk\n    frame: {x: 0, y: 0, width: 100, height: 100}\n    recognizers: [{name: tap, kind: tap}]\n",
        "recognizers:\n- name: swipe3\n  kind: swipe\n  minTouches: 3\n  maxTouches: 3\n",
        "a: &x {b: [1, 2, 'q''s']}\nc: *x\nd: |\n  text\n   more\ne: >-\n  one\n  two\n",
        "--- \"esc \\u00e9 \\x41\\n\"\n...\n",
    ]
}
