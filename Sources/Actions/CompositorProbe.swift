// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TouchCore

/// Finds the compositor reading touchd's pass-through mirrors, from inside the user's session
/// (`touchctl report-compositor`; docs/pass-through.md, "How auto knows"): the mirrors are the
/// input devices whose phys starts `touchd-mirror-` (sysfs, readable by anyone), and the
/// compositor is the process with one of their event nodes open. Only the user's own processes
/// show their descriptors (`/proc/PID/fd` of another user's process is refused), which is why
/// touchd itself, a system user without capabilities, cannot look and an agent in the session does.
/// The roots are parameters so that tests give a tree of their own.
package struct CompositorProbe: Sendable {
    /// Where `/sys/class/input` is.
    package var inputClass = "/sys/class/input"
    /// Where `/proc` is.
    package var proc = "/proc"

    package init(inputClass: String = "/sys/class/input", proc: String = "/proc") {
        self.inputClass = inputClass
        self.proc = proc
    }

    /// The process found, and what it is.
    package struct Found: Hashable, Sendable {
        package var pid: Int32
        /// `/proc/PID/comm`: `kwin_wayland`, `sway`, `gnome-shell`.
        package var name: String
        /// Its executable's path, when it can be read.
        package var executable: String?
    }

    /// The event nodes of touchd's mirrors (`/dev/input/event9`), sorted.
    package func mirrorNodes() -> [String] {
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: inputClass) else { return [] }
        var nodes: [String] = []
        for e in entries where e.hasPrefix("event") {
            guard let phys = try? String(contentsOfFile: "\(inputClass)/\(e)/device/phys", encoding: .utf8),
                  phys.hasPrefix(MirrorDescription.physPrefix) else { continue }
            nodes.append("/dev/input/\(e)")
        }
        return nodes.sorted()
    }

    /// The first process (lowest pid) that has one of `nodes` open, among those whose descriptors
    /// can be read; nil when none.
    package func reader(of nodes: [String]) -> Found? {
        guard !nodes.isEmpty else { return nil }
        let fm = FileManager.default
        guard let entries = try? fm.contentsOfDirectory(atPath: proc) else { return nil }
        let wanted = Set(nodes)
        for pid in entries.compactMap({ Int32($0) }).sorted() {
            let dir = "\(proc)/\(pid)"
            guard let fds = try? fm.contentsOfDirectory(atPath: "\(dir)/fd") else { continue }
            guard fds.contains(where: { (try? fm.destinationOfSymbolicLink(atPath: "\(dir)/fd/\($0)")).map(wanted.contains) ?? false }) else { continue }
            let comm = (try? String(contentsOfFile: "\(dir)/comm", encoding: .utf8)).map(Self.trimmed)
            let executable = try? fm.destinationOfSymbolicLink(atPath: "\(dir)/exe")
            let name = comm.flatMap { $0.isEmpty ? nil : $0 } ?? executable.map { String($0.split(separator: "/").last ?? "") } ?? ""
            guard !name.isEmpty else { continue }
            return Found(pid: pid, name: name, executable: executable)
        }
        return nil
    }

    /// The package owning a path, from `dpkg-query -S PATH`'s output (`kwin-wayland: /usr/bin/kwin_wayland`);
    /// nil when it names none or several (a diversion).
    package static func package(fromSearchOutput text: String) -> String? {
        let lines = text.split(separator: "\n").filter { !$0.hasPrefix("diversion ") }
        guard lines.count == 1, let colon = lines[0].firstIndex(of: ":") else { return nil }
        let names = lines[0][..<colon].split(separator: ",").map { Self.trimmed(String($0)) }
        guard names.count == 1, let name = names.first, !name.isEmpty, !name.contains(" ") else { return nil }
        return name
    }

    /// `text` without white space at either end.
    static func trimmed(_ text: String) -> String {
        String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }

    /// A version from `dpkg-query -W -f '${Version}' PACKAGE`'s output; nil when empty or odd.
    package static func version(fromQueryOutput text: String) -> String? {
        let v = trimmed(text)
        guard !v.isEmpty, v.utf8.count <= 256, !v.contains(where: { $0.isWhitespace }) else { return nil }
        return v
    }
}
