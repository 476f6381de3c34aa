// SPDX-License-Identifier: MIT
import Logging
import Publisher
import Session
import TouchCore
import Wire

/// The client whose `compositor` report is in force.
struct CompositorReporter: Hashable, Sendable {
    /// The reporting client.
    var client: ClientID
    /// Its logind session when it reported (nil: it runs in none).
    var loginSession: String?
    /// What it reported.
    var compositor: ReportedCompositor
}

/// The compositor reading the pass-through mirrors, reported by an agent in the user's session
/// (docs/protocol.md, "compositor"), and the endings `passThroughEnding: auto` picks from it
/// (docs/pass-through.md, "How a taken touch ends").
extension TouchSessionActor {
    /// Takes a client's `compositor` report. Only the seat's active session may report, as for
    /// `focus` (``reportFocus(_:from:loginSession:)``): a report from elsewhere could make touchd
    /// cancel where the compositor drops cancels, leaving apps' touches down. Others get
    /// `not-permitted`. A report without a name forgets the compositor.
    package func reportCompositor(_ report: CompositorReport, from client: ClientID, loginSession: String?) throws(RequestError) {
        let seat = session.lockPolicy.status
        guard Self.seatPermits(seat, loginSession: loginSession) else {
            throw RequestError(.notPermitted, "compositor: only a client in the seat's active session may report the compositor (the seat's: \(seat.session ?? seat.state.rawValue), this client's: \(loginSession ?? "none"))")
        }
        if let name = report.name {
            compositorReporter = CompositorReporter(client: client, loginSession: loginSession,
                                                    compositor: ReportedCompositor(name: name, version: report.version))
        } else {
            guard compositorReporter != nil else { return }
            compositorReporter = nil
        }
        decideMirrorEndings()
    }

    /// Whether a client in `loginSession` speaks for the seat: in its active session; with no
    /// session on the seat or logind not followed, only a client in no session.
    static func seatPermits(_ seat: LoginSessionStatus, loginSession: String?) -> Bool {
        switch seat.state {
        case .unlocked, .locked, .greeter: return loginSession != nil && loginSession == seat.session
        case .none, .unknown: return loginSession == nil
        }
    }

    /// The reporting client went away: the compositor it reported is forgotten.
    package func compositorReporterGone(_ client: ClientID) {
        guard compositorReporter?.client == client else { return }
        compositorReporter = nil
        decideMirrorEndings()
    }

    /// The seat's active session changed: a report that no longer speaks for the seat is
    /// forgotten (another session's compositor now reads the devices).
    func dropCompositorOfInactiveSession() {
        guard let r = compositorReporter, !Self.seatPermits(session.lockPolicy.status, loginSession: r.loginSession) else { return }
        compositorReporter = nil
        decideMirrorEndings()
    }

    /// The ending a mirror of a device configured with `setting` uses now.
    func mirrorEnding(for setting: MirrorEndingSetting) -> MirrorEndingChoice {
        MirrorEndingChoice.decide(setting, compositor: compositorReporter?.compositor)
    }

    /// A device's configured ending changed (a reload, a udev change): its mirror, if any, takes it.
    func changeMirrorEnding(_ id: DeviceID, to setting: MirrorEndingSetting) {
        guard let mirror = router.uinput.mirrors[id], mirror.setting != setting else { return }
        let choice = mirrorEnding(for: setting)
        mirror.apply(setting, choice)
        logger.notice("pass-through: taken touches end: \(choice.text)", metadata: ["device": "\(id.rawValue)"])
        publishHello()
    }

    /// Decides every mirror's ending again from what is known now; a change is logged and `hello` rewritten.
    func decideMirrorEndings() {
        var changed = false
        for (id, mirror) in router.uinput.mirrors {
            let choice = mirrorEnding(for: mirror.setting)
            guard choice != mirror.choice else { continue }
            mirror.apply(mirror.setting, choice)
            changed = true
            logger.notice("pass-through: taken touches end: \(choice.text)", metadata: ["device": "\(id.rawValue)"])
        }
        if changed { publishHello() }
    }
}
