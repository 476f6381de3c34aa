// SPDX-License-Identifier: MIT
import Gestures
import TouchCore

/// What touchd writes to its own uinput devices, fed by the same frames as
/// the clients' encoder (``DaemonSessionSink``) but apart from it: each
/// pass-through mirror gets what the session core says apps may see of its
/// device's contacts (``EngineOutput/mirror(_:)``, semantics §9), the
/// shortcut keyboard types the keys and the shortcut pointer clicks what the
/// configuration binds to system gestures.
///
/// Lives on the input thread. Which mirrors exist is `PassThroughController`'s
/// decision (through ``TouchSessionActor``); this only writes them.
/// Per frame: no allocation, one `write(2)` per mirror with events.
struct UinputOutput {
    /// The pass-through mirrors of the devices that have one.
    var mirrors: [DeviceID: PassThroughMirror] = [:]
    /// Types the keys the configuration binds to system gestures (nil: none bound).
    var keyboard: ShortcutKeyboard?
    /// Clicks what the configuration binds to shortcuts (nil: no click bound).
    var pointer: ShortcutPointer?
    /// Mirrors with events in the frame being written.
    private var mirrorsWithEvents: [PassThroughMirror] = []
    /// Clicking gestures whose touches are still ending on their device's mirror (``MirrorEnding/lift``):
    /// the click waits for the last up. A compositor that hides the cursor while touches move, as
    /// mutter does, takes the pointer's focus from the app between a press and its release when the
    /// mirror's touches move in between (docs/shortcuts.md, "Secondary click").
    private var heldClicks: [GestureEvent] = []
    /// Mirrors out of service whose contacts' ending the compositor may not
    /// have read yet, each destroyed at its time (``PassThroughMirror/destroyDelayMilliseconds``).
    private var retiring: [(mirror: PassThroughMirror, at: Timestamp)] = []

    /// Whether any device is written at all (one check per frame when none is).
    private var writesAnything: Bool { !mirrors.isEmpty || keyboard != nil || pointer != nil }

    /// Writes what the engine produced in one frame (or without one: deadlines).
    mutating func write(_ outputs: [EngineOutput]) {
        guard writesAnything else { return }
        for o in outputs {
            switch o {
            case .gesture(let g):
                guard g.isSystem else { continue }
                if let keyboard { keyboard.handle(g) }
                if let pointer, pointer.clicks(for: g) { heldClicks.append(g) }
            case .mirror(let m):
                guard let mirror = mirrors[m.touch.device] else { continue }
                if !mirror.inFrame {
                    mirror.inFrame = true
                    mirrorsWithEvents.append(mirror)
                }
                mirror.append(m)
            case .touch, .system, .debug:
                continue
            }
        }
        // What the app world may see of this frame leaves at once, in one write per mirror.
        if !mirrorsWithEvents.isEmpty {
            for mirror in mirrorsWithEvents {
                mirror.inFrame = false
                mirror.endFrame()
            }
            mirrorsWithEvents.removeAll(keepingCapacity: true)
        }
        if !heldClicks.isEmpty { clickWhereTouchesEnded() }
    }

    /// Writes the steps of taken contacts' endings due by `time`, then the clicks that waited for them.
    mutating func advance(to time: Timestamp) {
        for mirror in mirrors.values { mirror.advance(to: time) }
        if !heldClicks.isEmpty { clickWhereTouchesEnded() }
        if !retiring.isEmpty {
            for r in retiring where r.at <= time { r.mirror.destroy() }
            retiring.removeAll { $0.at <= time }
        }
    }

    /// Destroys a mirror taken out of service (``removeMirror(of:)``): at
    /// once when it ended no contact, else once the compositor has had time
    /// to read the ending (``PassThroughMirror/destroyDelayMilliseconds`` after `time`).
    mutating func retire(_ mirror: PassThroughMirror, at time: Timestamp) {
        guard mirror.wroteEnding, PassThroughMirror.destroyDelayMilliseconds > 0 else { return mirror.destroy() }
        mirror.removeProperties()
        retiring.append((mirror, Timestamp(microseconds: time.microseconds + PassThroughMirror.destroyDelayMilliseconds * 1000)))
    }

    /// When the last retiring mirror is due, nil when none is (touchd stopping waits for it).
    var lastRetiringDeadline: Timestamp? { retiring.map(\.at).max() }

    /// Destroys every retiring mirror now (touchd stops).
    mutating func destroyRetiring() {
        for r in retiring { r.mirror.destroy() }
        retiring.removeAll()
    }

    /// Takes a device's mirror away (its contacts ended or handed over): clicks waiting for it go.
    mutating func removeMirror(of device: DeviceID) -> PassThroughMirror? {
        let mirror = mirrors.removeValue(forKey: device)
        if !heldClicks.isEmpty { clickWhereTouchesEnded() }
        return mirror
    }

    /// Clicks each held gesture whose device's mirror has no taken contact still ending.
    mutating func clickWhereTouchesEnded() {
        guard let pointer else { return heldClicks.removeAll() }
        var i = 0
        while i < heldClicks.count {
            if let mirror = mirrors[heldClicks[i].device], mirror.isEndingTakenContacts {
                i += 1
            } else {
                pointer.handle(heldClicks.remove(at: i))
            }
        }
    }

    /// When a mirror's next step is due (a taken contact's ending), nil when none.
    var nextDeadline: Timestamp? {
        var due: Timestamp?
        for mirror in mirrors.values {
            guard let d = mirror.nextDeadline else { continue }
            due = due.map { min($0, d) } ?? d
        }
        for r in retiring { due = due.map { min($0, r.at) } ?? r.at }
        return due
    }
}
