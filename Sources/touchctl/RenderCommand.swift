// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Render
import SystemCalls
import Session
import TouchDaemon

/// `touchctl render`: a picture of a replay (touch paths, gestures, recognizer timeline).
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Draw a trace: touch paths, edge zones, surfaces, gestures, and a recognizer timeline.",
        discussion: """
            Replays the traces like `touchctl replay` and draws the result as SVG. PNG output uses \
            rsvg-convert (Debian package librsvg2-bin). docs/visualisation.md explains the picture.
            """
    )

    /// The picture formats.
    enum ImageFormat: String, ExpressibleByArgument, CaseIterable {
        case svg, png
    }

    @OptionGroup var input: TraceInputOptions

    @Option(name: .shortAndLong, help: "Output file ('-' for standard output, SVG only).")
    var output: String = "-"

    @Option(help: "svg or png (default: from the output file's extension, else svg).")
    var format: ImageFormat?

    @Option(help: "Width of the screen area in pixels (the timeline has the same width).")
    var width: Double = 960

    func validate() throws {
        if resolvedFormat == .png && output == "-" { throw ValidationError("PNG output needs a file: give -o FILE.png") }
        if !(width >= 200 && width <= 10_000) { throw ValidationError("--width must be between 200 and 10000") }
    }

    var resolvedFormat: ImageFormat {
        if let format { return format }
        return output.lowercased().hasSuffix(".png") ? .png : .svg
    }

    func run() throws {
        let session = ReplaySession(recordings: try readRecordings(input), configuration: try loadConfiguration(input))
        let title = input.files.map { $0.split(separator: "/").last.map(String.init) ?? $0 }.joined(separator: " + ")
        let svg = TraceRenderer(width: width).svg(TraceScene(session: session, title: title))
        switch resolvedFormat {
        case .svg:
            if output == "-" {
                writeAll(Array(svg.utf8), to: 1)
            } else {
                try write(svg, to: output)
            }
        case .png:
            try rasterize(svg, to: output)
        }
    }

    private func write(_ text: String, to path: String) throws {
        do {
            let fd = try Syscall.open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode: 0o644)
            defer { try? Syscall.close(fd) }
            try Syscall.writeAll(fd, Array(text.utf8))
        } catch {
            printError("touchctl: cannot write \(path): \(error)")
            throw ExitCode(73)
        }
    }

    private func rasterize(_ svg: String, to path: String) throws {
        guard let converter = Self.findExecutable("rsvg-convert") else {
            printError("touchctl: PNG output needs rsvg-convert, which is not installed: apt-get install librsvg2-bin (or write SVG with -o FILE.svg)")
            throw ExitCode(69)
        }
        let directory = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        let temporary = directory + "/touchctl-render-\(Syscall.processID()).svg"
        try write(svg, to: temporary)
        defer { try? Syscall.unlink(temporary) }
        let end: Syscall.ChildEnd
        do {
            end = try Syscall.spawnAndWait([converter, "--format", "png", "--background-color", "white", "--output", path, temporary])
        } catch {
            printError("touchctl: cannot run \(converter): \(error)")
            throw ExitCode(69)
        }
        guard end == .exited(0) else {
            printError("touchctl: rsvg-convert failed (\(end)) writing \(path)")
            throw ExitCode(70)
        }
    }

    /// The first executable called `name` on `PATH`.
    static func findExecutable(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        for dir in path.split(separator: ":") where !dir.isEmpty {
            let candidate = String(dir) + "/" + name
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
