// SPDX-License-Identifier: MIT
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Gestures
import Quirks
import TouchCore
import YAMLReader

/// A configuration file that could not be used: names the file, the line and the key at fault.
package struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    package var file: String
    /// The line of the key at fault, from 1; nil when no line is at fault (an unreadable file).
    package var line: Int?
    /// Where in the file (`devices[1].rotation`), or empty for the whole file.
    package var path: String
    /// What is wrong.
    package var message: String
    /// Any further errors the same read found (``TouchdConfiguration/check(yaml:file:)`` gives them all).
    package var more: [ConfigurationError] = []
    /// Creates an error.
    package init(file: String, line: Int? = nil, path: String = "", _ message: String) {
        self.file = file
        self.line = line
        self.path = path
        self.message = message
    }
    /// `file:line: key: message`, as compilers and `sshd -t` write it.
    package var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return path.isEmpty ? "\(place): \(message)" : "\(place): \(path): \(message)"
    }
}

/// One screen of the configuration: its size in pixels and, optionally, in
/// millimetres, as the panel is built (unturned); how far the picture is
/// turned on it; and the areas the system keeps along its edges.
package struct ScreenEntry: Hashable, Sendable, Codable {
    /// The screen's name, used by device rules (`screen: main`).
    package var name: String
    /// Width in pixels of the panel unturned (the mode's width).
    package var width: Int
    /// Height in pixels of the panel unturned.
    package var height: Int
    /// Physical size of the panel unturned, which gives the pixel density edge zones and edge pans use.
    package var sizeMM: SizeMM?
    /// How far the picture is turned clockwise on the panel (0, 90, 180, 270;
    /// `xrandr --rotate right` is 90): with 90 or 270 the screen the user
    /// sees is `height` x `width`, and its edges are the turned ones.
    package var rotation: Rotation
    /// Pixels the system keeps along each edge as the user sees the screen
    /// (a status bar, rounded corners): system edge zones start inside them.
    package var insets: ScreenInsets

    /// Creates a screen entry.
    package init(name: String, width: Int, height: Int, sizeMM: SizeMM? = nil, rotation: Rotation = .none,
                insets: ScreenInsets = ScreenInsets()) {
        self.name = name
        self.width = width
        self.height = height
        self.sizeMM = sizeMM
        self.rotation = rotation
        self.insets = insets
    }

    /// Width in pixels as the user sees the screen (after ``rotation``).
    package var viewWidth: Int { rotation.swapsAxes ? height : width }
    /// Height in pixels as the user sees the screen.
    package var viewHeight: Int { rotation.swapsAxes ? width : height }
    /// Physical size as the user sees the screen.
    package var viewSizeMM: SizeMM? {
        guard let s = sizeMM else { return nil }
        return rotation.swapsAxes ? SizeMM(width: s.height, height: s.width) : s
    }

    enum CodingKeys: String, CodingKey, CaseIterable { case name, width, height, sizeMM, rotation, insets }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name) ?? "default"
        width = try c.decode(Int.self, forKey: .width)
        height = try c.decode(Int.self, forKey: .height)
        sizeMM = try c.decodeIfPresent(SizeMM.self, forKey: .sizeMM)
        guard width > 0, height > 0, width <= 65_536, height <= 65_536 else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.width], debugDescription: "screen size must be 1 to 65536 pixels"))
        }
        if let s = sizeMM, !(s.width > 0 && s.height > 0 && s.width.isFinite && s.height.isFinite) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.sizeMM], debugDescription: "width and height must be positive and finite"))
        }
        rotation = .none
        if let degrees = try c.decodeIfPresent(Int.self, forKey: .rotation) {
            guard let r = Rotation(rawValue: degrees) else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.rotation], debugDescription: "expected 0, 90, 180 or 270, got \(degrees)"))
            }
            rotation = r
        }
        insets = try c.decodeIfPresent(ScreenInsets.self, forKey: .insets) ?? ScreenInsets()
    }
}

/// Which devices a rule applies to. Every key given must match (glob patterns
/// with `*` and `?` for names and syspaths; numbers may be written in hex).
package struct DeviceMatch: Hashable, Sendable, Codable {
    /// Kernel device name pattern.
    package var name: String?
    /// USB/I2C vendor id.
    package var vendor: UInt16?
    /// Product id.
    package var product: UInt16?
    /// Bus type (3 USB, 0x18 I2C...).
    package var bustype: UInt16?
    /// sysfs path pattern (live devices only).
    package var syspath: String?
    /// udev properties that must have these values.
    package var udev: [String: String]?

    enum CodingKeys: String, CodingKey, CaseIterable { case name, vendor, product, bustype, syspath, udev }

    /// Creates a match.
    package init(name: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil, bustype: UInt16? = nil, syspath: String? = nil, udev: [String: String]? = nil) {
        self.name = name
        self.vendor = vendor
        self.product = product
        self.bustype = bustype
        self.syspath = syspath
        self.udev = udev
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decodeIfPresent(String.self, forKey: .name)
        vendor = try Self.decodeID(c, .vendor)
        product = try Self.decodeID(c, .product)
        bustype = try Self.decodeID(c, .bustype)
        syspath = try c.decodeIfPresent(String.self, forKey: .syspath)
        udev = try c.decodeIfPresent([String: String].self, forKey: .udev)
    }

    static func decodeID(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> UInt16? {
        if let n = try? c.decodeIfPresent(Int.self, forKey: key) {
            guard (0...0xffff).contains(n) else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [key], debugDescription: "expected 0 to 0xffff"))
            }
            return UInt16(n)
        }
        guard let text = try c.decodeIfPresent(String.self, forKey: key) else { return nil }
        let digits = text.hasPrefix("0x") || text.hasPrefix("0X") ? String(text.dropFirst(2)) : text
        guard let v = UInt16(digits, radix: 16) else {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [key], debugDescription: "expected a number or hex string like 0x1b96, got \"\(text)\""))
        }
        return v
    }

    /// Whether a device matches.
    package func matches(_ d: DeviceDescription, syspath devicePath: String? = nil, udevProperties: [String: String] = [:]) -> Bool {
        if let name, !Glob.matches(name, d.name) { return false }
        if let vendor, vendor != d.id.vendor { return false }
        if let product, product != d.id.product { return false }
        if let bustype, bustype != d.id.bustype { return false }
        if let syspath {
            guard let devicePath, Glob.matches(syspath, devicePath) else { return false }
        }
        if let udev {
            let props = udevProperties.isEmpty ? d.udevProperties : udevProperties
            for (k, v) in udev where props[k] != v { return false }
        }
        return true
    }
}

/// A device rule: what to do with the devices it matches. Rules apply in
/// order; a later matching rule overrides the keys it sets.
package struct DeviceRule: Hashable, Sendable, Codable {
    /// Which devices.
    package var match: DeviceMatch
    /// Screen by index or name.
    package var screen: ScreenReference?
    /// Rotation in degrees clockwise: 0, 90, 180, 270.
    package var rotation: Rotation?
    /// libinput-style calibration matrix, six numbers.
    package var calibration: [Double]?
    /// Physical size override.
    package var sizeMM: SizeMM?
    /// Ignore the device (with this rule as the reason).
    package var ignore: Bool?
    /// Grab the device exclusively (live devices only).
    package var grab: Bool?
    /// Pass-through (live devices only): grab the device and serve the
    /// compositor a mirror of it carrying only what the app world may see
    /// (semantics §9; docs/pass-through.md). Off by default.
    package var passThrough: Bool?
    /// How a touch the app world has ends on the mirror when touchd takes it:
    /// `auto` (the default), `cancel` or `lift` (docs/pass-through.md).
    package var passThroughEnding: MirrorEndingSetting?

    enum CodingKeys: String, CodingKey, CaseIterable { case match, screen, rotation, calibration, sizeMM, ignore, grab, passThrough, passThroughEnding }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        match = try c.decodeIfPresent(DeviceMatch.self, forKey: .match) ?? DeviceMatch()
        screen = try c.decodeIfPresent(ScreenReference.self, forKey: .screen)
        if let degrees = try c.decodeIfPresent(Int.self, forKey: .rotation) {
            guard let r = Rotation(rawValue: degrees) else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.rotation], debugDescription: "expected 0, 90, 180 or 270, got \(degrees)"))
            }
            rotation = r
        }
        calibration = try c.decodeIfPresent([Double].self, forKey: .calibration)
        if let m = calibration, m.count != 6 {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.calibration], debugDescription: "expected 6 numbers (a b c d e f), got \(m.count)"))
        }
        // YAML has .nan and .inf; either would put every touch of the device at NaN (found by fuzz-pipeline-engine).
        if let m = calibration, let bad = m.firstIndex(where: { !$0.isFinite }) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.calibration], debugDescription: "expected finite numbers, got \(m[bad]) at position \(bad + 1)"))
        }
        sizeMM = try c.decodeIfPresent(SizeMM.self, forKey: .sizeMM)
        if let s = sizeMM, !(s.width > 0 && s.height > 0 && s.width.isFinite && s.height.isFinite) {
            throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.sizeMM], debugDescription: "width and height must be positive and finite"))
        }
        ignore = try c.decodeIfPresent(Bool.self, forKey: .ignore)
        grab = try c.decodeIfPresent(Bool.self, forKey: .grab)
        passThrough = try c.decodeIfPresent(Bool.self, forKey: .passThrough)
        if let word = try c.decodeIfPresent(String.self, forKey: .passThroughEnding) {
            guard let e = MirrorEndingSetting(rawValue: word) else {
                throw DecodingError.dataCorrupted(.init(codingPath: c.codingPath + [CodingKeys.passThroughEnding], debugDescription: "expected \(MirrorEndingSetting.allowedText), got \(word)"))
            }
            passThroughEnding = e
        }
    }
}

/// A screen named by index (`0`) or name (`main`).
package enum ScreenReference: Hashable, Sendable, Codable {
    /// By position in `screens`.
    case index(Int)
    /// By `name`.
    case name(String)

    package init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if let i = try? c.decode(Int.self) { self = .index(i) } else { self = .name(try c.decode(String.self)) }
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .index(let i): try c.encode(i)
        case .name(let n): try c.encode(n)
        }
    }
}

/// The whole configuration file (`/etc/touchd/touchd.yaml`, `--config FILE`);
/// docs/configuration.md documents every key.
package struct TouchdConfiguration: Sendable {
    /// Screens; one 1920x1080 screen named `default` when the file has none.
    package var screens: [ScreenEntry]
    /// Device rules, in order.
    package var devices: [DeviceRule]
    /// The gesture part as the file gives it (surfaces, recognizers, replaceDefaults).
    package var gestureFile: GestureConfiguration
    /// libinput's quirks database (not from the file: the daemon reads the installed
    /// one, touchctl `--quirks DIR`); applied below the device rules (docs/udev.md).
    package var quirks = QuirksDatabase()
    /// The daemon's sections: `socket`, `access`, `scheduling`.
    package var daemon = DaemonFileSettings()
    /// The file the configuration was read from and its parsed text, to name
    /// the line of a key in errors found after reading (a user that does not exist).
    package var source: (file: String, root: YAMLNode)?

    /// An error about the key at `path` (`access.connect.users[1]`), with its line when the file has it.
    package func error(at path: String, _ message: String) -> ConfigurationError {
        guard let source else { return ConfigurationError(file: "", path: path, message) }
        return ConfigurationError(file: source.file, line: source.root.line(of: path), path: path, message)
    }

    /// The built-in configuration.
    package init() {
        screens = [ScreenEntry(name: "default", width: 1920, height: 1080)]
        devices = []
        gestureFile = GestureConfiguration()
    }

    /// Screens as TouchCore maps devices onto them.
    package var screenConfigurations: [ScreenConfiguration] {
        screens.map { ScreenConfiguration(name: $0.name, width: $0.viewWidth, height: $0.viewHeight, rotation: $0.rotation) }
    }

    /// The engine's configuration: the built-in one, extended or replaced by the file's.
    package var gestures: GestureConfiguration {
        let geometry = screens.map { s in
            ScreenGeometry(width: s.viewWidth, height: s.viewHeight, pixelsPerMillimetre: s.sizeMM.map { Double(s.width) / $0.width },
                           insets: s.insets)
        }
        var g = gestureFile
        g.screens = geometry
        return g.applied(to: GestureConfiguration.default(screens: geometry))
    }

    /// The gesture configuration for the devices in service: screens without a
    /// configured size take the size of their touchscreen
    /// (``withScreenSizes(from:)``), so that millimetre thresholds are the same
    /// live, in the daemon and in offline replay.
    package func gestures(for devices: [DeviceInfo]) -> GestureConfiguration {
        withScreenSizes(from: devices).gestures
    }

    /// This configuration with a physical size for every screen that has none
    /// configured: the size of the first touchscreen mapped to it (a
    /// touchscreen covers its screen), turned by the device's rotation.
    package func withScreenSizes(from devices: [DeviceInfo]) -> TouchdConfiguration {
        var c = self
        for i in c.screens.indices where c.screens[i].sizeMM == nil {
            guard let d = devices.first(where: { $0.mapping.screen == i && $0.classification.fingerType == .direct }) else { continue }
            let size = d.geometry.size
            switch d.mapping.rotation {
            case .none, .half: c.screens[i].sizeMM = size
            case .quarter, .threeQuarters: c.screens[i].sizeMM = SizeMM(width: size.height, height: size.width)
            }
        }
        return c
    }

    /// Reads and checks a configuration file.
    package static func load(path: String) throws(ConfigurationError) -> TouchdConfiguration {
        try parse(yaml: text(path: path), file: path)
    }

    /// Reads a configuration file and checks all of it (``check(yaml:file:)``).
    package static func check(path: String) -> Result<TouchdConfiguration, Errors> {
        do {
            return check(yaml: try text(path: path), file: path)
        } catch {
            return .failure(Errors(errors: [error]))
        }
    }

    static func text(path: String) throws(ConfigurationError) -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ConfigurationError(file: path, "cannot read the file")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw ConfigurationError(file: path, "not UTF-8 text")
        }
        return text
    }

    /// Parses and checks configuration text; `file` names it in errors. Throws
    /// the first error found, with the others in ``ConfigurationError/more``.
    package static func parse(yaml: String, file: String) throws(ConfigurationError) -> TouchdConfiguration {
        switch check(yaml: yaml, file: file) {
        case .success(let c): return c
        case .failure(let errors):
            var first = errors.errors[0]
            first.more = Array(errors.errors.dropFirst())
            throw first
        }
    }

    /// Every error of a configuration file, in the file's order (``check(yaml:file:)``).
    package struct Errors: Error, Sendable {
        /// The errors; never empty.
        package var errors: [ConfigurationError]
    }

    /// Reads configuration text and checks all of it: every section and every
    /// item of a list is read even when another fails, every key no section
    /// knows is reported with the nearest known one, and the screens device
    /// rules name must exist. The result is the configuration, or every error.
    package static func check(yaml: String, file: String) -> Result<TouchdConfiguration, Errors> {
        let root: YAMLNode
        do {
            root = try YAMLParser.parse(yaml) ?? YAMLNode(.mapping([]), line: 1, column: 1)
        } catch {
            return .failure(Errors(errors: [ConfigurationError(file: file, line: error.line, "not valid YAML: \(error)")]))
        }
        if root.isNull { return .success(TouchdConfiguration()) }
        var errors: [ConfigurationError] = []
        let decoded: ConfigurationFile
        let unread: [YAMLUnreadKey]
        do {
            (decoded, unread) = try YAMLDecoder().decodeStrictly(ConfigurationFile.self, from: root)
        } catch let e as DecodingError {
            return .failure(Errors(errors: [describe(e, file: file, root: root)]))
        } catch {
            return .failure(Errors(errors: [ConfigurationError(file: file, line: root.line, "\(error)")]))
        }
        errors += decoded.errors.map { describe($0, file: file, root: root) }
        for (key, e) in decoded.otherErrors {
            if let g = e as? GestureConfigurationError {
                errors.append(locate(g, file: file, root: root, merged: nil))
            } else {
                errors.append(ConfigurationError(file: file, line: root.line(of: key), path: key, "\(e)"))
            }
        }
        for k in unread {
            var message = "unknown key '\(k.key)'"
            if let suggestion = k.suggestion { message += "; did you mean '\(suggestion)'?" }
            if !k.known.isEmpty { message += " (known: \(k.known.joined(separator: ", ")))" }
            errors.append(ConfigurationError(file: file, line: k.line, path: k.path, message))
        }
        var c = TouchdConfiguration()
        c.source = (file, root)
        c.daemon = decoded.daemon
        if let screens = decoded.screens {
            if screens.isEmpty && decoded.errors.isEmpty {
                errors.append(ConfigurationError(file: file, line: root.line(of: "screens"), path: "screens", "needs at least one screen"))
            } else if !screens.isEmpty {
                c.screens = screens
            }
        }
        c.devices = decoded.devices
        for (i, rule) in c.devices.enumerated() {
            let path = "devices[\(i)].screen"
            switch rule.screen {
            case .index(let n)?:
                if n < 0 || n >= c.screens.count {
                    errors.append(ConfigurationError(file: file, line: root.line(of: path), path: path, "no screen \(n) (there are \(c.screens.count))"))
                }
            case .name(let n)?:
                if !c.screens.contains(where: { $0.name == n }) {
                    errors.append(ConfigurationError(file: file, line: root.line(of: path), path: path, "no screen named \"\(n)\""))
                }
            case nil: break
            }
        }
        c.gestureFile = decoded.gestures
        errors += repeatedEntries(in: decoded.gestures, file: file, root: root)
        if errors.isEmpty {
            let merged = c.gestures
            do {
                try merged.validate()
            } catch {
                errors.append(locate(error, file: file, root: root, merged: merged))
            }
        }
        errors.sort { ($0.line ?? 0) < ($1.line ?? 0) }
        return errors.isEmpty ? .success(c) : .failure(Errors(errors: errors))
    }

    /// Entries of the file that must be unique and are not: a surface `id`, a
    /// `systemGestures` screen, a name in `recognizers`. Applying the file to
    /// the built-in configuration replaces by these keys, so the later entry
    /// would silently win; each repeat is reported at its own key.
    static func repeatedEntries(in g: GestureConfiguration, file: String, root: YAMLNode) -> [ConfigurationError] {
        func repeats<Key: Hashable>(_ keys: [Key], _ path: (Int) -> String, _ what: (Key) -> String) -> [ConfigurationError] {
            var first: [Key: Int] = [:]
            var found: [ConfigurationError] = []
            for (i, key) in keys.enumerated() {
                if let j = first[key] {
                    let earlier = root.line(of: path(j)).map { " (line \($0))" } ?? ""
                    found.append(ConfigurationError(file: file, line: root.line(of: path(i)), path: path(i),
                                                    "\(what(key)) is already \(path(j))'s\(earlier)"))
                } else {
                    first[key] = i
                }
            }
            return found
        }
        return repeats(g.surfaces.map(\.id), { "surfaces[\($0)].id" }, { "id '\($0)'" })
            + repeats(g.systemGestures.map(\.screen), { "systemGestures[\($0)].screen" }, { "screen \($0)" })
            + repeats(g.recognizers.map(\.name), { "recognizers[\($0)].name" }, { "name '\($0)'" })
    }

    /// A fault found by ``GestureConfiguration/validate()`` placed at its key in
    /// the file: `surfaces[2].recognizers[0].requiresFailureOf` and that key's
    /// line. `merged` is the configuration validated (the file applied to the
    /// built-in one), whose recognizer indices a fault on a built-in surface
    /// gives; such a fault is placed at the file's top-level `recognizers`
    /// entry of the same name.
    static func locate(_ e: GestureConfigurationError, file: String, root: YAMLNode, merged: GestureConfiguration?) -> ConfigurationError {
        func at(_ path: String, _ message: String) -> ConfigurationError {
            ConfigurationError(file: file, line: root.line(of: path), path: path, message)
        }
        guard let id = e.surface else { return at(e.field, e.message) }
        if let k = root["surfaces"]?.sequence?.firstIndex(where: { $0["id"]?.scalar == id.rawValue }) {
            return at("surfaces[\(k)].\(e.field)", e.message)
        }
        // A built-in surface: the fault is in one of its recognizers, which the
        // file's top-level `recognizers` added or replaced.
        if e.field.hasPrefix("recognizers["), let close = e.field.firstIndex(of: "]"),
           let i = Int(e.field[e.field.index(e.field.startIndex, offsetBy: 12)..<close]),
           let recognizers = merged?.surfaces.first(where: { $0.id == id })?.recognizers, recognizers.indices.contains(i),
           let j = root["recognizers"]?.sequence?.firstIndex(where: { $0["name"]?.scalar == recognizers[i].name }) {
            return at("recognizers[\(j)]" + e.field[e.field.index(after: close)...], "on surface \(id): \(e.message)")
        }
        return at("recognizers", e.description)
    }

    static func describe(_ e: DecodingError, file: String, root: YAMLNode) -> ConfigurationError {
        var error = describe(e, file: file)
        let context: DecodingError.Context? = switch e {
        case .typeMismatch(_, let c), .valueNotFound(_, let c), .keyNotFound(_, let c), .dataCorrupted(let c): c
        @unknown default: nil
        }
        if let context {
            var path = context.codingPath
            if case .keyNotFound(let key, _) = e { path.append(key) }
            error.line = error.path.isEmpty ? root.deepest(along: path).line : root.line(of: error.path) ?? root.deepest(along: path).line
        }
        return error
    }

    static func describe(_ e: DecodingError, file: String) -> ConfigurationError {
        func path(_ keys: [any CodingKey]) -> String {
            var s = ""
            for k in keys {
                if let i = k.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + k.stringValue }
            }
            return s
        }
        switch e {
        case .typeMismatch(_, let ctx):
            // YAMLDecoder's text says what it expected, what it found and where.
            return ConfigurationError(file: file, path: path(ctx.codingPath), ctx.debugDescription)
        case .valueNotFound(let type, let ctx):
            return ConfigurationError(file: file, path: path(ctx.codingPath), "missing \(Self.typeName(type))")
        case .keyNotFound(let key, let ctx):
            return ConfigurationError(file: file, path: path(ctx.codingPath + [key]), "required key is missing")
        case .dataCorrupted(let ctx):
            return ConfigurationError(file: file, path: path(ctx.codingPath), ctx.debugDescription)
        @unknown default:
            return ConfigurationError(file: file, "\(e)")
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is UInt16.Type, is Int32.Type: return "an integer"
        case is Double.Type: return "a number"
        case is String.Type: return "a string"
        case is Bool.Type: return "true or false"
        default: return String(describing: type)
        }
    }
}
