// SPDX-License-Identifier: MIT
import DrawingStyle
import Testing
import Wire

/// The live page gets the same symbols and strokes as the pictures (docs/visualisation.md).
@Suite struct RenderStyleTests {
    @Test func theLivePagesConstantsAreThePicturesOnes() {
        let js = RenderStyle.javaScriptConstants
        for s in WireGestureState.allCases { #expect(js.contains("\"\(s.rawValue)\":\"\(RenderStyle.symbol(of: s))\"")) }
        for d in WireSwipeDirection.allCases { #expect(js.contains("\"\(d.rawValue)\":\"\(RenderStyle.arrow(of: d))\"")) }
        #expect(js.contains("pathWidth:2.5,indirectDashes:\"1 5\",hoverDashes:\"6 4\""))
        #expect(RenderStyle.color(ofTouch: 11) == RenderStyle.touchColors[1])
    }
}
