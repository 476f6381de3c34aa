// SPDX-License-Identifier: MIT
import KernelTesting
import Testing
import TouchCore
@testable import Evdev

/// SYN_DROPPED: the kernel's buffer overflows when the reader falls behind;
/// `readAvailable` must resync and report a state consistent with what was written.
@Suite struct ResyncTests {
    @Test(.requiresUinput)
    func floodingTheDeviceReportsResyncWithCurrentSlots() throws {
        let uinput = try UinputDevice(description: try Fixtures.description(RecordedFixture.all[0].events))
        let device = try EvdevDevice(path: try #require(uinput.devnode))

        // Two fingers down, read by the reader: this is the state it knows.
        try uinput.write(TouchFrames.down(slot: 0, trackingID: 100, x: 100, y: 100))
        try uinput.write(TouchFrames.down(slot: 1, trackingID: 101, x: 200, y: 200))
        var read: [InputEvent] = []
        #expect(try device.readAvailable(into: &read) == .drained)
        var model = SlotModel(slotCount: 10)
        model.apply(read)
        #expect(model.active == [0: SlotModel.Contact(trackingID: 100, x: 100, y: 100),
                                 1: SlotModel.Contact(trackingID: 101, x: 200, y: 200)])

        // Far more frames than the kernel buffers, then finger 1 lifts and a third finger lands.
        let frames = 3000
        for i in 0..<frames {
            let step = Int32(i % 500)
            try uinput.write([
                TouchFrames.abs(EventCode.absMTSlot, 0), TouchFrames.abs(EventCode.absMTPositionX, 101 + step),
                TouchFrames.abs(EventCode.absMTSlot, 1), TouchFrames.abs(EventCode.absMTPositionY, 201 + step),
                TouchFrames.sync,
            ])
        }
        try uinput.write(TouchFrames.up(slot: 1))
        try uinput.write(TouchFrames.down(slot: 2, trackingID: 102, x: 300, y: 300))
        let last = Int32((frames - 1) % 500)

        read.removeAll()
        var resyncs: [DeviceResync] = []
        var beforeDrop: [InputEvent] = []
        reading: for _ in 0..<10 {
            switch try device.readAvailable(into: &read) {
            case .drained: break reading
            case .resynced(let resync):
                resyncs.append(resync)
                beforeDrop.append(contentsOf: read)
                read.removeAll()
            case .removed: Issue.record("device reported removed")
            }
        }
        let resync = try #require(resyncs.last)
        #expect(resyncs.count == 1)

        // Slot 1 lifted; slot 0 at its last position; slot 2 new.
        let expected: [Int: SlotModel.Contact] = [
            0: SlotModel.Contact(trackingID: 100, x: 101 + last, y: 100),
            2: SlotModel.Contact(trackingID: 102, x: 300, y: 300),
        ]
        #expect(resync.slots.count == 10)
        #expect(SlotModel(resync.slots).active == expected)
        #expect(resync.currentSlot == 2)
        #expect(resync.keysDown == [EventCode.btnTouch])
        #expect(resync.syncEvents.last?.isSynReport == true)
        #expect(device.slotStates() == resync.slots)

        // What the reader saw before the drop plus libevdev's sync events lead to the reported state.
        model.apply(beforeDrop)
        model.apply(resync.syncEvents)
        #expect(model.active == expected)
        #expect(read.isEmpty)

        // Reading continues normally after the resync.
        try uinput.write([TouchFrames.abs(EventCode.absMTSlot, 0), TouchFrames.abs(EventCode.absMTPositionX, 700),
                          TouchFrames.sync])
        #expect(try device.readAvailable(into: &read) == .drained)
        model.apply(read)
        #expect(model.active[0]?.x == 700)
    }
}

/// The contacts a protocol B event stream describes, for checking resync consistency.
struct SlotModel {
    struct Contact: Hashable, CustomStringConvertible {
        var trackingID: Int32
        var x: Int32
        var y: Int32
        var description: String { "#\(trackingID)@(\(x),\(y))" }
    }

    private var slots: [Contact]
    private var current = 0

    init(slotCount: Int) {
        slots = Array(repeating: Contact(trackingID: -1, x: 0, y: 0), count: slotCount)
    }

    init(_ states: [SlotSnapshot]) {
        slots = states.map { Contact(trackingID: $0.trackingID, x: $0.x, y: $0.y) }
    }

    /// The slots holding a contact.
    var active: [Int: Contact] {
        var result: [Int: Contact] = [:]
        for (slot, contact) in slots.enumerated() where contact.trackingID >= 0 { result[slot] = contact }
        return result
    }

    mutating func apply(_ events: [InputEvent]) {
        for event in events where event.type == .abs {
            switch event.code {
            case EventCode.absMTSlot: current = Int(event.value)
            case EventCode.absMTTrackingID: slots[current].trackingID = event.value
            case EventCode.absMTPositionX: slots[current].x = event.value
            case EventCode.absMTPositionY: slots[current].y = event.value
            default: break
            }
        }
    }
}
