// SPDX-License-Identifier: MIT
import JSON
import Wire

/// A binding that fired: what to run and the environment it gets.
package struct ActionFiring: Hashable, Sendable {
    /// Index of the binding in the configuration.
    package var binding: Int
    /// What to run.
    package var command: ActionCommand
    /// Variables added to the agent's environment (`TOUCHD_*`, docs/actions.md).
    package var environment: [String: String]

    /// Creates a firing.
    package init(binding: Int, command: ActionCommand, environment: [String: String]) {
        self.binding = binding; self.command = command; self.environment = environment
    }
}

/// Decides which bindings an event fires (pure: events in, firings out). It keeps the screens
/// and devices of `hello` and `device` messages to turn pixels into millimetres, and, for
/// bindings with `every`, the travel already paid out by each gesture in progress.
package struct ActionMatcher: Sendable {
    /// The bindings in force; replacing them forgets the travel of gestures in progress.
    package var configuration: ActionsConfiguration {
        didSet { anchors.removeAll() }
    }

    /// Pixels per millimetre by device id.
    private var densities: [Int64: Double] = [:]
    /// Per (binding, gesture): the translation in mm up to which steps were fired.
    private var anchors: [AnchorKey: (x: Double, y: Double)] = [:]
    /// At most this many steps fire for one event (a jump after a stall must not start 100 commands).
    package static let maxStepsPerEvent = 10

    private struct AnchorKey: Hashable, Sendable {
        var binding: Int
        var gesture: String
    }

    /// A matcher for a configuration.
    package init(configuration: ActionsConfiguration) {
        self.configuration = configuration
    }

    /// Takes the screens and devices of a `hello` (or a `device` message).
    package mutating func learn(_ message: JSONValue) {
        switch message["type"]?.stringValue {
        case "hello":
            densities.removeAll()
            let screens = message["screens"]?.arrayValue ?? []
            for d in message["devices"]?.arrayValue ?? [] { learnDevice(d, screens: screens) }
            lastScreens = screens
        case "device":
            guard let d = message["device"], let id = d["id"]?.int64Value else { return }
            if message["change"]?.stringValue == "removed" { densities[id] = nil } else { learnDevice(d, screens: lastScreens) }
        default:
            return
        }
    }

    private var lastScreens: [JSONValue] = []

    private mutating func learnDevice(_ d: JSONValue, screens: [JSONValue]) {
        guard let id = d["id"]?.int64Value else { return }
        let screenIndex = d["screen"]?.int64Value ?? 0
        let screen = screens.first { $0["id"]?.int64Value == screenIndex }
        guard d["touchType"]?.stringValue == "direct",
              let sw = screen?["width"]?.doubleValue, let sh = screen?["height"]?.doubleValue,
              let dw = d["size"]?["width"]?.doubleValue, let dh = d["size"]?["height"]?.doubleValue,
              sw > 0, sh > 0, dw > 0, dh > 0 else {
            densities[id] = nil
            return
        }
        // A touchscreen covers its screen; the ratio of areas does not depend on its rotation.
        densities[id] = (sw * sh / (dw * dh)).squareRoot()
    }

    /// Pixels per millimetre for a device's gestures: its screen's over its size (touchscreens),
    /// otherwise the fallback density the server uses for them (``Wire/HelloScreen.fallbackPixelsPerMillimetre``).
    package func pixelsPerMillimetre(device: Int64?) -> Double {
        device.flatMap { densities[$0] } ?? HelloScreen.fallbackPixelsPerMillimetre
    }

    /// The firings of one `gesture` message, in binding order; `line` is the message as touchd
    /// sent it (`TOUCHD_JSON`), when known.
    package mutating func firings(for event: JSONValue, line: String? = nil) -> [ActionFiring] {
        guard event["type"]?.stringValue == "gesture", let state = event["state"]?.stringValue else { return [] }
        let recognizer = event["recognizer"]?.stringValue
        let purpose = event["purpose"]?.stringValue
        var out: [ActionFiring] = []
        for (i, b) in configuration.bindings.enumerated() where b.on == recognizer || (purpose != nil && b.on == purpose) {
            if let n = b.touches, event["touches"]?.int64Value != Int64(n) { continue }
            if let e = b.edge, event["edge"]?.stringValue != e { continue }
            if b.every != nil {
                out += steps(of: i, b, event: event, line: line, state: state)
                continue
            }
            guard Self.fires(b.when, state: state) else { continue }
            if !b.directions.isEmpty {
                guard let d = Self.direction(of: event), b.directions.contains(d) else { continue }
            }
            out.append(ActionFiring(binding: i, command: b.command, environment: environment(event, line: line, binding: b)))
        }
        return out
    }

    static func fires(_ moment: ActionMoment, state: String) -> Bool {
        switch moment {
        case .start: return state == "began" || state == "recognized"
        case .end: return state == "ended" || state == "recognized"
        case .began, .recognized, .changed, .ended, .cancelled: return moment.rawValue == state
        }
    }

    /// The gesture's direction: its `direction` (swipes), else where its translation mostly goes.
    static func direction(of event: JSONValue) -> String? {
        if let d = event["direction"]?.stringValue { return d }
        if let e = event["edge"]?.stringValue {
            // An edge gesture goes inwards.
            switch e { case "bottom": return "up"; case "top": return "down"; case "left": return "right"; default: return "left" }
        }
        guard let x = event["translation"]?["x"]?.doubleValue, let y = event["translation"]?["y"]?.doubleValue, x != 0 || y != 0 else { return nil }
        return abs(x) >= abs(y) ? (x > 0 ? "right" : "left") : (y > 0 ? "down" : "up")
    }

    /// `every`: one firing per whole step of travel since the last one, along the main axis.
    private mutating func steps(of i: Int, _ b: ActionBinding, event: JSONValue, line: String?, state: String) -> [ActionFiring] {
        let key = AnchorKey(binding: i, gesture: [event["owner"]?.stringValue ?? "", event["surface"]?.stringValue ?? "",
                                                  event["recognizer"]?.stringValue ?? ""].joined(separator: "\u{1}"))
        guard let tx = event["translation"]?["x"]?.doubleValue, let ty = event["translation"]?["y"]?.doubleValue else {
            if state != "began" && state != "changed" { anchors[key] = nil }
            return []
        }
        let ppm = pixelsPerMillimetre(device: event["device"]?.int64Value)
        let mm = (x: tx / ppm, y: ty / ppm)
        switch state {
        case "began":
            anchors[key] = mm
            return []
        case "changed":
            break
        default:
            anchors[key] = nil
            return []
        }
        guard let every = b.every else { return [] }
        var anchor = anchors[key] ?? (x: 0, y: 0)
        let dx = mm.x - anchor.x, dy = mm.y - anchor.y
        let horizontal = abs(dx) >= abs(dy)
        let travel = horizontal ? dx : dy
        let count = min(Int((abs(travel) / every).rounded(.down)), Self.maxStepsPerEvent)
        guard count > 0 else { return [] }
        let paid = Double(count) * every * (travel < 0 ? -1 : 1)
        if horizontal { anchor.x += paid; anchor.y = mm.y } else { anchor.y += paid; anchor.x = mm.x }
        anchors[key] = anchor
        let stepDirection = horizontal ? (travel > 0 ? "right" : "left") : (travel > 0 ? "down" : "up")
        guard b.directions.isEmpty || b.directions.contains(stepDirection) else { return [] }
        var env = environment(event, line: line, binding: b)
        env["TOUCHD_STEP_DIRECTION"] = stepDirection
        env["TOUCHD_STEP_MM"] = Self.number(every)
        return Array(repeating: ActionFiring(binding: i, command: b.command, environment: env), count: count)
    }

    /// `TOUCHD_*` variables: every field of the event (points as `_X` and `_Y`), the travel in
    /// millimetres, the binding's name and the event's JSON line.
    func environment(_ event: JSONValue, line: String?, binding: ActionBinding) -> [String: String] {
        var env: [String: String] = ["TOUCHD_ON": binding.on, "TOUCHD_JSON": line ?? event.jsonString]
        for (key, value) in event.objectValue ?? [:] {
            let name = "TOUCHD_" + Self.snake(key)
            switch value {
            case .object(let members):
                for (k, v) in members { env[name + "_" + Self.snake(k)] = Self.text(v) }
            case .array, .null:
                continue
            default:
                env[name] = Self.text(value)
            }
        }
        if let tx = event["translation"]?["x"]?.doubleValue, let ty = event["translation"]?["y"]?.doubleValue {
            let ppm = pixelsPerMillimetre(device: event["device"]?.int64Value)
            env["TOUCHD_TRANSLATION_MM_X"] = Self.number(tx / ppm)
            env["TOUCHD_TRANSLATION_MM_Y"] = Self.number(ty / ppm)
        }
        if env["TOUCHD_SYSTEM"] == nil { env["TOUCHD_SYSTEM"] = "false" }
        return env
    }

    /// A number with at most two decimals, without a trailing `.0` (`20`, `-1.25`).
    static func number(_ v: Double) -> String {
        let r = (v * 100).rounded() / 100
        if r == r.rounded(), abs(r) < 1e15 { return String(Int64(r)) }
        return String(r)
    }

    static func text(_ v: JSONValue) -> String {
        if case .string(let s) = v { return s }
        return v.jsonString
    }

    /// `touchType` -> `TOUCH_TYPE`.
    static func snake(_ key: String) -> String {
        var out = ""
        for ch in key {
            if ch.isUppercase && !out.isEmpty { out.append("_") }
            out += ch.uppercased()
        }
        return out
    }
}
