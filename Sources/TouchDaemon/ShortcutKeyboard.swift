// SPDX-License-Identifier: MIT
import Evdev
import Gestures
import Logging
import Session
import TouchCore

/// Types the keys the daemon's configuration binds to system gestures on touchd's own uinput
/// keyboard (semantics §10; docs/shortcuts.md). No client request reaches it: it only reads
/// the engine's system gesture events and the configuration's bindings.
final class ShortcutKeyboard {
    /// The bindings in force.
    private(set) var bindings: ShortcutKeyBindings
    /// The keyboard; nil when no key is bound or it could not be created.
    private var keyboard: VirtualKeyboard?
    /// A write error is logged once, not per gesture.
    private var reportedWriteError = false
    private let logger: Logger
    private let makeKeyboard: () throws(EvdevError) -> VirtualKeyboard

    /// Creates the keyboard when `bindings` bind a key; a failure is logged and the bindings stay inactive.
    init(bindings: ShortcutKeyBindings, logger: Logger,
         makeKeyboard: @escaping () throws(EvdevError) -> VirtualKeyboard = { () throws(EvdevError) in try VirtualKeyboard() }) {
        self.bindings = bindings
        self.logger = logger
        self.makeKeyboard = makeKeyboard
        openIfNeeded()
    }

    /// Whether keys can be typed.
    var isReady: Bool { keyboard != nil }

    /// New bindings (a reload); the keyboard is created when keys are bound for the first time.
    func update(_ new: ShortcutKeyBindings) {
        bindings = new
        openIfNeeded()
    }

    /// Types the keys bound to a system gesture event, if any.
    func handle(_ event: GestureEvent) {
        guard let keys = bindings.keys(for: event), let keyboard else { return }
        do {
            try keyboard.type(keys)
            logger.debug("shortcut keys typed", metadata: ["recognizer": "\(event.recognizer)", "keys": "\(keys.map(\.name).joined(separator: "+"))"])
        } catch {
            guard !reportedWriteError else { return }
            reportedWriteError = true
            logger.error("cannot type the keys of \(event.recognizer) on the shortcut keyboard: \(error.description)")
        }
    }

    /// Destroys the keyboard.
    func close() {
        keyboard?.close()
        keyboard = nil
    }

    private func openIfNeeded() {
        guard keyboard == nil, !bindings.isEmpty else { return }
        do {
            let k = try makeKeyboard()
            keyboard = k
            logger.info("shortcut keyboard created", metadata: ["device": "\(k.device.devnode ?? "?")", "bindings": "\(bindings.byRecognizer.keys.sorted().joined(separator: ","))"])
        } catch {
            logger.error("shortcut keys are inactive: cannot create the uinput keyboard: \(error.description) (touchd needs write access to /dev/uinput, see docs/shortcuts.md)")
        }
    }
}
