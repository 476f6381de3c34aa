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

/// The follower's side of ``KWinFocus`` on the session bus: owns ``KWinFocus/busName``, answers
/// the script's calls, loads the script into KWin and unloads it when it stops. sd-bus is not
/// thread-safe, so the bus lives on one thread of its own, which hands each report on.
final class KWinFocusBus: Sendable {
    /// What the bus thread hands on.
    enum Event: Sendable {
        /// The script reported the active window.
        case report(FocusReport)
        /// KWin left the bus, or the bus was lost.
        case gone(String)
    }

    /// Why the follower could not start under KWin.
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let stopRequested = Atomic<Bool>(false)

    /// Connects to the session bus, takes the name and loads the script (written to
    /// `scriptPath`); then serves calls on a thread of its own until KWin goes or ``stop()``.
    /// Throws what kept it from starting.
    func start(scriptPath: String, events: @escaping @Sendable (Event) -> Void) throws(Failure) {
        let ready = StartResult()
        SensorReader.detach { [self] in
            var bus: OpaquePointer?
            var r = sd_bus_open_user(&bus)
            guard r >= 0, let bus else {
                ready.open(Failure(description: "cannot connect to the session bus: \(Self.text(r))"))
                return
            }
            defer { sd_bus_flush_close_unref(bus) }
            let box = Unmanaged.passRetained(HandlerBox(events)).toOpaque()
            defer { Unmanaged<HandlerBox>.fromOpaque(box).release() }
            r = sd_bus_add_object(bus, nil, KWinFocus.objectPath, { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                return Unmanaged<HandlerBox>.fromOpaque(userdata).takeUnretainedValue().handle(message)
            }, box)
            if r >= 0 {
                r = sd_bus_add_match(bus, nil, "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',member='NameOwnerChanged',arg0='org.kde.KWin'", { message, userdata, _ in
                    guard let message, let userdata else { return 0 }
                    var name: UnsafePointer<CChar>?, old: UnsafePointer<CChar>?, new: UnsafePointer<CChar>?
                    _ = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &name)
                    _ = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &old)
                    _ = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &new)
                    if let new, new.pointee == 0 {
                        Unmanaged<HandlerBox>.fromOpaque(userdata).takeUnretainedValue().events(.gone("KWin left the session bus"))
                    }
                    return 0
                }, box)
            }
            guard r >= 0 else {
                ready.open(Failure(description: "cannot serve \(KWinFocus.objectPath) on the session bus: \(Self.text(r))"))
                return
            }
            r = sd_bus_request_name(bus, KWinFocus.busName, 0)
            guard r >= 0 else {
                let why = r == -EEXIST ? "another follower owns it in this session" : Self.text(r)
                ready.open(Failure(description: "cannot take \(KWinFocus.busName) on the session bus: \(why)"))
                return
            }
            // A follower that was killed left its script loaded: replace it.
            _ = Self.call(bus, "unloadScript", [KWinFocus.pluginName])
            switch Self.call(bus, "loadScript", [scriptPath, KWinFocus.pluginName]) {
            case .failure(let error):
                ready.open(Failure(description: "KWin did not load the focus script: \(error.description) (is KWin this session's compositor?)"))
                return
            case .success:
                break
            }
            if case .failure(let error) = Self.call(bus, "start", []) {
                ready.open(Failure(description: "KWin did not start the focus script: \(error.description)"))
                return
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
            _ = Self.call(bus, "unloadScript", [KWinFocus.pluginName])
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

    /// The script's calls, answered on the bus thread.
    private final class HandlerBox {
        let events: @Sendable (Event) -> Void
        init(_ events: @escaping @Sendable (Event) -> Void) { self.events = events }

        func handle(_ message: OpaquePointer) -> Int32 {
            guard sd_bus_message_is_method_call(message, KWinFocus.interface, KWinFocus.method) > 0 else { return 0 }
            var app: UnsafePointer<CChar>?, title: UnsafePointer<CChar>?
            var full: Int32 = 0
            var r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &app)
            if r >= 0 { r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "s")), &title) }
            if r >= 0 { r = sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &full) }
            guard r >= 0, let app, let title else {
                return sd_bus_reply_method_errno(message, EINVAL, nil)
            }
            events(.report(KWinFocus.report(appID: String(cString: app), title: String(cString: title), fullScreen: full != 0)))
            var reply: OpaquePointer?
            guard sd_bus_message_new_method_return(message, &reply) >= 0, let reply else { return 1 }
            defer { sd_bus_message_unref(reply) }
            _ = sd_bus_send(nil, reply, nil)
            return 1
        }
    }

    /// Calls `member` of KWin's scripting interface with string arguments; the reply's first
    /// value when it has one.
    private static func call(_ bus: OpaquePointer, _ member: String, _ arguments: [String]) -> Result<Void, Failure> {
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
        if let reply { sd_bus_message_unref(reply) }
        guard r >= 0 else {
            let name = error.name.map { String(cString: $0) } ?? text(r)
            let detail = error.message.map { String(cString: $0) } ?? ""
            return .failure(Failure(description: detail.isEmpty ? name : "\(name): \(detail)"))
        }
        return .success(())
    }

    private static func text(_ r: Int32) -> String { String(cString: strerror(-r)) }
}
