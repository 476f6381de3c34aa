// SPDX-License-Identifier: MIT
import Evdev
import Glibc
import Gestures
import Logging
import Session
import SystemCalls
import TouchCore

/// A device's pass-through mirror (semantics §9; docs/pass-through.md): the
/// uinput device the compositor reads instead of the grabbed original, and
/// the writer of what the app world may see of each contact.
///
/// Lives on the input thread: the session's mirror events of a frame are
/// appended as the frame is routed and written with one `write(2)` when the
/// frame ends.
final class PassThroughMirror {
    /// The original device.
    let device: DeviceID
    /// The mirror.
    let uinput: UinputDevice
    private var writer: MirrorEventWriter
    private var events: [InputEvent] = []
    private var frameTime = Timestamp.zero
    private let logger: Logger
    /// The file of the original's udev properties for the mirror, when written.
    private var propertiesFile: String?

    /// Where the mirrors' property files go: systemd's `RUNTIME_DIRECTORY`
    /// (the unit's `RuntimeDirectory=touchd`), else `/run/touchd`; the udev
    /// rule reads `/run/touchd/<phys>`.
    static var propertiesDirectory: String {
        if let dir = Syscall.environment("RUNTIME_DIRECTORY"), !dir.isEmpty, !dir.contains(":") { return dir }
        return "/run/touchd"
    }

    /// Writes `KEY=value` lines (udev's `IMPORT{file}` format); a failure is
    /// logged and the mirror goes without them (nil returned).
    private static func writeProperties(_ properties: [(key: String, value: String)], phys: String, logger: Logger) -> String? {
        let directory = propertiesDirectory
        let path = directory + "/" + phys
        try? Syscall.makeDirectory(directory, mode: 0o755)
        let text = properties.map { "\($0.key)=\($0.value)\n" }.joined()
        do {
            let fd = try Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
            defer { try? Syscall.close(fd) }
            try Syscall.writeAll(fd, Array(text.utf8))
            return path
        } catch {
            logger.warning("pass-through: cannot write \(path) (\(error)): the mirror goes without the original's udev properties (\(properties.map(\.key).joined(separator: ", ")))")
            return nil
        }
    }

    /// What the device's configuration says of the ending (`auto` is decided again as the compositor becomes known).
    private(set) var setting: MirrorEndingSetting
    /// How a touch touchd takes ends on the mirror, and why.
    private(set) var choice: MirrorEndingChoice

    /// Puts an ending in force for the touches taken from now on.
    func apply(_ setting: MirrorEndingSetting, _ choice: MirrorEndingChoice) {
        self.setting = setting
        self.choice = choice
        writer.ending = choice.ending
    }
    /// Set after a write failed (logged once); the mirror is then left alone.
    private(set) var failed = false

    /// Creates the mirror of `original`.
    ///
    /// - Throws: ``EvdevError`` naming the device when `/dev/uinput` refuses it.
    /// `key` names the mirror in its phys (the original's node name);
    /// `udevProperties` are the original's: those the compositor reads
    /// (``MirrorDescription/carriedProperties(_:)``) are written to
    /// ``propertiesDirectory``/<phys> before the mirror is created, for the
    /// shipped rule `90-touchd-mirror.rules` to import onto it.
    init(device: DeviceID, original: DeviceDescription, key: String = "0", udevProperties: [String: String] = [:],
         setting: MirrorEndingSetting = .default, ending: MirrorEndingChoice, logger: Logger) throws(EvdevError) {
        let phys = MirrorDescription.phys(key: key)
        propertiesFile = Self.writeProperties(MirrorDescription.carriedProperties(udevProperties), phys: phys, logger: logger)
        do {
            uinput = try UinputDevice.mirror(of: original, key: key)
        } catch {
            if let propertiesFile { try? Syscall.unlink(propertiesFile) }
            throw error
        }
        writer = MirrorEventWriter(mirror: uinput.deviceDescription, ending: ending.ending)
        self.setting = setting
        choice = ending
        self.device = device
        self.logger = logger
        events.reserveCapacity(128)
    }

    /// Takes over the mirror of `original` a previous touchd created and left
    /// on `fd` (systemd's file descriptor store: docs/pass-through.md, "Across
    /// a restart"): the same device, nothing created, so the compositor sees
    /// nothing change. The contacts left down on it (`handover`) start ending
    /// now as `ending` says; without a handover (the previous touchd did not
    /// stop cleanly) every slot ends at once.
    ///
    /// - Throws: ``EvdevError`` when `fd` holds no device any more (`fd` is closed).
    init(device: DeviceID, original: DeviceDescription, key: String, adopting fd: Int32, handover: MirrorHandover?,
         at time: Timestamp, setting: MirrorEndingSetting = .default, ending: MirrorEndingChoice, logger: Logger) throws(EvdevError) {
        let description = MirrorDescription.make(from: original, key: key)
        do {
            uinput = try UinputDevice(adopting: fd, description: description)
        } catch {
            try? Syscall.close(fd)
            throw error
        }
        let path = Self.propertiesDirectory + "/" + MirrorDescription.phys(key: key)
        propertiesFile = access(path, F_OK) == 0 ? path : nil
        writer = MirrorEventWriter(mirror: description, ending: ending.ending)
        self.setting = setting
        choice = ending
        self.device = device
        self.logger = logger
        events.reserveCapacity(128)
        if let handover {
            writer.takeOver(handover, at: time, into: &events)
            frameTime = time
            write()
        } else {
            _ = UinputDevice.endContacts(onDescriptor: fd, slots: max(1, description.slotCount))
        }
    }

    /// Lets the mirror go to the next touchd: nothing is written, the device
    /// stays; returns what is down on it.
    func detach() -> MirrorHandover {
        let handover = writer.handover
        uinput.detach()
        return handover
    }

    /// Adds one of the session's mirror events to the frame being written.
    func append(_ e: MirrorTouchEvent) {
        writer.append(e, into: &events)
        frameTime = e.time
    }

    /// Set while the router has this mirror in the frame's list (an event that writes
    /// nothing, such as a lift ending's start, must not add it twice).
    var inFrame = false

    /// Ends the frame and writes it.
    func endFrame() {
        guard !events.isEmpty || writer.hasFramePending else { return }
        writer.endFrame(at: frameTime, into: &events)
        write()
    }

    /// When a taken contact's ending has its next step (``MirrorEnding/lift``), nil when none.
    var nextDeadline: Timestamp? { writer.nextDeadline }

    /// Whether a taken contact is still ending on the mirror (its up not yet written).
    var isEndingTakenContacts: Bool { writer.nextDeadline != nil }

    /// Writes the steps of taken contacts' endings due by `time`.
    func advance(to time: Timestamp) {
        guard events.isEmpty else { return }
        writer.advance(to: time, into: &events)
        if !events.isEmpty { write() }
    }

    /// Whether ``endContacts(at:)`` wrote an ending the compositor may not have read yet.
    private(set) var wroteEnding = false

    /// How long a mirror whose contacts were just ended stays before it is
    /// destroyed: evdev answers a read on a destroyed device with `ENODEV`
    /// before its queued events, so an up the compositor has not read yet is
    /// lost, libinput cancels the touch instead, and compositors that drop
    /// cancels (cage, sway 1.7, weston 10, mutter 43) leave the app's touch
    /// down. Half a second lets a compositor on a loaded machine read it;
    /// the environment's `TOUCHD_MIRROR_DESTROY_DELAY_MS` (0 to 10 000) changes it.
    static let destroyDelayMilliseconds: Int64 =
        Syscall.environment("TOUCHD_MIRROR_DESTROY_DELAY_MS").flatMap { Int64($0) }.map { min(max(0, $0), 10_000) } ?? 500

    /// Ends every contact on the mirror at once, with an up: the compositor
    /// sees nothing left down (before ``destroy()``).
    func endContacts(at time: Timestamp) {
        guard !failed else { return }
        events.removeAll(keepingCapacity: true)
        writer.endAll(at: time, into: &events)
        // More than the frame's closing SYN_REPORT: something was down and ended.
        if events.count > 1 { wroteEnding = true }
        write()
    }

    /// Destroys the mirror (and its udev properties' file): the compositor sees the device go away.
    func destroy() {
        removeProperties()
        uinput.close()
    }

    /// Removes the file of the original's udev properties (at once when the
    /// mirror leaves service: a mirror of the same device made meanwhile writes
    /// the same file, which the old one's destroying must not take away).
    func removeProperties() {
        if let propertiesFile { try? Syscall.unlink(propertiesFile) }
        propertiesFile = nil
    }

    private func write() {
        defer { events.removeAll(keepingCapacity: true) }
        guard !failed else { return }
        do {
            try uinput.writeBatch(events)
        } catch {
            failed = true
            logger.error("pass-through mirror of device \(device.rawValue): \(error); the mirror gets nothing more")
        }
    }
}
