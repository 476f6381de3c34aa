// SPDX-License-Identifier: MIT
/// Writes an SVG (XML) document as text: every attribute value and text node
/// goes through ``SVGWriter/escape(_:)``, so device names, file names and
/// recognizer names cannot break the markup.
package struct SVGWriter: Sendable {
    /// The document so far.
    package private(set) var text: String
    private var openElements: [String] = []

    /// Starts an empty document (no XML declaration: call ``declaration()`` first for a standalone file).
    package init() {
        text = ""
        text.reserveCapacity(1 << 16)
    }

    /// The XML declaration, first line of a standalone `.svg` file.
    package mutating func declaration() {
        text += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    }

    /// Opens an element; close it with ``close()``.
    package mutating func open(_ name: String, _ attributes: [(String, String)] = []) {
        startTag(name, attributes)
        text += ">\n"
        openElements.append(name)
    }

    /// Closes the innermost open element.
    package mutating func close() {
        guard let name = openElements.popLast() else { return }
        text += "</" + name + ">\n"
    }

    /// Closes every open element (the end of the document).
    package mutating func closeAll() {
        while !openElements.isEmpty { close() }
    }

    /// An element without content.
    package mutating func empty(_ name: String, _ attributes: [(String, String)]) {
        startTag(name, attributes)
        text += "/>\n"
    }

    /// An element whose content is text.
    package mutating func element(_ name: String, _ attributes: [(String, String)], text content: String) {
        startTag(name, attributes)
        text += ">" + Self.escape(content) + "</" + name + ">\n"
    }

    /// A `<title>` child: the tooltip of its parent in a browser.
    package mutating func title(_ content: String) {
        element("title", [], text: content)
    }

    /// Text made safe for XML content and attribute values: `& < > " '` are
    /// escaped, and characters XML 1.0 forbids (C0 controls other than tab,
    /// newline and carriage return, U+FFFE, U+FFFF) become U+FFFD.
    package static func escape(_ s: String) -> String {
        var needs = false
        for u in s.unicodeScalars where isSpecial(u) {
            needs = true
            break
        }
        guard needs else { return s }
        var out = ""
        out.reserveCapacity(s.utf8.count + 16)
        for u in s.unicodeScalars {
            switch u {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            default:
                if isForbidden(u) { out.unicodeScalars.append("\u{FFFD}") } else { out.unicodeScalars.append(u) }
            }
        }
        return out
    }

    private static func isSpecial(_ u: Unicode.Scalar) -> Bool {
        u == "&" || u == "<" || u == ">" || u == "\"" || u == "'" || isForbidden(u)
    }

    private static func isForbidden(_ u: Unicode.Scalar) -> Bool {
        let v = u.value
        if v < 0x20 { return v != 0x09 && v != 0x0A && v != 0x0D }
        return v == 0xFFFE || v == 0xFFFF
    }

    private mutating func startTag(_ name: String, _ attributes: [(String, String)]) {
        text += "<" + name
        for (key, value) in attributes {
            text += " " + key + "=\"" + Self.escape(value) + "\""
        }
    }
}

/// A coordinate or length as SVG text: one decimal, no trailing `.0`, never `nan`.
@inlinable package func svgNumber(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let tenths = Int64((v * 10).rounded())
    let whole = tenths / 10
    let fraction = tenths % 10
    if fraction == 0 { return String(whole) }
    let sign = tenths < 0 && whole == 0 ? "-" : ""
    return sign + String(whole) + "." + String(fraction < 0 ? -fraction : fraction)
}
