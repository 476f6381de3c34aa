// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Evdev
import LiveInput
import SystemCalls
import TouchCore
import Trace

/// Replays a recording into the kernel: one uinput device per recorded
/// device, created from its description, then the events with their original
/// timing scaled by a speed. Every reader (touchd, libinput, `evtest`) sees
/// the recording as real hardware. `touchctl replay --live` runs this.
///
/// The kernel stamps the written events with the current time and drops
/// values that do not change anything, as it does for real hardware. The
/// devices declare no fuzz (see ``withoutFuzz(_:)``), so recorded values arrive unchanged.
package final class UinputReplay {
    /// The recording being replayed.
    package let recording: Recording
    /// One uinput device per recorded device, in the recording's order.
    package private(set) var devices: [UinputDevice] = []

    /// Creates the devices (they exist until ``close()``).
    ///
    /// - Throws: ``EvdevError`` `.uinputFailed` naming the device when `/dev/uinput`
    ///   is missing or refuses a description; devices already created are destroyed.
    package init(recording: Recording) throws(EvdevError) {
        self.recording = recording
        for recorded in recording.devices {
            do {
                devices.append(try UinputDevice(description: Self.withoutFuzz(recorded.description)))
            } catch {
                close()
                throw error
            }
        }
    }

    deinit { close() }

    /// The description with every axis' fuzz set to 0. The recorded values
    /// already went through the kernel's fuzz filter once; filtering them
    /// again would move them. (libinput's udev rules zero the kernel fuzz of
    /// touch devices the same way.)
    package static func withoutFuzz(_ description: DeviceDescription) -> DeviceDescription {
        var d = description
        for code in d.absInfo.keys { d.absInfo[code]!.fuzz = 0 }
        return d
    }

    /// Writes every event. Before the first event of each frame, `wait` is
    /// called with the `CLOCK_MONOTONIC` time the frame is due: the start
    /// plus the frame's offset in the recording divided by `speed`. With
    /// `speed` 0 frames are written as fast as possible and `wait` is not
    /// called. `shouldStop` is asked between frames.
    ///
    /// - Returns: the number of events written.
    /// - Throws: ``EvdevError`` when the kernel refuses an event.
    @discardableResult
    package func play(speed: Double = 1, wait: (Timestamp) -> Void = UinputReplay.sleep(until:),
                     shouldStop: () -> Bool = { false }) throws(EvdevError) -> Int {
        guard let first = recording.events.first?.event.time else { return 0 }
        let start = LiveClock.now()
        var written = 0
        var frameStart = true
        for recorded in recording.events {
            let index = Int(recorded.device.rawValue)
            guard devices.indices.contains(index) else { continue }
            if frameStart {
                if shouldStop() { break }
                if speed > 0 {
                    let offset = Double(recorded.event.time.microseconds - first.microseconds) / speed
                    wait(Timestamp(microseconds: start.microseconds + Int64(offset.rounded())))
                }
                frameStart = false
            }
            try devices[index].write(recorded.event)
            written += 1
            if recorded.event.isSynReport { frameStart = true }
        }
        return written
    }

    /// Destroys the devices. Idempotent.
    package func close() {
        for d in devices { d.close() }
    }

    /// Sleeps until `time` on `CLOCK_MONOTONIC` (returns at once when it has passed).
    package static func sleep(until time: Timestamp) {
        let ts = timespec(tv_sec: Int(time.microseconds / 1_000_000), tv_nsec: Int(time.microseconds % 1_000_000) * 1000)
        // Fails only for a time before the clock's start, which has passed.
        try? Syscall.sleep(until: ts, clock: CLOCK_MONOTONIC)
    }
}
