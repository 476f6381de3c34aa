import ArgumentParser

/// touchctl: the command-line companion of touchd.
struct Touchctl: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "touchctl", abstract: "Inspect, convert and replay touch traces.")
}
Touchctl.main()
