// SPDX-License-Identifier: MIT
import EngineMessages
import Gestures
import TouchCore
import Wire

/// A screen geometry change that cannot be made: names the entry at fault.
package struct ScreenChangeError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Where in the change (`screens[1].width`).
    package var path: String
    /// What is wrong.
    package var message: String
    /// Creates an error.
    package init(path: String, _ message: String) {
        self.path = path
        self.message = message
    }
    package var description: String { "\(path): \(message)" }
}

/// The screen geometry set at runtime (semantics §11), laid over the
/// configuration file's: per screen, the keys a change set; screens added or
/// removed; devices mapped to a screen.
///
/// Which wins when the file is reloaded: the latest change of each value. A
/// reload changes the values its file changed (compared with the file it
/// replaces), so those drop out of the overrides; values the file left as
/// they were keep their runtime setting (a rotation set by a rotation helper
/// survives a reload that only changed device rules or gestures).
package struct ScreenOverrides: Hashable, Sendable {
    /// What a change set for one screen.
    package struct Screen: Hashable, Sendable {
        /// Panel width in pixels.
        package var width: Int?
        /// Panel height in pixels.
        package var height: Int?
        /// Panel size in millimetres.
        package var sizeMM: SizeMM?
        /// The picture's clockwise turn on the panel.
        package var rotation: Rotation?
        /// Pixels the system keeps along each edge.
        package var insets: ScreenInsets?
        /// Taken away.
        package var removed = false
    }

    /// Runtime settings by screen name.
    package private(set) var screens: [String: Screen] = [:]
    /// Screens added at runtime (not in the file), in the order they came.
    package private(set) var added: [String] = []
    /// A device mapping set at runtime.
    package struct DeviceScreen: Hashable, Sendable {
        /// Which devices (by id or name pattern).
        package var selector: DeviceScreenAssignment
        /// The screen's name.
        package var screen: String
    }
    /// Devices mapped at runtime, oldest first (a later one wins).
    package private(set) var devices: [DeviceScreen] = []

    /// None.
    package init() {}

    /// Whether nothing is set.
    package var isEmpty: Bool { screens.isEmpty && added.isEmpty && devices.isEmpty }

    /// `file`'s screens with these settings: the file's in order (less the
    /// removed ones), then those added at runtime.
    package func screens(over file: [ScreenEntry]) -> [ScreenEntry] {
        var out: [ScreenEntry] = []
        for var s in file {
            if let o = screens[s.name] {
                if o.removed { continue }
                Self.apply(o, to: &s)
            }
            out.append(s)
        }
        for name in added where !file.contains(where: { $0.name == name }) {
            guard let o = screens[name], !o.removed, let w = o.width, let h = o.height else { continue }
            var s = ScreenEntry(name: name, width: w, height: h)
            Self.apply(o, to: &s)
            out.append(s)
        }
        return out
    }

    static func apply(_ o: Screen, to s: inout ScreenEntry) {
        if let v = o.width { s.width = v }
        if let v = o.height { s.height = v }
        if let v = o.sizeMM { s.sizeMM = v }
        if let v = o.rotation { s.rotation = v }
        if let v = o.insets { s.insets = v }
    }

    /// Takes in a change, checked against the screens in force (`current`, from `file`).
    mutating func apply(_ change: ScreenChange, file: [ScreenEntry]) throws(ScreenChangeError) {
        for (i, u) in change.screens.enumerated() {
            let path = "screens[\(i)]"
            let exists = screens(over: file).contains { $0.name == u.name }
            if u.remove {
                guard exists else { throw ScreenChangeError(path: path + ".name", "no screen named \"\(u.name)\"") }
                if file.contains(where: { $0.name == u.name }) {
                    screens[u.name] = Screen(removed: true)
                } else {
                    screens[u.name] = nil
                    added.removeAll { $0 == u.name }
                }
                continue
            }
            var o = screens[u.name] ?? Screen()
            if !exists {
                guard u.width != nil && u.height != nil else {
                    throw ScreenChangeError(path: path, "a new screen needs width and height")
                }
                if o.removed {
                    // A file screen removed earlier comes back with what this change gives.
                    o = Screen()
                } else if !added.contains(u.name) {
                    added.append(u.name)
                }
            }
            if let v = u.width { o.width = v }
            if let v = u.height { o.height = v }
            if let v = u.sizeMM { o.sizeMM = SizeMM(v) }
            if let v = u.rotation { o.rotation = Rotation(v) }
            if let v = u.insets { o.insets = ScreenInsets(v) }
            screens[u.name] = o
        }
        let now = screens(over: file)
        guard !now.isEmpty else { throw ScreenChangeError(path: "screens", "cannot remove the last screen") }
        for (i, a) in change.devices.enumerated() {
            let name: String
            switch a.screen {
            case .index(let n):
                guard now.indices.contains(n) else {
                    throw ScreenChangeError(path: "devices[\(i)].screen", "no screen \(n) (there are \(now.count))")
                }
                name = now[n].name
            case .name(let n):
                guard now.contains(where: { $0.name == n }) else {
                    throw ScreenChangeError(path: "devices[\(i)].screen", "no screen named \"\(n)\"")
                }
                name = n
            }
            devices.removeAll { $0.selector.device == a.device && $0.selector.name == a.name }
            devices.append(DeviceScreen(selector: a, screen: name))
        }
    }

    /// The screen a runtime mapping gives a device, by name; nil when none matches.
    package func screen(for id: DeviceID, name deviceName: String) -> String? {
        for d in devices.reversed() {
            if let n = d.selector.device, n != id.rawValue { continue }
            if let pattern = d.selector.name, !Glob.matches(pattern, deviceName) { continue }
            return d.screen
        }
        return nil
    }

    /// Forgets what a reload from `old` to `new` changes (the latest change of
    /// each value wins). `deviceScreens` gives, for each known device, the
    /// screen name the old and the new file decide: a runtime mapping of a
    /// device whose file decision changed is dropped.
    mutating func reload(from old: [ScreenEntry], to new: [ScreenEntry],
                         deviceScreens: [(id: DeviceID, name: String, old: String?, new: String?)]) {
        for (name, var o) in screens {
            let before = old.first { $0.name == name }, after = new.first { $0.name == name }
            switch (before, after) {
            case (nil, nil):
                continue
            case (nil, _?), (_?, nil):
                // The file now defines (or no longer has) the screen: its word is the latest.
                screens[name] = nil
                added.removeAll { $0 == name }
            case let (b?, a?):
                if b.width != a.width { o.width = nil }
                if b.height != a.height { o.height = nil }
                if b.sizeMM != a.sizeMM { o.sizeMM = nil }
                if b.rotation != a.rotation { o.rotation = nil }
                if b.insets != a.insets { o.insets = nil }
                screens[name] = o
            }
        }
        for d in deviceScreens where d.old != d.new {
            devices.removeAll { entry in
                if let n = entry.selector.device, n != d.id.rawValue { return false }
                if let p = entry.selector.name, !Glob.matches(p, d.name) { return false }
                return true
            }
        }
    }
}
