import ArgumentParser
import TouchCore
import TouchDaemon
import Trace
import Wire

/// `touchctl replay`: the offline pipeline on virtual time, as JSON lines.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay traces through the pipeline on virtual time and print JSON lines: hello, then events."
    )

    @OptionGroup var input: TraceInputOptions

    @Option(help: "Event streams to print, comma-separated: touch, gesture, debug.")
    var events: String = "touch"

    @Flag(help: "JSON lines (the default and only output of replay; accepted for symmetry with touches).")
    var json = false

    func validate() throws {
        do { _ = try ReplayStreams(list: events) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        let streams = try ReplayStreams(list: events)
        let recordings = try readRecordings(input)
        let session = ReplaySession(recordings: recordings)
        var out = Output()
        var w = JSONWriter()
        MessageEncoder.hello(devices: session.helloDevices(session.makePipeline()), screens: session.helloScreens, into: &w)
        out.line(w)
        session.run { frame in
            guard streams.contains(.touch) else { return }
            for t in frame.touches {
                w.reset()
                MessageEncoder.touch(t, into: &w)
                out.line(w)
            }
        }
        out.flush()
    }
}
