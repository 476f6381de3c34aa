// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import Wire

/// The static names the encoders copy without escaping are the enums' raw
/// values (what clients parse, docs/protocol.md), for every case.
@Suite struct ProtocolNamesTests {
    @Test func touchEnums() {
        for c in TouchPhase.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in TouchType.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in Tool.allCases { #expect(c.protocolName.description == c.rawValue) }
    }

    @Test func gestureEnums() {
        for c in GestureKind.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in GestureState.allCases { #expect(c.protocolName.description == c.rawValue) }
    }

    @Test func gestureFieldEnums() {
        for c in SwipeDirection.allCases { #expect(c.protocolName.description == c.rawValue) }
        for c in SurfaceEdge.allCases { #expect(c.protocolName.description == c.rawValue) }
    }

    /// The button table gives `ToolButtons.names` for every combination of buttons.
    @Test func buttonNames() {
        for raw in UInt8(0)...63 {
            let buttons = ToolButtons(rawValue: raw)
            let fromTable = ToolButtons.protocolNames.filter { buttons.contains($0.button) }.map(\.name.description)
            #expect(fromTable == buttons.names)
        }
    }

    /// Every name is a plain protocol word: nothing `field(_:literal:)` would have had to escape.
    @Test func namesNeedNoEscaping() {
        let names = TouchPhase.allCases.map(\.rawValue) + TouchType.allCases.map(\.rawValue) + Tool.allCases.map(\.rawValue)
            + GestureKind.allCases.map(\.rawValue) + GestureState.allCases.map(\.rawValue)
        for name in names {
            var w = JSONWriter()
            w.string(name)
            #expect(w.string == "\"\(name)\"")
        }
    }
}
