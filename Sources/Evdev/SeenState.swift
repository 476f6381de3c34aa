// SPDX-License-Identifier: MIT
import CLibevdev
import TouchCore

/// The device's state as the events read so far describe it: what libevdev
/// would track if every event went through `libevdev_next_event`, kept here
/// because ``EvdevDevice`` reads the kernel's events with `read(2)` into one
/// buffer instead (docs/performance.md, "Reading the kernel's events").
///
/// It applies libevdev's rules to each event, so what reaches TouchCore is
/// what libevdev would have handed over:
/// - events of a type or code the device does not declare are dropped
///   (`EV_SYN` always passes);
/// - an `ABS_MT_SLOT` outside the device's slots is capped to its last slot;
/// - a tracking id that does not go from -1 to an id or from an id to -1
///   (a second id in an occupied slot, a lift of an empty one) is dropped;
/// - keys, absolute axes and every slot's axes are recorded.
///
/// After `SYN_DROPPED` the state is handed to libevdev before it resyncs, so
/// its sync events are the changes from what this reader saw
/// (``push(into:)``), and taken back from libevdev afterwards (``init(_:description:)``).
struct SeenState {
    /// Axis values of each slot: `slot * stride + (code - ABS_MT_SLOT)`.
    private(set) var slotValues: [Int32]
    /// Values of every absolute axis (`ABS_CNT`), multitouch ones included as libevdev keeps them.
    private(set) var axes: [Int32]
    /// Key states (`KEY_CNT`): 1 when down.
    private(set) var keys: [UInt8]
    /// Declared codes, one bit per `(type << 10) | code`.
    private let declared: [UInt64]
    /// `libevdev_get_num_slots`, 0 for a device without `ABS_MT_SLOT`.
    let slotCount: Int
    /// The slot `ABS_MT_*` events apply to (-1 without slots).
    private(set) var currentSlot: Int

    /// Values kept per slot: `ABS_MT_SLOT` to `ABS_MT_TOOL_Y`, rounded up.
    static let stride = 16
    static let keyCount = Int(KEY_CNT)
    static let axisCount = Int(ABS_CNT)
    /// Codes per type in ``declared`` (above `KEY_MAX`, the largest code of any type).
    static let codesPerType = 1024

    /// No state and no codes: what ``EvdevDevice`` leaves in its property
    /// while a read works on the state itself (which stays uniquely referenced, so no copy).
    static var empty: SeenState { SeenState() }

    private init() {
        slotValues = []
        axes = []
        keys = []
        declared = []
        slotCount = 0
        currentSlot = -1
    }

    /// The state libevdev holds for `handle`, and the codes `description` declares.
    init(_ handle: OpaquePointer, description: DeviceDescription) {
        var declared = [UInt64](repeating: 0, count: 32 * Self.codesPerType / 64)
        for (type, codes) in description.codes where Int(type.rawValue) < 32 {
            for code in codes where Int(code) < Self.codesPerType {
                let bit = Int(type.rawValue) * Self.codesPerType + Int(code)
                declared[bit >> 6] |= 1 << UInt64(bit & 63)
            }
        }
        self.declared = declared
        let slots = Libevdev.slotCount(handle)
        slotCount = slots
        // Within the slots whatever libevdev says: the slot indexes `slotValues` on every event.
        currentSlot = slots > 0 ? min(max(Libevdev.currentSlot(handle), 0), slots - 1) : -1
        slotValues = [Int32](repeating: 0, count: slots * Self.stride)
        for slot in 0..<slots {
            for k in 1..<Self.stride where Int(EventCode.absMTSlot) + k <= Int(EventCode.absMTToolY) {
                slotValues[slot * Self.stride + k] = Libevdev.slotValue(handle, slot: slot, code: EventCode.absMTSlot + UInt16(k))
            }
        }
        axes = [Int32](repeating: 0, count: Self.axisCount)
        for code in description.codes[.abs] ?? CodeSet() where Int(code) < Self.axisCount {
            axes[Int(code)] = Libevdev.eventValue(handle, type: .abs, code: code)
        }
        keys = [UInt8](repeating: 0, count: Self.keyCount)
        for code in description.codes[.key] ?? CodeSet() where Int(code) < Self.keyCount {
            keys[Int(code)] = Libevdev.eventValue(handle, type: .key, code: code) != 0 ? 1 : 0
        }
    }

    /// Applies one event read from the kernel; false when libevdev would
    /// have dropped it. `SYN_DROPPED` is the caller's.
    @inline(__always)
    mutating func admit(_ event: inout input_event) -> Bool {
        let type = Int(event.type), code = Int(event.code)
        if type == Int(EV_SYN) { return true }
        guard type < 32, code < Self.codesPerType else { return false }
        let bit = type &* Self.codesPerType &+ code
        guard declared[bit &>> 6] & (1 &<< UInt64(bit & 63)) != 0 else { return false }
        switch type {
        case Int(EV_ABS):
            if slotCount > 0, code >= Int(EventCode.absMTSlot), code <= Int(EventCode.absMTToolY) {
                if code == Int(EventCode.absMTSlot) {
                    if event.value < 0 || Int(event.value) >= slotCount { event.value = Int32(slotCount - 1) }
                    currentSlot = Int(event.value)
                } else {
                    let index = currentSlot &* Self.stride &+ (code &- Int(EventCode.absMTSlot))
                    if code == Int(EventCode.absMTTrackingID), (event.value == -1) == (slotValues[index] == -1) {
                        return false
                    }
                    slotValues[index] = event.value
                }
            }
            axes[code] = event.value
        case Int(EV_KEY):
            keys[code] = event.value != 0 ? 1 : 0
        default:
            break
        }
        return true
    }

    /// Hands this state to libevdev (`libevdev_set_event_value`,
    /// `libevdev_set_slot_value`), so that its resync reports the changes
    /// from what this reader saw.
    func push(into handle: OpaquePointer, description: DeviceDescription) {
        for code in description.codes[.key] ?? CodeSet() where Int(code) < Self.keyCount {
            Libevdev.setEventValue(handle, type: .key, code: code, value: Int32(keys[Int(code)]))
        }
        let axisCodes = description.codes[.abs] ?? CodeSet()
        for code in axisCodes where Int(code) < Self.axisCount {
            if slotCount > 0, code >= EventCode.absMTSlot, code <= EventCode.absMTToolY { continue }
            Libevdev.setEventValue(handle, type: .abs, code: code, value: axes[Int(code)])
        }
        guard slotCount > 0 else { return }
        let slotAxes = axisCodes.filter { $0 > EventCode.absMTSlot && $0 <= EventCode.absMTToolY }
        for slot in 0..<slotCount {
            for code in slotAxes {
                let value = slotValues[slot * Self.stride + Int(code - EventCode.absMTSlot)]
                Libevdev.setSlotValue(handle, slot: slot, code: code, value: value)
            }
        }
        // Selecting the slot also brings libevdev's per-axis values to that slot's.
        Libevdev.setEventValue(handle, type: .abs, code: EventCode.absMTSlot, value: Int32(currentSlot))
    }

    /// Every slot's state (empty for devices without slots); axes the
    /// device does not declare are nil, as the pipeline expects.
    func slots(_ description: DeviceDescription) -> [SlotSnapshot] {
        func declared(_ code: UInt16) -> Bool { description.supports(.abs, code) }
        return (0..<slotCount).map { slot in
            func value(_ code: UInt16) -> Int32 { slotValues[slot * Self.stride + Int(code - EventCode.absMTSlot)] }
            func optional(_ code: UInt16) -> Int32? { declared(code) ? value(code) : nil }
            return SlotSnapshot(
                slot: slot, trackingID: value(EventCode.absMTTrackingID),
                x: value(EventCode.absMTPositionX), y: value(EventCode.absMTPositionY),
                pressure: optional(EventCode.absMTPressure), touchMajor: optional(EventCode.absMTTouchMajor),
                touchMinor: optional(EventCode.absMTTouchMinor), toolType: optional(EventCode.absMTToolType),
                distance: optional(EventCode.absMTDistance))
        }
    }

    /// The slot the next `ABS_MT_*` event applies to, or nil without slots.
    var slot: Int? { slotCount > 0 ? currentSlot : nil }

    /// The declared `EV_KEY` codes that are down, ascending.
    func keysDown(_ description: DeviceDescription) -> [UInt16] {
        (description.codes[.key] ?? CodeSet()).filter { Int($0) < Self.keyCount && keys[Int($0)] != 0 }
    }

    /// The value of every declared non-multitouch absolute axis.
    func axisValues(_ description: DeviceDescription) -> [UInt16: Int32] {
        var values: [UInt16: Int32] = [:]
        for code in description.codes[.abs] ?? CodeSet()
        where (code < EventCode.absMTSlot || code > EventCode.absMTToolY) && Int(code) < Self.axisCount {
            values[code] = axes[Int(code)]
        }
        return values
    }
}
