import CLibevdev
import TouchCore

/// An open evdev device node (`/dev/input/eventN`) read through libevdev.
///
/// The device owns its file descriptor and libevdev handle: it opens them in
/// `init` and releases them in ``close()`` (or when it is deinitialized).
/// Timestamps are on `CLOCK_MONOTONIC`, the clock replay uses too.
///
/// Not thread-safe: one reader thread owns a device at a time.
public final class EvdevDevice {
    /// The device node this handle reads.
    public let path: String
    /// What the device declared when it was opened: name, ids, properties, codes, absinfo.
    public let deviceDescription: DeviceDescription
    /// Whether this handle holds the exclusive grab (`EVIOCGRAB`).
    public private(set) var isGrabbed = false

    private var fd: Int32
    private var handle: OpaquePointer?

    /// Opens `path` read-only and non-blocking, switches its timestamps to
    /// `CLOCK_MONOTONIC`, reads its description and optionally grabs it.
    ///
    /// - Throws: ``EvdevError`` naming `path`: `.openFailed` when the node
    ///   cannot be opened, `.notEvdev` when it is not an evdev device,
    ///   `.clockFailed` or `.grabFailed` when the kernel refuses.
    public init(path: String, grab: Bool = false) throws(EvdevError) {
        self.path = path
        let fd = try Libevdev.openNode(path)
        let handle: OpaquePointer
        do {
            handle = try Libevdev.handle(fd: fd, path: path)
        } catch {
            Libevdev.closeNode(fd)
            throw error
        }
        do {
            try Libevdev.useMonotonicClock(handle, path: path)
            if grab { try Libevdev.grab(handle, exclusive: true, path: path) }
        } catch {
            Libevdev.free(handle)
            Libevdev.closeNode(fd)
            throw error
        }
        self.fd = fd
        self.handle = handle
        self.isGrabbed = grab
        self.deviceDescription = Libevdev.description(handle)
    }

    deinit { close() }

    /// The file descriptor to wait on (`poll`/`epoll` for readability), or -1 once closed.
    public var fileDescriptor: Int32 { fd }

    /// Whether ``close()`` has been called.
    public var isClosed: Bool { handle == nil }

    /// Takes exclusive access: other readers of the node stop receiving events.
    public func grab() throws(EvdevError) {
        try Libevdev.grab(try openHandle(), exclusive: true, path: path)
        isGrabbed = true
    }

    /// Releases exclusive access taken by ``grab()``.
    public func ungrab() throws(EvdevError) {
        try Libevdev.grab(try openHandle(), exclusive: false, path: path)
        isGrabbed = false
    }

    /// Reads every event the kernel has queued, appending them to `events`.
    ///
    /// - Returns: `.drained` when the queue is empty (EAGAIN); `.resynced`
    ///   when the kernel dropped events (`SYN_DROPPED`): `events` then holds
    ///   the events read before the drop (their last frame may be incomplete),
    ///   the report carries libevdev's sync events and the current state, and
    ///   the caller should call again to continue; `.removed` when the device
    ///   is gone (ENODEV): close the handle.
    /// - Throws: ``EvdevError`` `.readFailed` for any other read error,
    ///   `.closed` after ``close()``.
    public func readAvailable(into events: inout [InputEvent]) throws(EvdevError) -> ReadOutcome {
        let handle = try openHandle()
        var rawEvent = input_event()
        while true {
            switch Libevdev.nextEvent(handle, mode: .normal, into: &rawEvent) {
            case .event:
                events.append(Libevdev.inputEvent(rawEvent))
            case .syncEvent:
                return try resync(handle, droppedAt: Libevdev.inputEvent(rawEvent).time)
            case .noMoreData:
                return .drained
            case .deviceGone:
                return .removed
            case .failed(let errno):
                throw EvdevError(.readFailed, device: path, message: "cannot read events", errno: errno)
            }
        }
    }

    /// The current state of every multitouch slot, as libevdev tracks it (empty without slots).
    public func slotStates() -> [SlotState] {
        guard let handle else { return [] }
        let count = Libevdev.slotCount(handle)
        var slots: [SlotState] = []
        slots.reserveCapacity(count)
        for slot in 0..<count {
            slots.append(SlotState(
                slot: slot,
                trackingID: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTTrackingID),
                x: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTPositionX),
                y: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTPositionY),
                pressure: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTPressure),
                touchMajor: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTTouchMajor),
                touchMinor: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTTouchMinor),
                toolType: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTToolType),
                distance: Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTDistance)
            ))
        }
        return slots
    }

    /// The `EV_KEY` codes currently down (`BTN_TOUCH`, `BTN_TOOL_*`, stylus buttons), ascending.
    public func keysDown() -> [UInt16] {
        guard let handle, let keys = deviceDescription.codes[.key] else { return [] }
        return keys.filter { Libevdev.eventValue(handle, type: .key, code: $0) != 0 }
    }

    /// The current value of every non-multitouch absolute axis (`ABS_X`, `ABS_PRESSURE`, tilt...).
    public func axisValues() -> [UInt16: Int32] {
        guard let handle, let axes = deviceDescription.codes[.abs] else { return [:] }
        var values: [UInt16: Int32] = [:]
        for code in axes where code < EventCode.absMTSlot || code > EventCode.absMTToolY {
            values[code] = Libevdev.eventValue(handle, type: .abs, code: code)
        }
        return values
    }

    /// Releases the grab, the libevdev handle and the file descriptor. Idempotent.
    public func close() {
        guard let handle else { return }
        // Closing the descriptor releases the grab in the kernel as well.
        Libevdev.free(handle)
        Libevdev.closeNode(fd)
        self.handle = nil
        fd = -1
        isGrabbed = false
    }

    private func openHandle() throws(EvdevError) -> OpaquePointer {
        guard let handle else {
            throw EvdevError(.closed, device: path, message: "the device handle is closed")
        }
        return handle
    }

    // libevdev has already re-read the kernel's state; draining the sync
    // events in sync mode hands them over and brings libevdev back to normal mode.
    private func resync(_ handle: OpaquePointer, droppedAt time: Timestamp) throws(EvdevError) -> ReadOutcome {
        var syncEvents: [InputEvent] = []
        var rawEvent = input_event()
        drain: while true {
            switch Libevdev.nextEvent(handle, mode: .sync, into: &rawEvent) {
            case .event, .syncEvent:
                syncEvents.append(Libevdev.inputEvent(rawEvent))
            case .noMoreData:
                break drain
            case .deviceGone:
                return .removed
            case .failed(let errno):
                throw EvdevError(.readFailed, device: path, message: "cannot resync after SYN_DROPPED", errno: errno)
            }
        }
        return .resynced(DeviceResync(
            droppedAt: time,
            syncEvents: syncEvents,
            slots: slotStates(),
            currentSlot: Libevdev.slotCount(handle) > 0 ? Libevdev.currentSlot(handle) : nil,
            keysDown: keysDown(),
            axisValues: axisValues()
        ))
    }
}
