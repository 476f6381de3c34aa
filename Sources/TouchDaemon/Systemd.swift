// SPDX-License-Identifier: MIT
import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// touchd's link to systemd (`Type=notify` readiness, status lines, the
/// watchdog and socket activation), through libsystemd. Every call is a
/// no-op outside systemd: without `NOTIFY_SOCKET`, `LISTEN_FDS` or
/// `WATCHDOG_USEC` in the environment, libsystemd does nothing.
package enum Systemd {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    package static let firstPassedDescriptor: CInt = 3

    /// Tells the service manager the daemon is ready (`READY=1`) with a status line.
    package static func notifyReady(status: String) {
        notify("READY=1\nSTATUS=\(status)")
    }

    /// Updates the status line `systemctl status` shows.
    package static func notifyStatus(_ status: String) {
        notify("STATUS=\(status)")
    }

    /// Says the daemon is stopping (`STOPPING=1`) and why. systemd stops
    /// watching the watchdog then: what remains (pass-through handed over or
    /// given back, clients told goodbye) is bounded by `TimeoutStopSec=`.
    package static func notifyStopping(status: String) {
        notify("STOPPING=1\nSTATUS=\(status)")
    }

    /// Tells the service manager that configuration reload started (`RELOADING=1`), with a status line.
    package static func notifyReloading(status: String) {
        notify("RELOADING=1\nSTATUS=\(status)")
    }

    /// Pings the watchdog (`WATCHDOG=1`).
    package static func pingWatchdog() {
        notify("WATCHDOG=1")
    }

    /// Sends a notification; false when there is no service manager to tell
    /// or sending failed.
    @discardableResult
    package static func notify(_ state: String) -> Bool {
        // unset_environment 0: child processes (none) could notify too.
        sd_notify(0, state) > 0
    }

    /// The watchdog interval in microseconds when `WatchdogSec` is set for
    /// this process, nil otherwise.
    package static func watchdogInterval() -> UInt64? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return usec
    }

    /// The listening stream sockets passed by socket activation (`LISTEN_FDS`
    /// for this pid), from ``firstPassedDescriptor`` on; empty when none.
    /// The variables are removed from the environment so that they are not
    /// taken twice.
    package static func passedSockets() -> [CInt] {
        passedDescriptors().sockets
    }

    /// Every descriptor systemd passed (`LISTEN_FDS`, `LISTEN_FDNAMES`): the
    /// listening stream sockets of socket activation, and the rest (the file
    /// descriptor store's, `FDSTORE=1`) with their names. Read once: the
    /// variables are removed from the environment.
    package static func passedDescriptors() -> (sockets: [CInt], stored: [(fd: CInt, name: String)]) {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let n = sd_listen_fds_with_names(1, &names)
        guard n > 0 else { return ([], []) }
        defer {
            if let names {
                for i in 0..<Int(n) { free(names[i]) }
                free(names)
            }
        }
        var sockets: [CInt] = []
        var stored: [(fd: CInt, name: String)] = []
        for i in 0..<n {
            let fd = firstPassedDescriptor + i
            if sd_is_socket_unix(fd, CInt(SOCK_STREAM.rawValue), 1, nil, 0) > 0 {
                sockets.append(fd)
            } else {
                let name = names?[Int(i)].map { String(cString: $0) } ?? "stored"
                stored.append((fd, name))
            }
        }
        return (sockets, stored)
    }

    /// Hands descriptors to the service manager's file descriptor store
    /// (`FDSTORE=1`, `FDNAME=name`): it keeps duplicates and passes them to the
    /// next start of the service (systemd.service(5), `FileDescriptorStoreMax=`).
    /// False when there is no service manager (the store may still refuse
    /// silently: a unit without `FileDescriptorStoreMax=` keeps nothing).
    @discardableResult
    package static func store(_ fds: [CInt], name: String) -> Bool {
        guard !fds.isEmpty else { return false }
        return fds.withUnsafeBufferPointer { p in
            sd_pid_notify_with_fds(0, 0, "FDSTORE=1\nFDNAME=\(name)", p.baseAddress, UInt32(p.count)) > 0
        }
    }

    /// Removes the descriptors named `name` from the store (`FDSTOREREMOVE=1`);
    /// the service manager closes its duplicates.
    @discardableResult
    package static func removeStored(name: String) -> Bool {
        notify("FDSTOREREMOVE=1\nFDNAME=\(name)")
    }
}

/// When touchd tells systemd's watchdog it is alive (`WATCHDOG=1`): every
/// half of the interval systemd gives (`WATCHDOG_USEC`, from `WatchdogSec=`),
/// as sd_watchdog_enabled(3) advises. systemd watches from `READY=1` until
/// `STOPPING=1` (while running and reloading): each state the process spends
/// time in there pings from the loop that does its work, so a stuck loop is
/// a missed ping.
package struct WatchdogSchedule: Sendable {
    /// Time between pings: half the interval.
    package let period: Duration
    private var next: ContinuousClock.Instant

    /// A schedule for an interval of `intervalMicroseconds` starting at `now`;
    /// nil when there is no watchdog (nil or 0).
    package init?(intervalMicroseconds: UInt64?, now: ContinuousClock.Instant) {
        guard let interval = intervalMicroseconds, interval > 0 else { return nil }
        period = .microseconds(Int64(interval / 2))
        next = now
    }

    /// Whether a ping is due at `now`; when it is, the next one is due a period later.
    package mutating func isDue(at now: ContinuousClock.Instant) -> Bool {
        guard now >= next else { return false }
        next = now + period
        return true
    }

    /// How long a loop may wait at `now` before the next ping is due (zero when it is).
    package func wait(at now: ContinuousClock.Instant) -> Duration {
        max(.zero, next - now)
    }
}
