// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import Evdev
import LiveInput
import TouchCore
import Session
import TouchDaemon
import Trace
import Udev

/// `touchctl replay --live`: recordings into uinput devices, one file after another.
enum UinputReplayRun {
    /// How long to give readers (touchd, libinput) to open a new device before
    /// writing to it, and to drain it before it disappears (`--settle`).
    static let defaultSettleMilliseconds = 500.0

    static func run(recordings: [Recording], speed: Double, settleMilliseconds: Double) throws {
        guard let wakeup = try? LiveWakeup() else { throw ExitCode(71) }
        StopSignals.install(waking: wakeup)
        for recording in recordings {
            if StopSignals.requested { break }
            let replay: UinputReplay
            do {
                replay = try UinputReplay(recording: recording)
            } catch {
                printError("touchctl: " + error.description)
                throw ExitCode(69)
            }
            defer { replay.close() }
            for d in replay.devices {
                printError("touchctl: created \(d.devnode ?? "a device") (\(d.deviceDescription.name))")
            }
            waitUntilReadersCanOpen(replay.devices, settleMilliseconds: settleMilliseconds)
            do {
                let count = try replay.play(speed: speed, shouldStop: { StopSignals.requested })
                printError("touchctl: wrote \(count) events")
            } catch {
                printError("touchctl: " + error.description)
                throw ExitCode(74)
            }
            // Let readers drain the last frames before the devices disappear.
            UinputReplay.sleep(until: LiveClock.now().adding(milliseconds: settleMilliseconds))
        }
    }

    /// Waits until udev has processed every device (its rules ran, so readers
    /// were told), then a little longer for them to open it.
    static func waitUntilReadersCanOpen(_ devices: [UinputDevice], settleMilliseconds: Double) {
        let udev = try? UdevContext()
        let giveUp = LiveClock.now().adding(milliseconds: 3000)
        for d in devices {
            guard let udev, let syspath = d.syspath else { continue }
            while LiveClock.now() < giveUp {
                let ready = (try? udev.inputEventDevices())?.contains { $0.syspath.hasPrefix(syspath + "/") && $0.isInitialized } ?? false
                if ready { break }
                UinputReplay.sleep(until: LiveClock.now().adding(milliseconds: 20))
            }
        }
        UinputReplay.sleep(until: LiveClock.now().adding(milliseconds: settleMilliseconds))
    }
}
