// SPDX-License-Identifier: MIT
import LiveInput
import Session
import TouchCore

extension TouchSession {
    /// Applies what a live source reported (``LiveDeviceSource``): the one
    /// place a live device event becomes a session call, so that both live
    /// drivers (the daemon's ``TouchSessionActor`` and touchctl's
    /// ``LiveTouchSession``) set a device up alike: its udev properties, its
    /// decided settings and the state it had when opened (a contact already
    /// down keeps its position).
    ///
    /// `now` is read only for an addition or a change (udev gives them no
    /// event time). Events that are not the session's (an ignored device, a
    /// failed open, a wake-up) change nothing.
    ///
    /// - Returns: the reason the configuration ignores an added device, when it does.
    @discardableResult
    package mutating func apply<Sink: SessionSink>(_ event: LiveInputEvent, now: () -> Timestamp, into sink: inout Sink) -> String? {
        switch event {
        case .deviceAdded(let id, let description, let info):
            return addDevice(id, description: description, at: now(), syspath: info.syspath,
                             udevProperties: info.udevProperties, settings: info.settings,
                             state: info.stateAtOpen, into: &sink)
        case .deviceChanged(let id, let info):
            changeDevice(id, udevProperties: info.udevProperties, settings: info.settings, at: now(), into: &sink)
        case .events(let id, let events):
            handle(events, from: id, into: &sink)
        case .resynced(let id, let report):
            resync(id, slots: report.slots, keysDown: report.keysDown, axisValues: report.axisValues,
                   droppedAt: report.droppedAt, into: &sink)
        case .deviceRemoved(let id, let time):
            removeDevice(id, at: time, into: &sink)
        case .deviceIgnored, .openFailed, .woken:
            break
        }
        return nil
    }
}
