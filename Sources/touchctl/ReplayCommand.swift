// SPDX-License-Identifier: MIT
import ArgumentParser
import EngineMessages
import Gestures
import TouchCore
import Session
import TouchDaemon
import Trace
import Wire

/// `touchctl replay`: the offline pipeline and gesture engine on virtual time, as JSON lines.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay traces through the pipeline and the gesture engine on virtual time.",
        discussion: "Prints JSON lines: hello, then the selected events in order. With --explain, prints a readable timeline of every interaction instead."
    )

    @OptionGroup var input: TraceInputOptions

    @Option(help: "Event streams to print, comma-separated: gesture, touch, system, debug.")
    var events: String = "gesture,system"

    @Flag(help: "Print, per interaction, which recognizers were in play, every state transition and every arbitration decision, with times.")
    var explain = false

    @Flag(help: "Replay into new uinput devices (needs /dev/uinput) so every program sees the trace as real hardware.")
    var live = false

    @Option(help: "With --live: time scale (2 = twice as fast, 0 = as fast as possible).")
    var speed: Double = 1

    @Option(help: "With --live: milliseconds given to readers (touchd, libinput) to open a new device before the first event, and to drain it after the last.")
    var settle: Double = UinputReplayRun.defaultSettleMilliseconds

    func validate() throws {
        if !(speed >= 0) || !speed.isFinite { throw ValidationError("--speed must be 0 or more") }
        if !(settle >= 0) || !settle.isFinite { throw ValidationError("--settle must be 0 or more") }
        do { _ = try ReplayStreams(list: events) } catch { throw ValidationError(error.description) }
    }

    func run() throws {
        if live { return try UinputReplayRun.run(recordings: try readRecordings(input), speed: speed, settleMilliseconds: settle) }
        let streams = try ReplayStreams(list: events)
        let session = ReplaySession(recordings: try readRecordings(input), configuration: try loadConfiguration(input))
        var out = Output()
        if explain {
            for line in Explanation.lines(session) { out.line(line) }
            out.flush()
            return
        }
        var w = JSONWriter()
        MessageEncoder.hello(devices: session.makePipeline().devices.map(HelloDevice.init), screens: session.configuration.helloScreens, into: &w)
        out.line(w)
        session.run(recordsDebug: streams.contains(.debug)) { output in
            w.reset()
            switch output {
            case .touch(let t):
                guard streams.contains(.touch) else { return }
                MessageEncoder.touch(t, into: &w)
            case .engine(.gesture(let g)):
                guard streams.contains(.gesture) else { return }
                MessageEncoder.gesture(g, into: &w)
            case .engine(.debug(let d)):
                guard streams.contains(.debug) else { return }
                MessageEncoder.debug(d, into: &w)
            case .engine(.system(let e)):
                guard streams.contains(.system) else { return }
                MessageEncoder.system(e, into: &w)
            case .engine(.touch), .engine(.mirror):
                // Surfaces' raw touch streams go to their owners over the socket, a mirror's to its device.
                return
            case .drag(let r):
                // Drag sessions of the configuration's surfaces, as the live view sees them (never the data).
                guard streams.contains(.gesture) else { return }
                MessageEncoder.dragSessionRecord(r, into: &w)
            }
            out.line(w)
        }
        out.flush()
    }
}

/// The `--explain` timeline: debug records, gestures and drag sessions'
/// decisions grouped by interaction.
enum Explanation {
    static func lines(_ session: ReplaySession) -> [String] {
        var order: [Int] = []
        var byInteraction: [Int: [String]] = [:]
        var loose: [String] = []
        session.run(recordsDebug: true) { output in
            switch output {
            case .engine(.debug(let d)):
                let line = "  " + d.description
                if let i = d.interaction {
                    if byInteraction[i] == nil { order.append(i); byInteraction[i] = [] }
                    byInteraction[i]!.append(line)
                } else {
                    loose.append(line)
                }
            case .engine(.gesture(let g)):
                var w = JSONWriter()
                MessageEncoder.gesture(g, into: &w)
                let line = "  \(g.time) => \(g.recognizer) \(g.kind.rawValue) \(g.state.rawValue)"
                // Gestures carry no interaction number: attach them to the latest interaction.
                if let i = order.last { byInteraction[i]!.append(line) } else { loose.append(line) }
            case .engine(.system(let e)):
                var w = JSONWriter()
                MessageEncoder.system(e, into: &w)
                let line = "  \(e.time) => system " + w.string
                if let i = order.last { byInteraction[i]!.append(line) } else { loose.append(line) }
            case .drag(let r):
                // A session outlives the interaction that opened it: its decisions join the latest one.
                let line = "  \(r.time) => " + r.description.dropFirst(r.time.description.count + 1)
                if let i = order.last { byInteraction[i]!.append(line) } else { loose.append(line) }
            case .touch, .engine(.touch), .engine(.mirror):
                return
            }
        }
        var out: [String] = []
        for i in order {
            out.append("interaction \(i):")
            out.append(contentsOf: byInteraction[i] ?? [])
        }
        if !loose.isEmpty {
            out.append("outside interactions:")
            out.append(contentsOf: loose)
        }
        return out
    }
}
