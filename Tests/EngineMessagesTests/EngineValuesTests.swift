// SPDX-License-Identifier: MIT
import EngineMessages
import Gestures
import Testing
import TouchCore
import TouchMotion
import Wire

/// Every engine case has the protocol value of the same name: the engine's enums and the
/// protocol's stay one vocabulary (docs/protocol.md), though neither module knows the other.
@Suite struct EngineValuesTests {
    @Test func touchEnums() {
        for c in TouchPhase.allCases { #expect(c.wire.rawValue == c.rawValue) }
        for c in TouchType.allCases { #expect(c.wire.rawValue == c.rawValue) }
        for c in Tool.allCases { #expect(c.wire.rawValue == c.rawValue) }
        // Every protocol case is reached: the mappings are one to one.
        #expect(Set(TouchPhase.allCases.map(\.wire)) == Set(WireTouchPhase.allCases))
        #expect(Set(TouchType.allCases.map(\.wire)) == Set(WireTouchType.allCases))
        #expect(Set(Tool.allCases.map(\.wire)) == Set(WireTool.allCases))
    }

    @Test func resampledKinds() {
        for c in ResampledKind.allCases { #expect(c.wire.rawValue == c.rawValue) }
        #expect(Set(ResampledKind.allCases.map(\.wire)) == Set(WireResampledKind.allCases))
    }

    @Test func gestureEnums() {
        for c in GestureKind.allCases { #expect(c.wire.rawValue == c.rawValue) }
        for c in GestureState.allCases { #expect(c.wire.rawValue == c.rawValue) }
        for c in SwipeDirection.allCases { #expect(c.wire.rawValue == c.rawValue) }
        for c in SurfaceEdge.allCases { #expect(c.wire.rawValue == c.rawValue) }
        #expect(Set(GestureKind.allCases.map(\.wire)) == Set(WireGestureKind.allCases))
        #expect(Set(GestureState.allCases.map(\.wire)) == Set(WireGestureState.allCases))
        #expect(Set(SwipeDirection.allCases.map(\.wire)) == Set(WireSwipeDirection.allCases))
        #expect(Set(SurfaceEdge.allCases.map(\.wire)) == Set(WireEdge.allCases))
    }

    /// The button sets share their bits: each engine button is the protocol button of its name.
    @Test func buttons() {
        #expect(ToolButtons.wirePairs.count == WireToolButtons.protocolNames.count)
        for (engine, wire) in ToolButtons.wirePairs {
            #expect(engine.wire == wire)
            #expect(engine.names == wire.names)
        }
        for raw in UInt8(0)...63 { #expect(ToolButtons(rawValue: raw).names == ToolButtons(rawValue: raw).wire.names) }
    }

    @Test func screenValues() {
        for r in Rotation.allCases {
            #expect(r.wire.rawValue == r.rawValue)
            #expect(Rotation(r.wire) == r)
        }
        let insets = ScreenInsets(top: 1, right: 2, bottom: 3, left: 4)
        #expect(ScreenInsets(insets.wire) == insets)
        #expect(SizeMM(SizeMM(width: 5, height: 6).wire) == SizeMM(width: 5, height: 6))
        #expect(HelloScreen.fallbackPixelsPerMillimetre == ScreenGeometry.fallbackPixelsPerMillimetre)
    }

    @Test func dragValues() {
        for o in DropOperation.allCases {
            #expect(o.wire.rawValue == o.rawValue)
            #expect(DropOperation(o.wire) == o)
        }
        for o in [DragOutcome.copy, .move, .cancelled] { #expect(o.wire.rawValue == o.rawValue) }
        for r in [DragEndReason.lifted, .touchCancelled, .sourceGone, .noItems, .timedOut] { #expect(r.wire.rawValue == r.rawValue) }
        let item = DragItem([DragRepresentation(type: "text/plain", data: "Lyon"), DragRepresentation(type: "text/html", data: "<b>")])
        #expect(DragItem(item.wire) == item)
        let roles = DragRoles(offersItems: true, addsItems: false, dropTypes: ["image/*"])
        #expect(DragRoles(roles.wire) == roles)
        // The protocol's limits are the engine's.
        #expect(DragRequest.maxItems == DragSessions.maxItems)
        #expect(DragRequest.maxRepresentations == DragSessions.maxRepresentations)
    }
}
