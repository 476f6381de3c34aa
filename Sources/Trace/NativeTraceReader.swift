// SPDX-License-Identifier: MIT
import JSON
import TouchCore

/// Reads touchd's own JSON-lines trace, `touchd-trace` version 1 (docs/trace-format.md).
///
/// A last line that is cut short (a crash while appending) is dropped with
/// a warning; a bad line anywhere else is an error naming its line.
enum NativeTraceReader {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> Recording {
        var state = State(file: file)
        var lines = LineScanner(bytes)
        var sawHeader = false
        while let line = lines.nextLine() {
            if line.cursor.isAtEndIgnoringSpace { continue }
            let isLast = lines.next >= bytes.count
            let value: JSONValue
            do {
                value = try JSONParser.parse(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[line.cursor.position..<line.cursor.end])))
            } catch {
                let message = "not valid JSON at column \(error.offset + 1): \(error.message)"
                // Appends can be cut by a crash: only the last line may be incomplete.
                guard isLast, sawHeader else { throw state.error(.badLine, line.number, message) }
                state.warnings.append(TraceWarning(
                    file: file, line: line.number, message: "last line dropped, it looks cut short (\(message))"))
                continue
            }
            if !sawHeader {
                try state.header(value, line: line.number)
                sawHeader = true
            } else {
                try state.take(value, line: line.number)
            }
        }
        guard sawHeader else { throw TraceError(.badHeader, file: file, "empty trace: no touchd-trace header line") }
        return state.recording()
    }
}

private struct State {
    let file: String
    var devices: [RecordedDevice] = []
    var events: [[InputEvent]] = []
    var usage: [CodeUsage] = []
    var warnings: [TraceWarning] = []
    /// File device id -> index in `devices`, for devices not yet removed.
    var live: [UInt32: Int] = [:]
    var warnedLineTypes: Set<String> = []
    var screenChanges: [RecordedScreenChange] = []

    init(file: String) { self.file = file }

    func error(_ code: TraceError.Code, _ line: Int, _ message: String) -> TraceError {
        TraceError(code, file: file, line: line, message)
    }

    func header(_ value: JSONValue, line: Int) throws {
        guard value["type"]?.stringValue == "header", value["format"]?.stringValue == "touchd-trace" else {
            throw error(.badHeader, line, "not a touchd trace: the first line must be {\"type\":\"header\",\"format\":\"touchd-trace\",\"version\":1}")
        }
        guard let version = value["version"]?.integer else { throw error(.badHeader, line, "header has no integer \"version\"") }
        guard version == 1 else {
            throw error(.badHeader, line, "touchd-trace version \(version) is not supported (this reader reads version 1)")
        }
    }

    mutating func take(_ value: JSONValue, line: Int) throws {
        guard value.objectValue != nil, let type = value["type"]?.stringValue else { throw error(.badLine, line, "a line must be an object with a \"type\"") }
        switch type {
        case "frame": try frame(value, line: line)
        case "device": try device(value, line: line)
        case "removed":
            guard let id = value["id"]?.integer, let id32 = UInt32(exactly: id), live.removeValue(forKey: id32) != nil else {
                throw error(.badDevice, line, "\"removed\" names no present device")
            }
        case "screens":
            guard let time = value["time"]?.integer else { throw error(.badLine, line, "screens needs an integer \"time\" in microseconds") }
            guard let request = value["request"], request.objectValue != nil else {
                throw error(.badLine, line, "screens needs a \"request\" object (a screens request)")
            }
            screenChanges.append(RecordedScreenChange(time: Timestamp(microseconds: time), request: request))
        case "focus":
            // Kept with the screen changes: both are requests replayed between the events at their time.
            guard let time = value["time"]?.integer else { throw error(.badLine, line, "focus needs an integer \"time\" in microseconds") }
            guard let request = value["request"], request.objectValue != nil else {
                throw error(.badLine, line, "focus needs a \"request\" object (a focus request)")
            }
            screenChanges.append(RecordedScreenChange(time: Timestamp(microseconds: time), request: request))
        case "header":
            throw error(.badLine, line, "a second header line")
        default:
            // Later minor additions may add line types; old readers skip them.
            if warnedLineTypes.insert(type).inserted {
                warnings.append(TraceWarning(file: file, line: line, message: "unknown line type \"\(type)\" skipped"))
            }
        }
    }

    private mutating func frame(_ value: JSONValue, line: Int) throws {
        guard let rawDevice = value["device"]?.integer, let deviceID = UInt32(exactly: rawDevice) else {
            throw error(.badLine, line, "frame needs an integer \"device\"")
        }
        guard let index = live[deviceID] else { throw error(.badDevice, line, "frame for device \(rawDevice), which no device line describes (or was removed)") }
        guard let time = value["time"]?.integer else { throw error(.badLine, line, "frame needs an integer \"time\" in microseconds") }
        guard let list = value["events"]?.arrayValue else { throw error(.badLine, line, "frame needs an \"events\" list") }
        for item in list {
            guard let f = item.arrayValue, f.count == 3 || f.count == 4,
                  let t = f[0].integer, let c = f[1].integer, let v = f[2].integer,
                  let type = UInt16(exactly: t), let code = UInt16(exactly: c), let value = Int32(exactly: v)
            else { throw error(.badLine, line, "an event must be [type, code, value] or [type, code, value, time]") }
            var eventTime = time
            if f.count == 4 {
                guard let own = f[3].integer else { throw error(.badLine, line, "event time must be an integer") }
                eventTime = own
            }
            let eventType = EventType(rawValue: type)
            usage[index].note(eventType, code, line: line)
            events[index].append(InputEvent(time: Timestamp(microseconds: eventTime), type: eventType, code: code, value: value))
        }
    }

    private mutating func device(_ value: JSONValue, line: Int) throws {
        guard let rawID = value["id"]?.integer, let id = UInt32(exactly: rawID) else { throw error(.badLine, line, "device needs an integer \"id\"") }
        guard live[id] == nil else { throw error(.badDevice, line, "device \(id) described twice without a \"removed\" line") }
        guard let name = value["name"]?.stringValue else { throw error(.badLine, line, "device needs a \"name\"") }
        func u16(_ key: String) throws -> UInt16 {
            guard let v = value[key] else { return 0 }
            guard let i = v.integer, let u = UInt16(exactly: i) else { throw error(.badLine, line, "\"\(key)\" must be 0...65535") }
            return u
        }
        var d = DeviceDescription(name: name)
        d.id = InputID(bustype: try u16("bus"), vendor: try u16("vendor"), product: try u16("product"), version: try u16("version"))
        if let props = value["properties"] {
            guard let list = props.arrayValue?.compactMap(\.integer), list.count == props.arrayValue?.count else {
                throw error(.badLine, line, "\"properties\" must be a list of integers")
            }
            d.properties = InputProperties(numbers: list.map { Int($0) })
        }
        if let codes = value["codes"] {
            guard let pairs = codes.objectValue else { throw error(.badLine, line, "\"codes\" must map event types to code lists") }
            for (key, list) in pairs.sorted(by: { $0.key < $1.key }) {
                guard let type = UInt16(key), let items = list.arrayValue else { throw error(.badLine, line, "\"codes\": bad entry \"\(key)\"") }
                var set = CodeSet()
                for item in items {
                    guard let c = item.integer, let code = UInt16(exactly: c) else { throw error(.badLine, line, "\"codes\": bad code in \"\(key)\"") }
                    set.insert(code)
                }
                d.codes[EventType(rawValue: type)] = set
            }
        }
        if let abs = value["absinfo"] {
            guard let pairs = abs.objectValue else { throw error(.badLine, line, "\"absinfo\" must map codes to [min, max, fuzz, flat, resolution]") }
            for (key, list) in pairs.sorted(by: { $0.key < $1.key }) {
                let v = list.arrayValue?.compactMap { $0.integer.flatMap { Int32(exactly: $0) } } ?? []
                guard let code = UInt16(key), v.count == 5, list.arrayValue?.count == 5 else {
                    throw error(.badLine, line, "\"absinfo\": \"\(key)\" must be [min, max, fuzz, flat, resolution]")
                }
                d.absInfo[code] = AbsInfo(minimum: v[0], maximum: v[1], fuzz: v[2], flat: v[3], resolution: v[4])
            }
        }
        if let udev = value["udev"] {
            guard let pairs = udev.objectValue else { throw error(.badLine, line, "\"udev\" must be an object of strings") }
            for (k, v) in pairs.sorted(by: { $0.key < $1.key }) {
                guard let s = v.stringValue else { throw error(.badLine, line, "\"udev\": \"\(k)\" must be a string") }
                d.udevProperties[k] = s
            }
        }
        var node: String?
        if let n = value["node"] {
            guard let s = n.stringValue else { throw error(.badLine, line, "\"node\" must be a string") }
            node = s
        }
        let state = try value["state"].map { try deviceState($0, line: line) }
        live[id] = devices.count
        devices.append(RecordedDevice(description: d, node: node, initialState: state))
        events.append([])
        usage.append(CodeUsage())
    }

    // `state`: {"slot": n, "slots": {"<slot>": {"<ABS_MT code>": value}}, "keys": [code], "abs": {"<code>": value}}.
    private func deviceState(_ value: JSONValue, line: Int) throws -> DeviceState {
        guard value.objectValue != nil else { throw error(.badLine, line, "\"state\" must be an object") }
        func int32(_ v: JSONValue, _ what: String) throws -> Int32 {
            guard let i = v.integer, let x = Int32(exactly: i) else { throw error(.badLine, line, "\"state\": \(what) must be a 32-bit integer") }
            return x
        }
        func code(_ key: String, _ what: String) throws -> UInt16 {
            guard let c = UInt16(key) else { throw error(.badLine, line, "\"state\": \(what) \"\(key)\" is not a code") }
            return c
        }
        var state = DeviceState()
        if let slot = value["slot"] {
            guard let i = slot.integer, i >= 0, i < 4096 else { throw error(.badLine, line, "\"state\": \"slot\" must be a slot number") }
            state.currentSlot = Int(i)
        }
        if let slots = value["slots"] {
            guard let pairs = slots.objectValue else { throw error(.badLine, line, "\"state\": \"slots\" must map slot numbers to axis values") }
            for (key, axes) in pairs.sorted(by: { (Int($0.key) ?? 0) < (Int($1.key) ?? 0) }) {
                guard let n = Int(key), n >= 0, n < 4096, let values = axes.objectValue else {
                    throw error(.badLine, line, "\"state\": slot \"\(key)\" must be a slot number with an object of axis values")
                }
                var s = SlotSnapshot(slot: n, trackingID: -1)
                for (k, v) in values {
                    let x = try int32(v, "slot \(n) axis \(k)")
                    switch try code(k, "slot \(n) axis") {
                    case EventCode.absMTTrackingID: s.trackingID = x
                    case EventCode.absMTPositionX: s.x = x
                    case EventCode.absMTPositionY: s.y = x
                    case EventCode.absMTPressure: s.pressure = x
                    case EventCode.absMTTouchMajor: s.touchMajor = x
                    case EventCode.absMTTouchMinor: s.touchMinor = x
                    case EventCode.absMTToolType: s.toolType = x
                    case EventCode.absMTDistance: s.distance = x
                    default: break
                    }
                }
                state.slots.append(s)
            }
        }
        if let keys = value["keys"] {
            guard let list = keys.arrayValue else { throw error(.badLine, line, "\"state\": \"keys\" must be a list of key codes") }
            for k in list {
                guard let i = k.integer, let c = UInt16(exactly: i) else { throw error(.badLine, line, "\"state\": bad key code in \"keys\"") }
                state.keysDown.append(c)
            }
            state.keysDown.sort()
        }
        if let abs = value["abs"] {
            guard let pairs = abs.objectValue else { throw error(.badLine, line, "\"state\": \"abs\" must map axis codes to values") }
            for (k, v) in pairs { state.axisValues[try code(k, "axis")] = try int32(v, "axis \(k)") }
        }
        return state
    }

    func recording() -> Recording {
        var all = warnings
        for (i, device) in devices.enumerated() {
            all += usage[i].warnings(against: device.description, device: DeviceID(i), file: file)
        }
        return Recording(devices: devices, events: mergeByTime(events), warnings: all, format: .native,
                         screenChanges: screenChanges.sorted { $0.time < $1.time })
    }
}

private extension JSONValue {
    /// The integer, if the line wrote one: a trace's counts, codes, values
    /// and times are integers, and `1.0` or `1e3` is not one of them.
    var integer: Int64? { if case let .int(v) = self { return v } else { return nil } }
}
