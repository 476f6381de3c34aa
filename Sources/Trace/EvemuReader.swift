// SPDX-License-Identifier: MIT
import TouchCore

/// What one evemu text file holds: maybe a device header, maybe events.
struct EvemuFile {
    /// `# EVEMU M.m`, or 1.0 when the first line does not say.
    var version = (major: 1, minor: 0)
    /// The device, when the file has an `N:`/`I:`/`P:`/`B:`/`A:` header.
    var description: DeviceDescription?
    /// The events, with the times exactly as written.
    var events: [InputEvent] = []
    /// Codes the events use, for undeclared-code warnings.
    var usage = CodeUsage()
    /// Lines of the header, for error messages.
    var headerLine = 0
}

/// Reads evemu 1.0-1.3 text (docs/trace-format.md §3).
enum EvemuReader {
    /// Parses the bytes of one evemu file.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> EvemuFile {
        var result = EvemuFile()
        var header = HeaderBuilder()
        result.events.reserveCapacity(bytes.count / 36)
        var lines = LineScanner(bytes)
        while let line = lines.nextLine() {
            var c = line.cursor
            func fail(_ message: String) -> TraceError {
                line.terminated
                    ? TraceError(.badLine, file: file, line: line.number, message)
                    : TraceError(.truncated, file: file, line: line.number, "file ends in the middle of a line (\(message))")
            }
            guard let tag = c.current else { continue }
            // Fast path first: almost every line is an event.
            if tag == 0x45 /* E */ {
                guard c.consume(0x45), c.consume(0x3A) else { throw fail("expected a tag like \"E:\"") }
                c.skipSpace()
                guard let seconds = c.unsignedDecimal(maxDigits: 12), c.consume(0x2E),
                      let micros = c.unsignedDecimal(maxDigits: 6)
                else { throw fail("E: line needs a time \"SECONDS.MICROSECONDS\"") }
                guard c.skipSpace() > 0, let type = c.hex(maxDigits: 4), c.skipSpace() > 0, let code = c.hex(maxDigits: 4)
                else { throw fail("E: line needs a hex type and code (\"E: 0.000001 0003 0035 1218\")") }
                guard c.skipSpace() > 0, let value = c.int32()
                else { throw fail("E: line needs a decimal value that fits in 32 bits") }
                if !c.isAtEnd, c.skipSpace() == 0 { throw fail("unexpected text after the event value") }
                guard type <= 0xFFFF, code <= 0xFFFF else { throw fail("type or code out of range") }
                let eventType = EventType(rawValue: UInt16(type))
                result.usage.note(eventType, UInt16(code), line: line.number)
                result.events.append(InputEvent(
                    time: Timestamp(microseconds: Int64(seconds) * 1_000_000 + Int64(micros)),
                    type: eventType, code: UInt16(code), value: value))
                continue
            }
            if tag == 0x23 /* # */ {
                if line.number == 1 { result.version = try version(of: c, file: file, line: line.number) }
                continue
            }
            if c.isAtEndIgnoringSpace { continue }
            if !result.events.isEmpty {
                throw fail("device description line after the first event")
            }
            if result.headerLine == 0 { result.headerLine = line.number }
            try header.take(&c, fail: fail)
        }
        result.description = try header.build(file: file)
        return result
    }

    private static func version(of cursor: LineCursor, file: String, line: Int) throws -> (major: Int, minor: Int) {
        var c = cursor
        _ = c.consume(0x23)
        c.skipSpace()
        for b in "EVEMU".utf8 where !c.consume(b) { return (1, 0) }
        c.skipSpace()
        guard let major = c.unsignedDecimal(maxDigits: 3), c.consume(0x2E), let minor = c.unsignedDecimal(maxDigits: 3)
        else { throw TraceError(.badHeader, file: file, line: line, "bad evemu version line (expected \"# EVEMU 1.3\")") }
        guard major == 1, minor <= 3 else {
            throw TraceError(.badHeader, file: file, line: line, "evemu file format \(major).\(minor) is not supported (1.0 to 1.3 are)")
        }
        return (Int(major), Int(minor))
    }
}

/// Collects `N: I: P: B: A: L: S:` lines into a ``DeviceDescription``.
private struct HeaderBuilder {
    var name: String?
    var id: InputID?
    var propertyBytes: [UInt8] = []
    var masks: [UInt16: [UInt8]] = [:]
    var absInfo: [UInt16: AbsInfo] = [:]
    var seenAnything = false

    mutating func take(_ c: inout LineCursor, fail: (String) -> TraceError) throws {
        guard let tag = c.current else { return }
        c.position += 1
        guard c.consume(0x3A) else { throw fail("expected a tag like \"N:\", \"B:\" or \"E:\"") }
        seenAnything = true
        switch tag {
        case 0x4E: // N
            c.skipSpace()
            name = c.rest()
        case 0x49: // I
            var parts: [UInt16] = []
            while !c.isAtEndIgnoringSpace {
                guard c.skipSpace() > 0, let v = c.hex(maxDigits: 4)
                else { throw fail("I: needs four hex numbers (bus vendor product version)") }
                parts.append(UInt16(v))
            }
            guard parts.count == 4 else { throw fail("I: needs four hex numbers, found \(parts.count)") }
            id = InputID(bustype: parts[0], vendor: parts[1], product: parts[2], version: parts[3])
        case 0x50: // P
            let bytes = try hexBytes(&c, fail: fail)
            guard bytes.count == 8 else { throw fail("P: needs 8 hex bytes, found \(bytes.count)") }
            propertyBytes += bytes
        case 0x42: // B
            let bytes = try hexBytes(&c, fail: fail)
            guard bytes.count == 9 else { throw fail("B: needs a type and 8 hex bytes, found \(bytes.count) fields") }
            masks[UInt16(bytes[0]), default: []] += bytes[1...]
        case 0x41: // A
            c.skipSpace()
            guard let code = c.hex(maxDigits: 4) else { throw fail("A: needs a hex axis code") }
            var numbers: [Int32] = []
            while !c.isAtEndIgnoringSpace {
                guard c.skipSpace() > 0, let v = c.int32() else { throw fail("A: needs decimal min max fuzz flat [resolution]") }
                numbers.append(v)
            }
            guard numbers.count == 4 || numbers.count == 5 else {
                throw fail("A: needs 4 or 5 numbers after the code (min max fuzz flat [resolution]), found \(numbers.count)")
            }
            absInfo[UInt16(code)] = AbsInfo(
                minimum: numbers[0], maximum: numbers[1], fuzz: numbers[2], flat: numbers[3],
                resolution: numbers.count == 5 ? numbers[4] : 0)
        case 0x4C, 0x53: // L, S: initial LED and switch states, not needed for replay
            c.skipSpace()
            guard c.hex(maxDigits: 4) != nil, c.skipSpace() > 0, c.int32() != nil, c.isAtEndIgnoringSpace
            else { throw fail("\(tag == 0x4C ? "L" : "S"): needs a hex code and a decimal value") }
        default:
            throw fail("unknown line tag \"\(String(UnicodeScalar(tag))):\"")
        }
    }

    private func hexBytes(_ c: inout LineCursor, fail: (String) -> TraceError) throws -> [UInt8] {
        var bytes: [UInt8] = []
        while !c.isAtEndIgnoringSpace {
            guard c.skipSpace() > 0, let v = c.hex(maxDigits: 2) else { throw fail("expected hex bytes like \"0b\"") }
            bytes.append(UInt8(v))
        }
        return bytes
    }

    func build(file: String) throws -> DeviceDescription? {
        guard seenAnything else { return nil }
        guard let name else { throw TraceError(.badHeader, file: file, "evemu description has no \"N:\" line") }
        var properties = InputProperties()
        for (i, byte) in propertyBytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                let n = i * 8 + bit
                if n < 32 { properties.insert(InputProperties(rawValue: 1 << UInt32(n))) }
            }
        }
        var codes: [EventType: CodeSet] = [:]
        for (type, bytes) in masks {
            var set = CodeSet()
            for (i, byte) in bytes.enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 { set.insert(UInt16(i * 8 + bit)) }
            }
            // evemu writes a B: line for every type; only the ones with codes are supported.
            if !set.isEmpty || type == EventType.syn.rawValue { codes[EventType(rawValue: type)] = set }
        }
        return DeviceDescription(name: name, id: id ?? InputID(), properties: properties, codes: codes, absInfo: absInfo)
    }
}
