// SPDX-License-Identifier: MIT
import ArgumentParser
import DaemonCommand
import Session
import TouchDaemon

/// touchctl: the command-line companion of touchd.
@main
struct Touchctl: AsyncParsableCommand {
    /// Runs touchd when started under that name: the Debian package ships this one binary as
    /// both (touchctl links all of touchd, so a second binary would only repeat 9 MB of code;
    /// docs/deploy.md, "Size").
    static func main() async {
        if Self.startedAs(CommandLine.arguments.first ?? "") == "touchd" {
            await Touchd.main(nil)
        } else {
            await Self.main(nil)
        }
    }

    /// The program name in argv[0], without its directory.
    static func startedAs(_ argv0: String) -> String {
        argv0.split(separator: "/").last.map(String.init) ?? argv0
    }

    static let configuration = CommandConfiguration(
        commandName: "touchctl",
        abstract: "Inspect, convert and replay touch input traces.",
        subcommands: [
            DescribeCommand.self, TouchesCommand.self, ReplayCommand.self, ConvertCommand.self, RenderCommand.self,
            MonitorCommand.self, ViewCommand.self, DevicesCommand.self, RecordCommand.self, ActionsCommand.self,
            RotateCommand.self, FollowFocusCommand.self, ReportCompositorCommand.self, MotionQualityCommand.self,
        ]
    )
}

/// Trace files and how to pair split evemu events files with a description.
struct TraceInputOptions: ParsableArguments {
    @Argument(help: "Trace files: evemu (.evemu/.events/.desc...), libinput record YAML, or touchd native.")
    var files: [String]

    @Option(name: .customLong("description"), help: "Description file (.desc/.prop/.device) to pair with a split .events file.")
    var description: String?

    @Option(name: .customLong("config"), help: "Configuration file (YAML): screens, device rules, surfaces and recognizers.")
    var config: String?

    @Option(name: .customLong("quirks"), help: "Directory of libinput quirks files (*.quirks, local-overrides.quirks last) to apply; a recording carries no udev properties, so none apply without it.")
    var quirks: String?

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one trace file") }
    }
}
