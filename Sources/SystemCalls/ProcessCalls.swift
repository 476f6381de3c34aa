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
