import TouchCore

/// How a call to ``EvdevDevice/readAvailable(into:)`` ended.
public enum ReadOutcome: Hashable, Sendable {
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

/// The state of one multitouch slot (`libevdev_get_slot_value`), used to
/// reconcile touches after `SYN_DROPPED`.
///
/// Axes the device does not declare read as 0.
public struct SlotState: Hashable, Sendable {
    /// The slot number (`ABS_MT_SLOT` value).
    public var slot: Int
    /// `ABS_MT_TRACKING_ID`: -1 when the slot is empty.
    public var trackingID: Int32
    /// `ABS_MT_POSITION_X`
    public var x: Int32
    /// `ABS_MT_POSITION_Y`
    public var y: Int32
    /// `ABS_MT_PRESSURE`
    public var pressure: Int32
    /// `ABS_MT_TOUCH_MAJOR`
    public var touchMajor: Int32
    /// `ABS_MT_TOUCH_MINOR`
    public var touchMinor: Int32
    /// `ABS_MT_TOOL_TYPE` (`MT_TOOL_FINGER` = 0, `MT_TOOL_PEN` = 1, `MT_TOOL_PALM` = 2).
    public var toolType: Int32
    /// `ABS_MT_DISTANCE`: 0 touching, above 0 hovering.
    public var distance: Int32

    /// Creates a slot state.
    public init(
        slot: Int, trackingID: Int32, x: Int32 = 0, y: Int32 = 0, pressure: Int32 = 0,
        touchMajor: Int32 = 0, touchMinor: Int32 = 0, toolType: Int32 = 0, distance: Int32 = 0
    ) {
        self.slot = slot
        self.trackingID = trackingID
        self.x = x
        self.y = y
        self.pressure = pressure
        self.touchMajor = touchMajor
        self.touchMinor = touchMinor
        self.toolType = toolType
        self.distance = distance
    }

    /// Whether a contact is in the slot (tracking id not -1).
    @inlinable public var isActive: Bool { trackingID >= 0 }
}

/// What a resync after `SYN_DROPPED` found: the device's state when
/// libevdev re-read it, and the events libevdev synthesized to get there.
public struct DeviceResync: Hashable, Sendable {
    /// Timestamp of the `SYN_DROPPED` event.
    public var droppedAt: Timestamp
    /// libevdev's sync events: the changes from the last state it saw to the
    /// current one (slot changes, keys released or pressed), ending with
    /// `SYN_REPORT`. Empty when nothing changed.
    public var syncEvents: [InputEvent]
    /// Every slot's current state (empty for devices without slots).
    public var slots: [SlotState]
    /// The slot the next `ABS_MT_*` event applies to, or nil without slots.
    public var currentSlot: Int?
    /// `EV_KEY` codes currently down, ascending.
    public var keysDown: [UInt16]
    /// Current values of the non-multitouch absolute axes.
    public var axisValues: [UInt16: Int32]

    /// Creates a report.
    public init(
        droppedAt: Timestamp, syncEvents: [InputEvent], slots: [SlotState], currentSlot: Int?,
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
    public var activeSlots: [SlotState] { slots.filter(\.isActive) }
}
