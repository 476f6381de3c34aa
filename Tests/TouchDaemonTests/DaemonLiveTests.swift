// SPDX-License-Identifier: MIT
import Foundation
import KernelTesting
import Testing
import TouchCore
import Session
import TouchDaemon
import Trace

/// touchd without `--replay`: the real kernel's devices (runs in the QEMU
/// guest, `make test-vm`). A uinput touchscreen made from a real recording's
/// description is plugged in while the daemon runs, the recording is written
/// into it, and a client sees the device come, the gestures of the recording,
/// and the device go.
@Suite(.serialized) struct DaemonLiveTests {

    func gestureLines(_ lines: [String]) -> [String] {
        lines.filter { messageType($0) == "gesture" }.compactMap { line -> String? in
            guard let o = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let r = o["recognizer"] as? String, let s = o["state"] as? String else { return nil }
            return "\(r):\(s)"
        }
    }

    @Test(.requiresUinput)
    func hotpluggedTouchscreenIsServedLive() throws {
        let daemon = try DaemonProcess(["--log-level", "info"])
        do {
            try exercise(daemon)
        } catch {
            Issue.record("\(error)\ntouchd's log:\n\(daemon.log)")
        }
    }

    /// What systemd's `LimitRTPRIO=` gives the unprivileged service user
    /// (docs/daemon.md, "Scheduling"): SCHED_FIFO without CAP_SYS_NICE.
    /// In the guest because raising the limit needs CAP_SYS_RESOURCE.
    @Test(.enabled(if: KernelCapability.uinputIsWritable, "needs the guest's root (run make test-vm)"))
    func rlimitRtprioGrantsFifoWithoutTheCapability() throws {
        let daemon = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop", "--realtime-priority", "5"], launcher: [
            "/usr/bin/prlimit", "--rtprio=5", "--", "/usr/bin/setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice"])
        try daemon.waitForLog("event loop thread: SCHED_FIFO priority 5")
        #expect(ThreadSchedulingTests.policies(ThreadSchedulingTests.inputPathThreads(daemon)) == ["1/5", "1/5"])
        // The limit is what allows it: one above is refused.
        let above = try DaemonProcess(["--replay", PackagePaths.drag4, "--loop", "--realtime-priority", "6"], launcher: [
            "/usr/bin/prlimit", "--rtprio=5", "--", "/usr/bin/setpriv", "--bounding-set=-sys_nice", "--inh-caps=-sys_nice"])
        try above.waitForLog("warning: event loop thread: SCHED_FIFO priority 6 refused")
        #expect(ThreadSchedulingTests.policies(ThreadSchedulingTests.inputPathThreads(above)) == ["0/0", "0/0"])
    }

    func exercise(_ daemon: DaemonProcess) throws {
        let client = try WireSocket(path: daemon.socketPath)
        #expect(messageType(try #require(try client.readLine())) == "hello")
        try client.request(#"{"op":"subscribe","id":1,"events":["gesture","device"]}"#, id: 1)

        let recording = try TraceReader.read(path: PackagePaths.fixture("Atmel maXTouch Touchscreen.1-finger-fast-taps.events"))
        let replay = try UinputReplay(recording: recording)
        let added = try client.lines { messageType($0) == "device" }
        #expect(added.last?.contains(#""change":"added""#) == true || added.last?.contains("added") == true, "\(added)")
        #expect(added.last?.contains("Atmel maXTouch Touchscreen") == true)

        try replay.play(speed: 1)
        // Nine quick single-finger taps: each is counted by a `tap` or a
        // `double-tap` (timing in the emulated guest may pair them differently),
        // the last one only after the double-tap window passes: a deadline the
        // daemon fires on the kernel's clock with no event arriving. A stall of
        // the emulated CPU can stretch one touch past the tap's 300 ms limit,
        // so one lost tap is tolerated; at least one pair must be a double tap.
        var taps = 0, doubles = 0
        var seen: [String] = []
        var timedOut = false
        do {
            _ = try client.lines { line in
                guard messageType(line) == "gesture" else { return false }
                seen.append(line)
                if line.contains(#""recognizer":"double-tap""#) && line.contains(#""state":"recognized""#) { taps += 2; doubles += 1 }
                if line.contains(#""recognizer":"tap""#) && line.contains(#""state":"recognized""#) { taps += 1 }
                return taps >= 9
            }
        } catch {
            timedOut = true
        }
        #expect(taps >= 8 && doubles >= 1, "taps \(taps), timed out: \(timedOut): \(seen)")
        #expect(!seen.isEmpty && seen.allSatisfy { $0.contains(#""touchType":"direct""#) })

        replay.close()
        let removed = try client.lines { messageType($0) == "device" }
        #expect(removed.last?.contains("removed") == true, "\(removed)")

        daemon.signal(SIGTERM)
        let rest = try client.lines { messageType($0) == "goodbye" }
        #expect(rest.last.map(messageType) == "goodbye")
        #expect(try daemon.waitForExit() == 0)
        #expect(daemon.log.contains("opened /dev/input/event"), "\(daemon.log)")
    }
}
