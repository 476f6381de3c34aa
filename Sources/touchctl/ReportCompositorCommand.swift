// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Actions
import ArgumentParser
import Dispatch
import Synchronization
import SystemCalls
import TouchClient
import TouchDaemon
import Wire

/// `touchctl report-compositor`: finds the compositor reading touchd's pass-through mirrors in the
/// user's session and reports it to touchd (the `compositor` request), for
/// `passThroughEnding: auto` (docs/pass-through.md, "How auto knows").
struct ReportCompositorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report-compositor",
        abstract: "Report the compositor that reads touchd's pass-through mirrors (name and version) to touchd.",
        discussion: """
        Looks for the process of this user that has a mirror's event node open (/proc/PID/fd), \
        takes its name (/proc/PID/comm) and its package's version (dpkg-query), and reports them; \
        touchd's passThroughEnding: auto then cancels only where that compositor passes cancels on \
        to apps. Looks again every --interval seconds and after touchd restarts; the report holds \
        while the command runs. Only a client in the seat's active session may report.
        """)

    @Option(help: "Socket path.")
    var socket: String = DaemonSettings.defaultSocketPath

    @Option(help: ArgumentHelp("Seconds between looks.", valueName: "seconds"))
    var interval: Double = 10

    @Flag(help: "Print what is found and exit, without connecting to touchd.")
    var print = false

    func validate() throws {
        guard interval >= 1, interval <= 3600 else { throw ValidationError("--interval must be from 1 to 3600 seconds") }
    }

    /// What the probe finds now: the report to send.
    static func look(_ probe: CompositorProbe = CompositorProbe()) -> CompositorReport {
        guard let found = probe.reader(of: probe.mirrorNodes()) else { return .unknown }
        return CompositorReport(name: found.name, version: found.executable.flatMap(packageVersion))
    }

    /// The version of the Debian package that installed `path`, nil when dpkg does not know it.
    static func packageVersion(of path: String) -> String? {
        guard let owner = run(["dpkg-query", "-S", path]).flatMap(CompositorProbe.package(fromSearchOutput:)) else { return nil }
        return run(["dpkg-query", "-W", "-f", "${Version}", owner]).flatMap(CompositorProbe.version(fromQueryOutput:))
    }

    /// A command's standard output, nil when it fails. Through `popen(3)` (SystemCalls), not
    /// Foundation's `Process`, which would link Foundation with ICU's data (40 MB) into touchctl.
    static func run(_ argv: [String]) -> String? {
        let command = argv.map(shellQuoted).joined(separator: " ") + " 2>/dev/null"
        guard let output = try? CommandOutput(command: command) else { return nil }
        var text = ""
        while let line = output.nextLine() { text += line }
        guard output.close() == 0 else { return nil }
        return text
    }

    /// `s` as one word of `/bin/sh`: in single quotes, each quote written `'\''`.
    static func shellQuoted(_ s: String) -> String {
        "'" + s.map { $0 == "'" ? "'\\''" : String($0) }.joined() + "'"
    }

    static func text(_ r: CompositorReport) -> String {
        guard let name = r.name else { return "compositor unknown (no process of this user has a mirror open)" }
        return "compositor \(name)\(r.version.map { " \($0)" } ?? " (version unknown)")"
    }

    func run() throws {
        if print {
            Swift.print(Self.text(Self.look()))
            return
        }
        let socket = self.socket, interval = self.interval
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        Task {
            status.value = await Self.follow(socket: socket, interval: interval)
            done.signal()
        }
        done.wait()
        if status.value != 0 { throw ExitCode(status.value) }
    }

    /// Reports what it finds, again when it changes and after touchd restarts, until touchd goes for good.
    static func follow(socket: String, interval: Double) async -> Int32 {
        guard let client = await connectedClient(socket, reconnect: ReconnectPolicy()) else {
            return 69
        }
        defer { Task { await client.close() } }
        let reconnected = ReportFlag()
        let watcher = Task {
            for await event in client.events {
                if case .reconnected = event { reconnected.set() }
            }
        }
        defer { watcher.cancel() }
        var last: CompositorReport?
        while !Task.isCancelled {
            let now = look()
            if now != last || reconnected.take() {
                do {
                    try await client.send(.compositor(now))
                    printError("touchctl: reported \(text(now))")
                    last = now
                } catch {
                    // not-permitted: this session is not the seat's active one; a later look may be.
                    printError("touchctl: compositor report refused: \(error)")
                    last = nil
                }
            }
            try? await Task.sleep(for: .seconds(interval))
        }
        return 0
    }
}

/// Set when touchd came back, so the report is sent again.
final class ReportFlag: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    func take() -> Bool { value.withLock { v in defer { v = false }; return v } }
}
