// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import JSON
import TouchClient
import TouchCore
import Wire

/// `touchctl actions`: connects to touchd, runs the commands an actions file binds to system
/// events and gestures, reloads the file when it changes (a bad file is reported and the old
/// bindings stay), and reconnects when touchd restarts. docs/actions.md.
package actor ActionAgent {
    /// The actions file.
    package let path: String
    /// touchd's socket.
    package let socketPath: String
    private var matcher: ActionMatcher
    private let runner: CommandRunner
    private let log: @Sendable (String) -> Void
    private var fileStamp: FileStamp?
    /// Whether bindings may run: the seat's session as touchd reports it (semantics §13).
    private var gate: SessionGate
    /// The focused app, when the agent follows it (`--follow-focus`; nil: unknown): bindings with
    /// `apps`, `notApps` or `fullScreen` decide by it.
    private var focus: FocusedApp?
    /// The connected client, to narrow its `gesture` subscription when the bindings change.
    private var client: TouchClient?
    /// How often the file is looked at for changes.
    package static let reloadInterval: Duration = .milliseconds(500)

    /// What identifies a version of the file: inode, size and modification time (an editor that
    /// writes a new file and renames it changes the inode).
    struct FileStamp: Equatable {
        var inode: UInt64
        var size: UInt64
        var modified: Double
    }

    /// Loads the file (a missing file is no bindings until it appears; a bad one is an error).
    ///
    /// `ownSession` is the agent's logind session (default: `XDG_SESSION_ID`): while the seat's
    /// active session is another, nothing runs.
    package init(path: String, socketPath: String, log: @escaping @Sendable (String) -> Void,
                ownSession: String? = ProcessInfo.processInfo.environment["XDG_SESSION_ID"],
                finished: (@Sendable (CommandRunner.Outcome) -> Void)? = nil) throws(ActionsConfigurationError) {
        gate = SessionGate(ownSession: ownSession)
        self.path = path
        self.socketPath = socketPath
        self.log = log
        let stamp = Self.stamp(path)
        let configuration: ActionsConfiguration
        if stamp == nil {
            configuration = ActionsConfiguration()
            log("\(path): not there yet: no bindings until it appears")
        } else {
            configuration = try Self.load(path)
        }
        fileStamp = stamp
        matcher = ActionMatcher(configuration: configuration)
        runner = CommandRunner(configuration: configuration, log: log, finished: finished)
    }

    /// Reads and parses an actions file.
    package static func load(_ path: String) throws(ActionsConfigurationError) -> ActionsConfiguration {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ActionsConfigurationError(file: path, line: 0, path: "", "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ActionsConfigurationError(file: path, line: 0, path: "", "not UTF-8 text")
        }
        return try ActionsConfiguration.parse(yaml: text, file: path)
    }

    static func stamp(_ path: String) -> FileStamp? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileStamp(inode: UInt64(info.st_ino), size: UInt64(info.st_size),
                         modified: Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// The bindings in force.
    package var configuration: ActionsConfiguration { matcher.configuration }

    /// Reloads the file if it changed; returns true when new bindings took effect.
    @discardableResult
    package func reloadIfChanged() async -> Bool {
        let now = Self.stamp(path)
        guard now != fileStamp else { return false }
        fileStamp = now
        guard now != nil else {
            log("\(path): removed; keeping the current bindings")
            return false
        }
        do {
            let c = try Self.load(path)
            matcher.configuration = c
            await runner.setLimits(c)
            log("\(path): reloaded, \(c.bindings.count) binding\(c.bindings.count == 1 ? "" : "s")")
            if let client {
                do {
                    try await client.unsubscribe([.gesture])
                    try await Self.subscribeGestures(client, for: c)
                } catch {
                    log("cannot change the gesture subscription: \(error)")
                }
            }
            return true
        } catch {
            log("\(error.description); keeping the previous bindings")
            return false
        }
    }

    /// The gesture stream is asked only for the recognizers bindings name (a pan's `changed` at
    /// the panel's rate would otherwise wake the agent for nothing); system gestures, few and
    /// named by purpose too, come on the `system` stream unfiltered.
    package static func gestureRecognizers(for configuration: ActionsConfiguration) -> [String] {
        Array(Set(configuration.bindings.map(\.on))).sorted()
    }

    static func subscribeGestures(_ client: TouchClient, for configuration: ActionsConfiguration) async throws {
        let names = gestureRecognizers(for: configuration)
        guard !names.isEmpty else { return }
        try await client.subscribe([.gesture], filter: SubscriptionFilter(recognizers: names))
    }

    /// Handles one server message: learns screens and devices, runs what gestures fire.
    package func handle(_ message: JSONValue, line: String? = nil) async {
        switch message["type"]?.stringValue {
        case "hello", "device":
            matcher.learn(message)
            learnSession(message)
        case "session":
            learnSession(message)
        case "gesture":
            for f in matcher.firings(for: message, line: line) {
                let b = matcher.configuration.bindings[f.binding]
                // The matcher still sees every event (an `every` binding keeps its travel), but
                // nothing runs for a session that is locked or not on screen.
                guard gate.allows(whenLocked: b.whenLocked) else {
                    log("\(b.on) (\(path.split(separator: "/").last.map(String.init) ?? path):\(b.line)): not run: \(gate.holdReason ?? "session")")
                    continue
                }
                guard b.condition.holds(for: focus) else {
                    log("\(b.on) (\(path.split(separator: "/").last.map(String.init) ?? path):\(b.line)): not run over \(focus?.appID ?? "an unknown app")")
                    continue
                }
                await runner.submit(f, label: "\(b.on) (\(path.split(separator: "/").last.map(String.init) ?? path):\(b.line))")
            }
        default:
            break
        }
    }

    /// The focused app changed (the agent's own follower, `--follow-focus`; nil: unknown).
    package func setFocus(_ focus: FocusedApp?) {
        self.focus = focus
    }

    /// The focused app as a follower reported it (no app id: unknown).
    package func setFocus(_ report: FocusReport) {
        focus = report.appID.map { FocusedApp(appID: $0, title: report.title ?? "", fullScreen: report.fullScreen) }
    }

    private func learnSession(_ message: JSONValue) {
        guard let status = gate.learn(message) else { return }
        log("session: \(status.state.rawValue)" + (status.session.map { " (\($0))" } ?? "")
            + (gate.holdReason.map { "; \($0)" } ?? "; bindings run"))
    }

    /// Runs until cancelled: connects (retrying while touchd is away), subscribes to gestures,
    /// system events and devices, and watches the file.
    package func run() async {
        let watcher = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.reloadInterval)
                guard let self else { return }
                await self.reloadIfChanged()
            }
        }
        defer { watcher.cancel() }
        var attempt = 0
        while !Task.isCancelled {
            let client = TouchClient(socketPath: socketPath, reconnect: ReconnectPolicy(maxDelay: .seconds(2)))
            do {
                try await client.connect()
                try await client.subscribe([.system, .device])
                try await Self.subscribeGestures(client, for: matcher.configuration)
            } catch {
                if attempt == 0 { log("cannot connect to \(socketPath) (\(error)); retrying until touchd is there") }
                attempt += 1
                await client.close()
                try? await Task.sleep(for: ReconnectPolicy(maxDelay: .seconds(2)).delay(attempt: attempt))
                continue
            }
            log("connected to \(socketPath)")
            self.client = client
            attempt = 0
            for await event in client.events {
                if Task.isCancelled { break }
                switch event {
                case .hello(let m), .gesture(let m), .system(let m), .device(let m):
                    await handle(m.json, line: m.line)
                case .disconnected:
                    log("disconnected from \(socketPath); reconnecting")
                case .reconnected:
                    log("reconnected to \(socketPath)")
                case .error(let e):
                    log("touchd: \(e)")
                case .other(let m):
                    // `session`: the seat's session changed (semantics §13).
                    await handle(m.json)
                case .touch, .screens, .drag, .motion, .overflow, .goodbye:
                    break
                }
            }
            self.client = nil
            await client.close()
        }
    }
}
