// SPDX-License-Identifier: MIT
import Glibc

extension Syscall {
    /// How a child process ended.
    package enum ChildEnd: Equatable, Sendable {
        /// It exited with this status.
        case exited(Int32)
        /// A signal ended it.
        case signalled(Int32)
    }

    /// `posix_spawn(3)` of `argv[0]` (a path) with `argv` and this process's
    /// environment, then `waitpid(2)` until it ends.
    package static func spawnAndWait(_ argv: [String]) throws(SystemCallError) -> ChildEnd {
        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid: pid_t = 0
        let rc = posix_spawn(&pid, argv[0], nil, nil, cArgs, environ)
        guard rc == 0 else { throw SystemCallError(call: "posix_spawn", errno: rc) }
        var status: Int32 = 0
        try nothingOrErrno("waitpid") { waitpid(pid, &status, 0) }
        // WIFEXITED, WEXITSTATUS and WTERMSIG, spelled out (the C macros are not imported).
        return status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
    }
}

/// A shell command's standard output, read line by line (`popen(3)`,
/// `getline(3)`, `pclose(3)`). One thread reads it at a time; ``close()``
/// after the last read.
package final class CommandOutput: Sendable {
    // A `FILE` pointer is not Sendable; the value is only an address, and
    // the stream's own lock (stdio locks each call) serialises its use.
    private nonisolated(unsafe) let file: UnsafeMutablePointer<FILE>

    /// Starts `command` with `/bin/sh -c`.
    package init(command: String) throws(SystemCallError) {
        guard let file = popen(command, "r") else { throw SystemCallError(call: "popen", errno: errno) }
        self.file = file
    }

    /// The next line, with its newline; nil at the end of the output.
    package func nextLine() -> String? {
        var buffer: UnsafeMutablePointer<CChar>? = nil
        var size = 0
        defer { free(buffer) }
        guard getline(&buffer, &size, file) >= 0, let buffer else { return nil }
        return String(cString: buffer)
    }

    /// Waits for the command to end: its wait status.
    package func close() -> Int32 { pclose(file) }
}

extension Syscall {
    /// `kill(2)`: sends `signal` to `pid` (a negative `pid`: its process group).
    package static func kill(_ pid: Int32, _ signal: Int32) throws(SystemCallError) {
        try nothingOrErrno("kill") { Glibc.kill(pid, signal) }
    }

    /// `waitpid(2)` until `pid` ends (interruptions retried): its wait status.
    package static func waitForExit(_ pid: Int32) throws(SystemCallError) -> Int32 {
        var status: Int32 = 0
        try nothingOrErrno("waitpid") { waitpid(pid, &status, 0) }
        return status
    }

    /// `signal(2)`: `signal` is ignored from now on.
    package static func ignoreSignal(_ signal: Int32) {
        _ = Glibc.signal(signal, SIG_IGN)
    }

    /// `signal(2)`: `handler` runs when `signal` arrives (it may only do
    /// what is async-signal-safe).
    package static func handleSignal(_ signal: Int32, _ handler: @convention(c) (Int32) -> Void) {
        _ = Glibc.signal(signal, handler)
    }
}

extension Syscall {
    /// `waitid(2)` with `WNOWAIT`: waits until `pid` ends without reaping it
    /// (its pid stays taken, so it cannot be reused meanwhile).
    package static func waitWithoutReaping(_ pid: Int32) throws(SystemCallError) {
        var info = siginfo_t()
        try nothingOrErrno("waitid") { waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) }
    }
}
