// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import Actions
import ArgumentParser
import Dispatch
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import SystemCalls
import TouchDaemon
import Wire

/// `touchctl actions`: the action agent of a user's session (docs/actions.md).
struct ActionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "actions",
        abstract: "Run commands on touchd's system events and gestures, as an actions file binds them.",
        discussion: """
        Reads FILE (default ~/.config/touchd/actions.yaml), connects to touchd and runs each \
        binding's command when its gesture fires, with the event's fields in TOUCHD_* environment \
        variables. The file is reloaded when it changes; a bad file is reported with its line and \
        the previous bindings stay. Reconnects when touchd restarts. Stops on SIGTERM or SIGINT.
        """)

    @Option(name: .customLong("config"), help: ArgumentHelp("The actions file.", valueName: "FILE"))
    var config: String?

    @Option(help: "touchd's socket.")
    var socket: String = DaemonSettings.defaultSocketPath

    @Flag(help: "Check the file, print its bindings and exit (status 78 when it is bad).")
    var check = false

    @Flag(help: "Follow the focused app (sway's IPC, $SWAYSOCK, or a wlroots compositor's foreign-toplevel protocol, $WAYLAND_DISPLAY) for bindings with apps, notApps or fullScreen, and report it to touchd as touchctl follow-focus does.")
    var followFocus = false

    static var defaultPath: String {
        let env = ProcessInfo.processInfo.environment
        let base = env["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? ((env["HOME"] ?? "") + "/.config")
        return base + "/touchd/actions.yaml"
    }

    func run() throws {
        let path = config ?? Self.defaultPath
        if check {
            do {
                let c = try ActionAgent.load(path)
                print("\(path): \(c.bindings.count) binding\(c.bindings.count == 1 ? "" : "s"), at most \(c.maxConcurrent) commands at once, timeout \(c.timeout) s")
                for b in c.bindings {
                    let what: String
                    switch b.command {
                    case .argv(let a): what = a.joined(separator: " ")
                    case .shell(let line): what = "sh -c \(line)"
                    }
                    var when = b.when.rawValue
                    if let every = b.every { when = "every \(every) mm" }
                    print("  line \(b.line): on \(b.on), \(when): \(what)")
                }
                return
            } catch {
                printError("touchctl: \(error.description)")
                throw ExitCode(78)
            }
        }
        let log: @Sendable (String) -> Void = { line in
            printError("touchctl actions: " + line)
        }
        let agent: ActionAgent
        do {
            agent = try ActionAgent(path: path, socketPath: socket, log: log)
        } catch {
            printError("touchctl: \(error.description)")
            throw ExitCode(78)
        }
        let done = DispatchSemaphore(value: 0)
        let task = Task {
            await agent.run()
            done.signal()
        }
        if followFocus {
            let socket = self.socket
            Task {
                guard let source = FocusSource.fromEnvironment(Syscall.environment) else {
                    log("--follow-focus: none of SWAYSOCK, XDG_CURRENT_DESKTOP=KDE or GNOME, or WAYLAND_DISPLAY is set (no compositor in this session): the focus stays unknown")
                    return
                }
                let status = await FollowFocusCommand.follow(socket: socket, source: source, verbose: false) { report in
                    await agent.setFocus(report)
                }
                // The follower reported the focus unknown to touchd when it stopped; the agent forgets it too.
                await agent.setFocus(FocusReport.unknown)
                log("--follow-focus: the follower stopped (status \(status)): the focus is unknown")
            }
        }
        // SIGTERM (systemd stopping the unit) and SIGINT end the agent cleanly, with status 0.
        var sources: [any DispatchSourceSignal] = []
        for sig in [SIGTERM, SIGINT] {
            Syscall.ignoreSignal(sig)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler {
                log("stopping")
                task.cancel()
            }
            source.resume()
            sources.append(source)
        }
        withExtendedLifetime(sources) { done.wait() }
    }
}
