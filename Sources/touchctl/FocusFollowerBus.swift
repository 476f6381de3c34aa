// SPDX-License-Identifier: MIT
#if canImport(Glibc)
import Glibc
#endif
import CSystemd
import Dispatch
import Synchronization
import SystemCalls
import TouchClient
import Wire

/// The follower's side of ``SessionBusFocus`` on the session bus: owns
/// ``SessionBusFocus/busName`` and answers the calls of the code inside the compositor. Under
/// KWin it loads the script and unloads it when it stops; under GNOME Shell the user's
/// extension calls it. sd-bus is not thread-safe, so the bus lives on one thread of its own,
/// which hands each report on.
final class FocusFollowerBus: Sendable {
    /// The compositor that calls the follower.
    enum Compositor: Sendable {
        /// KWin, with the script written at this path.
        case kwin(scriptPath: String)
        /// GNOME Shell, with the extension enabled.
        case gnomeShell

        /// The compositor's name on the session bus: when it leaves, the focus is unknown.
        var busName: String {
            switch self {
            case .kwin: return "org.kde.KWin"
            case .gnomeShell: return "org.gnome.Shell"
            }
        }
    }

    /// What the bus thread hands on.
    enum Event: Sendable {
        /// The compositor reported the focused window.
        case report(FocusReport)
        /// The compositor left the bus, or the bus was lost.
        case gone(String)
    }

    /// Why the follower could not start.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let stopRequested = Atomic<Bool>(false)

    /// Connects to the session bus, takes the name and, under KWin, loads the script; then
    /// serves calls on a thread of its own until the compositor goes or ``stop()``. Throws
    /// what kept it from starting; `note` hears each step (`--verbose`).
    func start(_ compositor: Compositor, note: @escaping @Sendable (String) -> Void = { _ in },
               events: @escaping @Sendable (Event) -> Void) throws(Failure) {
        let ready = StartResult()
        SensorReader.detach { [self] in
            var bus: OpaquePointer?
            var r = sd_bus_open_user(&bus)
            guard r >= 0, let bus else {
                ready.open(Failure(description: "cannot connect to the session bus: \(Self.text(r))"))
                return
            }
            defer { sd_bus_flush_close_unref(bus) }
            let box = Unmanaged.passRetained(HandlerBox(events, compositorName: compositor.busName)).toOpaque()
            defer { Unmanaged<HandlerBox>.fromOpaque(box).release() }
            r = sd_bus_add_object(bus, nil, SessionBusFocus.objectPath, { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                return Unmanaged<HandlerBox>.fromOpaque(userdata).takeUnretainedValue().handle(message)
            }, box)
            if r >= 0 {
                r = sd_bus_add_match(bus, nil, "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='\(compositor.busName)'", { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    var name: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
                    _ = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &name)
                    _ = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &old)
                    _ = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &new)
                    if let new, new.pointee == 0 {
                        let box = Unmanaged<HandlerBox>.fromOpaque(userdata).takeUnretainedValue()
                        box.events(.gone("\(box.compositorName) left the session bus"))
                    }
                    return 0
                }, box)
            }
            guard r >= 0 else {
                ready.open(Failure(description: "cannot serve \(SessionBusFocus.objectPath) on the session bus: \(Self.text(r))"))
                return
            }
            r = sd_bus_request_name(bus, SessionBusFocus.busName, 0)
            guard r >= 0 else {
                let why = r == -EEXIST ? "another follower owns it in this session" : Self.text(r)
                ready.open(Failure(description: "cannot take \(SessionBusFocus.busName) on the session bus: \(why)"))
                return
            }
            var unique: UnsafePointer<CChar>?
            if sd_bus_get_unique_name(bus, &unique) >= 0, let unique {
                note("serving \(SessionBusFocus.busName) on the session bus as \(String(cString: unique))")
            }
            if case .kwin(let scriptPath) = compositor {
                if let failure = Self.loadKWinScript(bus, path: scriptPath, note: note) {
                    ready.open(failure)
                    return
                }
            }
            ready.open(nil)
            while !stopRequested.load(ordering: .relaxed) {
                let p = sd_bus_process(bus, nil)
                if p < 0 {
                    events(.gone("lost the session bus: \(Self.text(p))"))
                    break
                }
                if p > 0 { continue }
                let w = sd_bus_wait(bus, 250_000)
                if w < 0 && w != -EINTR {
                    events(.gone("lost the session bus: \(Self.text(w))"))
                    break
                }
            }
            if case .kwin = compositor { _ = Self.call(bus, "unloadScript", [SessionBusFocus.kwinPluginName]) }
        }
        if let failure = ready.wait() { throw failure }
    }

    /// The bus thread's answer to ``start(scriptPath:events:)``: nil once it serves.
    private final class StartResult: Sendable {
        private let result = Mutex<Failure?>(nil)
        private let done = DispatchSemaphore(value: 0)
        func open(_ failure: Failure?) {
            result.withLock { $0 = failure }
            done.signal()
        }
        func wait() -> Failure? {
            done.wait()
            return result.withLock { $0 }
        }
    }

    /// Stops the thread (within 250 ms); it unloads the script first.
    func stop() {
        stopRequested.store(true, ordering: .relaxed)
    }

    /// Loads the script at `path` into KWin and starts it; what went wrong, or nil. `note`
    /// hears each step.
    private static func loadKWinScript(_ bus: OpaquePointer, path: String, note: (String) -> Void) -> Failure? {
        let name = SessionBusFocus.kwinPluginName
        // A follower that was killed left its script loaded: replace it. KWin only schedules
        // the unloading (deleteLater), and refuses a script whose name is still loaded.
        if case .success(1) = call(bus, "unloadScript", [name]) {
            note("unloading the focus script a previous follower left in KWin")
            for _ in 0..<50 {
                guard case .success(1) = call(bus, "isScriptLoaded", [name]) else { break }
                usleep(100_000)
            }
        }
        switch call(bus, "loadScript", [path, name]) {
        case .failure(let error):
            return Failure(description: "KWin did not load the focus script: \(error.description) (is KWin this session's compositor?)")
        case .success(let id):
            guard let id, id >= 0 else {
                return Failure(description: "KWin refused the focus script (loadScript answered \(id.map(String.init) ?? "nothing")): a script named \(name) is still loaded")
            }
            note("KWin loaded the focus script \(path) as script \(id)")
        }
        if case .failure(let error) = call(bus, "start", []) {
            return Failure(description: "KWin did not start the focus script: \(error.description)")
        }
        note("KWin started the focus script")
        return nil
    }

    /// The compositor's calls, answered on the bus thread.
    private final class HandlerBox {
        let events: @Sendable (Event) -> Void
        let compositorName: String
        init(_ events: @escaping @Sendable (Event) -> Void, compositorName: String) {
            self.events = events
            self.compositorName = compositorName
        }

        func handle(_ message: OpaquePointer) -> Int32 {
            guard sd_bus_message_is_method_call(message, SessionBusFocus.interface, SessionBusFocus.method) > 0 else { return 0 }
            var app: UnsafePointer<CChar>?, title: UnsafePointer<CChar>?
            var full: Int32 = 0
            var r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &app)
            if r >= 0 { r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &title) }
            if r >= 0 { r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &full) }
            guard r >= 0, let app, let title else {
                return sd_bus_reply_method_errno(message, EINVAL, nil)
            }
            events(.report(SessionBusFocus.report(appID: String(cString: app), title: String(cString: title), fullScreen: full != 0)))
            var reply: OpaquePointer?
            guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else { return 1 }
            defer { sd_bus_message_unref(reply) }
            _ = sd_bus_send(nil, reply, nil)
            return 1
        }
    }

    /// Calls `member` of KWin's scripting interface with string arguments; the reply's first
    /// value when it is an integer or a boolean (1 for true).
    private static func call(_ bus: OpaquePointer, _ member: String, _ arguments: [String]) -> Result<Int32?, Failure> {
        var message: OpaquePointer?
        var r = sd_bus_message_new_method_call(bus, &message, "org.kde.KWin", "/Scripting", "org.kde.kwin.Scripting", member)
        guard r >= 0, let message else { return .failure(Failure(description: text(r))) }
        defer { sd_bus_message_unref(message) }
        for argument in arguments where r >= 0 {
            r = argument.withCString { sd_bus_message_append_basic(message, CChar(UInt8(ascii: "s")), $0) }
        }
        guard r >= 0 else { return .failure(Failure(description: text(r))) }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        r = sd_bus_call(bus, message, 10_000_000, &error, &reply)
        guard r >= 0, let reply else {
            let name = error.name.map { String(cString: $0) } ?? text(r)
            let detail = error.message.map { String(cString: $0) } ?? ""
            return .failure(Failure(description: detail.isEmpty ? name : "\(name): \(detail)"))
        }
        defer { sd_bus_message_unref(reply) }
        var type: CChar = 0
        guard sd_bus_message_peek_type(reply, &type, nil) > 0,
              type == CChar(UInt8(ascii: "i")) || type == CChar(UInt8(ascii: "b")) else { return .success(nil) }
        var value: Int32 = 0
        guard sd_bus_message_read_basic(reply, type, &value) >= 0 else { return .success(nil) }
        return .success(value)
    }

    private static func text(_ r: Int32) -> String { String(cString: strerror(-r)) }
}
