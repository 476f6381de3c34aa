// SPDX-License-Identifier: MIT
import ArgumentParser
import EngineMessages
import TouchCore
import Session
import TouchDaemon
import Trace
import Wire

/// `touchctl touches`: typed touches, frame by frame.
struct TouchesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "touches",
        abstract: "Print the typed touches of traces, frame by frame."
    )

    @OptionGroup var input: TraceInputOptions

    @Flag(help: "One JSON object per frame instead of text.")
    var json = false

    func run() throws {
        let recordings = try readRecordings(input)
        let session = ReplaySession(recordings: recordings, configuration: try loadConfiguration(input))
        let names = session.deviceList.map(\.device.description.name)
        var out = Output()
        var w = JSONWriter()
        var pipeline = session.makePipeline()
        session.frames(&pipeline) { frame in
            if json {
                w.reset()
                w.beginObject()
                w.key("type"); w.string("frame")
                w.key("time"); w.number(frame.time.seconds, decimals: 6)
                w.key("device"); w.int(frame.device.rawValue)
                w.key("touches")
                w.beginArray()
                for t in frame.touches { MessageEncoder.touch(t, into: &w) }
                w.endArray()
                w.endObject()
                out.line(w)
            } else {
                let d = Int(frame.device.rawValue)
                out.line("\(frame.time) device \(d) (\(d < names.count ? names[d] : "?"))")
                for t in frame.touches { out.line("  " + TouchText.describe(t)) }
            }
        }
        out.flush()
    }
}

/// One-line human descriptions of touches.
enum TouchText {
    static func fixed(_ v: Double, _ decimals: Int = 1) -> String {
        var w = JSONWriter()
        w.number(v, decimals: decimals)
        return w.string
    }

    static func describe(_ t: Touch) -> String {
        var s = "touch \(t.id) \(t.phase.rawValue) \(t.type.rawValue) \(t.tool.rawValue)"
        s += " at \(fixed(t.location.x)),\(fixed(t.location.y)) px"
        s += " \(fixed(t.locationMM.x)),\(fixed(t.locationMM.y)) mm"
        if let f = t.force { s += " force \(fixed(f, 3))" }
        if let r = t.majorRadius { s += " radius \(fixed(r, 2)) mm" }
        if let a = t.altitude, let z = t.azimuth { s += " altitude \(fixed(a, 3)) azimuth \(fixed(z, 3))" }
        if let d = t.distance { s += " distance \(fixed(d, 3))" }
        if !t.buttons.isEmpty { s += " buttons " + t.buttons.names.joined(separator: "+") }
        if let serial = t.serial { s += " serial \(serial)" }
        if t.phase == .hover && !t.inProximity { s += " (out of proximity)" }
        if t.isSynthetic { s += " (synthetic)" }
        return s
    }
}
