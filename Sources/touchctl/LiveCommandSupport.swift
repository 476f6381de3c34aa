// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
import LiveInput
import Session
import SystemCalls
import TouchClient
import TouchDaemon

/// Loads a configuration file (or the built-in configuration); a bad file is a clean exit naming the file and key.
func loadConfiguration(path: String?) throws -> TouchdConfiguration {
    guard let path else { return TouchdConfiguration() }
    do {
        return try TouchdConfiguration.load(path: path)
    } catch {
        printError("touchctl: " + error.description)
        throw ExitCode(78)
    }
}

// Written only before the handlers are installed; the handlers read them.
nonisolated(unsafe) private var stopWakeDescriptor: Int32 = -1
nonisolated(unsafe) private var stopRequested: sig_atomic_t = 0

/// SIGINT and SIGTERM ask a long-running command to stop: they set a flag and
/// wake the command's poll, so it can flush and exit cleanly.
enum StopSignals {
    /// Installs the handlers; `wakeup` is woken on each signal.
    static func install(waking wakeup: LiveWakeup) {
        stopWakeDescriptor = wakeup.writeDescriptor
        let handler: @convention(c) (Int32) -> Void = { _ in
            stopRequested = 1
            var byte: UInt8 = 1
            _ = withUnsafeBytes(of: &byte) { try? Syscall.write(stopWakeDescriptor, $0) }
        }
        Syscall.handleSignal(SIGINT, handler)
        Syscall.handleSignal(SIGTERM, handler)
        // A parent may have started us with these signals blocked (a blocked
        // mask survives exec; libdispatch threads block them, for one).
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigprocmask(SIG_UNBLOCK, &set, nil)
    }

    /// Whether a stop signal arrived.
    static var requested: Bool { stopRequested != 0 }
}

/// A client connected to touchd at `socket`, or nil once it said on standard error why not.
func connectedClient(_ socket: String, reconnect: ReconnectPolicy?) async -> TouchClient? {
    let client = TouchClient(socketPath: socket, reconnect: reconnect)
    do {
        try await client.connect()
        return client
    } catch {
        printError("touchctl: cannot connect to \(socket): \(error)")
        return nil
    }
}
