// SPDX-License-Identifier: MIT
import TouchCore

/// One device's pass-through (semantics §9; docs/pass-through.md), as
/// decisions: each input returns the actions that
/// `PassThroughController` (the daemon) carries out, in order. Pure: no
/// I/O, no clock; the time of an input is data, passed on to the actions
/// that need it. The transition table is docs/state-machines/pass-through.md.
///
/// ```swift
/// var machine = PassThroughStateMachine()
/// machine.handle(.added(wanted: true, contactDown: false), at: t)  // [.createMirror]
/// machine.handle(.mirrorResult(ok: true), at: t)                   // [.grab]
/// machine.handle(.grabResult(ok: true), at: t)                     // [.routeToMirror, .watch, .storeDescriptors, .log(.on)]
/// ```
///
/// Results (``Event/mirrorResult(ok:)``, ``Event/grabResult(ok:)``) are fed
/// back by the controller as soon as the action ran, so ``State/taking``
/// lasts no longer than one call of the controller.
package struct PassThroughStateMachine: Sendable, Equatable {
    /// Where a device's pass-through is.
    package enum State: String, Sendable, Equatable, CaseIterable {
        /// Not wanted (the default), or it could not be taken: the compositor reads the device.
        case off
        /// Wanted while a contact of the device is down: a contact the compositor saw begin must end there.
        case waitingForLift
        /// The mirror is being created (or kept) and the device grabbed.
        case taking
        /// The device is grabbed; its contacts go through the mirror.
        case active
        /// The watchdog or the guard gave the devices back (an engine stall,
        /// touchd stopped): pass-through stays off until touchd restarts.
        case suspended
        /// touchd stopped with the grab and the mirror kept for the next one
        /// (systemd's file descriptor store): nothing more is done to them.
        case handedOver
        /// touchd stopped without keeping them: the mirror's contacts ended, the mirror destroyed.
        case givenBack
    }

    /// What the daemon reports to the machine.
    package enum Event: Sendable, Equatable {
        /// The device entered service; `wanted` is its `passThrough` setting,
        /// `contactDown` whether a contact of it is down (a pen in proximity counts).
        case added(wanted: Bool, contactDown: Bool)
        /// The device entered service with its grab and mirror taken over
        /// from systemd's file descriptor store (a previous touchd's, kept across a restart).
        case adopted
        /// Its settings were decided again (a udev `change`, or a reload of the configuration).
        case changed(wanted: Bool, contactDown: Bool)
        /// No contact of the device is down any more.
        case contactsLifted
        /// ``Action/createMirror`` or ``Action/keepMirror(at:)`` was carried out: the mirror exists, or not.
        case mirrorResult(ok: Bool)
        /// ``Action/grab`` was carried out: the kernel granted the grab, or refused it.
        case grabResult(ok: Bool)
        /// The watchdog (an engine stall) or the guard (touchd stopped)
        /// released every pass-through grab.
        case released(by: Releaser)
        /// The device went away (unplugged, ignored now, closed).
        case removed
        /// touchd stops; `keepsForNextTouchd` when systemd keeps its descriptors for the next one.
        case shutdown(keepsForNextTouchd: Bool)
    }

    /// Who released the grabs behind touchd's back.
    package enum Releaser: String, Sendable, Equatable, CaseIterable {
        /// touchd's watchdog thread: the engine made no progress with input waiting.
        case watchdog
        /// The guard outside the process: touchd stopped or said it stalled.
        case `guard`
    }

    /// What the controller carries out, in the order returned.
    package enum Action: Sendable, Equatable {
        /// Create the device's mirror (then report ``Event/mirrorResult(ok:)``).
        case createMirror
        /// Take over the mirror kept in the store, its contacts left down
        /// ending from `at` on (then report ``Event/mirrorResult(ok:)``).
        case keepMirror(at: Timestamp)
        /// Grab the device (then report ``Event/grabResult(ok:)``).
        case grab
        /// The session sends the device's contacts to the mirror from now on.
        case routeToMirror
        /// The watchdog and the guard hold the grabbed and the mirror's descriptors.
        case watch
        /// The watchdog and the guard let go of the device.
        case unwatch
        /// systemd's file descriptor store keeps the grabbed and the mirror's descriptors.
        case storeDescriptors
        /// The store lets go of them.
        case forgetStored
        /// The session stops sending the device's contacts to the mirror, and
        /// those on it end at once with an up.
        case endContacts(at: Timestamp)
        /// The mirror goes away.
        case destroyMirror
        /// The grab is released (the device is the compositor's whatever the rules say).
        case releaseGrab
        /// The grab becomes what the device rules say (`grab:`).
        case restoreRuleGrab
        /// The mirror and the grab stay for the next touchd: what is down on
        /// the mirror goes to the store, the watchdog stops watching, the guard waits for it.
        case leaveForNextTouchd
        /// A line for the log.
        case log(Note)
    }

    /// What the log says of a transition.
    package enum Note: Sendable, Equatable {
        /// Waiting for the contacts down to lift before taking the device.
        case waitingForLift
        /// Pass-through is on.
        case on
        /// Pass-through is off.
        case off
        /// An input that cannot come in this state: our bug, nothing done.
        case impossible(event: Event, state: State)
    }

    /// Where the device's pass-through is.
    package private(set) var state: State

    /// A device's machine, `off`; `suspended` for a device that comes after
    /// the grabs were released behind touchd's back (pass-through stays off until restart).
    package init(suspended: Bool = false) {
        state = suspended ? .suspended : .off
    }

    /// Whether the device waits for its contacts to lift (checked after each of its reads).
    package var isWaitingForLift: Bool { state == .waitingForLift }

    /// Takes one input; returns what the controller must do, in order.
    package mutating func handle(_ event: Event, at time: Timestamp) -> [Action] {
        let (next, actions) = Self.transition(from: state, on: event, at: time)
        state = next
        return actions
    }

    /// The transition table: every (state, event) pair, no `default:`.
    static func transition(from state: State, on event: Event, at time: Timestamp) -> (State, [Action]) {
        let impossible = (state, [Action.log(.impossible(event: event, state: state))])
        switch state {
        case .off:
            switch event {
            case .added(let wanted, let down), .changed(let wanted, let down):
                guard wanted else { return (.off, []) }
                return down ? (.waitingForLift, [.log(.waitingForLift)]) : (.taking, [.createMirror])
            case .adopted:
                // The grab never lapsed: no contact began on the original meanwhile, so no wait.
                return (.taking, [.keepMirror(at: time)])
            case .contactsLifted:
                return (.off, [])
            case .mirrorResult, .grabResult:
                return impossible
            case .released:
                return (.suspended, [])
            case .removed:
                return (.off, [])
            case .shutdown:
                return (.givenBack, [])
            }
        case .waitingForLift:
            switch event {
            case .added, .adopted:
                return impossible
            case .changed(let wanted, let down):
                guard wanted else { return (.off, [.restoreRuleGrab, .log(.off)]) }
                return down ? (.waitingForLift, []) : (.taking, [.createMirror])
            case .contactsLifted:
                return (.taking, [.createMirror])
            case .mirrorResult, .grabResult:
                return impossible
            case .released:
                return (.suspended, [])
            case .removed:
                return (.off, [])
            case .shutdown:
                return (.givenBack, [])
            }
        case .taking:
            switch event {
            case .added, .adopted, .changed:
                return impossible
            case .contactsLifted:
                return (.taking, [])
            case .mirrorResult(let ok):
                // A mirror that cannot be made: the device is served without pass-through (the controller logs why).
                return ok ? (.taking, [.grab]) : (.off, [])
            case .grabResult(let ok):
                guard ok else { return (.off, [.endContacts(at: time), .destroyMirror]) }
                return (.active, [.routeToMirror, .watch, .storeDescriptors, .log(.on)])
            case .released:
                return (.suspended, [.endContacts(at: time), .destroyMirror, .releaseGrab])
            case .removed:
                return (.off, [.endContacts(at: time), .destroyMirror])
            case .shutdown:
                return (.givenBack, [.endContacts(at: time), .destroyMirror])
            }
        case .active:
            switch event {
            case .added, .adopted:
                return impossible
            case .changed(let wanted, _):
                guard !wanted else { return (.active, []) }
                return (.off, [.unwatch, .endContacts(at: time), .destroyMirror, .forgetStored, .restoreRuleGrab, .log(.off)])
            case .contactsLifted:
                return (.active, [])
            case .mirrorResult, .grabResult:
                return impossible
            case .released:
                // The watchdog and the guard already let go of the device.
                return (.suspended, [.endContacts(at: time), .destroyMirror, .releaseGrab, .forgetStored])
            case .removed:
                return (.off, [.unwatch, .forgetStored, .endContacts(at: time), .destroyMirror])
            case .shutdown(let keeps):
                guard !keeps else { return (.handedOver, [.leaveForNextTouchd]) }
                return (.givenBack, [.unwatch, .endContacts(at: time), .destroyMirror, .forgetStored])
            }
        case .suspended:
            switch event {
            case .added, .changed, .contactsLifted, .released:
                return (.suspended, [])
            case .adopted, .mirrorResult, .grabResult:
                return impossible
            case .removed:
                return (.suspended, [])
            case .shutdown:
                return (.givenBack, [])
            }
        case .handedOver:
            switch event {
            case .removed, .shutdown:
                // The devices close after the handover: what was left must stay as it is.
                return (.handedOver, [])
            case .added, .adopted, .changed, .contactsLifted, .mirrorResult, .grabResult, .released:
                return impossible
            }
        case .givenBack:
            switch event {
            case .removed, .shutdown:
                return (.givenBack, [])
            case .added, .adopted, .changed, .contactsLifted, .mirrorResult, .grabResult, .released:
                return impossible
            }
        }
    }
}
