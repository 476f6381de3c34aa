// SPDX-License-Identifier: MIT
import Foundation
import Glibc

/// `libinput debug-events` could not be used, or did not report what a test waited for.
package struct LibinputError: Error, CustomStringConvertible {
    /// What went wrong.
    package var description: String
    init(_ description: String) { self.description = description }
}

/// One touch line of `libinput debug-events`, e.g.
/// ` event5   TOUCH_DOWN       +0.000s	0 (0) 25.00/75.00 (199.00/359.00mm)`.
package struct LibinputTouchLine: Sendable {
    /// The whole line.
    package var line: String
    /// `TOUCH_DOWN`, `TOUCH_MOTION`, `TOUCH_UP`, `TOUCH_CANCEL`, `TOUCH_FRAME`.
    package var kind: String
    /// The slot, for all but frames.
    package var slot: Int?
    /// The position in millimetres, for downs and motions.
    package var millimetres: (x: Double, y: Double)?

    /// Parses one line of `libinput debug-events`; nil for lines that are not touch events.
    package init?(_ line: String) {
        let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
        guard fields.count >= 2, fields[1].hasPrefix("TOUCH_") else { return nil }
        self.line = line
        kind = fields[1]
        slot = fields.count > 3 ? Int(fields[3]) : nil
        // `(x/ ymm)`: printed with %5.2f, so a short number is padded with spaces.
        if let end = line.range(of: "mm)", options: .backwards),
           let start = line[..<end.lowerBound].lastIndex(of: "(") {
            let numbers = line[line.index(after: start)..<end.lowerBound].split(separator: "/")
                .compactMap { Double($0.trimmingCharacters(in: .whitespaces)) }
            if numbers.count == 2 { millimetres = (numbers[0], numbers[1]) }
        }
    }
}

/// `libinput debug-events --device NODE` as a subprocess, its output read
/// as it comes (through `stdbuf -oL`: stdio buffers a pipe whole otherwise).
package final class LibinputDebugEvents {
    /// The `libinput` process.
    package let process = Process()
    private let pipe = Pipe()
    private var pending = ""
    /// Every line read so far.
    package private(set) var lines: [String] = []

    /// Starts `libinput debug-events --device node` with `extraArguments` (`--show-keycodes`: key
    /// names instead of `***`).
    package init(node: String, extraArguments: [String] = []) throws {
        let libinput = "/usr/bin/libinput"
        guard FileManager.default.isExecutableFile(atPath: libinput) else {
            throw LibinputError( "\(libinput) missing: install libinput-tools (scripts/vm-test.sh does)")
        }
        // The kernel lists a new device in /sys/class/input before devtmpfs makes its node
        // (device_add), so a node just found there may not be openable yet.
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: node) {
            guard Date() < deadline else { throw LibinputError("\(node) did not appear within 10 s") }
            usleep(20_000)
        }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL", "-eL", libinput, "debug-events"] + extraArguments + ["--device", node]
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
    }

    /// Everything printed so far, for failure messages.
    package var output: String { (lines + [pending]).joined(separator: "\n") }

    /// Starts `libinput debug-events` on `node` and waits, at most `seconds`, until it has added
    /// the device. A loaded TCG guest can take libinput many seconds to start (for a tablet it
    /// loads libwacom's whole database first), so the wait is long; a libinput that exits
    /// without adding the device (a node udev has not initialised yet: "Failed to initialize
    /// device") is started again until then.
    package static func started(node: String, extraArguments: [String] = [], seconds: Double = 60) throws -> LibinputDebugEvents {
        let deadline = Date().addingTimeInterval(seconds)
        var failures: [String] = []
        while true {
            let libinput = try LibinputDebugEvents(node: node, extraArguments: extraArguments)
            do {
                try libinput.waitForDeviceAdded(seconds: max(1, deadline.timeIntervalSinceNow))
                return libinput
            } catch {
                let exitedByItself = !libinput.process.isRunning
                libinput.stop()
                failures.append("\(error)")
                guard Date() < deadline, exitedByItself else {
                    throw LibinputError(failures.joined(separator: "\nthen: "))
                }
                usleep(200_000)
            }
        }
    }

    /// Waits (at most `seconds`) for libinput to report the device added: it has opened it.
    package func waitForDeviceAdded(seconds: Double = 30) throws {
        let start = Date()
        guard read(until: { $0.contains { $0.contains("DEVICE_ADDED") } }, seconds: seconds) else {
            let waited = String(format: "%.1f", Date().timeIntervalSince(start))
            throw LibinputError("libinput debug-events did not add the device (\(processState), after \(waited) s):\n\(output)")
        }
    }

    /// "running", or how libinput ended, for failure messages.
    private var processState: String {
        if process.isRunning { return "still running" }
        let how = process.terminationReason == .uncaughtSignal ? "signal" : "status"
        return "exited with \(how) \(process.terminationStatus)"
    }

    /// Reads until a line contains `text` or `seconds` pass; returns whether one did.
    package func waitForLine(containing text: String, seconds: Double) -> Bool {
        waitForLine(seconds: seconds) { $0.contains(text) }
    }

    /// Reads until a line satisfies `matches` or `seconds` pass; returns whether one did.
    package func waitForLine(seconds: Double, where matches: (String) -> Bool) -> Bool {
        read(until: { $0.contains(where: matches) }, seconds: seconds)
    }

    /// How long the readers below wait for the lines they expect: a ceiling, reached only when
    /// lines are missing (a loaded emulated guest has taken more than 5 s from a replayed
    /// touch to libinput's line).
    package static let eventWait = 30.0

    /// The first `count` touch lines, waiting at most ``eventWait`` for them; then
    /// 200 ms more, so that an unexpected extra line shows too.
    package func touchEvents(count: Int) throws -> [LibinputTouchLine] {
        let touches = { (lines: [String]) in lines.compactMap(LibinputTouchLine.init) }
        _ = read(until: { touches($0).count >= count }, seconds: Self.eventWait)
        _ = read(until: { _ in false }, seconds: 0.2)
        return touches(lines)
    }

    /// The first `count` keyboard lines (`KEYBOARD_KEY`) as `KEY_NAME pressed|released`, waiting at
    /// most `seconds` for them; then 200 ms more, so that an unexpected extra line shows too.
    package func keyboardKeys(count: Int, seconds: Double = eventWait) -> [String] {
        let keys = { (lines: [String]) -> [String] in
            lines.filter { $0.contains("KEYBOARD_KEY") }.compactMap { line -> String? in
                // "event7   KEYBOARD_KEY      +1.234s\tKEY_LEFTMETA (125) pressed"
                let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard let name = words.first(where: { $0.hasPrefix("KEY_") }), let state = words.last else { return nil }
                return "\(name) \(state)"
            }
        }
        _ = read(until: { keys($0).count >= count }, seconds: seconds)
        _ = read(until: { _ in false }, seconds: 0.2)
        return keys(lines)
    }

    /// The lines containing `kind` (`POINTER_BUTTON`, `POINTER_MOTION_ABSOLUTE`...), waiting at most
    /// ``eventWait`` for `count` of them; then 200 ms more, so that an unexpected extra line shows too.
    package func lines(of kind: String, count: Int) -> [String] {
        let matching = { (lines: [String]) in lines.filter { $0.contains(kind) } }
        _ = read(until: { matching($0).count >= count }, seconds: Self.eventWait)
        _ = read(until: { _ in false }, seconds: 0.2)
        return matching(lines)
    }

    /// Reads lines until `done` says so or `seconds` pass; returns whether `done` did.
    private func read(until done: ([String]) -> Bool, seconds: Double) -> Bool {
        let fd = pipe.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(seconds)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !done(lines) {
            let left = deadline.timeIntervalSinceNow
            if left <= 0 { return false }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, Int32(left * 1000) + 1) > 0 else { continue }
            let n = Glibc.read(fd, &buffer, buffer.count)
            if n <= 0 { return done(lines) }
            pending += String(decoding: buffer[0..<n], as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                lines.append(String(pending[..<newline]))
                pending = String(pending[pending.index(after: newline)...])
            }
        }
        return true
    }

    /// Stops libinput (SIGINT, then SIGKILL after 2 s).
    package func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
