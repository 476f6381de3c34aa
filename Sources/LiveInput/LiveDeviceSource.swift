// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Evdev
import TouchCore
import SystemCalls
import Udev

/// The live touch devices of this machine: found with udev, read with libevdev,
/// followed as they come and go.
///
/// ```swift
/// let source = try LiveDeviceSource(decide: { _ in .use(DeviceSettings()) })
/// handle(source.start())                      // devices present now
/// while running {
///     handle(try source.waitAndRead(timeoutMilliseconds: 100))
/// }
/// handle(source.closeAll())
/// ```
///
/// - ``start()`` enumerates the touchscreens, tablets and touchpads udev
///   knows, and for each: skips it when `accepts` says no (silently), or
///   reports it ignored (``LiveInputEvent/deviceIgnored(node:reason:)``) when
///   `TOUCHD_IGNORE` is set or it is touchd's own pass-through mirror
///   (``ownMirrorReason(_:name:)``: by its udev property,
///   without opening it, else by its name, closed again at once); opens it (``LiveInputEvent/openFailed(node:error:)``
///   when that fails, e.g. the node vanished or permission is denied);
///   asks `decide` what to do; then grabs it if told to and reports
///   ``LiveInputEvent/deviceAdded(_:_:info:)``.
/// - ``waitAndRead(timeoutMilliseconds:)`` waits with `poll(2)` on every device,
///   the udev monitor and the ``wakeup`` pipe, and returns what happened:
///   events batched per read, resyncs after `SYN_DROPPED`, hotplug adds and removals.
/// - A udev `change` event decides again with the new properties: a device
///   being read is reported changed (``LiveInputEvent/deviceChanged(_:info:)``)
///   when its properties or settings differ, or closed and reported ignored
///   when it now is (`TOUCHD_IGNORE`, a rule); an ignored or unopened device
///   is considered again (e.g. `TOUCHD_IGNORE` removed, permissions fixed).
///
/// Device ids are handed out from 0 in order of opening and never reused by
/// one source. Events carry `CLOCK_MONOTONIC` kernel times (`EVIOCSCLOCKID`);
/// ``LiveClock/now()`` reads the same clock.
///
/// One thread owns a source; only ``wakeup`` may be used from other threads.
package final class LiveDeviceSource {
    /// Decides, for an opened candidate device, whether and how to use it.
    package typealias Decide = (LiveDeviceCandidate) -> DeviceSettingsDecision

    /// Interrupts ``waitAndRead(timeoutMilliseconds:)`` from any thread or a signal handler.
    package let wakeup: LiveWakeup

    private struct OpenDevice {
        var id: DeviceID
        var device: EvdevDevice
        var info: LiveDeviceInfo
    }

    private let udev: UdevContext
    private let monitor: UdevMonitor?
    private let accepts: (UdevDeviceInfo) -> Bool
    private let decide: Decide
    private var open: [OpenDevice] = []
    private var ignoredSyspaths = Set<String>()
    /// Grabs a decision changed while a contact was down: taken or released once none is.
    private var waitingGrabs: [DeviceID: Bool] = [:]
    private var nextID: UInt32 = 0
    private var pollSet: [pollfd] = []
    private var readyIDs: [DeviceID] = []
    /// The last read's event buffer (shared with the events handed out until they are released).
    private var readBuffer: [InputEvent] = []

    /// Asked for each device node before it is opened: a descriptor of it
    /// opened and grabbed by a previous touchd (systemd's file descriptor
    /// store, docs/pass-through.md "Across a restart") to take over instead
    /// of opening the node; nil to open it.
    package var adopt: ((_ node: String) -> Int32?)?

    /// Creates a source; nothing is opened before ``start()``.
    ///
    /// - Parameters:
    ///   - watchesHotplug: open a udev monitor to follow devices coming and going.
    ///   - accepts: devices to consider at all (others are skipped without a
    ///     report), e.g. the nodes given on a command line.
    ///   - decide: ignore the device or use it with these settings (the
    ///     daemon and touchctl pass the configuration's decider,
    ///     `TouchdConfiguration.deviceSettings`).
    ///   - wakeup: the pipe that interrupts the wait, when the thread reading
    ///     the source also waits for other work (nil: a new one).
    /// - Throws: ``LiveInputError`` when udev or the wakeup pipe cannot be set up.
    package init(
        watchesHotplug: Bool = true,
        accepts: @escaping (UdevDeviceInfo) -> Bool = { _ in true },
        decide: @escaping Decide,
        wakeup: LiveWakeup? = nil
    ) throws(LiveInputError) {
        if let wakeup { self.wakeup = wakeup } else { self.wakeup = try LiveWakeup() }
        do {
            udev = try UdevContext()
            monitor = watchesHotplug ? try UdevMonitor(context: udev) : nil
        } catch {
            throw LiveInputError(subject: error.subject, message: error.message, errno: error.errno)
        }
        self.accepts = accepts
        self.decide = decide
    }

    deinit {
        for d in open { d.device.close() }
    }

    /// The devices being read, in order of opening.
    package var devices: [(id: DeviceID, description: DeviceDescription, info: LiveDeviceInfo)] {
        open.map { ($0.id, $0.device.deviceDescription, $0.info) }
    }

    /// The touch devices udev knows now.
    private func presentTouchDevices() throws(LiveInputError) -> [UdevDeviceInfo] {
        do {
            return try udev.touchDevices()
        } catch {
            throw LiveInputError(subject: error.subject, message: error.message, errno: error.errno)
        }
    }

    /// Opens the touch devices present now. Call once, before pumping; the
    /// udev monitor is already listening, so devices added meanwhile are not missed.
    ///
    /// - Throws: ``LiveInputError`` when udev cannot enumerate devices.
    package func start() throws(LiveInputError) -> [LiveInputEvent] {
        let present = try presentTouchDevices()
        var out: [LiveInputEvent] = []
        for info in present { consider(info, into: &out) }
        return out
    }

    /// Waits up to `timeoutMilliseconds` (-1: forever, 0: just look) for
    /// input, hotplug or a wakeup, and returns everything that happened, in order.
    /// An empty result means the timeout passed (or a signal interrupted the wait).
    ///
    /// - Throws: ``LiveInputError`` when `poll(2)` or the udev monitor fails.
    ///   A failing device is reported and dropped, never thrown.
    package func waitAndRead(timeoutMilliseconds: Int32) throws(LiveInputError) -> [LiveInputEvent] {
        var out: [LiveInputEvent] = []
        try waitAndRead(timeoutMilliseconds: timeoutMilliseconds, into: &out)
        return out
    }

    /// ``waitAndRead(timeoutMilliseconds:)`` appending to `out`: a caller that
    /// empties `out` (keeping its capacity) once it has applied the events
    /// lets every round reuse it and the read buffer, so a steady stream
    /// allocates nothing per round (docs/performance.md, "A round of input:
    /// copies of the engine, the runtime's check").
    package func waitAndRead(timeoutMilliseconds: Int32, into out: inout [LiveInputEvent]) throws(LiveInputError) {
        pollSet.removeAll(keepingCapacity: true)
        pollSet.append(pollfd(fd: wakeup.readDescriptor, events: Int16(POLLIN), revents: 0))
        pollSet.append(pollfd(fd: monitor?.fileDescriptor ?? -1, events: Int16(POLLIN), revents: 0))
        for d in open { pollSet.append(pollfd(fd: d.device.fileDescriptor, events: Int16(POLLIN), revents: 0)) }
        let ready: Int
        do {
            ready = try pollSet.withUnsafeMutableBufferPointer { fds throws(SystemCallError) in
                try Syscall.poll(fds, timeoutMilliseconds: timeoutMilliseconds)
            }
        } catch {
            throw LiveInputError(subject: "poll", message: "cannot wait for input", errno: error.errno)
        }
        guard ready > 0 else { return }
        if pollSet[0].revents != 0, wakeup.drain() { out.append(.woken) }
        readyIDs.removeAll(keepingCapacity: true)
        for (i, d) in open.enumerated() where pollSet[i + 2].revents != 0 { readyIDs.append(d.id) }
        for id in readyIDs { read(id, into: &out) }
        if pollSet[1].revents != 0 { try receiveHotplug(into: &out) }
    }

    /// Reads whatever every device has queued, without waiting (before
    /// firing a deadline, so that input stamped before it is seen first).
    package func readAll() -> [LiveInputEvent] {
        var out: [LiveInputEvent] = []
        readAll(into: &out)
        return out
    }

    /// ``readAll()`` appending to `out` (a caller that reuses its buffer allocates nothing).
    package func readAll(into out: inout [LiveInputEvent]) {
        // By position: a read that finds a device gone removes it from `open`.
        var i = 0
        while i < open.count {
            let id = open[i].id
            read(id, into: &out)
            if i < open.count && open[i].id == id { i += 1 }
        }
    }

    /// Whether a contact of the device is down, as the events read so far say
    /// (a slot holds a contact, `BTN_TOUCH` is down, or a pen is in proximity).
    package func hasContactDown(_ id: DeviceID) -> Bool {
        guard let d = open.first(where: { $0.id == id })?.device else { return false }
        // A pen in proximity counts: the compositor saw it come and must see it go.
        let keys = d.keysDown()
        return d.slotStates().contains(where: \.isActive) || keys.contains(EventCode.btnTouch)
            || DeviceClassification.penToolCodes.contains { keys.contains($0.code) }
    }

    /// The device's open descriptor (for a watchdog that may release its grab), nil when it is not open.
    package func descriptor(of id: DeviceID) -> Int32? {
        open.first(where: { $0.id == id })?.device.fileDescriptor
    }

    /// Takes (`grab`) or releases the device's exclusive grab (`EVIOCGRAB`).
    ///
    /// - Throws: ``EvdevError`` naming the device when the kernel refuses.
    package func setGrab(_ grab: Bool, of id: DeviceID) throws(EvdevError) {
        guard let d = open.first(where: { $0.id == id })?.device, d.isGrabbed != grab else { return }
        if grab { try d.grab() } else { try d.ungrab() }
    }

    /// Closes one device as if it had been removed.
    package func close(_ id: DeviceID) -> [LiveInputEvent] {
        guard let i = open.firstIndex(where: { $0.id == id }) else { return [] }
        let d = open.remove(at: i)
        waitingGrabs[id] = nil
        d.device.close()
        return [.deviceRemoved(id, at: LiveClock.now())]
    }

    /// Closes every device (releasing grabs), reporting each as removed.
    package func closeAll() -> [LiveInputEvent] {
        let now = LiveClock.now()
        let out = open.map { LiveInputEvent.deviceRemoved($0.id, at: now) }
        for d in open { d.device.close() }
        open.removeAll()
        return out
    }

    // MARK: Devices

    func consider(_ info: UdevDeviceInfo, into out: inout [LiveInputEvent]) {
        guard info.isEventNode, info.touchKind != nil, let node = info.devnode, accepts(info) else { return }
        guard !open.contains(where: { $0.info.syspath == info.syspath }), !ignoredSyspaths.contains(info.syspath) else { return }
        if let reason = Self.ownMirrorReason(info, description: nil) ?? Self.udevIgnoreReason(info) {
            ignoredSyspaths.insert(info.syspath)
            out.append(.deviceIgnored(node: node, reason: reason))
            return
        }
        let device: EvdevDevice
        do {
            if let fd = adopt?(node) {
                device = try EvdevDevice(adopting: fd, path: node, grabbed: true)
            } else {
                device = try EvdevDevice(path: node)
            }
        } catch {
            out.append(.openFailed(node: node, error: error))
            return
        }
        // Without the shipped udev rule only the name tells a mirror; reading it
        // would feed touchd's own output back into it.
        if let reason = Self.ownMirrorReason(info, description: device.deviceDescription) {
            // A grab taken over must be given back: a duplicate kept elsewhere would hold it.
            if device.isGrabbed { try? device.ungrab() }
            device.close()
            ignoredSyspaths.insert(info.syspath)
            out.append(.deviceIgnored(node: node, reason: reason))
            return
        }
        let candidate = LiveDeviceCandidate(node: node, udev: info, description: device.deviceDescription)
        switch decide(candidate) {
        case .ignore(let reason):
            if device.isGrabbed { try? device.ungrab() }
            device.close()
            ignoredSyspaths.insert(info.syspath)
            out.append(.deviceIgnored(node: node, reason: reason))
        case .use(let settings):
            // A grab taken over that neither pass-through nor the rules want any more.
            if device.isGrabbed && !settings.grab && !settings.passThrough { try? device.ungrab() }
            if settings.grab && !device.isGrabbed {
                do { try device.grab() } catch {
                    device.close()
                    out.append(.openFailed(node: node, error: error))
                    return
                }
            }
            let id = DeviceID(rawValue: nextID)
            nextID += 1
            let live = LiveDeviceInfo(node: node, syspath: info.syspath, kind: info.touchKind,
                                      udevProperties: info.properties, settings: settings, stateAtOpen: device.state)
            open.append(OpenDevice(id: id, device: device, info: live))
            out.append(.deviceAdded(id, device.deviceDescription, info: live))
        }
    }

    /// Why touchd must not read a device: it is one of touchd's own
    /// pass-through mirrors (`TOUCHD_MIRROR=1`, set by the shipped udev rule;
    /// else its phys, ``MirrorDescription/isMirror(phys:)``, or the name
    /// suffix of earlier versions' mirrors); nil otherwise. Not by its name:
    /// a mirror keeps its original's.
    package static func ownMirrorReason(_ info: UdevDeviceInfo, description: DeviceDescription?) -> String? {
        let marked = description.map { MirrorDescription.isMirror(phys: $0.phys) || MirrorDescription.isMirror(name: $0.name) } ?? false
        return info.isTouchdMirror || marked ? ownMirror : nil
    }

    /// The reason a mirror is ignored, as `touchctl devices` shows it.
    package static let ownMirror = "touchd's own pass-through mirror"

    // `TOUCHD_IGNORE` set to a true word, checked before the device is opened
    // (one touchd may not open is still reported ignored). The decider checks
    // it too, for recordings, and warns about a malformed value.
    private static func udevIgnoreReason(_ info: UdevDeviceInfo) -> String? {
        guard (try? info.isIgnored()) == true else { return nil }
        return "udev property TOUCHD_IGNORE=\(info.properties["TOUCHD_IGNORE"] ?? "")"
    }

    /// Decides every touch device udev knows again, as a udev `change` event
    /// does (after the decision's inputs changed: a reloaded configuration).
    /// Devices now ignored are closed, devices no longer ignored are opened,
    /// changed settings come as ``LiveInputEvent/deviceChanged(_:info:)``. A
    /// grab that changes while a contact of the device is down waits until
    /// none is (``hasGrabsWaiting``, ``applyWaitingGrab(of:)``): the compositor
    /// must see every contact it saw begin end.
    ///
    /// - Throws: ``LiveInputError`` when udev cannot enumerate devices (nothing changes then).
    package func decideAgain() throws(LiveInputError) -> [LiveInputEvent] {
        let present = try presentTouchDevices()
        var out: [LiveInputEvent] = []
        for info in present {
            ignoredSyspaths.remove(info.syspath)
            changed(info, into: &out, holdsGrabWhileDown: true)
        }
        return out
    }

    /// Whether a grab waits for a device's contacts to lift (one load: checked after each read).
    package var hasGrabsWaiting: Bool { !waitingGrabs.isEmpty }

    /// Takes or releases the grab waiting for `id` (call when no contact of it
    /// is down); returns the grab now in force, nil when none was waiting.
    package func applyWaitingGrab(of id: DeviceID) throws(EvdevError) -> Bool? {
        guard let grab = waitingGrabs.removeValue(forKey: id), let i = open.firstIndex(where: { $0.id == id }) else { return nil }
        if open[i].device.isGrabbed != grab {
            if grab { try open[i].device.grab() } else { try open[i].device.ungrab() }
        }
        open[i].info.settings.grab = grab
        return grab
    }

    /// A udev `change` event: decide again with the new properties.
    func changed(_ info: UdevDeviceInfo, into out: inout [LiveInputEvent], holdsGrabWhileDown: Bool = false) {
        guard let index = open.firstIndex(where: { $0.info.syspath == info.syspath }) else {
            // Ignored or never opened: the new properties may allow it now.
            ignoredSyspaths.remove(info.syspath)
            consider(info, into: &out)
            return
        }
        let current = open[index]
        var ignoreReason = Self.ownMirrorReason(info, description: current.device.deviceDescription)
            ?? Self.udevIgnoreReason(info)
        var newSettings: DeviceSettings?
        if ignoreReason == nil {
            if info.touchKind == nil {
                ignoreReason = "udev no longer classifies it as a touchscreen, tablet or touchpad"
            } else {
                let candidate = LiveDeviceCandidate(node: current.info.node, udev: info, description: current.device.deviceDescription)
                switch decide(candidate) {
                case .ignore(let reason): ignoreReason = reason
                case .use(let settings): newSettings = settings
                }
            }
        }
        // What was queued before the change was produced under the old settings.
        read(current.id, into: &out)
        guard let i = open.firstIndex(where: { $0.id == current.id }) else { return }
        guard var settings = newSettings else {
            out.append(contentsOf: close(current.id))
            ignoredSyspaths.insert(info.syspath)
            out.append(.deviceIgnored(node: current.info.node, reason: ignoreReason ?? "ignored"))
            return
        }
        waitingGrabs[current.id] = nil
        if settings.passThrough || current.info.settings.passThrough {
            // Pass-through owns the grab while it is on, and sets the rule's when it ends.
        } else if settings.grab != current.info.settings.grab && holdsGrabWhileDown && hasContactDown(current.id) {
            waitingGrabs[current.id] = settings.grab
            settings.grab = current.info.settings.grab
        } else if settings.grab != current.info.settings.grab {
            do {
                if settings.grab { try current.device.grab() } else { try current.device.ungrab() }
            } catch {
                settings.warnings.append(error.description)
                settings.grab = current.info.settings.grab
            }
        }
        let live = LiveDeviceInfo(node: current.info.node, syspath: info.syspath, kind: info.touchKind,
                                  udevProperties: info.properties, settings: settings, stateAtOpen: current.info.stateAtOpen)
        guard live != current.info else { return }
        open[i].info = live
        out.append(.deviceChanged(current.id, info: live))
    }

    private func read(_ id: DeviceID, into out: inout [LiveInputEvent]) {
        guard let index = open.firstIndex(where: { $0.id == id }) else { return }
        let device = open[index].device
        // The buffer of the previous read, reused when its events have been
        // applied and released (otherwise this is a fresh one, as it has to be).
        var batch = readBuffer
        readBuffer = []
        batch.removeAll(keepingCapacity: true)
        // A 10-finger frame is about 40 events: one allocation for a first read, not one per doubling.
        batch.reserveCapacity(64)
        defer { readBuffer = batch }
        while true {
            let outcome: ReadOutcome
            do {
                outcome = try device.readAvailable(into: &batch)
            } catch {
                if !batch.isEmpty { out.append(.events(id, batch)) }
                out.append(.openFailed(node: device.path, error: error))
                out.append(contentsOf: close(id))
                return
            }
            switch outcome {
            case .drained:
                if !batch.isEmpty { out.append(.events(id, batch)) }
                return
            case .resynced(let report):
                if !batch.isEmpty { out.append(.events(id, batch)) }
                batch = []
                out.append(.resynced(id, report))
            case .removed:
                if !batch.isEmpty { out.append(.events(id, batch)) }
                out.append(contentsOf: close(id))
                return
            }
        }
    }

    private func receiveHotplug(into out: inout [LiveInputEvent]) throws(LiveInputError) {
        guard let monitor else { return }
        while true {
            let event: UdevEvent?
            do {
                event = try monitor.receive()
            } catch {
                throw LiveInputError(subject: error.subject, message: error.message, errno: error.errno)
            }
            guard let event else { return }
            switch event.action {
            case .add:
                consider(event.device, into: &out)
            case .remove:
                ignoredSyspaths.remove(event.device.syspath)
                if let d = open.first(where: { $0.info.syspath == event.device.syspath }) {
                    // Read what is left first: the last frames before the unplug still count.
                    read(d.id, into: &out)
                    out.append(contentsOf: close(d.id))
                }
            case .change:
                changed(event.device, into: &out)
            case .other:
                break
            }
        }
    }
}

/// `CLOCK_MONOTONIC`, the clock of live events' kernel timestamps.
package enum LiveClock {
    /// The current time on `CLOCK_MONOTONIC`.
    package static func now() -> Timestamp {
        let ts = Syscall.clockTime(CLOCK_MONOTONIC)
        return Timestamp(microseconds: Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000)
    }

    /// Milliseconds from now until `deadline` for `poll(2)`: rounded up, 0 when
    /// it has passed, -1 (wait forever) for no deadline, at most `cap` when given.
    package static func pollTimeout(until deadline: Timestamp?, now: Timestamp = LiveClock.now(), cap: Int32? = nil) -> Int32 {
        guard let deadline else { return cap ?? -1 }
        let micros = deadline.microseconds - now.microseconds
        let ms = micros <= 0 ? 0 : (micros + 999) / 1000
        let limit = Int64(cap ?? Int32.max)
        return Int32(min(ms, limit))
    }
}


extension LiveDeviceSource {
    /// One round of live input, the same for every live driver (the daemon's
    /// input thread and touchctl's ``LiveDeviceSource`` users): waits for
    /// input until the session's next deadline (at most `cap` milliseconds;
    /// nil waits for input alone when there is no deadline), hands what came
    /// to `deliver`, and when a deadline is due hands over what the devices
    /// queued up to now first, then calls `advance` with the time read.
    /// Input stamped before a deadline goes first: the session core's
    /// deadline policy, which is what makes live input agree with offline
    /// replay of the same events.
    ///
    /// The clock is read only when there is a deadline to wait for or to
    /// fire: where the clock source has no vDSO path (a guest on the HPET)
    /// each read is a system call (docs/performance.md, "Coalescing").
    /// `received` is the caller's reused buffer: emptied after each delivery.
    package func runRound(cap: Int32?, received: inout [LiveInputEvent],
                          nextDeadline: () -> Timestamp?,
                          deliver: ([LiveInputEvent]) -> Void,
                          advance: (Timestamp) -> Void) throws(LiveInputError) {
        let deadline = nextDeadline()
        let timeout = deadline == nil ? (cap ?? -1) : LiveClock.pollTimeout(until: deadline, cap: cap)
        // An empty batch still matters: it is the wake-up for a deadline.
        defer { received.removeAll(keepingCapacity: true) }
        try waitAndRead(timeoutMilliseconds: timeout, into: &received)
        deliver(received)
        guard let due = nextDeadline() else { return }
        let now = LiveClock.now()
        guard due <= now else { return }
        received.removeAll(keepingCapacity: true)
        readAll(into: &received)
        deliver(received)
        advance(now)
    }
}
