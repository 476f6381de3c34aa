// SPDX-License-Identifier: MIT
import Testing
import Wire

/// The static names the encoders copy without escaping are the enums' raw
/// values (what clients parse, docs/protocol.md), for every case.
@Suite struct ProtocolNamesTests {
    @Test func touchEnums() {
        for c in WireTouchPhase.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in WireTouchType.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in WireTool.allCases { #expect(c.protocolName.description == c.rawValue) }
    }

    @Test func gestureEnums() {
        for c in WireGestureKind.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in WireGestureState.allCases { #expect(c.protocolName.description == c.rawValue) }
    }

    @Test func gestureFieldEnums() {
        for c in WireSwipeDirection.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in WireEdge.allCases { #expect(c.protocolName.description == c.rawValue) }
    }

    /// The button table names each of the six bits once, in bit order.
    @Test func buttonNames() {
        let table = WireToolButtons.protocolNames
        #expect(table.map(\.button.rawValue) == (0..<6).map { UInt8(1) << $0 })
        #expect(table.map(\.name.description) == ["stylus", "stylus2", "stylus3", "left", "right", "middle"])
        #expect(WireToolButtons([.stylus2, .middle]).names == ["stylus2", "middle"])
    }

    /// Every name is a plain protocol word: nothing `field(_:literal:)` would have had to escape.
    @Test func namesNeedNoEscaping() {
        let names = WireTouchPhase.allCases.map(\.rawValue) + WireTouchType.allCases.map(\.rawValue) + WireTool.allCases.map(\.rawValue)
            + WireGestureKind.allCases.map(\.rawValue) + WireGestureState.allCases.map(\.rawValue)
            + WireSwipeDirection.allCases.map(\.rawValue) + WireEdge.allCases.map(\.rawValue)
        for name in names {
            var w = JSONWriter()
            w.string(name)
            #expect(w.string == "\"\(name)\"")
        }
    }
}
