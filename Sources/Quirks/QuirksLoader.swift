// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TouchCore

/// Reads libinput's quirks files (the parsing is ``QuirksParser``, pure).
package enum QuirksLoader {
    /// Where libinput's packages install the database (Debian: libinput-data / libinput-bin).
    package static let installedDirectory = "/usr/share/libinput"
    /// The administrator's overrides, read after every other file.
    package static let localOverrides = "/etc/libinput/local-overrides.quirks"

    /// Every `*.quirks` file of `directory` (and `overrides`, when it exists), parsed
    /// in libinput's reading order. A missing directory is an empty database; an
    /// unreadable or malformed file is an error naming the file and line.
    package static func load(directory: String, overrides: String? = nil) throws(QuirksError) -> QuirksDatabase {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".quirks") }
        var files: [(name: String, text: String)] = []
        for name in names {
            let path = directory + "/" + name
            files.append((path, try read(path)))
        }
        var database = try QuirksDatabase(files: files)
        if let overrides, FileManager.default.fileExists(atPath: overrides) {
            database.sections += try QuirksParser.parse(try read(overrides), file: overrides)
        }
        return database
    }

    /// The installed database with the local overrides, and this machine's DMI
    /// modalias and device-tree `compatible` for the matches that need them.
    package static func loadInstalled() throws(QuirksError) -> QuirksDatabase {
        var database = try load(directory: installedDirectory, overrides: localOverrides)
        let machine = machineFacts()
        database.dmiModalias = machine.dmiModalias
        database.deviceTree = machine.deviceTree
        return database
    }

    /// `/sys/class/dmi/id/modalias` and the first device-tree `compatible` string, when present.
    package static func machineFacts() -> (dmiModalias: String?, deviceTree: String?) {
        func text(_ path: String) -> String? {
            guard let data = FileManager.default.contents(atPath: path), !data.isEmpty else { return nil }
            return String(decoding: data, as: UTF8.self)
        }
        let dmi = text("/sys/class/dmi/id/modalias")?.split(whereSeparator: \.isNewline).first.map(String.init)
        // compatible is a list of NUL-terminated strings, most specific first.
        let tree = text("/sys/firmware/devicetree/base/compatible")?.split(separator: "\0").first.map(String.init)
        return (dmi, tree)
    }

    private static func read(_ path: String) throws(QuirksError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw QuirksError(file: path, line: 0, message: "cannot read the file")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
