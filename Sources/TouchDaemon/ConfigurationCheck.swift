// SPDX-License-Identifier: MIT
import Quirks
import Session
import Trace

/// `touchd --check-config`: reads a configuration file as the daemon would at
/// start or on SIGHUP, and libinput's installed quirks, without opening a
/// device or a socket (docs/configuration.md, "Checking a file").
package enum ConfigurationCheck {
    /// The file touchd.service gives touchd.
    package static let defaultPath = "/etc/touchd/touchd.yaml"

    /// What a check found.
    package struct Outcome: Sendable {
        /// Everything that makes the file unusable, in the file's order; empty when it is fine.
        package var errors: [ConfigurationError]
        /// What the daemon would only warn about (quirks it would not use).
        package var warnings: [String]
        /// The exit status: 0, or 78 (EX_CONFIG, as the daemon's) with errors.
        package var status: Int32 { errors.isEmpty ? 0 : 78 }
    }

    /// Checks the file at `path` (every error, not only the first) and the installed quirks when `readsQuirks`.
    package static func run(path: String, readsQuirks: Bool = true) -> Outcome {
        var outcome = Outcome(errors: [], warnings: [])
        switch TouchdConfiguration.check(path: path) {
        case .failure(let e):
            outcome.errors = e.errors
        case .success(let c):
            do {
                _ = try DaemonSettings(c)
            } catch {
                outcome.errors.append(error)
            }
        }
        if readsQuirks {
            do {
                _ = try QuirksLoader.loadInstalled()
            } catch {
                outcome.warnings.append("libinput quirks would not be used: \(error.description)")
            }
        }
        return outcome
    }
}
