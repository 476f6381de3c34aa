// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import Dispatch
import TouchClient
import TouchDaemon
import Wire

/// `touchctl follow-focus`: follows the focused window in the user's session and reports it to
/// touchd (the `focus` request), for shortcuts, edges and deferred edges per app
/// (docs/actions.md, "Following the focused app"). sway is read through its IPC (`$SWAYSOCK`).
struct FollowFocusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "follow-focus",
        abstract: "Report the focused app (id, title, full-screen) to touchd, from sway's IPC ($SWAYSOCK).")

    @Option(help: "Socket path.")
    var socket: String = DaemonSettings.defaultSocketPath

    @Option(help: ArgumentHelp("sway's IPC socket (default: $SWAYSOCK).", valueName: "path"))
    var swaysock: String?

    @Flag(help: "Print each report on standard output.")
    var verbose = false

    func validate() throws {
        if resolvedSwaySocket() == nil { throw ValidationError("give --swaysock (SWAYSOCK is not set: is sway running in this session?)") }
    }

    func resolvedSwaySocket() -> String? {
        if let swaysock { return swaysock }
        guard let s = getenv("SWAYSOCK").map({ String(cString: $0) }), !s.isEmpty else { return nil }
        return s
    }

    func run() throws {
        let socket = self.socket, sway = resolvedSwaySocket()!, verbose = self.verbose
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        Task {
            status.value = await Self.follow(socket: socket, sway: sway, verbose: verbose) { _ in }
            done.signal()
        }
        done.wait()
        if status.value != 0 { throw ExitCode(status.value) }
    }

    /// What the follower waits for.
    enum Input: Sendable {
        /// Bytes from sway.
        case bytes([UInt8])
        /// sway closed its socket (it quit, or the session ends).
        case swayGone(String)
        /// touchd came back after a restart: the focus is sent again.
        case reconnected
    }

    /// Follows sway and reports each change to touchd; `changed` hears each report too (the
    /// action agent's bindings decide by it). Returns the exit status when sway or touchd fails.
    static func follow(socket: String, sway: String, verbose: Bool,
                       changed: @escaping @Sendable (FocusReport) async -> Void) async -> Int32 {
        let fd = Self.connectUnix(sway)
        guard fd >= 0 else {
            printError("touchctl: cannot connect to sway at \(sway): \(String(cString: strerror(errno)))")
            return 69
        }
        let client = TouchClient(socketPath: socket, reconnect: ReconnectPolicy())
        do {
            try await client.connect()
        } catch {
            close(fd)
            printError("touchctl: cannot connect to \(socket): \(error)")
            return 69
        }
        defer { Task { await client.close() } }
        let ask = SwayIPC.message(SwayIPC.subscribe, #"["window","workspace"]"#) + SwayIPC.message(SwayIPC.getTree, "")
        guard ask.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == ask.count else {
            close(fd)
            printError("touchctl: cannot write to sway at \(sway)")
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
                    continuation.yield(.swayGone(n == 0 ? "sway closed its socket" : String(cString: strerror(errno))))
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
        var reader = SwayIPC.Reader()
        var follower = SwayFocusFollower()
        func send(_ report: FocusReport) async -> Bool {
            await changed(report)
            if verbose { print("focus \(report.appID ?? "unknown")\(report.fullScreen ? " fullscreen" : "") \(report.title ?? "")") }
            do {
                try await client.send(.focus(report))
                return true
            } catch {
                // not-permitted: this session is not the seat's active one; the next change may be.
                printError("touchctl: focus report refused: \(error)")
                return false
            }
        }
        for await input in inputs {
            switch input {
            case .bytes(let bytes):
                let messages: [(type: UInt32, payload: [UInt8])]
                do {
                    messages = try reader.take(bytes)
                } catch {
                    printError("touchctl: \(sway): \(error)")
                    _ = await send(.unknown)
                    return 65
                }
                for m in messages {
                    if let report = follower.take(type: m.type, payload: m.payload) { _ = await send(report) }
                }
            case .reconnected:
                if let report = follower.current { _ = await send(report) }
            case .swayGone(let why):
                // touchd must not keep a focus nobody follows any more.
                _ = await send(.unknown)
                printError("touchctl: \(why); the focus is unknown")
                return 69
            }
        }
        return 0
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
