// SPDX-License-Identifier: MIT
import ArgumentParser
import Logging
import Session
import SystemCalls
import TouchDaemon

/// touchd: the touch input daemon's command line. The `touchd` executable runs it; so does
/// `touchctl` when it is started under the name `touchd` (the Debian package ships one binary
/// for both, docs/deploy.md "Size").
package struct Touchd: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "touchd",
        abstract: "Serve touches and gestures to programs over a Unix socket (docs/daemon.md, docs/protocol.md).")

    @Option(help: "Configuration file (YAML): screens, device rules, gestures, socket.")
    var config: String?

    @Option(help: "Socket path (default: the file's socket.path, else \(DaemonSettings.defaultSocketPath)).")
    var socket: String?

    @Option(help: "Serve a recorded trace as a virtual device instead of the real devices.")
    var replay: String?

    @Flag(help: "Replay the trace again and again.")
    var loop = false

    @Option(help: "Replay speed: 1 real time, 2 twice as fast, 0 as fast as possible.")
    var speed: Double = 1

    @Option(help: "Start replaying once this many clients hold a subscription.")
    var waitForSubscribers = 0

    @Flag(help: "Stop (gracefully) when the replay is over.")
    var exitAfterReplay = false

    @Option(help: "Record the input (devices and events) into this file as a native trace, frame by frame.")
    var record: String?

    @Option(help: "SCHED_FIFO priority (1-99) of the engine and event-loop threads, 0 for normal scheduling (default: the file's scheduling.realtimePriority, else 10).")
    var realtimePriority: Int?

    @Option(help: "Follow seat0's session on logind (system bus; DBUS_SYSTEM_BUS_ADDRESS when set) and quiet shortcuts and edge swipes while it is locked: follow or ignore (default: follow, ignore with --replay).")
    var loginState: String?
    @Flag(help: ArgumentHelp("Check the configuration file (--config, else \(ConfigurationCheck.defaultPath)) and libinput's quirks, print every error as file:line: key: message, and exit: 0 when the file is usable, 78 when not. Opens no device and no socket.", valueName: "check-config"))
    var checkConfig = false

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String = "info"

    @Option(help: "Run as the pass-through guard on this socket instead (its own unit, touchd-guard.service; docs/pass-through.md).")
    var passThroughGuard: String?

    /// A command with its defaults (ArgumentParser fills in the options).
    package init() {}

    package func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else { throw ValidationError("unknown log level '\(logLevel)'") }
        guard speed >= 0, speed.isFinite else { throw ValidationError("--speed must be 0 or more") }
        if let p = realtimePriority, !(0...ThreadScheduling.maximumPriority).contains(p) {
            throw ValidationError("--realtime-priority must be from 0 to \(ThreadScheduling.maximumPriority)")
        }
        if let l = loginState, l != "follow" && l != "ignore" {
            throw ValidationError("--login-state must be follow or ignore, not '\(l)'")
        }
        guard waitForSubscribers >= 0 else { throw ValidationError("--wait-for-subscribers must be 0 or more") }
        if replay == nil && (loop || exitAfterReplay || waitForSubscribers > 0 || speed != 1) {
            throw ValidationError("--loop, --speed, --wait-for-subscribers and --exit-after-replay need --replay")
        }
        if checkConfig && (replay != nil || record != nil || socket != nil) {
            throw ValidationError("--check-config takes only --config")
        }
    }

    package func run() async throws {
        if checkConfig {
            let path = config ?? ConfigurationCheck.defaultPath
            let outcome = ConfigurationCheck.run(path: path)
            for w in outcome.warnings { printError("warning: \(w)") }
            for e in outcome.errors { printError(e.description) }
            if outcome.errors.isEmpty { print("\(path): configuration OK") }
            throw ExitCode(outcome.status)
        }
        let level = Logger.Level(rawValue: logLevel) ?? .info
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
        let logger = Logger(label: "touchd")
        if let passThroughGuard {
            do {
                try PassThroughGuard.run(socketPath: passThroughGuard, logger: logger)
            } catch {
                logger.critical("pass-through guard: cannot listen on \(passThroughGuard): \(error)")
                throw ExitCode(71)
            }
        }
        let options = DaemonOptions(
            configPath: config, socketPath: socket, replayPath: replay,
            pacing: ReplayPacing(speed: speed, loop: loop, waitForSubscribers: waitForSubscribers, exitWhenDone: exitAfterReplay),
            recordPath: record, realtimePriority: realtimePriority,
            followsLogin: loginState.map { $0 == "follow" } ?? (replay == nil))
        let trimming = HeapTrimming.start()
        defer { trimming?.cancel() }
        do {
            try await Daemon.run(options, logger: logger)
        } catch {
            logger.critical("\(error.message)")
            throw ExitCode(error.status)
        }
    }
}

/// A line on standard error.
func printError(_ line: String) {
    var stderr = StandardError()
    print(line, to: &stderr)
}

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var text = string
        text.withUTF8 { bytes in try? Syscall.writeAll(2, UnsafeRawBufferPointer(bytes)) }
    }
}
