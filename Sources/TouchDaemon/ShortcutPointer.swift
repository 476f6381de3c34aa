// SPDX-License-Identifier: MIT
import Evdev
import Gestures
import Logging
import Session
import TouchCore
import Wire

/// Clicks what the daemon's configuration binds to shortcuts (`click`) on touchd's own uinput
/// pointers, one per screen a shortcut clicks on, at the gesture's location (docs/shortcuts.md,
/// "Secondary click"). Like the keyboard, no client request reaches it. The shortcut claimed the
/// touches when it began, so the app beneath gets the click and not the long press.
final class ShortcutPointer {
    private(set) var bindings: ShortcutKeyBindings
    /// The screens as the user sees them (turned), to place the click.
    var screens: [HelloScreen]
    private var pointers: [Int: VirtualPointer] = [:]
    private var failedScreens: Set<Int> = []
    private var reportedWriteError = false
    private let logger: Logger

    init(bindings: ShortcutKeyBindings, screens: [HelloScreen], logger: Logger) {
        self.bindings = bindings
        self.screens = screens
        self.logger = logger
        openIfNeeded()
    }

    /// New bindings or screens (a reload): pointers are created for screens that need one.
    func update(_ new: ShortcutKeyBindings, screens: [HelloScreen]) {
        bindings = new
        self.screens = screens
        failedScreens = []
        openIfNeeded()
    }

    /// Whether the configuration binds a click to this system gesture event.
    func clicks(for event: GestureEvent) -> Bool { bindings.click(for: event) != nil }

    /// Clicks the button bound to a system gesture event, if any.
    func handle(_ event: GestureEvent) {
        guard let click = bindings.click(for: event), let pointer = pointers[click.screen],
              let screen = screens.first(where: { $0.index == click.screen }),
              let at = ShortcutKeyBindings.pointerPosition(of: event, screenWidth: screen.width, screenHeight: screen.height) else { return }
        do {
            try pointer.click(click.button.code, x: at.x, y: at.y)
            logger.debug("shortcut click", metadata: ["recognizer": "\(event.recognizer)", "button": "\(click.button.rawValue)",
                                                      "x": "\(event.location.x)", "y": "\(event.location.y)"])
        } catch {
            guard !reportedWriteError else { return }
            reportedWriteError = true
            logger.error("cannot click for \(event.recognizer) on the shortcut pointer: \(error.description)")
        }
    }

    /// Destroys the pointers.
    func close() {
        for p in pointers.values { p.close() }
        pointers = [:]
    }

    static func name(of screen: Int, in screens: [HelloScreen]) -> String {
        guard screen != 0 else { return VirtualPointer.deviceName }
        return VirtualPointer.deviceName + " " + (screens.first { $0.index == screen }?.name ?? String(screen))
    }

    private func openIfNeeded() {
        for screen in bindings.clickScreens.sorted() where pointers[screen] == nil && !failedScreens.contains(screen) {
            let name = Self.name(of: screen, in: screens)
            do {
                let p = try VirtualPointer(name: name)
                pointers[screen] = p
                logger.info("shortcut pointer created", metadata: ["device": "\(p.device.devnode ?? "?")", "name": "\(name)", "screen": "\(screen)"])
            } catch {
                failedScreens.insert(screen)
                logger.error("shortcut clicks are inactive on screen \(screen): cannot create the uinput pointer: \(error.description) (touchd needs write access to /dev/uinput, see docs/shortcuts.md)")
            }
        }
    }
}
