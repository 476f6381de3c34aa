// SPDX-License-Identifier: MIT
import TouchCore

/// What a stopping touchd leaves down on a pass-through mirror it keeps for
/// the next touchd (docs/pass-through.md, "Across a restart"): each contact's
/// slot, tracking id, the position the app last saw, where and when it went
/// down, and whether it already left a tap's slop or was already ending. The
/// next process ends these contacts with the device's ``MirrorEnding`` (never
/// as a click). Times are `CLOCK_MONOTONIC`, the same clock in both processes.
package struct MirrorHandover: Sendable, Equatable {
    /// One contact left down on the mirror.
    package struct Contact: Sendable, Equatable {
        /// Its slot on the mirror.
        package var slot: Int
        /// Its tracking id on the mirror.
        package var trackingID: Int32
        /// Where the app last saw it.
        package var x: Int32, y: Int32
        /// Where it went down.
        package var downX: Int32, downY: Int32
        /// When it went down.
        package var downTime: Timestamp
        /// Whether it went farther from its down than a tap's slop.
        package var leftSlop: Bool
        /// Whether it was already being ended (a claim) when touchd stopped.
        package var ending: Bool

        /// Creates a contact.
        package init(slot: Int, trackingID: Int32, x: Int32, y: Int32, downX: Int32, downY: Int32,
                    downTime: Timestamp, leftSlop: Bool, ending: Bool) {
            self.slot = slot
            self.trackingID = trackingID
            self.x = x
            self.y = y
            self.downX = downX
            self.downY = downY
            self.downTime = downTime
            self.leftSlop = leftSlop
            self.ending = ending
        }
    }

    /// The contacts down on the mirror.
    package var contacts: [Contact]
    /// The tracking id the mirror's next contact gets.
    package var nextTrackingID: Int32

    /// Creates a handover.
    package init(contacts: [Contact], nextTrackingID: Int32) {
        self.contacts = contacts
        self.nextTrackingID = nextTrackingID
    }

    /// One line per contact after a header: `mirror-handover 1 next=<id>`, then
    /// `contact slot=.. id=.. x=.. y=.. down-x=.. down-y=.. down-us=.. left-slop=0|1 ending=0|1`.
    package var text: String {
        var s = "mirror-handover 1 next=\(nextTrackingID)\n"
        for c in contacts {
            s += "contact slot=\(c.slot) id=\(c.trackingID) x=\(c.x) y=\(c.y) down-x=\(c.downX) down-y=\(c.downY)"
                + " down-us=\(c.downTime.microseconds) left-slop=\(c.leftSlop ? 1 : 0) ending=\(c.ending ? 1 : 0)\n"
        }
        return s
    }

    /// Reads ``text``; nil when it is not a handover of this version (a contact
    /// line with a missing or malformed field makes the whole text unreadable).
    package init?(text: String) {
        var lines = text.split(separator: "\n").makeIterator()
        guard let header = lines.next() else { return nil }
        let h = header.split(separator: " ")
        guard h.count == 3, h[0] == "mirror-handover", h[1] == "1", h[2].hasPrefix("next="),
              let next = Int32(h[2].dropFirst(5)) else { return nil }
        var contacts: [Contact] = []
        while let line = lines.next() {
            var fields: [Substring: Substring] = [:]
            let words = line.split(separator: " ")
            guard words.first == "contact" else { return nil }
            for w in words.dropFirst() {
                guard let eq = w.firstIndex(of: "=") else { return nil }
                fields[w[..<eq]] = w[w.index(after: eq)...]
            }
            func int(_ k: Substring) -> Int64? { fields[k].flatMap { Int64($0) } }
            guard let slot = int("slot"), slot >= 0, slot < 1024, let id = int("id"), let x = int("x"), let y = int("y"),
                  let dx = int("down-x"), let dy = int("down-y"), let down = int("down-us"),
                  let slop = int("left-slop"), let ending = int("ending"),
                  let id32 = Int32(exactly: id), let x32 = Int32(exactly: x), let y32 = Int32(exactly: y),
                  let dx32 = Int32(exactly: dx), let dy32 = Int32(exactly: dy) else { return nil }
            contacts.append(Contact(slot: Int(slot), trackingID: id32, x: x32, y: y32, downX: dx32, downY: dy32,
                                    downTime: Timestamp(microseconds: down), leftSlop: slop != 0, ending: ending != 0))
        }
        self.init(contacts: contacts, nextTrackingID: next)
    }
}

extension MirrorEventWriter {
    /// The contacts down on the mirror now, for the touchd that takes the mirror over.
    package var handover: MirrorHandover {
        var contacts: [MirrorHandover.Contact] = []
        for (s, c) in slots.enumerated() {
            guard let c else { continue }
            contacts.append(MirrorHandover.Contact(slot: s, trackingID: c.trackingID, x: c.values.x, y: c.values.y,
                                                   downX: c.down.x, downY: c.down.y, downTime: c.downTime,
                                                   leftSlop: c.leftSlop, ending: c.palm || c.lift != nil))
        }
        return MirrorHandover(contacts: contacts, nextTrackingID: nextTrackingID)
    }

    /// Takes over the contacts a previous touchd left down on this mirror and
    /// starts ending each as ``ending`` says, as a claim would: with
    /// ``MirrorEnding/lift`` an unmoved contact goes out of the slop and back,
    /// holds still and lifts no sooner than a tap could (``nextDeadline``,
    /// ``advance(to:into:)`` write the rest); with ``MirrorEnding/cancel`` a
    /// palm, then the end. Contacts already ending go on to their up. Writes
    /// one frame (two with cancel) into `out`. Call once, on a fresh writer.
    package mutating func takeOver(_ handover: MirrorHandover, at time: Timestamp, into out: inout [InputEvent]) {
        frameTime = time
        nextTrackingID = handover.nextTrackingID
        for c in handover.contacts where c.slot < slotCount && slots[c.slot] == nil {
            // Ids no touch of this process has (they count up from 1): the session's events never match them.
            slots[c.slot] = Contact(touch: TouchID(rawValue: UInt32.max - UInt32(c.slot)), trackingID: c.trackingID,
                                    values: DeviceContactValues(x: c.x, y: c.y),
                                    down: DeviceContactValues(x: c.downX, y: c.downY), downTime: c.downTime,
                                    leftSlop: c.leftSlop || c.ending)
        }
        // What the kernel already holds for the mirror: keys and ABS_X/Y are written only as they change.
        reportedCount = activeContacts
        reportedPointer = slots.lazy.compactMap { $0 }.first.map { ($0.values.x, $0.values.y) }
        currentSlot = -1
        for s in slots.indices where slots[s] != nil {
            if ending == .lift {
                // Back where the app last saw it (a contact stopped mid-excursion), then still.
                select(s, into: &out)
                if let c = slots[s] {
                    abs(EventCode.absMTPositionX, c.values.x, into: &out)
                    abs(EventCode.absMTPositionY, c.values.y, into: &out)
                }
                beginLift(s, at: time, into: &out)
            } else {
                select(s, into: &out)
                abs(EventCode.absMTToolType, EventCode.mtToolPalm, into: &out)
                slots[s]?.palm = true
                palmSlots.append(s)
            }
        }
        guard !out.isEmpty else { return }
        endFrame(at: time, into: &out)
    }
}
