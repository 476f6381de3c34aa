// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Dispatch
import SystemCalls
import TouchClient
import TouchDaemon
import Wire

/// `touchctl follow-focus`: follows the focused window in the user's session and reports it to
/// touchd (the `focus` request), for shortcuts, edges and deferred edges per app
/// (docs/actions.md, "Following the focused app"). sway is read through its IPC (`$SWAYSOCK`);
/// other wlroots compositors (labwc, Hyprland, wayfire, river) through
/// wlr-foreign-toplevel-management on `$WAYLAND_DISPLAY`; KWin through a script it loads, and
/// GNOME Shell through its extension, each calling the follower on the session bus
/// (``SessionBusFocus``).
struct FollowFocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow-focus",
        abstract: "Report the focused app (id, title, full-screen) to touchd, from sway's IPC ($SWAYSOCK), KWin (a script it loads; $XDG_CURRENT_DESKTOP=KDE), GNOME Shell (its touchd-focus extension) or a wlroots compositor's foreign-toplevel protocol ($WAYLAND_DISPLAY).")

    @Option(help: "Socket path.")
    var socket: String = DaemonSettings.defaultSocketPath

    @Option(help: ArgumentHelp("sway's IPC socket (default: $SWAYSOCK).", valueName: "path"))
    var swaysock: String?

    @Option(help: ArgumentHelp("Follow a Wayland compositor's zwlr_foreign_toplevel_manager_v1 on this display (a name in $XDG_RUNTIME_DIR or a path; default: $WAYLAND_DISPLAY when $SWAYSOCK is not set).", valueName: "display"))
    var wayland: String?

    @Flag(help: "Follow KWin: load a KWin script that reports to this follower on the session bus (default when $XDG_CURRENT_DESKTOP names KDE).")
    var kwin = false

    @Flag(help: "Follow GNOME Shell: serve the calls of its touchd-focus extension on the session bus (default when $XDG_CURRENT_DESKTOP names GNOME; the extension must be enabled).")
    var gnome = false

    @Flag(help: "Print each report on standard output.")
    var verbose = false

    func validate() throws {
        if source() == nil {
            throw ValidationError("give --swaysock, --kwin, --gnome or --wayland (none of SWAYSOCK, XDG_CURRENT_DESKTOP=KDE or GNOME, or WAYLAND_DISPLAY is set: is a compositor running in this session?)")
        }
    }

    /// Where the focus is read: the options, else sway's IPC when `SWAYSOCK` is set (it also
    /// names X11 windows by class), else the Wayland display's foreign-toplevel protocol.
    func source() -> FocusSource? {
        if let wayland { return FocusSource.waylandDisplay(wayland, environment: Syscall.environment) }
        if let swaysock { return .sway(socket: swaysock) }
        if kwin { return .kwin }
        if gnome { return .gnomeShell }
        return FocusSource.fromEnvironment(Syscall.environment)
    }

    func run() throws {
        let socket = self.socket, source = self.source()!, verbose = self.verbose
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        Task {
            status.value = await Self.follow(socket: socket, source: source, verbose: verbose) { _ in }
            done.signal()
        }
        done.wait()
        if status.value != 0 { throw ExitCode(status.value) }
    }

    /// What the follower waits for.
    enum Input: Sendable {
        /// Bytes from the compositor.
        case bytes([UInt8])
        /// The compositor closed its socket (it quit, or the session ends).
        case compositorGone(String)
        /// touchd came back after a restart: the focus is sent again.
        case reconnected
        /// The compositor's script or extension reported the focused window.
        case report(FocusReport)
        /// The time for the first report has passed.
        case noReportYet
    }

    /// Follows the compositor and reports each change to touchd; `changed` hears each report
    /// too (the action agent's bindings decide by it). Returns the exit status when the
    /// compositor or touchd fails.
    static func follow(socket: String, source: FocusSource, verbose: Bool,
                       changed: @escaping @Sendable (FocusReport) async -> Void) async -> Int32 {
        switch source {
        case .kwin, .gnomeShell: return await followSessionBus(socket: socket, source: source, verbose: verbose, changed: changed)
        case .sway, .foreignToplevel: break
        }
        let fd = Self.connectUnix(source.socket)
        guard fd >= 0 else {
            printError("touchctl: cannot connect to \(source): \(String(cString: strerror(errno)))")
            return 69
        }
        guard let client = await connectedClient(socket, reconnect: ReconnectPolicy()) else {
            close(fd)
            return 69
        }
        defer { Task { await client.close() } }
        var stream = FocusStream(source)
        guard Self.write(stream.greeting, to: fd) else {
            close(fd)
            printError("touchctl: cannot write to \(source)")
            return 69
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        let box = DescriptorBox(fd)
        SensorReader.detach {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = chunk.withUnsafeMutableBytes { read(box.fd, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    continuation.yield(.compositorGone(n == 0 ? "the compositor closed its socket" : String(cString: strerror(errno))))
                    break
                }
                continuation.yield(.bytes(Array(chunk[0..<n])))
            }
            continuation.finish()
        }
        let watcher = Task {
            for await event in client.events {
                if case .reconnected = event { continuation.yield(.reconnected) }
            }
        }
        defer {
            watcher.cancel()
            close(fd)
        }
        func send(_ report: FocusReport) async -> Bool {
            await sendFocus(report, client: client, verbose: verbose, changed: changed)
        }
        for await input in inputs {
            switch input {
            case .bytes(let bytes):
                let taken: (send: [UInt8], reports: [FocusReport])
                do {
                    taken = try stream.take(bytes)
                } catch {
                    // touchd must not keep a focus nobody follows any more.
                    _ = await send(.unknown)
                    printError("touchctl: \(source): \(error.description); the focus is unknown")
                    return error.exitStatus
                }
                if !taken.send.isEmpty && !Self.write(taken.send, to: fd) {
                    _ = await send(.unknown)
                    printError("touchctl: cannot write to \(source); the focus is unknown")
                    return 69
                }
                for report in taken.reports { _ = await send(report) }
            case .report(let report):
                _ = await send(report)
            case .noReportYet:
                break
            case .reconnected:
                if let report = stream.current { _ = await send(report) }
            case .compositorGone(let why):
                _ = await send(.unknown)
                printError("touchctl: \(why); the focus is unknown")
                return 69
            }
        }
        return 0
    }

    /// ``follow(socket:source:verbose:changed:)`` under KWin or GNOME Shell: the reports of the
    /// code inside the compositor, from the session bus (``SessionBusFocus``).
    static func followSessionBus(socket: String, source: FocusSource, verbose: Bool,
                                 changed: @escaping @Sendable (FocusReport) async -> Void) async -> Int32 {
        let compositor: FocusFollowerBus.Compositor
        if case .gnomeShell = source {
            compositor = .gnomeShell
        } else {
            guard let runtime = Syscall.environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else {
                printError("touchctl: XDG_RUNTIME_DIR is not set: no private place for the KWin script")
                return 69
            }
            // KWin reads the script from a file; the session's runtime directory is the user's own.
            let scriptPath = runtime + "/touchd-focus-kwin.js"
            do {
                let fd = try Syscall.open(scriptPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o600)
                defer { try? Syscall.close(fd) }
                try Syscall.writeAll(fd, Array(SessionBusFocus.kwinScript.utf8))
            } catch {
                printError("touchctl: cannot write \(scriptPath): \(error)")
                return 73
            }
            compositor = .kwin(scriptPath: scriptPath)
        }
        let (inputs, continuation) = AsyncStream.makeStream(of: Input.self)
        let bus = FocusFollowerBus()
        do {
            try bus.start(compositor, note: { text in
                guard verbose else { return }
                print(text)
                fflush(nil)
            }) { event in
                switch event {
                case .report(let report): continuation.yield(.report(report))
                case .gone(let why): continuation.yield(.compositorGone(why))
                }
            }
        } catch {
            printError("touchctl: \(error.description)")
            return 69
        }
        defer { bus.stop() }
        if case .gnomeShell = compositor {
            // The extension reports as soon as the follower's name appears; silence means it is
            // not installed or not enabled.
            Task {
                try? await Task.sleep(for: .seconds(10))
                continuation.yield(.noReportYet)
            }
        }
        guard let client = await connectedClient(socket, reconnect: ReconnectPolicy()) else {
            return 69
        }
        defer { Task { await client.close() } }
        let watcher = Task {
            for await event in client.events {
                if case .reconnected = event { continuation.yield(.reconnected) }
            }
        }
        defer { watcher.cancel() }
        var current: FocusReport?
        for await input in inputs {
            switch input {
            case .noReportYet:
                if current == nil {
                    printError("touchctl: no report from GNOME Shell yet: is its extension installed and enabled? gnome-extensions enable \(SessionBusFocus.gnomeExtension) (docs/actions.md)")
                }
            case .report(let report):
                guard report != current else { continue }
                current = report
                _ = await sendFocus(report, client: client, verbose: verbose, changed: changed)
            case .reconnected:
                if let current { _ = await sendFocus(current, client: client, verbose: verbose, changed: changed) }
            case .compositorGone(let why):
                _ = await sendFocus(.unknown, client: client, verbose: verbose, changed: changed)
                printError("touchctl: \(why); the focus is unknown")
                return 69
            case .bytes:
                break
            }
        }
        return 0
    }

    /// Hands `report` to `changed`, prints it with `verbose` and sends it to touchd; false when
    /// touchd refused it.
    static func sendFocus(_ report: FocusReport, client: TouchClient, verbose: Bool,
                          changed: @Sendable (FocusReport) async -> Void) async -> Bool {
        await changed(report)
        if verbose {
            print("focus \(report.appID ?? "unknown")\(report.fullScreen ? " fullscreen" : "") \(report.title ?? "")")
            // Each report as it happens, also into a file or a pipe.
            fflush(nil)
        }
        do {
            try await client.send(.focus(report))
            return true
        } catch {
            // not-permitted: this session is not the seat's active one; the next change may be.
            printError("touchctl: focus report refused: \(error)")
            return false
        }
    }

    /// Writes all of `bytes` (the socket is blocking; requests are a few dozen bytes).
    static func write(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var at = 0
        while at < bytes.count {
            let n = bytes[at...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            at += n
        }
        return true
    }

    /// A connected `AF_UNIX` stream socket, or -1 with `errno` set.
    static func connectUnix(_ path: String) -> Int32 {
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            errno = ENAMETOOLONG
            return -1
        }
        withUnsafeMutableBytes(of: &address.sun_path) { p in
            for (i, b) in bytes.enumerated() { p[i] = b }
        }
        let r = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard r == 0 else {
            let e = errno
            close(fd)
            errno = e
            return -1
        }
        return fd
    }
}

/// sway's socket, read on its own thread (only it reads; the command closes it after).
final class DescriptorBox: Sendable {
    let fd: Int32
    init(_ fd: Int32) { self.fd = fd }
}

/// Where `touchctl follow-focus` reads the focus from.
enum FocusSource: Sendable, CustomStringConvertible {
    /// sway's IPC socket.
    case sway(socket: String)
    /// A Wayland display's socket, followed through wlr-foreign-toplevel-management.
    case foreignToplevel(socket: String)
    /// KWin, through a script that calls the follower on the session bus.
    case kwin
    /// GNOME Shell, through its extension that calls the follower on the session bus.
    case gnomeShell

    /// The socket to connect to (KWin's reports come over the session bus instead).
    var socket: String {
        switch self {
        case .sway(let s), .foreignToplevel(let s): return s
        case .kwin, .gnomeShell: return ""
        }
    }

    /// For error lines: which compositor interface at which path.
    var description: String {
        switch self {
        case .sway(let s): return "sway at \(s)"
        case .foreignToplevel(let s): return "the Wayland compositor at \(s) (foreign-toplevel)"
        case .kwin: return "KWin (its script, on the session bus)"
        case .gnomeShell: return "GNOME Shell (its extension, on the session bus)"
        }
    }

    /// `SWAYSOCK` first (sway's IPC also names X11 windows by class), then a KDE or GNOME
    /// session (`XDG_CURRENT_DESKTOP`: neither compositor offers the foreign-toplevel
    /// protocol), else `WAYLAND_DISPLAY`.
    static func fromEnvironment(_ environment: (String) -> String?) -> FocusSource? {
        if let sway = environment("SWAYSOCK"), !sway.isEmpty { return .sway(socket: sway) }
        let desktops = environment("XDG_CURRENT_DESKTOP")?.split(separator: ":") ?? []
        if desktops.contains("KDE") { return .kwin }
        if desktops.contains("GNOME") { return .gnomeShell }
        guard let display = environment("WAYLAND_DISPLAY"), !display.isEmpty else { return nil }
        return waylandDisplay(display, environment: environment)
    }

    /// A display as libwayland finds it: a path as it is, a name in `XDG_RUNTIME_DIR`.
    static func waylandDisplay(_ display: String, environment: (String) -> String?) -> FocusSource? {
        if display.hasPrefix("/") { return .foreignToplevel(socket: display) }
        guard let runtime = environment("XDG_RUNTIME_DIR"), !runtime.isEmpty else { return nil }
        return .foreignToplevel(socket: runtime + "/" + display)
    }
}

/// A focus source's protocol: the bytes read in, the requests to write and the reports out.
struct FocusStream: Sendable {
    private enum Follower: Sendable {
        case sway(SwayIPC.Reader, SwayFocusFollower)
        case foreignToplevel(WaylandWire.Reader, ForeignToplevelFollower)
    }

    /// Why a source's bytes could not be followed.
    struct Failure: Error, Sendable {
        /// What was wrong.
        var description: String
        /// The command's exit status: 65 for bytes not in the protocol, 69 for a compositor
        /// without the interface or one that ended it.
        var exitStatus: Int32
    }

    private var follower: Follower
    /// The report last returned.
    private var reported: FocusReport?
    /// What to write first.
    let greeting: [UInt8]

    /// A stream for `source`.
    init(_ source: FocusSource) {
        switch source {
        case .sway:
            follower = .sway(SwayIPC.Reader(), SwayFocusFollower())
            greeting = SwayIPC.message(SwayIPC.subscribe, #"["window","workspace"]"#) + SwayIPC.message(SwayIPC.getTree, "")
        case .foreignToplevel, .kwin, .gnomeShell:
            // KWin and GNOME Shell are followed over the session bus, never through a stream.
            follower = .foreignToplevel(WaylandWire.Reader(), ForeignToplevelFollower())
            greeting = ForeignToplevelFollower.greeting
        }
    }

    /// The report last decided.
    var current: FocusReport? {
        switch follower {
        case .sway(_, let f): return f.current
        case .foreignToplevel(_, let f): return f.current
        }
    }

    /// Takes bytes read; returns what to write back and the focus they leave, when it changed.
    mutating func take(_ bytes: [UInt8]) throws(Failure) -> (send: [UInt8], reports: [FocusReport]) {
        var send: [UInt8] = [], reports: [FocusReport] = []
        switch follower {
        case .sway(var reader, var f):
            do {
                for m in try reader.take(bytes) {
                    if let r = f.take(type: m.type, payload: m.payload) { reports.append(r) }
                }
            } catch {
                throw Failure(description: error.description, exitStatus: 65)
            }
            follower = .sway(reader, f)
        case .foreignToplevel(var reader, var f):
            do {
                for m in try reader.take(bytes) {
                    let taken = try f.take(m)
                    send += taken.send
                    if let r = taken.report { reports.append(r) }
                }
            } catch let error as WaylandWireError {
                throw Failure(description: error.description, exitStatus: 65)
            } catch let error as ForeignToplevelError {
                if case .malformed = error { throw Failure(description: error.description, exitStatus: 65) }
                throw Failure(description: error.description, exitStatus: 69)
            } catch {
                throw Failure(description: "\(error)", exitStatus: 65)
            }
            follower = .foreignToplevel(reader, f)
        }
        // Only where a read leaves the focus: a switch between windows arrives as the old
        // window's deactivation, then the new one's activation, in one write.
        guard let last = reports.last, last != reported else { return (send, []) }
        reported = last
        return (send, [last])
    }
}
