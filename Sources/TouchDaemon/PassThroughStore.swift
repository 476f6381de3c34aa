// SPDX-License-Identifier: MIT
import Evdev
import Glibc
import Logging
import CSystemCalls
import SystemCalls
import Session

/// Keeps each pass-through device's grab and mirror across a restart of
/// touchd in systemd's file descriptor store (docs/pass-through.md, "Across a
/// restart"), so that the compositor never sees the mirror go away.
///
/// When a device is taken, its grabbed evdev descriptor and its mirror's
/// `/dev/uinput` descriptor are stored (`FDSTORE=1`) under names carrying the
/// original's node (`touchd-pass-through.event5.grab`, `.mirror`). A touchd
/// stopping adds what it left down on each mirror (`.state`, a memfd holding
/// ``MirrorHandover/text``) and does not destroy the mirrors nor release the
/// grabs; the next touchd takes a stored grab over when the descriptor still
/// reads the device now at that node (same device number, not revoked) and
/// still holds the grab, then the mirror when it still exists, and ends the
/// contacts left on it as a claim would. Whatever is not taken over is given
/// back: contacts ended, mirror destroyed, grab released, names removed.
///
/// Lives on the input thread.
final class PassThroughStore {
    /// The names' prefix.
    static let prefix = "touchd-pass-through."

    enum Part: String, CaseIterable {
        case grab, mirror, state
    }

    private struct Kept {
        var grab: Int32?
        var mirror: Int32?
        var state: Int32?
    }

    /// Whether a service manager keeps descriptors for touchd: `NOTIFY_SOCKET`
    /// and `FDSTORE` (set by systemd 254 and later from `FileDescriptorStoreMax=`,
    /// and by touchd.service itself for older ones) both set.
    let available: Bool
    private var kept: [String: Kept] = [:]
    private var adoptedGrabs: Set<String> = []
    private let logger: Logger

    /// Sorts the descriptors systemd passed: ours by key and part; any other is closed.
    init(stored: [(fd: Int32, name: String)], logger: Logger) {
        self.logger = logger
        let max = Syscall.environment("FDSTORE").flatMap { Int($0) } ?? 0
        available = Syscall.environment("NOTIFY_SOCKET") != nil && max > 0
        for (fd, name) in stored {
            guard let (key, part) = Self.parse(name) else {
                logger.warning("systemd passed a descriptor named \(name) touchd does not know; closed")
                try? Syscall.close(fd)
                Systemd.removeStored(name: name)
                continue
            }
            var k = kept[key] ?? Kept()
            switch part {
            case .grab: if let old = k.grab { try? Syscall.close(old) }; k.grab = fd
            case .mirror: if let old = k.mirror { try? Syscall.close(old) }; k.mirror = fd
            case .state: if let old = k.state { try? Syscall.close(old) }; k.state = fd
            }
            kept[key] = k
        }
        if !kept.isEmpty {
            logger.notice("pass-through: systemd kept \(kept.count) device(s) across the restart: \(kept.keys.sorted().joined(separator: ", "))")
        }
    }

    /// Whether systemd passed anything of a previous touchd's pass-through.
    var hasKept: Bool { !kept.isEmpty }

    /// The key of a device node: its name (`event5`), as in the mirror's phys.
    static func key(ofNode node: String) -> String {
        String(node.split(separator: "/").last ?? Substring(node))
    }

    static func name(_ part: Part, key: String) -> String { "\(prefix)\(key).\(part.rawValue)" }

    static func parse(_ name: String) -> (key: String, part: Part)? {
        guard name.hasPrefix(prefix), let dot = name.lastIndex(of: ".") else { return nil }
        let key = String(name[name.index(name.startIndex, offsetBy: prefix.count)..<dot])
        guard !key.isEmpty, let part = Part(rawValue: String(name[name.index(after: dot)...])) else { return nil }
        return (key, part)
    }

    /// The stored grabbed descriptor of the device at `node`, when it still
    /// reads that device and holds its grab (``LiveDeviceSource/adopt``);
    /// anything else stored for it is not taken over.
    func takeGrab(node: String) -> Int32? {
        let key = Self.key(ofNode: node)
        guard let fd = kept[key]?.grab else { return nil }
        kept[key]?.grab = nil
        let state = EvdevDevice.heldState(of: fd, node: node)
        guard state == .grabbed else {
            logger.notice("pass-through: the kept descriptor of \(node) is not taken over (\(state)); the device starts afresh")
            try? Syscall.close(fd)
            Systemd.removeStored(name: Self.name(.grab, key: key))
            return nil
        }
        adoptedGrabs.insert(key)
        logger.info("pass-through: took over the grab of \(node) from the previous touchd")
        return fd
    }

    /// The stored mirror of a device whose grab was taken over, with what was
    /// left down on it (nil when the previous touchd did not say: it did not
    /// stop cleanly); nil when there is none or it no longer exists.
    func takeMirror(key: String) -> (fd: Int32, handover: MirrorHandover?)? {
        guard adoptedGrabs.contains(key), let fd = kept[key]?.mirror else { return nil }
        kept[key]?.mirror = nil
        var handover: MirrorHandover?
        if let s = kept[key]?.state {
            kept[key]?.state = nil
            handover = Self.readHandover(s)
            if handover == nil { logger.warning("pass-through: the kept state of \(key)'s mirror is unreadable; its contacts end at once") }
            try? Syscall.close(s)
            Systemd.removeStored(name: Self.name(.state, key: key))
        }
        guard UinputDevice.holdsDevice(fd) else {
            try? Syscall.close(fd)
            Systemd.removeStored(name: Self.name(.mirror, key: key))
            return nil
        }
        return (fd, handover)
    }

    /// After the devices present at start were opened: what was not taken
    /// over is given back (contacts on a mirror ended, the mirror destroyed,
    /// a grab still held released) and removed from the store.
    func discardRest() {
        for (key, k) in kept.sorted(by: { $0.key < $1.key }) {
            if let m = k.mirror {
                if UinputDevice.holdsDevice(m) {
                    _ = UinputDevice.endContacts(onDescriptor: m, slots: 32)
                    UinputDevice.destroy(onDescriptor: m)
                }
                try? Syscall.close(m)
            }
            if let g = k.grab {
                EvdevDevice.releaseGrab(ofDescriptor: g)
                try? Syscall.close(g)
            }
            if let s = k.state { try? Syscall.close(s) }
            logger.notice("pass-through: what systemd kept of \(key) is not taken over: given back")
            for part in Part.allCases { Systemd.removeStored(name: Self.name(part, key: key)) }
        }
        kept.removeAll()
    }

    /// A device was taken for pass-through: its grabbed descriptor and its
    /// mirror's go to the store (a descriptor already there is not added twice).
    func keep(key: String, grabbed: Int32, mirror: Int32) {
        // In use again: not given back by ``discardRest()``.
        kept[key] = nil
        guard available else { return }
        Systemd.store([grabbed], name: Self.name(.grab, key: key))
        Systemd.store([mirror], name: Self.name(.mirror, key: key))
    }

    /// touchd stops and leaves the mirror of `key` to the next one: what is
    /// down on it goes to the store in a memfd.
    func keepHandover(key: String, _ handover: MirrorHandover) {
        guard available else { return }
        let fd: Int32
        do {
            fd = try Syscall.memoryFile(name: "touchd-mirror-handover")
        } catch {
            logger.error("pass-through: cannot create the handover of \(key)'s mirror (\(error)); its contacts will end at once")
            return
        }
        defer { try? Syscall.close(fd) }
        do {
            try Syscall.writeAll(fd, Array(handover.text.utf8))
        } catch {
            logger.error("pass-through: cannot write the handover of \(key)'s mirror (\(error)); its contacts will end at once")
            return
        }
        Systemd.store([fd], name: Self.name(.state, key: key))
    }

    /// Pass-through ended for `key` (unplugged, turned off, given back): the store lets go of it.
    func forget(key: String) {
        guard available else { return }
        adoptedGrabs.remove(key)
        for part in Part.allCases { Systemd.removeStored(name: Self.name(part, key: key)) }
    }

    static func readHandover(_ fd: Int32) -> MirrorHandover? {
        try? Syscall.rewind(fd)
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 1 << 20,
              case .done(let n)? = chunk.withUnsafeMutableBytes({ try? Syscall.read(fd, into: $0) }), n > 0 {
            bytes.append(contentsOf: chunk[0..<n])
        }
        return MirrorHandover(text: String(decoding: bytes, as: UTF8.self))
    }
}
