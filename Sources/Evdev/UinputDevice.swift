// SPDX-License-Identifier: MIT
import CLibevdev
import SystemCalls
import TouchCore

/// A virtual input device created through `/dev/uinput` from a
/// ``DeviceDescription``: to the kernel and every reader it looks like the
/// hardware that was described (name, ids, properties, codes, absinfo).
///
/// Used by the kernel tests and by `touchctl replay --live`. The device
/// exists until ``close()`` (or deinitialization) destroys it.
/// Force-feedback capabilities are not replicated.
package final class UinputDevice {
    /// The description the device was created from.
    package let deviceDescription: DeviceDescription
    /// The device's node, `/dev/input/eventN`, when libevdev could find it.
    package let devnode: String?
    /// The device's sysfs path (`/sys/devices/virtual/input/inputN`), when known.
    package let syspath: String?

    private var handle: OpaquePointer?
    private var uinput: OpaquePointer?
    private var batchBuffer: [input_event] = []
    /// `/dev/uinput` opened here to set the phys (libevdev closes the one it opens itself).
    private var uinputFD: Int32?
    /// The descriptor of a device created by another process and taken over
    /// (``init(adopting:description:)``): written and destroyed directly.
    private var adoptedFD: Int32?

    /// Creates the device. Needs write access to `/dev/uinput`.
    ///
    /// The description's ``DeviceDescription/phys``, when set, becomes the
    /// device's phys (`UI_SET_PHYS`): libinput's and udev's rules that group
    /// devices by phys then see it as the described hardware.
    ///
    /// - Throws: ``EvdevError`` `.uinputFailed` naming the device when
    ///   `/dev/uinput` is missing or the kernel rejects the description.
    package init(description: DeviceDescription) throws(EvdevError) {
        let handle = try Libevdev.handle(declaring: description)
        let created: (device: OpaquePointer, uinputFD: Int32?)
        do {
            created = try Libevdev.createUinput(from: handle, name: description.name, phys: description.phys)
        } catch {
            Libevdev.free(handle)
            throw error
        }
        self.deviceDescription = description
        self.handle = handle
        self.uinput = created.device
        self.uinputFD = created.uinputFD
        self.devnode = Libevdev.uinputDevnode(created.device)
        self.syspath = Libevdev.uinputSyspath(created.device)
    }

    /// Takes over a uinput device created earlier on `fd` (by a previous
    /// touchd, kept in systemd's file descriptor store), declaring
    /// `description`: the device stays as it is, nothing is created.
    ///
    /// - Throws: ``EvdevError`` `.uinputFailed` when `fd` holds no created
    ///   device (`UI_GET_SYSNAME` fails: destroyed, or never created).
    package init(adopting fd: Int32, description: DeviceDescription) throws(EvdevError) {
        guard let sysname = Libevdev.uinputSysname(fd) else {
            throw EvdevError(.uinputFailed, device: description.name, message: "the stored uinput descriptor holds no device", errno: 19 /* ENODEV */)
        }
        self.deviceDescription = description
        self.adoptedFD = fd
        self.syspath = "/sys/devices/virtual/input/" + sysname
        self.devnode = Libevdev.eventNode(syspath: "/sys/devices/virtual/input/" + sysname)
    }

    deinit { close() }

    /// Whether ``close()`` has been called.
    package var isClosed: Bool { uinput == nil && adoptedFD == nil }

    /// Lets go of the device without destroying it (another process holds a
    /// duplicate of its descriptor and takes it over): the descriptor is
    /// closed, the device stays. Idempotent.
    package func detach() {
        if let adoptedFD { Libevdev.closeNode(adoptedFD) }
        adoptedFD = nil
        // libevdev's uinput handle would destroy the device when freed: it is left to the process's exit.
        uinput = nil
        uinputFD = nil
        handle = nil
    }

    /// Injects one event. The kernel stamps it with the current time; write
    /// `SYN_REPORT` to end a frame.
    package func write(type: EventType, code: UInt16, value: Int32) throws(EvdevError) {
        guard let uinput else {
            throw EvdevError(.closed, device: name, message: "the uinput device is destroyed")
        }
        try Libevdev.uinputWrite(uinput, type: type.rawValue, code: code, value: value, device: name)
    }

    /// Injects one event (its timestamp is ignored: the kernel stamps events itself).
    package func write(_ event: InputEvent) throws(EvdevError) {
        try write(type: event.type, code: event.code, value: event.value)
    }

    /// Injects events in order (timestamps ignored).
    package func write(_ events: some Sequence<InputEvent>) throws(EvdevError) {
        for event in events { try write(event) }
    }

    /// Injects events in order with one `write(2)` (timestamps ignored): what
    /// a pass-through mirror does with each frame.
    package func writeBatch(_ events: [InputEvent]) throws(EvdevError) {
        if let adoptedFD {
            guard !events.isEmpty else { return }
            try Libevdev.writeEvents(adoptedFD, events, buffer: &batchBuffer, device: name)
            return
        }
        guard let uinput else {
            throw EvdevError(.closed, device: name, message: "the uinput device is destroyed")
        }
        guard !events.isEmpty else { return }
        try Libevdev.uinputWrite(uinput, events, buffer: &batchBuffer, device: name)
    }

    /// The device's `/dev/uinput` descriptor (-1 once destroyed): a process
    /// holding a duplicate (the pass-through guard) can write to the device,
    /// and keeps it alive after this one is gone.
    package var fileDescriptor: Int32 { adoptedFD ?? uinput.map { Libevdev.uinputDescriptor($0) } ?? -1 }

    /// Ends every contact of a multitouch uinput device open on `fd`, from any
    /// process holding the descriptor: each of `slots` slots gets tracking id
    /// -1 (the kernel drops it for a slot without contact), then `BTN_TOUCH`,
    /// the finger-count keys, the stylus buttons and the pen tools go up (a
    /// pen's tip up and proximity out), in one frame. False when the write fails.
    package static func endContacts(onDescriptor fd: Int32, slots: Int) -> Bool {
        var events: [input_event] = []
        func add(_ type: Int32, _ code: UInt16, _ value: Int32) {
            var e = input_event()
            e.type = UInt16(type)
            e.code = code
            e.value = value
            events.append(e)
        }
        for s in 0..<max(1, slots) {
            add(EV_ABS, EventCode.absMTSlot, Int32(s))
            add(EV_ABS, EventCode.absMTTrackingID, -1)
        }
        for code in [EventCode.btnTouch, EventCode.btnToolFinger, EventCode.btnToolDoubleTap, EventCode.btnToolTripleTap,
                     EventCode.btnToolQuadTap, EventCode.btnToolQuintTap, EventCode.btnStylus, EventCode.btnStylus2,
                     EventCode.btnStylus3] {
            add(EV_KEY, code, 0)
        }
        // A pen leaves proximity (its tip went up with BTN_TOUCH); the kernel drops codes the device lacks.
        for tool in DeviceClassification.penToolCodes { add(EV_KEY, tool.code, 0) }
        add(EV_SYN, EventCode.synReport, 0)
        return events.withUnsafeBytes { bytes in
            (try? Syscall.writeAll(fd, bytes)) != nil
        }
    }

    /// Destroys the device: readers see ENODEV and udev reports its removal. Idempotent.
    package func close() {
        if let adoptedFD {
            Libevdev.destroyUinput(descriptor: adoptedFD)
            Libevdev.closeNode(adoptedFD)
            self.adoptedFD = nil
        }
        if let uinput { Libevdev.destroyUinput(uinput) }
        if let uinputFD { Libevdev.closeNode(uinputFD) }
        if let handle { Libevdev.free(handle) }
        uinput = nil
        uinputFD = nil
        handle = nil
    }

    private var name: String { devnode ?? deviceDescription.name }
}
