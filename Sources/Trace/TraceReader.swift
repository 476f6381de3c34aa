// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TouchCore

/// Reads traces in any format touchd knows, detecting the format from the content.
///
/// ```swift
/// let recording = try TraceReader.read(path: "Atmel maXTouch Touchscreen.4-finger-drag-down.events")
/// ```
package enum TraceReader {
    /// Reads the trace at `path`.
    ///
    /// An evemu file holding only `E:` lines is paired with `description`
    /// when given, otherwise with the sibling `.desc`, `.prop` or `.device`
    /// file whose name stem is the longest prefix of this file's name stem
    /// (`Atmel maXTouch Touchscreen.desc` for
    /// `Atmel maXTouch Touchscreen.4-finger-drag-down.events`). When no such
    /// file exists, a description is inferred from the events and a warning
    /// says so (see `DescriptionInference`). For an evemu
    /// file with its own header, `description` replaces that header. Other
    /// formats describe their devices themselves; `description` is ignored
    /// for them with a warning.
    ///
    /// - Throws: ``TraceError`` naming the file and line at fault.
    package static func read(path: String, description: String? = nil) throws -> Recording {
        let data = try contents(of: path)
        return try data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let format = try detectFormat(bytes, file: path)
            switch format {
            case .evemu:
                let file = try EvemuReader.parse(bytes, file: path)
                if let description {
                    let device = try readDescription(path: description)
                    return recording(from: file, device: device, file: path)
                }
                if file.description == nil, !file.events.isEmpty {
                    let sibling: String
                    do {
                        sibling = try siblingDescription(of: path)
                    } catch let error as TraceError where error.code == .missingDescription {
                        // No description was ever published for some devices: infer one rather than refuse the events.
                        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                        var r = recording(from: file, device: DescriptionInference.infer(from: file.events, fileStem: stem), file: path)
                        r.warnings.insert(TraceWarning(
                            file: path, line: 0,
                            message: error.message + "; inferred a description from the events (codes used, observed ranges, resolution unknown)"), at: 0)
                        return r
                    }
                    return recording(from: file, device: try readDescription(path: sibling), file: path)
                }
                return try recording(from: file, device: nil, file: path)
            case .libinputYAML, .native:
                var recording = try parse(bytes, name: path, format: format)
                if description != nil {
                    recording.warnings.append(TraceWarning(
                        file: path, line: 0, message: "--description ignored: \(format.rawValue) traces describe their own devices"))
                }
                return recording
            }
        }
    }

    /// Reads a trace held in memory; `name` is used in messages.
    ///
    /// `format` skips detection. `description` pairs an events-only evemu
    /// text (or replaces an evemu header); without it such a text is an error
    /// (``TraceError/Code/missingDescription``), since there is no directory to search.
    package static func read(
        text: String, name: String, format: TraceFormat? = nil, description: DeviceDescription? = nil
    ) throws -> Recording {
        try withUTF8Bytes(of: text) { bytes in
            try read(bytes: bytes, name: name, format: format, description: description)
        }
    }

    /// Reads a trace held in memory as bytes, which need not be valid UTF-8
    /// (as a file's may not be); otherwise like ``read(text:name:format:description:)``.
    package static func read(
        bytes: UnsafeBufferPointer<UInt8>, name: String, format: TraceFormat? = nil, description: DeviceDescription? = nil
    ) throws -> Recording {
        let format = try format ?? detectFormat(bytes, file: name)
        switch format {
        case .evemu:
            let file = try EvemuReader.parse(bytes, file: name)
            if description == nil, file.description == nil, !file.events.isEmpty {
                throw TraceError(.missingDescription, file: name, "evemu events without a device description (pass one)")
            }
            return try recording(from: file, device: description, file: name)
        case .libinputYAML, .native:
            var recording = try parse(bytes, name: name, format: format)
            if description != nil {
                recording.warnings.append(TraceWarning(
                    file: name, line: 0, message: "description ignored: \(format.rawValue) traces describe their own devices"))
            }
            return recording
        }
    }

    /// Guesses the format from the first meaningful line.
    static func detectFormat(_ bytes: UnsafeBufferPointer<UInt8>, file: String) throws -> TraceFormat {
        var lines = LineScanner(bytes)
        while let line = lines.nextLine() {
            var c = line.cursor
            c.skipSpace()
            guard let first = c.current else { continue }
            let text = c.rest()
            if first == 0x7B /* { */ { return .native }
            if text.hasPrefix("# libinput record") || text.hasPrefix("version:") || text.hasPrefix("---") { return .libinputYAML }
            if first == 0x23 { continue } // other comments: evemu header comments and such
            if text.count >= 2, text.utf8.dropFirst().first == 0x3A, "NIPBALSE".utf8.contains(first) { return .evemu }
            throw TraceError(.badHeader, file: file, line: line.number,
                             "not a trace touchd knows (native JSON lines, evemu, or libinput record YAML)")
        }
        throw TraceError(.badHeader, file: file, "empty trace: no header, description or events")
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>, name: String, format: TraceFormat) throws -> Recording {
        switch format {
        case .native: return try NativeTraceReader.parse(bytes, file: name)
        case .libinputYAML: return try LibinputRecordReader.parse(bytes, file: name)
        case .evemu: return try recording(from: EvemuReader.parse(bytes, file: name), device: nil, file: name)
        }
    }

    private static func recording(from file: EvemuFile, device: DeviceDescription?, file name: String) throws -> Recording {
        guard let description = device ?? file.description else {
            throw TraceError(.missingDescription, file: name, "evemu events without a device description")
        }
        return recording(from: file, device: description, file: name)
    }

    private static func recording(from file: EvemuFile, device description: DeviceDescription, file name: String) -> Recording {
        let id = DeviceID(0)
        var events: [RecordedEvent] = []
        events.reserveCapacity(file.events.count)
        for e in file.events { events.append(RecordedEvent(device: id, event: e)) }
        return Recording(
            devices: [RecordedDevice(description: description)], events: events,
            warnings: file.usage.warnings(against: description, device: nil, file: name), format: .evemu)
    }

    /// Reads a description-only evemu file (or the header of a self-contained one).
    static func readDescription(path: String) throws -> DeviceDescription {
        let data = try contents(of: path)
        return try data.withUnsafeBytes { raw in
            let file = try EvemuReader.parse(raw.bindMemory(to: UInt8.self), file: path)
            guard let description = file.description else {
                throw TraceError(.missingDescription, file: path, "no device description (N:/I:/P:/B:/A: lines) in this file")
            }
            return description
        }
    }

    /// The sibling description file of an events-only evemu file.
    static func siblingDescription(of path: String) throws -> String {
        let url = URL(fileURLWithPath: path)
        let directory = url.deletingLastPathComponent()
        let stem = url.deletingPathExtension().lastPathComponent
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        let extensions = ["desc", "prop", "device"]
        var best: (name: String, stemLength: Int, rank: Int)?
        for entry in entries {
            let candidate = URL(fileURLWithPath: entry)
            guard let rank = extensions.firstIndex(of: candidate.pathExtension) else { continue }
            let candidateStem = candidate.deletingPathExtension().lastPathComponent
            guard stem.hasPrefix(candidateStem) else { continue }
            let length = candidateStem.utf8.count
            if let b = best, b.stemLength > length || (b.stemLength == length && b.rank <= rank) { continue }
            best = (entry, length, rank)
        }
        guard let best else {
            throw TraceError(.missingDescription, file: path,
                             "events without a device description: no .desc, .prop or .device file in \(directory.path) "
                                 + "whose name is a prefix of \"\(stem)\" (pass one with --description)")
        }
        return directory.appendingPathComponent(best.name).path
    }

    static func contents(of path: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TraceError(.unreadable, file: path, "cannot read the file")
        }
        return data
    }
}
