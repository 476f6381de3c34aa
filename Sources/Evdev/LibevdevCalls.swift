// SPDX-License-Identifier: MIT
import CLibevdev
import SystemCalls
import TouchCore

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

// Every call into libevdev, and the evdev and uinput ioctls libevdev has no
// call for (the other system calls around them go through SystemCalls),
// lives in this file: EINTR is retried here and negative errno
// values become EvdevError here, so the rest of the target deals in Swift
// types only.

/// The result of one `libevdev_next_event` call.
enum NextEventResult {
    /// An event in normal mode.
    case event
    /// An event in sync mode: the `SYN_DROPPED` that starts a resync, or one of the synthesized sync events.
    case syncEvent
    /// `-EAGAIN`: nothing more to read now (or, in sync mode, the sync is complete).
    case noMoreData
    /// `-ENODEV`: the device was unplugged.
    case deviceGone
    /// Any other negative errno.
    case failed(errno: Int32)
}

/// Which mode `libevdev_next_event` reads in.
enum ReadMode {
    /// `LIBEVDEV_READ_FLAG_NORMAL`
    case normal
    /// `LIBEVDEV_READ_FLAG_SYNC`
    case sync
    /// `LIBEVDEV_READ_FLAG_FORCE_SYNC`: resync now, as after `SYN_DROPPED`.
    case forceSync

    var flags: UInt32 {
        switch self {
        case .normal: return LIBEVDEV_READ_FLAG_NORMAL.rawValue
        case .sync: return LIBEVDEV_READ_FLAG_SYNC.rawValue
        case .forceSync: return LIBEVDEV_READ_FLAG_FORCE_SYNC.rawValue
        }
    }
}

enum Libevdev {
    // MARK: System calls

    /// `open(2)` a device node read-only, non-blocking, close-on-exec.
    static func openNode(_ path: String) throws(EvdevError) -> Int32 {
        do {
            return try Syscall.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw EvdevError(.openFailed, device: path, message: "cannot open device node", errno: error.errno)
        }
    }

    /// `close(2)`.
    static func closeNode(_ fd: Int32) {
        try? Syscall.close(fd)
    }

    // MARK: Reading devices

    /// `libevdev_new_from_fd`: reads the device's capabilities and state.
    static func handle(fd: Int32, path: String) throws(EvdevError) -> OpaquePointer {
        var dev: OpaquePointer?
        let rc = Syscall.retryingNegatedInterrupt { libevdev_new_from_fd(fd, &dev) }
        guard rc == 0, let dev else {
            throw EvdevError(.notEvdev, device: path, message: "libevdev cannot read the device", errno: -rc)
        }
        return dev
    }

    /// `libevdev_free`.
    static func free(_ dev: OpaquePointer) {
        libevdev_free(dev)
    }

    /// `libevdev_set_clock_id(CLOCK_MONOTONIC)` (`EVIOCSCLOCKID`).
    static func useMonotonicClock(_ dev: OpaquePointer, path: String) throws(EvdevError) {
        let rc = Syscall.retryingNegatedInterrupt { libevdev_set_clock_id(dev, CLOCK_MONOTONIC) }
        guard rc == 0 else {
            throw EvdevError(.clockFailed, device: path, message: "cannot select CLOCK_MONOTONIC", errno: -rc)
        }
    }

    /// `libevdev_grab` (`EVIOCGRAB`), taking or releasing exclusive access.
    static func grab(_ dev: OpaquePointer, exclusive: Bool, path: String) throws(EvdevError) {
        let mode = exclusive ? LIBEVDEV_GRAB : LIBEVDEV_UNGRAB
        let rc = Syscall.retryingNegatedInterrupt { libevdev_grab(dev, mode) }
        guard rc == 0 else {
            let what = exclusive ? "cannot grab the device" : "cannot release the grab"
            throw EvdevError(.grabFailed, device: path, message: what, errno: -rc)
        }
    }

    /// The result of one `read(2)` of a device's events.
    enum ReadResult {
        /// This many whole events were read (at least one).
        case events(Int)
        /// EAGAIN: the kernel's queue is empty.
        case noMoreData
        /// ENODEV: the device was unplugged.
        case deviceGone
        /// Any other error.
        case failed(errno: Int32)
    }

    /// `read(2)` of as many events as `buffer` holds. A read that is not
    /// whole events (which evdev never returns) is EINVAL, as libevdev reports it.
    static func readEvents(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        let n: Int
        do {
            guard case let .done(read) = try Syscall.read(fd, into: buffer) else { return .noMoreData }
            n = read
        } catch {
            return error.errno == ENODEV ? .deviceGone : .failed(errno: error.errno)
        }
        guard n > 0 else { return .noMoreData }
        let size = MemoryLayout<input_event>.stride
        guard n % size == 0 else { return .failed(errno: EINVAL) }
        return .events(n / size)
    }

    /// `libevdev_next_event`, retried on EINTR.
    @inline(__always)
    static func nextEvent(_ dev: OpaquePointer, mode: ReadMode, into ev: inout input_event) -> NextEventResult {
        while true {
            let rc = libevdev_next_event(dev, mode.flags, &ev)
            switch rc {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue): return .event
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue): return .syncEvent
            case -EINTR: continue
            case -EAGAIN: return .noMoreData
            case -ENODEV: return .deviceGone
            default: return .failed(errno: -rc)
            }
        }
    }

    /// Converts the kernel's event struct.
    @inline(__always)
    static func inputEvent(_ ev: input_event) -> InputEvent {
        InputEvent(
            time: Timestamp(seconds: Int64(ev.time.tv_sec), microseconds: Int64(ev.time.tv_usec)),
            type: EventType(rawValue: ev.type),
            code: ev.code,
            value: ev.value
        )
    }

    /// Name, ids, properties, every supported type and code, and absinfo, as libevdev knows them.
    static func description(_ dev: OpaquePointer) -> DeviceDescription {
        let name = libevdev_get_name(dev).map { String(cString: $0) } ?? ""
        let id = InputID(
            bustype: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(dev)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(dev)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(dev)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(dev))
        )
        var properties = InputProperties()
        for prop in 0..<UInt32(INPUT_PROP_CNT) where prop < 32 && libevdev_has_property(dev, prop) != 0 {
            properties.insert(InputProperties(rawValue: 1 << prop))
        }
        var description = DeviceDescription(name: name, id: id, properties: properties)
        // NULL when the kernel has none (EVIOCGPHYS fails with ENOENT, as for uinput devices without one).
        description.phys = libevdev_get_phys(dev).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        for type in 0...UInt32(EV_MAX) where libevdev_has_event_type(dev, type) != 0 {
            let eventType = EventType(rawValue: UInt16(type))
            var codes = CodeSet()
            let maxCode = libevdev_event_type_get_max(type)
            if maxCode >= 0 {
                for code in 0...UInt32(maxCode) where libevdev_has_event_code(dev, type, code) != 0 {
                    codes.insert(UInt16(code))
                    if type == UInt32(EV_ABS), let info = libevdev_get_abs_info(dev, code) {
                        description.absInfo[UInt16(code)] = AbsInfo(
                            minimum: info.pointee.minimum,
                            maximum: info.pointee.maximum,
                            fuzz: info.pointee.fuzz,
                            flat: info.pointee.flat,
                            resolution: info.pointee.resolution
                        )
                    }
                }
            }
            description.codes[eventType] = codes
        }
        return description
    }

    /// `libevdev_get_num_slots`: 0 for devices without `ABS_MT_SLOT`.
    static func slotCount(_ dev: OpaquePointer) -> Int {
        max(0, Int(libevdev_get_num_slots(dev)))
    }

    /// `libevdev_get_current_slot`.
    static func currentSlot(_ dev: OpaquePointer) -> Int {
        Int(libevdev_get_current_slot(dev))
    }

    /// `libevdev_get_slot_value`: 0 when the device lacks the axis.
    @inline(__always)
    static func slotValue(_ dev: OpaquePointer, slot: Int, code: UInt16) -> Int32 {
        libevdev_get_slot_value(dev, UInt32(slot), UInt32(code))
    }

    /// `libevdev_get_event_value`: the current value of a key or axis, 0 when unsupported.
    static func eventValue(_ dev: OpaquePointer, type: EventType, code: UInt16) -> Int32 {
        libevdev_get_event_value(dev, UInt32(type.rawValue), UInt32(code))
    }

    /// `libevdev_set_event_value`: libevdev's view of a key or axis (not the device's).
    static func setEventValue(_ dev: OpaquePointer, type: EventType, code: UInt16, value: Int32) {
        _ = libevdev_set_event_value(dev, UInt32(type.rawValue), UInt32(code), value)
    }

    /// `libevdev_set_slot_value`: libevdev's view of a slot's axis (not the device's).
    static func setSlotValue(_ dev: OpaquePointer, slot: Int, code: UInt16, value: Int32) {
        _ = libevdev_set_slot_value(dev, UInt32(slot), UInt32(code), value)
    }

    // MARK: uinput

    /// A libevdev handle declaring everything `description` declares, for `libevdev_uinput_create_from_device`.
    static func handle(declaring description: DeviceDescription) throws(EvdevError) -> OpaquePointer {
        guard let dev = libevdev_new() else {
            throw EvdevError(.uinputFailed, device: description.name, message: "libevdev_new failed", errno: ENOMEM)
        }
        libevdev_set_name(dev, description.name)
        if let phys = description.phys { libevdev_set_phys(dev, phys) }
        libevdev_set_id_bustype(dev, Int32(description.id.bustype))
        libevdev_set_id_vendor(dev, Int32(description.id.vendor))
        libevdev_set_id_product(dev, Int32(description.id.product))
        libevdev_set_id_version(dev, Int32(description.id.version))
        for prop in description.properties.numbers {
            _ = libevdev_enable_property(dev, UInt32(prop))
        }
        // Force feedback needs effect slots uinput cannot emulate here; touch devices do not use it.
        for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) where type != .ff {
            var rc = libevdev_enable_event_type(dev, UInt32(type.rawValue))
            for code in codes where rc == 0 && code <= type.maxCode {
                rc = enable(dev, type: type, code: code, absInfo: description.absInfo[code])
            }
            guard rc == 0 else {
                libevdev_free(dev)
                throw EvdevError(
                    .uinputFailed, device: description.name,
                    message: "cannot declare event type \(type.rawValue) and its codes", errno: -rc)
            }
        }
        return dev
    }

    private static func enable(_ dev: OpaquePointer, type: EventType, code: UInt16, absInfo: AbsInfo?) -> Int32 {
        switch type {
        case .abs:
            let info = absInfo ?? AbsInfo(minimum: 0, maximum: 0)
            var abs = input_absinfo(
                value: info.minimum, minimum: info.minimum, maximum: info.maximum,
                fuzz: info.fuzz, flat: info.flat, resolution: info.resolution)
            return libevdev_enable_event_code(dev, UInt32(type.rawValue), UInt32(code), &abs)
        case .rep:
            // REP_DELAY and REP_PERIOD need a value; the kernel's defaults.
            var value: Int32 = code == 0 ? 250 : 33
            return libevdev_enable_event_code(dev, UInt32(type.rawValue), UInt32(code), &value)
        default:
            return libevdev_enable_event_code(dev, UInt32(type.rawValue), UInt32(code), nil)
        }
    }

    /// `libevdev_uinput_create_from_device`. Without `phys` libevdev opens and
    /// closes `/dev/uinput` itself (`uinputFD` nil); with it this opens
    /// `/dev/uinput`, sets the phys (`UI_SET_PHYS`, which libevdev never does:
    /// `libevdev_set_phys` only changes libevdev's copy) and hands the
    /// descriptor over, and the caller closes `uinputFD` after destroying the device.
    static func createUinput(
        from dev: OpaquePointer, name: String, phys: String? = nil
    ) throws(EvdevError) -> (device: OpaquePointer, uinputFD: Int32?) {
        var fd = LIBEVDEV_UINPUT_OPEN_MANAGED.rawValue
        var ownedFD: Int32?
        if let phys {
            do {
                fd = try Syscall.open("/dev/uinput", O_RDWR | O_CLOEXEC)
            } catch {
                throw EvdevError(.uinputFailed, device: name, message: "cannot open /dev/uinput", errno: error.errno)
            }
            ownedFD = fd
            var rc: Int32
            var code: Int32 = 0
            repeat {
                rc = touchd_uinput_set_phys(fd, phys)
                if rc != 0 { code = errno }
            } while rc != 0 && code == EINTR
            guard rc == 0 else {
                closeNode(fd)
                throw EvdevError(.uinputFailed, device: name, message: "cannot set phys \"\(phys)\" (UI_SET_PHYS)", errno: code)
            }
        }
        var uidev: OpaquePointer?
        let rc = Syscall.retryingNegatedInterrupt {
            libevdev_uinput_create_from_device(dev, fd, &uidev)
        }
        guard rc == 0, let uidev else {
            if let ownedFD { closeNode(ownedFD) }
            throw EvdevError(.uinputFailed, device: name, message: "cannot create uinput device", errno: -rc)
        }
        return (uidev, ownedFD)
    }

    /// `libevdev_uinput_get_devnode`: `/dev/input/eventN`, or nil when it cannot be found.
    static func uinputDevnode(_ uidev: OpaquePointer) -> String? {
        libevdev_uinput_get_devnode(uidev).map { String(cString: $0) }
    }

    /// `libevdev_uinput_get_syspath`.
    static func uinputSyspath(_ uidev: OpaquePointer) -> String? {
        libevdev_uinput_get_syspath(uidev).map { String(cString: $0) }
    }

    /// `libevdev_uinput_write_event`, retried on EINTR.
    @inline(__always)
    static func uinputWrite(
        _ uidev: OpaquePointer, type: UInt16, code: UInt16, value: Int32, device: String
    ) throws(EvdevError) {
        let rc = Syscall.retryingNegatedInterrupt { libevdev_uinput_write_event(uidev, UInt32(type), UInt32(code), value) }
        guard rc == 0 else {
            throw EvdevError(
                .writeFailed, device: device,
                message: "cannot write event type \(type) code \(code) value \(value)", errno: -rc)
        }
    }

    /// The descriptor of a uinput device (`libevdev_uinput_get_fd`).
    static func uinputDescriptor(_ uidev: OpaquePointer) -> Int32 { libevdev_uinput_get_fd(uidev) }

    /// Writes a batch of events to a uinput device with one `write(2)` on its
    /// descriptor (`libevdev_uinput_get_fd`): the kernel handles each event as
    /// `libevdev_uinput_write_event` would, without a system call per event.
    /// `buffer` is reused from call to call.
    static func uinputWrite(
        _ uidev: OpaquePointer, _ events: [InputEvent], buffer: inout [input_event], device: String
    ) throws(EvdevError) {
        try writeEvents(libevdev_uinput_get_fd(uidev), events, buffer: &buffer, device: device)
    }

    /// Writes a batch of events to the uinput device open on `fd` with one `write(2)`.
    static func writeEvents(_ fd: Int32, _ events: [InputEvent], buffer: inout [input_event], device: String) throws(EvdevError) {
        buffer.removeAll(keepingCapacity: true)
        for e in events {
            var raw = input_event()
            raw.type = e.type.rawValue
            raw.code = e.code
            raw.value = e.value
            buffer.append(raw)
        }
        try writeEvents(fd, buffer: &buffer, count: events.count, device: device)
    }

    private static func writeEvents(_ fd: Int32, buffer: inout [input_event], count: Int, device: String) throws(EvdevError) {
        var failure: SystemCallError?
        buffer.withUnsafeBytes { bytes in
            do throws(SystemCallError) { try Syscall.writeAll(fd, bytes) } catch { failure = error }
        }
        if let failure {
            throw EvdevError(.writeFailed, device: device, message: "cannot write \(count) events", errno: failure.errno)
        }
    }

    /// `ioctl(fd, EVIOCGRAB, 0)`: releases a grab without the libevdev handle
    /// (safe from another thread than the handle's owner). Returns the errno, 0 on success.
    static func releaseGrab(_ fd: Int32) -> Int32 {
        // EVIOCGRAB = _IOW('E', 0x90, int)
        let eviocgrab: UInt = 0x4004_4590
        return ioctl(fd, eviocgrab, 0) == 0 ? 0 : errno
    }

    /// `libevdev_uinput_destroy`: removes the device and closes `/dev/uinput`.
    static func destroyUinput(_ uidev: OpaquePointer) {
        libevdev_uinput_destroy(uidev)
    }
}

extension Libevdev {
    // The ioctl numbers of <linux/input.h> and <linux/uinput.h> (macros Swift does not import).
    /// `EVIOCGVERSION`: `_IOR('E', 0x01, int)`.
    static let eviocgversion: UInt = 0x8004_4501
    /// `EVIOCGRAB`: `_IOW('E', 0x90, int)`.
    static let eviocgrab: UInt = 0x4004_4590
    /// `EVIOCREVOKE`: `_IOW('E', 0x91, int)`.
    static let eviocrevoke: UInt = 0x4004_4591
    /// `UI_DEV_DESTROY`: `_IO('U', 2)`.
    static let uiDevDestroy: UInt = 0x5502

    /// Whether `fd` still reads a device: `EVIOCGVERSION` answers (it fails
    /// with ENODEV once the file is revoked or the device unplugged).
    static func readsDevice(_ fd: Int32) -> Bool {
        var version: CInt = 0
        return withUnsafeMutableBytes(of: &version, { ioctl(fd, eviocgversion, $0.baseAddress!) }) == 0
    }

    /// What probing a grab with `EVIOCGRAB` 1 found.
    enum GrabProbe: Equatable {
        /// No grab was held; the probe's grab was given back at once.
        case free
        /// A grab is held (EBUSY).
        case held
        /// The kernel refused for another reason (the device is gone).
        case failed
    }

    /// Probes the grab of `fd` with `EVIOCGRAB` 1, giving back at once a grab it took.
    static func probeGrab(_ fd: Int32) -> GrabProbe {
        if ioctl(fd, eviocgrab, 1) == 0 {
            _ = ioctl(fd, eviocgrab, 0)
            return .free
        }
        return errno == EBUSY ? .held : .failed
    }

    /// `EVIOCREVOKE` on `fd`: false when the kernel refused.
    static func revoke(_ fd: Int32) -> Bool {
        ioctl(fd, eviocrevoke, 0) == 0
    }

    /// Reads and drops whatever the kernel queued on a non-blocking evdev descriptor.
    static func drain(_ fd: Int32) {
        var buffer = [input_event](repeating: input_event(), count: 64)
        while case .done(let n)? = buffer.withUnsafeMutableBytes({ try? Syscall.read(fd, into: $0) }), n > 0 {}
    }

    /// `UI_DEV_DESTROY` on a uinput descriptor.
    @discardableResult
    static func destroyUinput(descriptor fd: Int32) -> Bool {
        ioctl(fd, uiDevDestroy) == 0
    }

    /// The created device's sysfs name (`inputN`) from `UI_GET_SYSNAME`, nil when the descriptor holds none.
    static func uinputSysname(_ fd: Int32) -> String? {
        var name = [CChar](repeating: 0, count: 64)
        // UI_GET_SYSNAME(len): _IOC(_IOC_READ, 'U', 44, len).
        let request = UInt(2 << 30) | UInt(name.count << 16) | UInt(0x55 << 8) | 44
        let rc = name.withUnsafeMutableBytes { ioctl(fd, request, $0.baseAddress!) }
        guard rc >= 0 else { return nil }
        let s = String(decoding: name.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return s.isEmpty ? nil : s
    }

    /// The `/dev/input/eventN` node of the input device at `syspath`, nil when none is found.
    static func eventNode(syspath: String) -> String? {
        guard let dir = opendir(syspath) else { return nil }
        defer { closedir(dir) }
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name.hasPrefix("event") { return "/dev/input/" + name }
        }
        return nil
    }
}
