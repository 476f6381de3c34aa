// SPDX-License-Identifier: MIT
import TouchCore
import YAMLReader

/// A problem in an actions file, naming the file, the line and the key.
package struct ActionsConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file.
    package var file: String
    /// The line, from 1 (0 when the problem is not at a line: an unreadable file).
    package var line: Int
    /// The key at fault (`bindings[1].run`); empty for the whole file.
    package var path: String
    /// What is wrong.
    package var message: String

    /// Creates an error.
    package init(file: String, line: Int, path: String, _ message: String) {
        self.file = file; self.line = line; self.path = path; self.message = message
    }

    /// `actions.yaml:4: bindings[1].run: expected a list of strings, found "x"`.
    package var description: String {
        (line > 0 ? "\(file):\(line): " : "\(file): ") + (path.isEmpty ? "" : "\(path): ") + message
    }
}

/// When a binding fires, relative to the gesture's states.
package enum ActionMoment: String, Hashable, Sendable, CaseIterable {
    /// When the gesture begins (continuous kinds) or is recognized (tap, swipe): the default.
    case start
    /// State `began` only.
    case began
    /// State `recognized` only (tap, swipe).
    case recognized
    /// Every `changed` (with `every`: every so many millimetres of travel instead).
    case changed
    /// When the gesture ends (continuous kinds) or is recognized (tap, swipe): lisgd's "on release".
    case end
    /// State `ended` only.
    case ended
    /// State `cancelled` (the gesture was taken or the touches cancelled).
    case cancelled
}

/// What a binding runs.
package enum ActionCommand: Hashable, Sendable {
    /// A program and its arguments, run without a shell (the program is looked up in `PATH` when it has no `/`).
    case argv([String])
    /// A command line for `/bin/sh -c`, when the binding asks for a shell.
    case shell(String)

    /// The argv to execute.
    package var arguments: [String] {
        switch self {
        case .argv(let a): return a
        case .shell(let line): return ["/bin/sh", "-c", line]
        }
    }
}

/// One binding of an actions file: which events, and what to run.
package struct ActionBinding: Hashable, Sendable {
    /// A gesture's name: a system gesture's recognizer (`app-switcher`, `edge-bottom`), an edge's
    /// purpose (`home`), or a recognizer of the built-in surfaces (`swipe`, `tap`).
    package var on: String
    /// When it fires.
    package var when: ActionMoment
    /// Repeat every so many millimetres of travel while the gesture changes (nil: no repetition).
    package var every: Double?
    /// Only when the gesture's direction (or, with `every`, the step's) is one of these.
    package var directions: Set<String>
    /// Only with this many touches.
    package var touches: Int?
    /// Only from this edge (edge swipes and edge pans).
    package var edge: String?
    /// What to run.
    package var command: ActionCommand
    /// The line of the binding in its file (for logs).
    package var line: Int
    /// Whether it runs while the session is locked (semantics §13; the gesture must also be a
    /// shortcut or edge the administrator marked `whenLocked`). Off by default.
    package var whenLocked: Bool = false
    /// Which focused apps it runs over (`apps`, `notApps`, `fullScreen`), as the agent follows the
    /// focus itself (`touchctl actions --follow-focus`); the same rule as touchd's shortcuts,
    /// unknown focus included (docs/configuration.md, "Per-app conditions").
    package var condition = AppCondition()

    /// Creates a binding.
    package init(on: String, when: ActionMoment = .start, every: Double? = nil, directions: Set<String> = [],
                touches: Int? = nil, edge: String? = nil, command: ActionCommand, line: Int = 0) {
        self.on = on; self.when = when; self.every = every; self.directions = directions
        self.touches = touches; self.edge = edge; self.command = command; self.line = line
    }
}

/// An actions file (`~/.config/touchd/actions.yaml`, docs/actions.md).
///
/// ```yaml
/// maxConcurrent: 4
/// timeout: 30
/// bindings:
///   - {on: app-switcher, run: [/usr/bin/touch, /tmp/switched]}
///   - {on: volume, every: 5, direction: up, shell: "pactl set-sink-volume @DEFAULT_SINK@ +5%"}
/// ```
package struct ActionsConfiguration: Hashable, Sendable {
    /// The bindings, in file order (every matching binding fires).
    package var bindings: [ActionBinding]
    /// Commands running at once; more wait in a queue.
    package var maxConcurrent: Int
    /// Commands waiting at most; beyond, new ones are dropped (and logged).
    package var maxQueued: Int
    /// Seconds a command may run before it is stopped (SIGTERM, then SIGKILL 2 s later); 0: never.
    package var timeout: Double

    /// Defaults: no bindings, 4 at once, 64 waiting, 30 s.
    package init(bindings: [ActionBinding] = [], maxConcurrent: Int = 4, maxQueued: Int = 64, timeout: Double = 30) {
        self.bindings = bindings; self.maxConcurrent = maxConcurrent; self.maxQueued = maxQueued; self.timeout = timeout
    }

    static let topKeys = ["bindings", "maxConcurrent", "maxQueued", "timeout"]
    static let bindingKeys = ["on", "when", "every", "direction", "touches", "edge", "run", "shell", "whenLocked", "apps", "notApps", "fullScreen"]
    static let directionNames: Set<String> = ["up", "down", "left", "right"]
    static let edgeNames: Set<String> = ["top", "bottom", "left", "right"]

    /// Parses an actions file's text; `file` names it in errors. It walks the YAML nodes rather
    /// than decoding: every error, a bad value's as much as a missing key's, then carries its line.
    package static func parse(yaml: String, file: String) throws(ActionsConfigurationError) -> ActionsConfiguration {
        let root: YAMLNode?
        do {
            root = try YAMLParser.parse(yaml)
        } catch {
            throw ActionsConfigurationError(file: file, line: error.line, path: "", "not valid YAML: \(error.message) (column \(error.column))")
        }
        var c = ActionsConfiguration()
        guard let root, !root.isNull else { return c }
        guard let pairs = root.mapping else {
            throw ActionsConfigurationError(file: file, line: root.line, path: "", "expected a mapping with `bindings`, found \(root.kindDescription)")
        }
        func fail(_ node: YAMLNode, _ path: String, _ message: String) -> ActionsConfigurationError {
            ActionsConfigurationError(file: file, line: node.line, path: path, message)
        }
        func number(_ node: YAMLNode, _ path: String) throws(ActionsConfigurationError) -> Double {
            guard case .scalar(let s, .plain) = node.content, let v = Double(s), v.isFinite else {
                throw fail(node, path, "expected a number, found \(node.kindDescription)")
            }
            return v
        }
        func integer(_ node: YAMLNode, _ path: String, min: Int) throws(ActionsConfigurationError) -> Int {
            guard case .scalar(let s, .plain) = node.content, let v = Int(s) else {
                throw fail(node, path, "expected an integer, found \(node.kindDescription)")
            }
            guard v >= min else { throw fail(node, path, "must be at least \(min)") }
            return v
        }
        func text(_ node: YAMLNode, _ path: String) throws(ActionsConfigurationError) -> String {
            guard let s = node.scalar, !node.isNull else { throw fail(node, path, "expected text, found \(node.kindDescription)") }
            guard !s.isEmpty else { throw fail(node, path, "must not be empty") }
            return s
        }
        for pair in pairs {
            let key = pair.key.scalar ?? ""
            switch key {
            case "bindings":
                guard let items = pair.value.sequence else {
                    if pair.value.isNull { continue }
                    throw fail(pair.value, "bindings", "expected a list of bindings, found \(pair.value.kindDescription)")
                }
                for (i, item) in items.enumerated() {
                    c.bindings.append(try binding(item, path: "bindings[\(i)]", fail: fail, text: text, number: number, integer: integer))
                }
            case "maxConcurrent":
                c.maxConcurrent = try integer(pair.value, key, min: 1)
                guard c.maxConcurrent <= 64 else { throw fail(pair.value, key, "must be at most 64") }
            case "maxQueued":
                c.maxQueued = try integer(pair.value, key, min: 0)
                guard c.maxQueued <= 4096 else { throw fail(pair.value, key, "must be at most 4096") }
            case "timeout":
                c.timeout = try number(pair.value, key)
                guard c.timeout >= 0 else { throw fail(pair.value, key, "must not be negative") }
            default:
                throw fail(pair.key, key, "unknown key (known: \(topKeys.joined(separator: ", ")))")
            }
        }
        return c
    }

    // swiftlint:disable:next function_parameter_count
    private static func binding(
        _ node: YAMLNode, path: String,
        fail: (YAMLNode, String, String) -> ActionsConfigurationError,
        text: (YAMLNode, String) throws(ActionsConfigurationError) -> String,
        number: (YAMLNode, String) throws(ActionsConfigurationError) -> Double,
        integer: (YAMLNode, String, Int) throws(ActionsConfigurationError) -> Int
    ) throws(ActionsConfigurationError) -> ActionBinding {
        guard let pairs = node.mapping else {
            throw fail(node, path, "expected a mapping with `on` and `run` or `shell`, found \(node.kindDescription)")
        }
        var on: String?
        var when: ActionMoment?
        var every: Double?
        var directions = Set<String>()
        var touches: Int?
        var edge: String?
        var command: ActionCommand?
        var whenLocked = false
        var condition = AppCondition()
        for pair in pairs {
            let key = pair.key.scalar ?? ""
            let at = "\(path).\(key)"
            let v = pair.value
            switch key {
            case "on":
                let name = try text(v, at)
                // touchd's limit for names in a subscription filter (docs/protocol.md, "Limits").
                guard name.utf8.count <= 256 else { throw fail(v, at, "longer than 256 bytes: no gesture has such a name") }
                on = name
            case "when":
                let word = try text(v, at)
                guard let m = ActionMoment(rawValue: word) else {
                    throw fail(v, at, "'\(word)' is not one of \(ActionMoment.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                when = m
            case "every":
                let mm = try number(v, at)
                guard mm > 0 else { throw fail(v, at, "must be positive (millimetres of travel)") }
                every = mm
            case "direction":
                let words: [YAMLNode] = v.sequence ?? [v]
                for w in words {
                    let d = try text(w, at)
                    guard directionNames.contains(d) else { throw fail(w, at, "'\(d)' is not one of up, down, left, right") }
                    directions.insert(d)
                }
            case "touches":
                touches = try integer(v, at, 1)
            case "edge":
                let e = try text(v, at)
                guard edgeNames.contains(e) else { throw fail(v, at, "'\(e)' is not one of top, bottom, left, right") }
                edge = e
            case "run":
                guard command == nil else { throw fail(pair.key, at, "give either `run` or `shell`, not both") }
                guard let items = v.sequence else {
                    throw fail(v, at, "expected a list of strings (the program and its arguments; `shell:` takes a command line), found \(v.kindDescription)")
                }
                guard !items.isEmpty else { throw fail(v, at, "must name a program") }
                var argv: [String] = []
                for (j, item) in items.enumerated() {
                    guard let s = item.scalar, !item.isNull else { throw fail(item, "\(at)[\(j)]", "expected text, found \(item.kindDescription)") }
                    guard !s.utf8.contains(0) else { throw fail(item, "\(at)[\(j)]", "must not contain a NUL byte") }
                    argv.append(s)
                }
                guard !argv[0].isEmpty else { throw fail(items[0], "\(at)[0]", "must name a program") }
                command = .argv(argv)
            case "whenLocked":
                switch v.scalar {
                case "true"?: whenLocked = true
                case "false"?: whenLocked = false
                default: throw fail(v, at, "expected true or false, found \(v.kindDescription)")
                }
            case "apps", "notApps":
                let items: [YAMLNode] = v.sequence ?? [v]
                var globs: [String] = []
                for (j, item) in items.enumerated() {
                    guard let g = item.scalar, !item.isNull else { throw fail(item, "\(at)[\(j)]", "expected a glob on app ids, found \(item.kindDescription)") }
                    if let problem = AppCondition.globProblem(g) { throw fail(item, at, "'\(g)' is not a glob on app ids: \(problem)") }
                    globs.append(g)
                }
                if key == "apps" { condition.apps = globs } else { condition.notApps = globs }
            case "fullScreen":
                switch v.scalar {
                case "true"?: condition.fullScreen = true
                case "false"?: condition.fullScreen = false
                default: throw fail(v, at, "expected true or false, found \(v.kindDescription)")
                }
            case "shell":
                guard command == nil else { throw fail(pair.key, at, "give either `run` or `shell`, not both") }
                let line = try text(v, at)
                guard !line.utf8.contains(0) else { throw fail(v, at, "must not contain a NUL byte") }
                command = .shell(line)
            default:
                throw fail(pair.key, at, "unknown key (known: \(bindingKeys.joined(separator: ", ")))")
            }
        }
        guard let on else { throw fail(node, "\(path).on", "required key is missing (the gesture's name)") }
        guard let command else { throw fail(node, "\(path).run", "required key is missing (`run: [program, args...]` or `shell: \"command line\"`)") }
        if every != nil, let w = when, w != .changed {
            throw fail(node, "\(path).every", "repeats while the gesture changes: leave `when` out or set it to `changed`")
        }
        var binding = ActionBinding(on: on, when: every != nil ? .changed : (when ?? .start), every: every, directions: directions,
                                    touches: touches, edge: edge, command: command, line: node.line)
        binding.whenLocked = whenLocked
        binding.condition = condition
        return binding
    }
}
