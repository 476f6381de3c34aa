// SPDX-License-Identifier: MIT
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// A parsed SVG document with class-based queries, for checking what a picture contains.
struct SVGStructure {
    let document: XMLDocument

    /// Parses `svg`; throws when it is not well-formed XML.
    init(_ svg: String) throws {
        document = try XMLDocument(xmlString: svg, options: [])
    }

    /// Elements whose `class` attribute contains `name` as a word.
    func elements(class name: String) throws -> [XMLElement] {
        try document.nodes(forXPath: "//*[contains(concat(' ', normalize-space(@class), ' '), ' \(name) ')]").compactMap { $0 as? XMLElement }
    }

    /// Elements of a class whose attributes have the given values.
    func elements(class name: String, where attributes: [String: String]) throws -> [XMLElement] {
        try elements(class: name).filter { e in attributes.allSatisfy { e[$0.key] == $0.value } }
    }

    /// Descendants of `element` with a class.
    static func descendants(of element: XMLElement, class name: String) throws -> [XMLElement] {
        try element.nodes(forXPath: ".//*[contains(concat(' ', normalize-space(@class), ' '), ' \(name) ')]").compactMap { $0 as? XMLElement }
    }
}

extension XMLElement {
    /// An attribute's value.
    subscript(_ name: String) -> String? {
        // FoundationXML's attribute(forName:) misses attributes of elements in the SVG default namespace.
        (attributes ?? []).first { $0.name == name || $0.localName == name }?.stringValue
    }
}

/// Tests/Fixtures, found from this source file.
let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures")
