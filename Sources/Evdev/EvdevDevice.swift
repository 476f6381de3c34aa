// SPDX-License-Identifier: MIT
import CLibevdev
import TouchCore

/// An open evdev device node (`/dev/input/eventN`).
///
/// libevdev opens and describes the device, selects its clock, grabs it and
/// resyncs after `SYN_DROPPED`; the events themselves are read with `read(2)`,
/// a buffer of them at a time, and checked against libevdev's rules by
/// ``SeenState`` (`libevdev_next_event` cost six times a plain read per frame
/// in the QEMU guest: docs/performance.md, "Reading the kernel's events").
///
/// The device owns its file descriptor and libevdev handle: it opens them in
/// `init` and releases them in ``close()`` (or when it is deinitialized).
/// Timestamps are on `CLOCK_MONOTONIC`, the clock replay uses too.
///
/// Not thread-safe: one reader thread owns a device at a time.
package final class EvdevDevice {
    /// The device node this handle reads.
    package let path: String
    /// What the device declared when it was opened: name, ids, properties, codes, absinfo.
    package let deviceDescription: DeviceDescription
    /// Whether this handle holds the exclusive grab (`EVIOCGRAB`).
    package private(set) var isGrabbed = false

    private var fd: Int32
    private var handle: OpaquePointer?
    /// What the events read so far say of the device's state.
    private var seen: SeenState
    /// The kernel's events of one `read(2)`.
    private var buffer: [input_event]

    /// Opens `path` read-only and non-blocking, switches its timestamps to
    /// `CLOCK_MONOTONIC`, reads its description and optionally grabs it.
    ///
    /// - Throws: ``EvdevError`` naming `path`: `.openFailed` when the node
    ///   cannot be opened, `.notEvdev` when it is not an evdev device,
    ///   `.clockFailed` or `.grabFailed` when the kernel refuses.
    package init(path: String, grab: Bool = false) throws(EvdevError) {
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
        let description = Libevdev.description(handle)
        self.deviceDescription = description
        self.seen = SeenState(handle, description: description)
        self.buffer = [input_event](repeating: input_event(), count: Self.bufferEvents)
    }

    /// Takes over a descriptor of `path` opened earlier (by a previous touchd,
    /// kept in systemd's file descriptor store): what the kernel queued on it
    /// meanwhile is dropped (the state is read afresh), the clock is set, the
    /// description read. `grabbed` says whether this open file holds the grab
    /// (`EVIOCGRAB` belongs to the open file, not the process).
    ///
    /// - Throws: ``EvdevError`` naming `path` when it is not an evdev device
    ///   any more (gone, revoked) or the clock cannot be set; `fd` is closed then.
    package init(adopting fd: Int32, path: String, grabbed: Bool) throws(EvdevError) {
        self.path = path
        Libevdev.drain(fd)
        let handle: OpaquePointer
        do {
            handle = try Libevdev.handle(fd: fd, path: path)
            try Libevdev.useMonotonicClock(handle, path: path)
        } catch {
            Libevdev.closeNode(fd)
            throw error
        }
        self.fd = fd
        self.handle = handle
        self.isGrabbed = grabbed
        let description = Libevdev.description(handle)
        self.deviceDescription = description
        self.seen = SeenState(handle, description: description)
        self.buffer = [input_event](repeating: input_event(), count: Self.bufferEvents)
    }

    /// Events read at a time: a frame of ten fingers with every axis is about 80.
    static let bufferEvents = 128

    deinit { close() }

    /// The file descriptor to wait on (`poll`/`epoll` for readability), or -1 once closed.
    package var fileDescriptor: Int32 { fd }

    /// Whether ``close()`` has been called.
    package var isClosed: Bool { handle == nil }

    /// Takes exclusive access: other readers of the node stop receiving events.
    package func grab() throws(EvdevError) {
        try Libevdev.grab(try openHandle(), exclusive: true, path: path)
        isGrabbed = true
    }

    /// Releases the exclusive grab of the device open on `fd` with a bare
    /// `EVIOCGRAB` 0, from any thread: what a watchdog does when the thread
    /// owning the device stopped making progress (the owner's ``isGrabbed``
    /// is not updated). Errors are ignored: the device may be gone already.
    package static func releaseGrab(ofDescriptor fd: Int32) {
        _ = Libevdev.releaseGrab(fd)
    }

    /// Releases exclusive access taken by ``grab()``.
    package func ungrab() throws(EvdevError) {
        try Libevdev.grab(try openHandle(), exclusive: false, path: path)
        isGrabbed = false
    }

    /// Reads every event the kernel has queued, appending them to `events`.
    ///
    /// - Returns: `.drained` when the queue is empty (EAGAIN, or a read that
    ///   did not fill the buffer: the kernel had no more); `.resynced`
    ///   when the kernel dropped events (`SYN_DROPPED`): `events` then holds
    ///   the events read before the drop (their last frame may be incomplete),
    ///   the report carries libevdev's sync events and the current state, and
    ///   the caller should call again to continue; `.removed` when the device
    ///   is gone (ENODEV): close the handle.
    /// - Throws: ``EvdevError`` `.readFailed` for any other read error,
    ///   `.closed` after ``close()``.
    package func readAvailable(into events: inout [InputEvent]) throws(EvdevError) -> ReadOutcome {
        let handle = try openHandle()
        // The state and the buffer are taken out of the object for the loop: a stored
        // property mutated per event would be an exclusivity check per event.
        var seen = self.seen
        var buffer = self.buffer
        self.seen = .empty
        self.buffer = []
        defer {
            self.seen = seen
            self.buffer = buffer
        }
        while true {
            let result = buffer.withUnsafeMutableBytes { Libevdev.readEvents(fd, into: $0) }
            let count: Int
            switch result {
            case .events(let n): count = n
            case .noMoreData: return .drained
            case .deviceGone: return .removed
            case .failed(let errno):
                throw EvdevError(.readFailed, device: path, message: "cannot read events", errno: errno)
            }
            for i in 0..<count {
                if buffer[i].type == UInt16(EV_SYN) && buffer[i].code == UInt16(SYN_DROPPED) {
                    // What follows the drop in this buffer is in the state libevdev re-reads.
                    return try resync(handle, seen: &seen, droppedAt: Libevdev.inputEvent(buffer[i]).time)
                }
                if seen.admit(&buffer[i]) { events.append(Libevdev.inputEvent(buffer[i])) }
            }
            // A short read emptied the kernel's queue: no second read for its EAGAIN.
            if count < buffer.count { return .drained }
        }
    }

    /// The current state of every multitouch slot, as the events read so far (or the last resync) give it
    /// (empty without slots).
    package func slotStates() -> [SlotSnapshot] {
        guard handle != nil else { return [] }
        return seen.slots(deviceDescription)
    }

    /// The `EV_KEY` codes currently down (`BTN_TOUCH`, `BTN_TOOL_*`, stylus buttons), ascending.
    package func keysDown() -> [UInt16] {
        guard handle != nil else { return [] }
        return seen.keysDown(deviceDescription)
    }

    /// The current value of every non-multitouch absolute axis (`ABS_X`, `ABS_PRESSURE`, tilt...).
    package func axisValues() -> [UInt16: Int32] {
        guard handle != nil else { return [:] }
        return seen.axisValues(deviceDescription)
    }

    /// The device's kernel state as the events read so far (or, before any
    /// read, libevdev's look at the device when it was opened) give it: every
    /// slot's values, the current slot, the keys down and the axes.
    package var state: DeviceState {
        guard handle != nil else { return DeviceState() }
        return DeviceState(slots: seen.slots(deviceDescription), currentSlot: seen.slot,
                           keysDown: seen.keysDown(deviceDescription), axisValues: seen.axisValues(deviceDescription))
    }

    /// Releases the grab, the libevdev handle and the file descriptor. Idempotent.
    package func close() {
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

    // libevdev is given the state this reader saw, then forced to resync: it
    // drains the kernel's queue, re-reads the state, and its sync events are the
    // changes from what was seen; draining them in sync mode brings it back to
    // normal mode. The sync events carry the drop's time (libevdev would stamp
    // them with the last event it read itself, and it reads none).
    private func resync(_ handle: OpaquePointer, seen: inout SeenState, droppedAt time: Timestamp) throws(EvdevError) -> ReadOutcome {
        seen.push(into: handle, description: deviceDescription)
        var rawEvent = input_event()
        switch Libevdev.nextEvent(handle, mode: .forceSync, into: &rawEvent) {
        case .event, .syncEvent, .noMoreData: break
        case .deviceGone: return .removed
        case .failed(let errno):
            throw EvdevError(.readFailed, device: path, message: "cannot resync after SYN_DROPPED", errno: errno)
        }
        var syncEvents: [InputEvent] = []
        drain: while true {
            switch Libevdev.nextEvent(handle, mode: .sync, into: &rawEvent) {
            case .event, .syncEvent:
                var event = Libevdev.inputEvent(rawEvent)
                event.time = time
                syncEvents.append(event)
            case .noMoreData:
                break drain
            case .deviceGone:
                return .removed
            case .failed(let errno):
                throw EvdevError(.readFailed, device: path, message: "cannot resync after SYN_DROPPED", errno: errno)
            }
        }
        seen = SeenState(handle, description: deviceDescription)
        return .resynced(DeviceResync(
            droppedAt: time,
            syncEvents: syncEvents,
            slots: seen.slots(deviceDescription),
            currentSlot: seen.slot,
            keysDown: seen.keysDown(deviceDescription),
            axisValues: seen.axisValues(deviceDescription)
        ))
    }
}
