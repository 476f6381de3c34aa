// SPDX-License-Identifier: MIT
import ArgumentParser
import Dispatch
import TouchClient
import Session
import TouchDaemon
import Wire

/// `touchctl monitor`: connects to touchd, subscribes, and prints what arrives.
struct MonitorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "monitor",
        abstract: "Connect to touchd and print the events a client receives.")

    @Option(help: "Socket path.")
    var socket: String = DaemonSettings.defaultSocketPath

    @Flag(help: "Print the server's JSON lines as they are.")
    var json = false

    @Option(help: "Event streams, comma-separated: gesture, touch, system, device, debug.")
    var events: String = "gesture,system,device"

    @Option(help: "Exit after this many events (0: until the server says goodbye).")
    var count = 0

    @Option(help: ArgumentHelp("Touch moves and gesture changes at most once per this many milliseconds, the latest of each (0: every one; at most 100).", valueName: "ms"))
    var coalesce: Double = 0

    func validate() throws {
        _ = try streams()
        guard count >= 0 else { throw ValidationError("--count must be 0 or more") }
        guard coalesce >= 0, coalesce <= RequestDecoder.maxCoalescingMilliseconds else {
            throw ValidationError("--coalesce must be from 0 to \(Int(RequestDecoder.maxCoalescingMilliseconds)) milliseconds")
        }
    }

    func streams() throws -> [EventStream] {
        try events.split(separator: ",").map { part in
            guard let s = EventStream(rawValue: String(part)) else {
                throw ValidationError("unknown event stream '\(part)' (expected \(EventStream.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            return s
        }
    }

    func run() throws {
        let streams = try streams()
        let socket = self.socket, json = self.json, count = self.count, coalesce = self.coalesce
        // ArgumentParser runs this synchronously; the client is async.
        let done = DispatchSemaphore(value: 0)
        let status = StatusBox()
        Task {
            status.value = await Self.monitor(socket: socket, streams: streams, json: json, count: count, coalesce: coalesce)
            done.signal()
        }
        done.wait()
        if status.value != 0 { throw ExitCode(status.value) }
    }

    static func monitor(socket: String, streams: [EventStream], json: Bool, count: Int, coalesce: Double = 0) async -> Int32 {
        guard let client = await connectedClient(socket, reconnect: nil) else {
            return 69
        }
        do {
            if coalesce > 0 { try await client.coalesce(milliseconds: coalesce) }
            try await client.subscribe(streams)
        } catch {
            printError("touchctl: subscribe failed: \(error)")
            await client.close()
            return 65
        }
        var out = Output()
        var printed = 0
        for await event in client.events {
            switch event {
            case .hello(let m), .touch(let m), .gesture(let m), .system(let m), .device(let m), .screens(let m), .drag(let m), .motion(let m),
                 .other(let m):
                out.line(json ? m.json.jsonString : MonitorText.describe(m))
            case .overflow(let lost, let time):
                out.line(json ? "{\"type\":\"overflow\",\"lost\":\(lost),\"time\":\(time)}" : "overflow: \(lost) events lost")
            case .goodbye(let reason):
                out.line(json ? "{\"type\":\"goodbye\",\"reason\":\"\(reason)\"}" : "goodbye (\(reason))")
                out.flush()
                await client.close()
                return 0
            case .error(let e):
                printError("touchctl: server error: \(e)")
            case .disconnected:
                out.flush()
                printError("touchctl: disconnected")
                await client.close()
                return 0
            case .reconnected:
                continue
            }
            out.flush()
            if case .hello = event { continue }
            printed += 1
            if count > 0 && printed >= count {
                await client.close()
                return 0
            }
        }
        return 0
    }
}

/// The exit status, set by the monitoring task before the semaphore is
/// signalled and read after the wait: the semaphore orders the two accesses,
/// which is why it may be `@unchecked Sendable`.
final class StatusBox: @unchecked Sendable {
    var value: Int32 = 0
}

/// One readable line per server message.
enum MonitorText {
    static func describe(_ m: ServerMessage) -> String {
        let time = m.time.map { TouchText.fixed($0, 3) + " " } ?? ""
        func point(_ key: String) -> String {
            guard let p = m[key], let x = p["x"]?.doubleValue, let y = p["y"]?.doubleValue else { return "" }
            return " \(key) \(TouchText.fixed(x)),\(TouchText.fixed(y))"
        }
        switch m.type {
        case "hello":
            let devices = m["devices"]?.arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
            return "hello: \(m["server"]?.stringValue ?? "?"), devices: \(devices.isEmpty ? "none" : devices.joined(separator: ", "))"
        case "gesture":
            var s = time + "gesture \(m.recognizer ?? "?") (\(m.kind ?? "?")) \(m.state ?? "?")"
            if let surface = m.surface { s += " on \(surface)" }
            s += " touches \(m["touches"]?.int64Value ?? 0)" + point("location") + point("translation")
            if let d = m["direction"]?.stringValue { s += " direction \(d)" }
            if let scale = m["scale"]?.doubleValue { s += " scale \(TouchText.fixed(scale, 3))" }
            return s
        case "touch":
            var s = time + "touch \(m["id"]?.int64Value ?? 0) \(m.phase ?? "?") device \(m.device ?? 0)" + point("location")
            if let surface = m.surface { s += " on \(surface)" }
            return s
        case "device":
            let d = m["device"]
            return time + "device \(m["change"]?.stringValue ?? "?"): \(d?["id"]?.int64Value ?? 0) \(d?["name"]?.stringValue ?? "?")"
        case "debug":
            return "debug: " + (m["text"]?.stringValue ?? m.json.jsonString)
        default:
            return time + m.json.jsonString
        }
    }
}
