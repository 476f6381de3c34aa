// SPDX-License-Identifier: MIT
import TouchCore

/// Traces made in code for behaviours no bundled recording shows.
package enum SyntheticTraces {
    /// Two fingers 20 mm apart on a protocol-B touchscreen
    /// (``DeviceFixtures/touchscreen(slots:resolution:distance:)``, 20 units/mm)
    /// moving apart to 100 mm over 400 ms at 100 Hz, then lifting: a pinch out.
    /// Like a recording of real hardware, it relies on the device's state at
    /// its start (slot 0 current).
    /// As evemu event lines (`E: ...`), to follow a device header.
    package static func pinchOutEvents(startMilliseconds: Int = 1000) -> String {
        var lines: [String] = []
        func e(_ ms: Int, _ type: Int, _ code: Int, _ value: Int) {
            let micros = ms * 1000
            lines.append("E: \(micros / 1_000_000).\(pad(micros % 1_000_000)) \(hex(type)) \(hex(code)) \(value)")
        }
        let abs = 3, slot = 0x2f, id = 0x39, x = 0x35, y = 0x36
        let t0 = startMilliseconds, centre = 2000
        // No ABS_MT_SLOT 0 first: a device starts in slot 0, and the kernel does not repeat it.
        e(t0, abs, id, 1); e(t0, abs, x, centre - 200); e(t0, abs, y, centre)
        e(t0, abs, slot, 1); e(t0, abs, id, 2); e(t0, abs, x, centre + 200); e(t0, abs, y, centre)
        e(t0, 1, 0x14a, 1); e(t0, 0, 0, 0)
        for i in 1...40 {
            let t = t0 + i * 10, half = 200 + i * 20
            e(t, abs, slot, 0); e(t, abs, x, centre - half)
            e(t, abs, slot, 1); e(t, abs, x, centre + half)
            e(t, 0, 0, 0)
        }
        let end = t0 + 410
        e(end, abs, slot, 0); e(end, abs, id, -1)
        e(end, abs, slot, 1); e(end, abs, id, -1)
        e(end, 1, 0x14a, 0); e(end, 0, 0, 0)
        return lines.joined(separator: "\n") + "\n"
    }

    private static func pad(_ micros: Int) -> String {
        let s = String(micros)
        return String(repeating: "0", count: 6 - s.count) + s
    }

    private static func hex(_ v: Int) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: max(0, 4 - s.count)) + s
    }
}
