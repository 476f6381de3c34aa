// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Quirks
import Session
import TouchCore
import SystemCalls
import TouchDaemon
import Trace
import Wire

/// Buffered standard output for JSON lines and text.
struct Output {
    private var buffer: [UInt8] = []

    init() { buffer.reserveCapacity(1 << 16) }

    mutating func line(_ s: String) {
        buffer.append(contentsOf: s.utf8)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func line(_ w: JSONWriter) {
        buffer.append(contentsOf: w.bytes)
        buffer.append(UInt8(ascii: "\n"))
        if buffer.count >= 1 << 16 { flush() }
    }

    mutating func flush() {
        writeAll(buffer, to: 1)
        buffer.removeAll(keepingCapacity: true)
    }
}

/// Prints to standard error.
func printError(_ s: String) {
    writeAll(Array((s + "\n").utf8), to: 2)
}

/// Writes all bytes to a file descriptor; a closed pipe (or any failure) ends the output quietly.
func writeAll(_ bytes: [UInt8], to fd: Int32) {
    try? Syscall.writeAll(fd, bytes)
}

/// Reads every file, printing warnings to stderr; a read error is rethrown as
/// a clean exit with the error's file:line message.
func readRecordings(_ options: TraceInputOptions) throws -> [Recording] {
    var out: [Recording] = []
    for f in options.files {
        do {
            let r = try TraceReader.read(path: f, description: options.description)
            for w in r.warnings { printError(w.description) }
            out.append(r)
        } catch let e as TraceError {
            printError("touchctl: " + e.description)
            throw ExitCode(65)
        }
    }
    return out
}

/// Loads `--config` (or the built-in configuration); a bad file is a clean exit naming the file and key.
func loadConfiguration(_ options: TraceInputOptions) throws -> TouchdConfiguration {
    var configuration = TouchdConfiguration()
    if let path = options.config {
        do {
            configuration = try TouchdConfiguration.load(path: path)
        } catch {
            printError("touchctl: " + error.description)
            throw ExitCode(78)
        }
    }
    if let directory = options.quirks { configuration.quirks = try loadQuirks(directory: directory) }
    return configuration
}

/// Reads a quirks directory for `--quirks`; a malformed file is a clean exit naming the file and line.
func loadQuirks(directory: String) throws -> QuirksDatabase {
    var info = stat()
    guard stat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
        printError("touchctl: --quirks \(directory): not a directory")
        throw ExitCode(66)
    }
    do {
        return try QuirksLoader.load(directory: directory)
    } catch {
        printError("touchctl: quirks rejected: " + error.description)
        throw ExitCode(65)
    }
}
