// SPDX-License-Identifier: MIT
import Testing

@testable import Render

@Suite struct SVGWriterTests {
    @Test func escapesMarkupAndQuotes() {
        #expect(SVGWriter.escape("a<b & \"c\" 'd'>") == "a&lt;b &amp; &quot;c&quot; &apos;d&apos;&gt;")
        #expect(SVGWriter.escape("plain ✓ text") == "plain ✓ text")
    }

    @Test func replacesCharactersXMLForbids() {
        #expect(SVGWriter.escape("bad\u{1}\u{8}name\tok\n") == "bad\u{FFFD}\u{FFFD}name\tok\n")
        #expect(SVGWriter.escape("\u{FFFE}") == "\u{FFFD}")
    }

    @Test func writesNestedElementsAndClosesThem() {
        var w = SVGWriter()
        w.open("svg", [("width", "10")])
        w.open("g", [("class", "x\"y")])
        w.empty("rect", [("width", "1")])
        w.element("text", [], text: "<hi>")
        w.closeAll()
        #expect(w.text == "<svg width=\"10\">\n<g class=\"x&quot;y\">\n<rect width=\"1\"/>\n<text>&lt;hi&gt;</text>\n</g>\n</svg>\n")
    }

    @Test func numbersHaveOneDecimalAndNoNaN() {
        #expect(svgNumber(12) == "12")
        #expect(svgNumber(12.345) == "12.3")
        #expect(svgNumber(-0.46) == "-0.5")
        #expect(svgNumber(-3.25) == "-3.3" || svgNumber(-3.25) == "-3.2")
        #expect(svgNumber(-12.04) == "-12")
        #expect(svgNumber(.nan) == "0")
        #expect(svgNumber(.infinity) == "0")
    }
}
