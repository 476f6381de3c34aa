// SPDX-License-Identifier: MIT
import TouchCore
import YAMLReader

/// Reads `libinput record` YAML version 1 (docs/trace-format.md §4): one or several
/// devices, each with its `evdev` description and its `events` frames.
enum LibinputRecordReader {
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> Recording {
        let root: YAMLNode
        do {
            guard let node = try YAMLParser.parse(bytes) else {
                throw TraceError(.badHeader, file: file, "empty YAML document")
            }
            root = node
        } catch let error as YAMLError {
            throw TraceError(.badLine, file: file, line: error.line, "YAML: column \(error.column): \(error.message)")
        }
        let reader = Reader(file: file)
        return try reader.recording(root)
    }
}

/// Walks the composed YAML tree, keeping the file name for messages.
private struct Reader {
    let file: String

    func fail(_ node: YAMLNode?, _ message: String, _ code: TraceError.Code = .badLine) -> TraceError {
        TraceError(code, file: file, line: node?.line ?? 0, message)
    }

    func recording(_ root: YAMLNode) throws -> Recording {
        guard root.mapping != nil else { throw fail(root, "libinput record: the document must be a mapping", .badHeader) }
        let top = root
        guard let version = top["version"] else { throw fail(root, "libinput record: no \"version:\" key", .badHeader) }
        guard version.scalar == "1" else {
            throw fail(version, "libinput record version \(version.scalar ?? "?") is not supported (version 1 is)", .badHeader)
        }
        guard let devicesNode = top["devices"], let devices = devicesNode.sequence, !devices.isEmpty else {
            throw fail(top["devices"] ?? root, "libinput record: no devices", .badDevice)
        }
        var recorded: [RecordedDevice] = []
        var perDevice: [[InputEvent]] = []
        var warnings: [TraceWarning] = []
        for (index, deviceNode) in devices.enumerated() {
            guard deviceNode.mapping != nil else { throw fail(deviceNode, "device \(index) must be a mapping", .badDevice) }
            let device = deviceNode
            guard let evdev = device["evdev"], evdev.mapping != nil else { throw fail(deviceNode, "device \(index) has no \"evdev:\" mapping", .badDevice) }
            var description = try self.description(evdev, at: evdev)
            if let udev = device["udev"], udev.mapping != nil, let properties = udev["properties"], !isNull(properties) {
                guard let list = properties.sequence else { throw fail(properties, "udev.properties must be a list of KEY=VALUE strings") }
                for item in list {
                    guard let s = item.scalar else { throw fail(item, "udev property must be a string") }
                    if let eq = s.firstIndex(of: "=") {
                        description.udevProperties[String(s[..<eq])] = String(s[s.index(after: eq)...])
                    } else {
                        description.udevProperties[s] = ""
                    }
                }
            }
            let node = device["node"]?.scalar
            var usage = CodeUsage()
            let events = try self.events(device["events"], usage: &usage)
            warnings += usage.warnings(against: description, device: DeviceID(index), file: file)
            recorded.append(RecordedDevice(description: description, node: node))
            perDevice.append(events)
        }
        return Recording(devices: recorded, events: merge(perDevice), warnings: warnings, format: .libinputYAML)
    }

    private func isNull(_ node: YAMLNode) -> Bool { node.isNull }

    private func description(_ evdev: YAMLNode, at node: YAMLNode) throws -> DeviceDescription {
        guard let nameNode = evdev["name"], let name = nameNode.scalar else { throw fail(node, "evdev has no \"name:\"", .badDevice) }
        var description = DeviceDescription(name: name)
        if let idNode = evdev["id"] {
            let id = try ints(idNode, "evdev.id")
            guard id.count == 4, id.allSatisfy({ $0 >= 0 && $0 <= 0xFFFF }) else {
                throw fail(idNode, "evdev.id must be [bustype, vendor, product, version] (decimal, 0...65535)")
            }
            description.id = InputID(bustype: UInt16(id[0]), vendor: UInt16(id[1]), product: UInt16(id[2]), version: UInt16(id[3]))
        }
        if let codesNode = evdev["codes"], !isNull(codesNode) {
            guard let codes = codesNode.mapping else { throw fail(codesNode, "evdev.codes must map event types to code lists") }
            for pair in codes {
                let key = pair.key, value = pair.value
                let type = try int(key, "event type")
                guard type >= 0, type <= 0x1f else { throw fail(key, "event type \(type) out of range") }
                var set = CodeSet()
                if !isNull(value) {
                    for code in try ints(value, "codes") {
                        guard code >= 0, code <= 0xFFFF else { throw fail(value, "event code \(code) out of range") }
                        set.insert(UInt16(code))
                    }
                }
                description.codes[EventType(rawValue: UInt16(type))] = set
            }
        }
        if let absNode = evdev["absinfo"], !isNull(absNode) {
            guard let abs = absNode.mapping else { throw fail(absNode, "evdev.absinfo must map codes to [min, max, fuzz, flat, resolution]") }
            for pair in abs {
                let key = pair.key, value = pair.value
                let code = try int(key, "absinfo code")
                let v = try ints(value, "absinfo")
                guard code >= 0, code <= 0xFFFF, v.count == 5, v.allSatisfy({ $0 >= Int64(Int32.min) && $0 <= Int64(Int32.max) }) else {
                    throw fail(value, "absinfo \(code) must be [min, max, fuzz, flat, resolution]")
                }
                description.absInfo[UInt16(code)] = AbsInfo(
                    minimum: Int32(v[0]), maximum: Int32(v[1]), fuzz: Int32(v[2]), flat: Int32(v[3]), resolution: Int32(v[4]))
            }
        }
        if let propNode = evdev["properties"], !isNull(propNode) {
            description.properties = InputProperties(numbers: try ints(propNode, "properties").map { Int($0) })
        }
        return description
    }

    private func events(_ node: YAMLNode?, usage: inout CodeUsage) throws -> [InputEvent] {
        guard let node, !isNull(node) else { return [] }
        guard let frames = node.sequence else { throw fail(node, "events must be a list of frames") }
        var events: [InputEvent] = []
        events.reserveCapacity(frames.count * 6)
        for frame in frames {
            // Only `evdev` frames carry events; `libinput` and `hid` items are ignored.
            guard frame.mapping != nil else { throw fail(frame, "an events item must be a mapping like \"- evdev: [...]\"") }
            guard let evdev = frame["evdev"] else { continue }
            guard let list = evdev.sequence else { throw fail(evdev, "evdev frame must be a list of [sec, usec, type, code, value]") }
            for item in list {
                guard let fields = item.sequence, fields.count == 5 else {
                    throw fail(item, "an event must be [sec, usec, type, code, value]")
                }
                let sec = try int(fields[0], "seconds"), usec = try int(fields[1], "microseconds")
                let type = try int(fields[2], "type"), code = try int(fields[3], "code"), value = try int(fields[4], "value")
                guard type >= 0, type <= 0xFFFF, code >= 0, code <= 0xFFFF, value >= Int64(Int32.min), value <= Int64(Int32.max) else {
                    throw fail(item, "event type, code or value out of range")
                }
                let eventType = EventType(rawValue: UInt16(type))
                usage.note(eventType, UInt16(code), line: item.line)
                events.append(InputEvent(
                    time: Timestamp(seconds: sec, microseconds: usec), type: eventType, code: UInt16(code), value: Int32(value)))
            }
        }
        return events
    }

    private func int(_ node: YAMLNode, _ what: String) throws -> Int64 {
        guard let s = node.scalar, let v = Int64(s) else { throw fail(node, "\(what): expected a decimal integer") }
        return v
    }

    private func ints(_ node: YAMLNode, _ what: String) throws -> [Int64] {
        guard let seq = node.sequence else { throw fail(node, "\(what): expected a list of integers") }
        return try seq.map { try int($0, what) }
    }
}

/// Merges per-device event lists into one time-ordered list, keeping each
/// device's own order (ties go to the lower device index).
func mergeByTime(_ perDevice: [[InputEvent]]) -> [RecordedEvent] {
    var result: [RecordedEvent] = []
    result.reserveCapacity(perDevice.reduce(0) { $0 + $1.count })
    if perDevice.count == 1 {
        for e in perDevice[0] { result.append(RecordedEvent(device: DeviceID(0), event: e)) }
        return result
    }
    var next = [Int](repeating: 0, count: perDevice.count)
    while true {
        var best = -1
        for d in perDevice.indices where next[d] < perDevice[d].count {
            if best < 0 || perDevice[d][next[d]].time < perDevice[best][next[best]].time { best = d }
        }
        if best < 0 { return result }
        result.append(RecordedEvent(device: DeviceID(best), event: perDevice[best][next[best]]))
        next[best] += 1
    }
}

private func merge(_ perDevice: [[InputEvent]]) -> [RecordedEvent] { mergeByTime(perDevice) }
