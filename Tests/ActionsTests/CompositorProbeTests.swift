// SPDX-License-Identifier: MIT
import Foundation
import Testing
@testable import Actions

/// The agent's look for the compositor reading touchd's mirrors, on a sysfs and /proc of the test's own.
@Suite struct CompositorProbeTests {
    /// A tree with input devices `event3` (a real panel) and `event9` (a mirror), and processes:
    /// 50 with the panel open, 120 (`kwin_wayland`) with the mirror open, 200 with it open too
    /// (a later process, not the first found), 60 whose descriptors cannot be read (another user's).
    static func tree() throws -> (root: String, probe: CompositorProbe) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("probe-\(UUID().uuidString)").path
        let fm = FileManager.default
        func dir(_ p: String) throws { try fm.createDirectory(atPath: root + p, withIntermediateDirectories: true) }
        func file(_ p: String, _ text: String) throws { try text.write(toFile: root + p, atomically: true, encoding: .utf8) }
        func link(_ p: String, _ to: String) throws { try fm.createSymbolicLink(atPath: root + p, withDestinationPath: to) }
        for (e, phys) in [("event3", "i2c-ELAN0001:00\n"), ("event9", "touchd-mirror-event3\n")] {
            try dir("/sys/\(e)/device")
            try file("/sys/\(e)/device/phys", phys)
        }
        try dir("/sys/mouse0")
        for (pid, comm, node) in [(50, "Xwayland", "/dev/input/event3"), (120, "kwin_wayland", "/dev/input/event9"), (200, "evtest", "/dev/input/event9")] {
            try dir("/proc/\(pid)/fd")
            try file("/proc/\(pid)/comm", comm + "\n")
            try link("/proc/\(pid)/fd/0", "/dev/null")
            try link("/proc/\(pid)/fd/17", node)
            try link("/proc/\(pid)/exe", "/usr/bin/\(comm)")
        }
        try dir("/proc/60")
        try file("/proc/self-not-a-pid", "")
        return (root, CompositorProbe(inputClass: root + "/sys", proc: root + "/proc"))
    }

    @Test("the mirrors are the devices whose phys starts touchd-mirror-; the reader is the first process with one open")
    func findsTheReader() throws {
        let (root, probe) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(probe.mirrorNodes() == ["/dev/input/event9"])
        let found = try #require(probe.reader(of: probe.mirrorNodes()))
        #expect(found == CompositorProbe.Found(pid: 120, name: "kwin_wayland", executable: "/usr/bin/kwin_wayland"))
    }

    @Test("no mirror, or no readable process with one open: nothing found (the compositor is reported unknown)")
    func nothing() throws {
        let (root, probe) = try Self.tree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(probe.reader(of: []) == nil)
        #expect(probe.reader(of: ["/dev/input/event42"]) == nil)
        #expect(CompositorProbe(inputClass: root + "/none", proc: root + "/proc").mirrorNodes().isEmpty)
    }

    @Test("dpkg-query's answers: the owning package, then its version")
    func dpkgOutput() {
        #expect(CompositorProbe.package(fromSearchOutput: "kwin-wayland: /usr/bin/kwin_wayland\n") == "kwin-wayland")
        #expect(CompositorProbe.package(fromSearchOutput: "sway:amd64: /usr/bin/sway\n") == "sway")
        #expect(CompositorProbe.package(fromSearchOutput: "a, b: /usr/bin/x\n") == nil)
        #expect(CompositorProbe.package(fromSearchOutput: "") == nil)
        #expect(CompositorProbe.version(fromQueryOutput: "4:5.27.5-2+deb12u2") == "4:5.27.5-2+deb12u2")
        #expect(CompositorProbe.version(fromQueryOutput: "\n") == nil)
    }
}
