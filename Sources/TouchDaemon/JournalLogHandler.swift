// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Logging
import SystemCalls

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A swift-log handler writing one line per message to stderr, in a form
/// journald reads well: `<6>message key=value` (the syslog priority prefix
/// journald parses) when stderr is the journal (`JOURNAL_STREAM` is set),
/// `info: message key=value` otherwise.
package struct JournalLogHandler: LogHandler {
    /// The messages at or above this level are written.
    package var logLevel: Logger.Level
    /// Metadata attached to every message of this logger.
    package var metadata: Logger.Metadata = [:]
    /// Whether lines carry the journal's `<N>` priority prefix.
    package let journalPrefixes: Bool
    private let label: String

    /// Creates a handler; `journalPrefixes` defaults to whether `JOURNAL_STREAM` is set.
    package init(label: String, level: Logger.Level = .info,
                journalPrefixes: Bool = ProcessInfo.processInfo.environment["JOURNAL_STREAM"] != nil) {
        self.label = label
        self.logLevel = level
        self.journalPrefixes = journalPrefixes
    }

    package subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    package func log(event: LogEvent) {
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let line = Self.format(level: event.level, message: event.message.description, metadata: merged, journal: journalPrefixes) + "\n"
        // A failure means stderr is gone: nothing else to tell.
        try? Syscall.writeAll(2, Array(line.utf8))
    }

    /// One line: the prefix, the message, then `key=value` pairs sorted by key
    /// (values with spaces or quotes are quoted).
    package static func format(level: Logger.Level, message: String, metadata: Logger.Metadata, journal: Bool) -> String {
        var s = journal ? "<\(priority(level))>" : "\(level.rawValue): "
        s += message
        for key in metadata.keys.sorted() {
            s += " \(key)=\(quoted(metadata[key]!.description))"
        }
        return s
    }

    /// The syslog priority of a level (`sd-daemon.h`'s `SD_ERR`... numbers).
    package static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: return 7
        case .info: return 6
        case .notice: return 5
        case .warning: return 4
        case .error: return 3
        case .critical: return 2
        }
    }

    static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\n" }) else { return value }
        var s = "\""
        for c in value {
            switch c {
            case "\"": s += "\\\""
            case "\\": s += "\\\\"
            case "\n": s += "\\n"
            default: s.append(c)
            }
        }
        return s + "\""
    }
}
