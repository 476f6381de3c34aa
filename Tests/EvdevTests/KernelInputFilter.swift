// SPDX-License-Identifier: MIT
import TouchCore

/// What the Linux input core (drivers/input/input.c) passes on to evdev
/// readers for events injected into a device, written from its documented
/// behaviour so tests can predict exactly what a reader sees:
///
/// - events of undeclared types or codes are dropped;
/// - a key event passes only when it changes the key's state (autorepeat
///   value 2 always passes);
/// - an absolute value passes only when it differs from the current one
///   after the `fuzz` filter; multitouch values are compared per slot;
/// - `ABS_MT_SLOT` is staged and emitted just before the next multitouch
///   value that passes, and only when the slot changed;
/// - `SYN_REPORT` is passed only when the frame holds another event.
struct KernelInputFilter {
    private let description: DeviceDescription
    private var abs: [UInt16: Int32] = [:]
    private var keys = Set<UInt16>()
    private var slots: [[UInt16: Int32]]
    private var stagedSlot = 0
    private var reportedSlot = 0
    private var frameHasEvents = false
    private let hasSlots: Bool

    /// A filter for a device freshly created from `description`: no key
    /// down, slots empty, axes at `axisValues` (as the reader sees them) or at their minimum.
    init(description: DeviceDescription, axisValues: [UInt16: Int32] = [:]) {
        self.description = description
        for (code, info) in description.absInfo where description.supports(.abs, code) {
            abs[code] = axisValues[code] ?? info.minimum
        }
        hasSlots = description.supports(.abs, EventCode.absMTSlot)
        let slotCount = hasSlots ? description.slotCount : 0
        let emptySlot: [UInt16: Int32] = [EventCode.absMTTrackingID: -1]
        slots = Array(repeating: emptySlot, count: slotCount)
        reportedSlot = Int(abs[EventCode.absMTSlot] ?? 0)
        stagedSlot = reportedSlot
    }

    /// The events a reader receives for `event`, appended to `output` (time copied from `event`).
    mutating func pass(_ event: InputEvent, into output: inout [InputEvent]) {
        let type = event.type
        guard type == .syn || description.supports(type) else { return }
        switch type {
        case .syn:
            if event.code == EventCode.synReport {
                if frameHasEvents { output.append(event) }
                frameHasEvents = false
            } else if event.code == EventCode.synMTReport || event.code == EventCode.synConfig {
                emit(event, into: &output)
            }
        case .key:
            guard description.supports(.key, event.code) else { return }
            if event.value == 2 {
                emit(event, into: &output)
            } else if keys.contains(event.code) != (event.value != 0) {
                if event.value != 0 { keys.insert(event.code) } else { keys.remove(event.code) }
                emit(event, into: &output)
            }
        case .abs:
            guard description.supports(.abs, event.code) else { return }
            passAbs(event, into: &output)
        case .rel:
            if description.supports(.rel, event.code), event.value != 0 { emit(event, into: &output) }
        default:
            if description.supports(type, event.code) { emit(event, into: &output) }
        }
    }

    private mutating func passAbs(_ event: InputEvent, into output: inout [InputEvent]) {
        let code = event.code
        if code == EventCode.absMTSlot {
            if hasSlots, event.value >= 0, Int(event.value) < slots.count { stagedSlot = Int(event.value) }
            return
        }
        let fuzz = description.absInfo[code]?.fuzz ?? 0
        let isMT = code >= EventCode.absMTTouchMajor && code <= EventCode.absMTToolY
        if isMT && !hasSlots {
            emit(event, into: &output)
            return
        }
        let old = isMT ? (slots[stagedSlot][code] ?? 0) : (abs[code] ?? 0)
        let value = Self.defuzz(event.value, old: old, fuzz: fuzz)
        guard value != old else { return }
        if isMT { slots[stagedSlot][code] = value } else { abs[code] = value }
        if isMT && stagedSlot != reportedSlot {
            reportedSlot = stagedSlot
            emit(InputEvent(time: event.time, type: .abs, code: EventCode.absMTSlot, value: Int32(stagedSlot)), into: &output)
        }
        var passed = event
        passed.value = value
        emit(passed, into: &output)
    }

    private mutating func emit(_ event: InputEvent, into output: inout [InputEvent]) {
        output.append(event)
        frameHasEvents = true
    }

    // Values within half the fuzz of the old one are noise; closer values are smoothed towards the old one.
    private static func defuzz(_ value: Int32, old: Int32, fuzz: Int32) -> Int32 {
        guard fuzz != 0 else { return value }
        let v = Int64(value), o = Int64(old), f = Int64(fuzz)
        if v > o - f / 2 && v < o + f / 2 { return old }
        if v > o - f && v < o + f { return Int32((o * 3 + v) / 4) }
        if v > o - f * 2 && v < o + f * 2 { return Int32((o + v) / 2) }
        return value
    }
}
