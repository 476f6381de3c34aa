// SPDX-License-Identifier: MIT
import Synchronization

/// The events the live view shows, fanned out to every open page.
///
/// Lines are JSON objects as the daemon sends them (`hello`, `touch`,
/// `gesture`, `system`...) plus the view's own `status` messages. A listener
/// that joins late first gets the last `hello` and the most recent events
/// (the backlog), so a page opened after a gesture still shows it.
package final class LiveFeed: Sendable {
    /// Identifies a listener.
    package typealias ListenerID = Int

    private struct State {
        var hello: String?
        var backlog: [String] = []
        var backlogStart = 0
        var listeners: [ListenerID: @Sendable (String) -> Void] = [:]
        var nextID = 0
    }

    private let state = Mutex(State())
    /// How many recent events a late listener gets.
    package let backlogLimit: Int

    /// Creates a feed keeping up to `backlog` recent events for late listeners.
    package init(backlog: Int = 2000) {
        backlogLimit = max(backlog, 0)
    }

    /// Hands a JSON line to every listener; `hello` lines replace the remembered hello and clear the backlog.
    package func publish(_ line: String, isHello: Bool = false) {
        state.withLock { s in
            if isHello {
                s.hello = line
                s.backlog.removeAll(keepingCapacity: true)
                s.backlogStart = 0
            } else if backlogLimit > 0 {
                if s.backlog.count < backlogLimit {
                    s.backlog.append(line)
                } else {
                    // A ring: the oldest entry is overwritten.
                    s.backlog[s.backlogStart] = line
                    s.backlogStart = (s.backlogStart + 1) % backlogLimit
                }
            }
            // Called under the lock so that every listener sees lines in publishing order.
            for listener in s.listeners.values { listener(line) }
        }
    }

    /// Adds a listener; it is first called with the remembered hello and backlog, then with every published line.
    @discardableResult
    package func addListener(_ listener: @escaping @Sendable (String) -> Void) -> ListenerID {
        state.withLock { s in
            if let hello = s.hello { listener(hello) }
            for k in 0..<s.backlog.count { listener(s.backlog[(s.backlogStart + k) % s.backlog.count]) }
            let id = s.nextID
            s.nextID += 1
            s.listeners[id] = listener
            return id
        }
    }

    /// The remembered hello and backlog, in order: what a new listener is first called with.
    package func snapshot() -> [String] {
        state.withLock { s in
            var lines: [String] = []
            if let hello = s.hello { lines.append(hello) }
            for k in 0..<s.backlog.count { lines.append(s.backlog[(s.backlogStart + k) % s.backlog.count]) }
            return lines
        }
    }

    /// Removes a listener.
    package func removeListener(_ id: ListenerID) {
        _ = state.withLock { $0.listeners.removeValue(forKey: id) }
    }

    /// The number of listeners (open pages).
    package var listenerCount: Int { state.withLock { $0.listeners.count } }
}
