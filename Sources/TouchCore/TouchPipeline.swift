// SPDX-License-Identifier: MIT
/// Everything the pipeline knows about one device.
package struct DeviceInfo: Hashable, Sendable {
    /// The device's id in the pipeline.
    package var id: DeviceID
    /// Its description.
    package var description: DeviceDescription
    /// What it is.
    package var classification: DeviceClassification
    /// Its physical size and unit conversions.
    package var geometry: DeviceGeometry
    /// How it maps onto its screen.
    package var mapping: DeviceMapping
    /// The screen it maps onto (``DeviceMapping/screen`` resolved; screen 0 when that index does not exist).
    package var screen: ScreenConfiguration
    /// Creates a device info.
    package init(id: DeviceID, description: DeviceDescription, classification: DeviceClassification,
                geometry: DeviceGeometry, mapping: DeviceMapping, screen: ScreenConfiguration) {
        self.id = id
        self.description = description
        self.classification = classification
        self.geometry = geometry
        self.mapping = mapping
        self.screen = screen
    }
}

/// The state of one multitouch slot as libevdev reports it after a sync
/// (`libevdev_get_slot_value` for each `ABS_MT_*` code).
package struct SlotSnapshot: Hashable, Sendable {
    /// The slot index (ignored for protocol-A devices).
    package var slot: Int
    /// `ABS_MT_TRACKING_ID`; -1 = no contact.
    package var trackingID: Int32
    /// `ABS_MT_POSITION_X`.
    package var x: Int32
    /// `ABS_MT_POSITION_Y`.
    package var y: Int32
    /// `ABS_MT_PRESSURE`, when the device has it.
    package var pressure: Int32?
    /// `ABS_MT_TOUCH_MAJOR`, when the device has it.
    package var touchMajor: Int32?
    /// `ABS_MT_TOUCH_MINOR`, when the device has it.
    package var touchMinor: Int32?
    /// `ABS_MT_TOOL_TYPE` (`MT_TOOL_*`), when the device has it.
    package var toolType: Int32?
    /// `ABS_MT_DISTANCE`, when the device has it.
    package var distance: Int32?
    /// Whether a contact is in the slot (tracking id not -1).
    @inlinable package var isActive: Bool { trackingID >= 0 }
    /// Creates a snapshot.
    package init(slot: Int, trackingID: Int32, x: Int32 = 0, y: Int32 = 0, pressure: Int32? = nil,
                touchMajor: Int32? = nil, touchMinor: Int32? = nil, toolType: Int32? = nil, distance: Int32? = nil) {
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
}

/// From evdev events of any number of devices to typed touches, frame by frame.
///
/// Deterministic and clock-free: frame times are `SYN_REPORT` times. Touch ids
/// are unique across the pipeline's devices, handed out from 1 in order of
/// appearance. The per-event path does not allocate in steady state: the
/// returned frame's array is reused by the next call (drop it before then).
package struct TouchPipeline: Sendable {
    /// The screens devices map onto.
    package private(set) var screens: [ScreenConfiguration]
    /// Per-device state in the order devices were added; `directory` finds a device's position.
    private var assemblers: [DeviceFrameAssembler] = []
    private var directory = DeviceDirectory()
    private var ids = TouchIDAllocator()
    private var buffer: [Touch] = []
    /// Events received for devices the pipeline does not know (ignored).
    package private(set) var unknownDeviceEvents = 0
    /// Counts geometry changes: a touch keeps the placement of the generation it began in.
    private var generation: UInt32 = 0

    /// Creates a pipeline; with no screens, one default screen is used.
    package init(screens: [ScreenConfiguration] = [ScreenConfiguration()]) {
        self.screens = screens.isEmpty ? [ScreenConfiguration()] : screens
        buffer.reserveCapacity(32)
    }

    /// Forgets every device (their touches end without a frame: call
    /// ``finish(at:)`` first) and takes new screens. Touch ids keep counting, so
    /// an id is never handed out twice by one pipeline (a daemon reloading its
    /// configuration keeps its clients' ids unique).
    package mutating func reset(screens: [ScreenConfiguration]) {
        self.screens = screens.isEmpty ? [ScreenConfiguration()] : screens
        assemblers.removeAll()
        directory = DeviceDirectory()
        buffer.removeAll(keepingCapacity: true)
    }

    /// Adds (or replaces) a device and returns what the pipeline made of it.
    ///
    /// `state` is the device's state when it was opened (or when a trace
    /// began): its slots, current slot, keys and axes start from it, not from
    /// zeros, so a contact that begins without repeating an unchanged axis is
    /// placed where the device says (semantics §9). A contact already down in
    /// `state` is ignored until it lifts: its beginning was never seen, and a
    /// touch is never delivered half-way.
    @discardableResult
    package mutating func addDevice(
        _ id: DeviceID, description original: DeviceDescription, mapping: DeviceMapping = DeviceMapping(), state: DeviceState? = nil
    ) -> DeviceInfo {
        // libinput quirks may add or remove codes and properties (AttrEventCode, AttrInputProp).
        let changes = mapping.quirks.capabilityChanges
        let description = changes.isEmpty ? original : changes.applied(to: original)
        let classification = DeviceClassification(description)
        var geometry = DeviceGeometry(description, classification: classification, override: mapping.sizeMM)
        if mapping.sizeFromQuirk && geometry.source == .override { geometry.source = .quirk }
        let screenIndex = screens.indices.contains(mapping.screen) ? mapping.screen : 0
        let info = DeviceInfo(id: id, description: description, classification: classification,
                              geometry: geometry, mapping: mapping, screen: screens[screenIndex])
        var assembler = DeviceFrameAssembler(info: info, screenIndex: screenIndex, generation: generation)
        if let state { assembler.seed(state) }
        if let p = directory.position(of: id) {
            assemblers[p] = assembler
        } else {
            directory.set(id, position: assemblers.count)
            assemblers.append(assembler)
        }
        return info
    }

    /// Takes new screens and device mappings while touches are down
    /// (semantics §11): touches that begin from now on map with the new
    /// geometry; touches already down finish in the geometry they began in
    /// (no jump, no lost end). `mappings` gives a device its new mapping (devices
    /// not in it keep theirs). Returns the devices whose ``DeviceInfo`` changed.
    @discardableResult
    package mutating func changeGeometry(screens new: [ScreenConfiguration], mappings: [DeviceID: DeviceMapping] = [:]) -> [DeviceInfo] {
        screens = new.isEmpty ? [ScreenConfiguration()] : new
        generation &+= 1
        var changed: [DeviceInfo] = []
        for p in assemblers.indices {
            let old = assemblers[p].info
            let mapping = mappings[old.id] ?? old.mapping
            let screenIndex = screens.indices.contains(mapping.screen) ? mapping.screen : 0
            var info = old
            info.mapping = mapping
            info.screen = screens[screenIndex]
            if mapping.sizeMM != old.mapping.sizeMM {
                info.geometry = DeviceGeometry(old.description, classification: old.classification, override: mapping.sizeMM)
            }
            assemblers[p].remap(info, screenIndex: screenIndex, generation: generation)
            if info != old { changed.append(info) }
        }
        return changed
    }

    /// The kernel state of a device as the events fed so far say (its slots,
    /// current slot, keys and axes), nil when the device is not added: what
    /// ``addDevice(_:description:mapping:state:)`` needs to take the device
    /// up again after it was removed and added anew (a new mapping, a reload).
    package func deviceState(_ id: DeviceID) -> DeviceState? { directory.position(of: id).map { assemblers[$0].state } }

    /// The device with `id`, if added.
    package func device(_ id: DeviceID) -> DeviceInfo? { directory.position(of: id).map { assemblers[$0].info } }

    /// All devices, in the order they were added.
    package var devices: [DeviceInfo] { assemblers.map(\.info) }

    /// Touches in contact on all devices (hovering styluses excluded).
    package var activeTouchCount: Int { assemblers.reduce(0) { $0 + $1.activeTouchCount } }

    /// Feeds one event; returns a frame when a `SYN_REPORT` completes a frame that changed a touch.
    package mutating func process(_ event: InputEvent, from device: DeviceID) -> TouchFrame? {
        // Most events leave the buffer empty; clearing an empty array still costs a call.
        if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
        guard let p = directory.position(of: device) else {
            unknownDeviceEvents += 1
            return nil
        }
        // In place: the assembler is large, and a copy per event would cost more than the event.
        let completed = assemblers[p].handle(event, ids: &ids, into: &buffer)
        guard completed && !buffer.isEmpty else { return nil }
        return TouchFrame(device: device, time: event.time, touches: buffer)
    }

    /// Feeds `events[start...]` of one device until one completes a frame
    /// that changed a touch: that frame (nil when none did) and the index of
    /// the first event not fed. The same as calling ``process(_:from:)`` for
    /// each, with the device looked up once: a caller that keeps the pipeline
    /// in a class (the daemon's engine) enters it once per frame, not once per event.
    package mutating func process(_ events: [InputEvent], startingAt start: Int, from device: DeviceID) -> (frame: TouchFrame?, next: Int) {
        if !buffer.isEmpty { buffer.removeAll(keepingCapacity: true) }
        guard start < events.count else { return (nil, events.count) }
        guard let p = directory.position(of: device) else {
            unknownDeviceEvents += events.count - start
            return (nil, events.count)
        }
        var i = start
        while i < events.count {
            let event = events[i]
            i += 1
            if assemblers[p].handle(event, ids: &ids, into: &buffer) {
                if !buffer.isEmpty { return (TouchFrame(device: device, time: event.time, touches: buffer), i) }
            }
        }
        return (nil, i)
    }

    /// Removes a device; its active touches are cancelled and its hover spans end.
    package mutating func removeDevice(_ id: DeviceID, at time: Timestamp) -> TouchFrame? {
        guard let p = directory.position(of: id) else { return nil }
        var a = assemblers.remove(at: p)
        directory.set(id, position: nil)
        for q in p..<assemblers.count { directory.set(assemblers[q].info.id, position: q) }
        buffer.removeAll(keepingCapacity: true)
        a.cancelAll(time: time, into: &buffer)
        return buffer.isEmpty ? nil : TouchFrame(device: id, time: time, touches: buffer)
    }

    /// End of input: every active touch is cancelled and every hover span ends,
    /// one frame per device that had something active, in device order.
    package mutating func finish(at time: Timestamp) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        for p in assemblers.indices {
            buffer.removeAll(keepingCapacity: true)
            assemblers[p].cancelAll(time: time, into: &buffer)
            if !buffer.isEmpty { frames.append(TouchFrame(device: assemblers[p].info.id, time: time, touches: buffer)) }
        }
        buffer.removeAll(keepingCapacity: true)
        return frames
    }

    /// Brings a device back in step after `SYN_DROPPED`, from the state libevdev
    /// reports after its sync: the slots, the keys held (`BTN_TOOL_*`, `BTN_TOUCH`,
    /// `BTN_STYLUS*`...) and the current absolute values of non-MT axes.
    ///
    /// Touches whose contact disappeared or changed identity are cancelled (not
    /// ended); new contacts begin; contacts still there move.
    package mutating func resync(
        device: DeviceID, slots: [SlotSnapshot], keysDown: [UInt16] = [], absValues: [UInt16: Int32] = [:], at time: Timestamp
    ) -> TouchFrame? {
        guard let p = directory.position(of: device) else { return nil }
        var a = assemblers[p]
        buffer.removeAll(keepingCapacity: true)
        a.endDropping()
        let d = a.info.description
        func feed(_ type: EventType, _ code: UInt16, _ value: Int32) {
            _ = a.handle(InputEvent(time: time, type: type, code: code, value: value), ids: &ids, lift: .cancelled, into: &buffer)
        }
        for code in d.codes[.key]?.codes ?? [] where code >= EventCode.btnLeft && code <= EventCode.btnToolQuadTap {
            feed(.key, code, keysDown.contains(code) ? 1 : 0)
        }
        for code in absValues.keys.sorted() where code < EventCode.absMTSlot { feed(.abs, code, absValues[code]!) }
        let sendsTrackingID = d.supports(.abs, EventCode.absMTTrackingID)
        func feedSlot(_ s: SlotSnapshot) {
            if sendsTrackingID || a.info.classification.contactProtocol != .anonymous {
                feed(.abs, EventCode.absMTTrackingID, s.trackingID)
            }
            guard s.trackingID >= 0 else { return }
            feed(.abs, EventCode.absMTPositionX, s.x)
            feed(.abs, EventCode.absMTPositionY, s.y)
            if let v = s.pressure { feed(.abs, EventCode.absMTPressure, v) }
            if let v = s.touchMajor { feed(.abs, EventCode.absMTTouchMajor, v) }
            if let v = s.touchMinor { feed(.abs, EventCode.absMTTouchMinor, v) }
            if let v = s.toolType { feed(.abs, EventCode.absMTToolType, v) }
            if let v = s.distance { feed(.abs, EventCode.absMTDistance, v) }
        }
        switch a.info.classification.contactProtocol {
        case .slotted(let n):
            for i in 0..<max(1, n) {
                feed(.abs, EventCode.absMTSlot, Int32(i))
                feedSlot(slots.first { $0.slot == i } ?? SlotSnapshot(slot: i, trackingID: -1))
            }
        case .anonymous:
            for s in slots where s.trackingID >= 0 {
                feedSlot(s)
                feed(.syn, EventCode.synMTReport, 0)
            }
        case .singleTouch, .none:
            break
        }
        _ = a.handle(InputEvent(time: time, type: .syn, code: EventCode.synReport, value: 0), ids: &ids, lift: .cancelled, into: &buffer)
        assemblers[p] = a
        return buffer.isEmpty ? nil : TouchFrame(device: device, time: time, touches: buffer)
    }
}
