// SPDX-License-Identifier: MIT
/// A device's state as the kernel holds it at one moment: what libevdev read
/// when touchd opened the device (`libevdev_get_slot_value`,
/// `libevdev_get_current_slot`, `libevdev_get_event_value`), or what a trace
/// recorded for it.
///
/// The kernel sends an axis value only when it changes, so a contact that
/// begins where its slot's previous contact was (or on one axis) carries no
/// coordinate for it: a reader that starts from zeros places it wrong
/// (semantics §9, "the first touch is where the finger is"). The pipeline
/// starts a device from this state instead
/// (``TouchPipeline/addDevice(_:description:mapping:state:)``).
package struct DeviceState: Hashable, Sendable {
    /// Every slot's values (empty for a device without slots).
    package var slots: [SlotSnapshot]
    /// The slot the next `ABS_MT_*` event applies to, nil without slots.
    package var currentSlot: Int?
    /// `EV_KEY` codes down, ascending.
    package var keysDown: [UInt16]
    /// Values of the non-multitouch absolute axes (`ABS_X`, `ABS_PRESSURE`, tilt...).
    package var axisValues: [UInt16: Int32]

    /// Creates a state.
    package init(slots: [SlotSnapshot] = [], currentSlot: Int? = nil, keysDown: [UInt16] = [], axisValues: [UInt16: Int32] = [:]) {
        self.slots = slots
        self.currentSlot = currentSlot
        self.keysDown = keysDown
        self.axisValues = axisValues
    }

    /// Whether a contact is down in this state: a slot holds one, or
    /// `BTN_TOUCH` is down. The pipeline ignores such a contact until it lifts.
    package var hasContactDown: Bool {
        slots.contains(where: \.isActive) || keysDown.contains(EventCode.btnTouch)
    }
}
