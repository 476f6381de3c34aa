// SPDX-License-Identifier: MIT
import Evdev
import Foundation
import Testing
import TouchCore
@testable import TouchDaemon

/// The touch gap of `systemctl restart` under pass-through, with and without
/// the file descriptor store, in one boot: a benchmark, not in `make test`'s
/// guest filter (about 2.5 minutes); run it with
/// `scripts/vm-test.sh PassThroughRestartBenchmarks` (figures in
/// docs/performance.md and docs/pass-through.md).
@Suite(.serialized, .requiresUinput) struct PassThroughRestartBenchmarks {
    typealias Rig = PassThroughRestartTests.Rig

    /// Taps written every `interval` ms into the touchscreen from the restart
    /// request on; the gap is from the request to the write of the first tap
    /// that reaches the mirror after one was lost (or, with no loss, 0).
    static func measureGap(store: Bool, interval: Int = 20) throws -> (gap: Double, lost: Int) {
        // The guard's own limit: a restart slower than it falls back, as on a panel.
        let rig = try Rig(store: store, namePrefix: "PassThroughRestartBenchmarks ", restartLimitMilliseconds: nil)
        var reader = try EvdevDevice(path: rig.mirrorNode)
        var mirrorPath = rig.mirrorNode
        var events: [InputEvent] = []
        let start = Date()
        let restart = try rig.manager.start(["restart", "touchd-test.service"])
        defer { try? UserServiceManager.waitForExit(restart) }
        var written: [(x: Int, at: Double)] = []
        var delivered = Set<Int>()
        var x = 100
        var firstLost: Double?
        while Date().timeIntervalSince(start) < 20 {
            let at = Date().timeIntervalSince(start)
            try rig.write([(3, 0x39, x), (3, 0x35, x), (3, 0x36, 200), (1, 0x14a, 1), (0, 0, 0), (3, 0x39, -1), (1, 0x14a, 0), (0, 0, 0)])
            written.append((x, at))
            x = x >= 700 ? 100 : x + 1
            usleep(UInt32(interval * 1000))
            // The mirror (a new one without the store: found again by its phys).
            if (try? reader.readAvailable(into: &events)) == nil || !FileManager.default.fileExists(atPath: mirrorPath) {
                if let node = try? PassThroughTests.Rig.mirrorNode(of: rig.original), let r = try? EvdevDevice(path: node) {
                    reader = r
                    mirrorPath = node
                }
            }
            for e in events where e.type == .abs && e.code == 0x35 { delivered.insert(Int(e.value)) }
            events.removeAll()
            let lost = written.filter { !delivered.contains($0.x) && $0.at < at - 0.5 }
            if firstLost == nil, let l = lost.first { firstLost = l.at }
            if firstLost != nil, let d = written.first(where: { delivered.contains($0.x) && $0.at > firstLost! }) {
                return (d.at, lost.count)
            }
            if firstLost == nil && at > 10 { return (0, 0) }
        }
        throw DaemonTestFailure("no tap reached the mirror within 20 s of the restart: \(rig.log)")
    }

    @Test("Benchmark: the touch gap of systemctl restart touchd, with and without the file descriptor store (printed)",
          .requiresServiceManager)
    func restartGap() throws {
        var figures: [Bool: [Double]] = [:]
        for run in 0..<6 {
            let store = run % 2 == 0
            let (gap, lost) = try Self.measureGap(store: store)
            figures[store, default: []].append(gap)
            print("pass-through restart gap: store \(store ? "on" : "off"), run \(run / 2 + 1): \(String(format: "%.0f", gap * 1000)) ms, \(lost) tap(s) lost")
        }
        for store in [true, false] {
            let g = (figures[store] ?? []).sorted()
            guard !g.isEmpty else { continue }
            print("pass-through restart gap: store \(store ? "on" : "off"): p50 \(String(format: "%.0f", g[g.count / 2] * 1000)) ms, max \(String(format: "%.0f", g.last! * 1000)) ms over \(g.count) runs")
        }
        #expect(figures[true]?.count == 3 && figures[false]?.count == 3)
    }
}
