// SPDX-License-Identifier: MIT
import TouchCore

/// How a call to ``EvdevDevice/readAvailable(into:)`` ended.
package enum ReadOutcome: Hashable, Sendable {
    /// Everything queued was read (the kernel said EAGAIN, or a read took less than the buffer held);
    /// wait for the descriptor to become readable.
    case drained
    /// The kernel dropped events (`SYN_DROPPED`) and the device state was re-read.
    /// Events appended before the drop are valid but their last frame may be
    /// incomplete; reconcile touches with the report, then read again.
    case resynced(DeviceResync)
    /// The device is gone (ENODEV): every touch it had down must be cancelled; close the handle.
    case removed
}

/// What a resync after `SYN_DROPPED` found: the device's state when
/// libevdev re-read it, and the events libevdev synthesized to get there.
package struct DeviceResync: Hashable, Sendable {
    /// Timestamp of the `SYN_DROPPED` event.
    package var droppedAt: Timestamp
    /// libevdev's sync events: the changes from the last state it saw to the
    /// current one (slot changes, keys released or pressed), ending with
    /// `SYN_REPORT`. Empty when nothing changed.
    package var syncEvents: [InputEvent]
    /// Every slot's current state (empty for devices without slots); axes
    /// the device does not declare are nil.
    package var slots: [SlotSnapshot]
    /// The slot the next `ABS_MT_*` event applies to, or nil without slots.
    package var currentSlot: Int?
    /// `EV_KEY` codes currently down, ascending.
    package var keysDown: [UInt16]
    /// Current values of the non-multitouch absolute axes.
    package var axisValues: [UInt16: Int32]

    /// Creates a report.
    package init(
        droppedAt: Timestamp, syncEvents: [InputEvent], slots: [SlotSnapshot], currentSlot: Int?,
        keysDown: [UInt16], axisValues: [UInt16: Int32]
    ) {
        self.droppedAt = droppedAt
        self.syncEvents = syncEvents
        self.slots = slots
        self.currentSlot = currentSlot
        self.keysDown = keysDown
        self.axisValues = axisValues
    }

    /// The slots that hold a contact.
    package var activeSlots: [SlotSnapshot] { slots.filter(\.isActive) }
}
