// SPDX-License-Identifier: MIT
import Gestures
import Testing
import TouchCore
import TouchTesting
@testable import Session

/// Three touches a shortcut takes in one frame while they move, lifted by the fingers before
/// their ending is due: each ends on the mirror (semantics §9, "no app keeps a touch down").
@Suite struct MirrorShortcutClaimTests {
    static func touch(_ id: Int, _ phase: TouchPhase, x: Int32, at ms: Int) -> MirrorTouchEvent {
        let time = MirrorLiftTests.ms(ms)
        var t = Touch(id: TouchID(id), device: DeviceID(rawValue: 0), phase: phase, type: .direct, tool: .finger, time: time, location: .zero)
        t.deviceValues = DeviceContactValues(x: x, y: 1000)
        return MirrorTouchEvent(time: time, phase: phase, touch: t)
    }

    @Test("three touches taken in one frame while moving all end with an up, the fingers lifting first")
    func threeTakenInOneFrame() throws {
        var writer = MirrorEventWriter(mirror: MirrorLiftTests.description, ending: .lift)
        var events: [InputEvent] = []
        func frame(_ steps: [MirrorTouchEvent]) {
            for e in steps { writer.append(e, into: &events) }
            writer.endFrame(at: steps[0].time, into: &events)
        }
        frame((1...3).map { Self.touch($0, .began, x: Int32(3000 + $0 * 1000), at: 0) })
        for k in 1...3 { frame((1...3).map { Self.touch($0, .moved, x: Int32(3000 + $0 * 1000 - k * 400), at: 20 * k) }) }
        frame((1...3).map { Self.touch($0, .cancelled, x: Int32(3000 + $0 * 1000 - 1200), at: 60) })
        // The fingers go on and lift; the mirror's contacts are on their own schedule now.
        frame((1...3).map { Self.touch($0, .ended, x: Int32(3000 + $0 * 1000 - 2400), at: 300) })
        var guardCount = 0
        while let due = writer.nextDeadline, guardCount < 10 {
            writer.advance(to: due, into: &events)
            guardCount += 1
        }
        let back = MirrorLiftTests.readBack(events)
        for id in Set(back.map(\.id)) {
            #expect(back.filter { $0.id == id }.last?.phase == .ended, "\(back.map { "\($0.id.rawValue) \($0.phase)" })")
        }
        #expect(Set(back.map(\.id)).count == 3)
        #expect(writer.activeContacts == 0)
    }
}
