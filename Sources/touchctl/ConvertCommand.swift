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
import Trace

extension TraceFormat: ExpressibleByArgument {}

/// `touchctl convert`: rewrite a trace in another format.
struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a trace to native, evemu or libinput-yaml."
    )

    @Argument(help: "The trace to convert.")
    var file: String

    @Option(name: .customLong("description"), help: "Description file to pair with a split .events file.")
    var description: String?

    @Option(name: .customLong("to"), help: "Target format: native, evemu, libinput-yaml.")
    var format: TraceFormat

    @Option(name: [.short, .customLong("output")], help: "Write here instead of standard output.")
    var output: String?

    func run() throws {
        let recording = try readRecordings(TraceInputOptions.parse([file] + (description.map { ["--description", $0] } ?? [])))[0]
        let text: String
        do {
            text = try TraceWriter.render(recording, as: format)
        } catch let e as TraceError {
            printError("touchctl: " + e.description)
            throw ExitCode(65)
        }
        if let output {
            do {
                try text.write(toFile: output, atomically: true, encoding: .utf8)
            } catch {
                printError("touchctl: cannot write \(output): \(error)")
                throw ExitCode(73)
            }
        } else {
            var out = Output()
            out.line(text.hasSuffix("\n") ? String(text.dropLast()) : text)
            out.flush()
        }
    }
}
