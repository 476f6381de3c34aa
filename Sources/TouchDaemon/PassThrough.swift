import Evdev
import Gestures
import Logging
import Session
import TouchCore

/// A device's pass-through mirror (semantics §9; docs/pass-through.md): the
/// uinput device the compositor reads instead of the grabbed original, and
/// the writer of what the app world may see of each contact.
///
/// Lives on the engine's thread: the session's mirror events of a frame are
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
    /// Set after a write failed (logged once); the mirror is then left alone.
    private(set) var failed = false

    /// Creates the mirror of `original`.
    ///
    /// - Throws: ``EvdevError`` naming the device when `/dev/uinput` refuses it.
    init(device: DeviceID, original: DeviceDescription, ending: MirrorEnding = .default, logger: Logger) throws(EvdevError) {
        uinput = try UinputDevice.mirror(of: original)
        writer = MirrorEventWriter(mirror: uinput.deviceDescription, ending: ending)
        self.device = device
        self.logger = logger
        events.reserveCapacity(128)
    }

    /// Adds one of the session's mirror events to the frame being written.
    func append(_ e: MirrorTouchEvent) {
        writer.append(e, into: &events)
        frameTime = e.time
    }

    /// Whether the frame being written has events.
    var hasPendingEvents: Bool { !events.isEmpty }

    /// Ends the frame and writes it.
    func endFrame() {
        guard !events.isEmpty else { return }
        writer.endFrame(at: frameTime, into: &events)
        write()
    }

    /// When a taken contact's ending has its next step (``MirrorEnding/lift``), nil when none.
    var nextDeadline: Timestamp? { writer.nextDeadline }

    /// Writes the steps of taken contacts' endings due by `time`.
    func advance(to time: Timestamp) {
        guard events.isEmpty else { return }
        writer.advance(to: time, into: &events)
        if !events.isEmpty { write() }
    }

    /// Ends every contact on the mirror and destroys it: the compositor sees
    /// nothing left down, then the device go away.
    func close(at time: Timestamp) {
        if !failed {
            events.removeAll(keepingCapacity: true)
            writer.endAll(at: time, into: &events)
            write()
        }
        uinput.close()
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
