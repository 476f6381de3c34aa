// SPDX-License-Identifier: MIT
import FuzzSupport
import TouchCore
import TouchTesting
import Trace

/// The devices the harness picks from: real ones (the descriptions of bundled
/// recordings: slotted and protocol-A touchscreens, clickpads, a pen tablet)
/// and the synthetic fixtures of TouchTesting (single-touch, semi-MT, pad, mouse).
let fuzzDevices: [DeviceDescription] = {
    let real = [
        "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events",
        "evemu-devices/touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events",
        "evemu-devices/touchscreens/QUANTA OpticalTouchScreen.touch-hover.events",
        "evemu-devices/touchscreens/EP0430M09.2-finger-scroll-down.events",
        "evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events",
        "evemu-devices/touchpads/SynPS2 Synaptics TouchPad.leftmove.events",
        "evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events",
    ]
    var out: [DeviceDescription] = []
    for path in real {
        do {
            let recording = try TraceReader.read(path: repositoryRoot + "/Tests/Fixtures/real/" + path)
            out.append(recording.devices[0].description)
        } catch {
            fatalError("fuzz-pipeline-engine: cannot read the fixture \(path): \(error)")
        }
    }
    out += [
        DeviceFixtures.touchscreen(slots: 2, resolution: 0, distance: true),
        DeviceFixtures.protocolATouchscreen(trackingID: true),
        DeviceFixtures.twoSlotTouchpad(semiMT: true),
        DeviceFixtures.singleTouchScreen(),
        DeviceFixtures.penTablet(),
        DeviceFixtures.tabletPad(),
        DeviceFixtures.mouse(),
    ]
    return out
}()

/// Absurd absinfo, as a broken driver or a hostile uinput device could report:
/// one of the modes below applied to every ABS axis of the device.
func distort(_ description: inout DeviceDescription, mode: UInt8, input: inout FuzzInput) {
    guard mode != 0 else { return }
    for code in description.absInfo.keys.sorted() {
        guard var info = description.absInfo[code], input.byte() & 1 == 1 else { continue }
        switch mode % 8 {
        case 1: swap(&info.minimum, &info.maximum)  // max < min
        case 2: info.maximum = info.minimum  // empty range
        case 3: info.resolution = 0
        case 4: info.resolution = input.int32()  // negative, huge
        case 5: info.minimum = Int32.min; info.maximum = Int32.max
        case 6: info.minimum = input.int32(); info.maximum = input.int32()
        default: info.fuzz = input.int32(); info.flat = input.int32()
        }
        description.absInfo[code] = info
    }
    switch input.byte() % 8 {  // the slot axis on its own: 0 slots, 1, absurd counts
    case 1: description.absInfo[EventCode.absMTSlot]?.maximum = -1
    case 2: description.absInfo[EventCode.absMTSlot]?.maximum = 0
    case 3: description.absInfo[EventCode.absMTSlot]?.maximum = Int32.max
    case 4: description.absInfo[EventCode.absMTSlot]?.maximum = 100_000
    default: break
    }
}

/// A mapping from the configuration's device rules: rotation, calibration
/// (any finite numbers, as the configuration accepts; it refuses NaN and
/// infinities since this harness found they put touches at NaN) and a
/// physical size override.
func fuzzMapping(_ input: inout FuzzInput) -> DeviceMapping {
    let flags = input.byte()
    var mapping = DeviceMapping()
    mapping.rotation = Rotation.allCases[Int(flags & 3)]
    func number() -> Double {
        switch input.byte() % 8 {
        case 0: return 0
        case 1: return 1
        case 2: return -1
        case 3: return 1e9
        case 4: return -1e9
        case 5: return 1e300
        case 6: return -1e-300
        default: return Double(input.int32()) / 1000
        }
    }
    if flags & 4 != 0 {
        mapping.calibration = CalibrationMatrix(number(), number(), number(), number(), number(), number())
    }
    if flags & 8 != 0 {
        let w = abs(number()), h = abs(number())
        if w > 0 && h > 0 && w.isFinite && h.isFinite { mapping.sizeMM = SizeMM(width: w, height: h) }  // the configuration refuses others
    }
    return mapping
}

/// Seeds: real recordings of the harness's real devices, in the harness's
/// encoding (header for one undistorted device, then each event as a raw event
/// and each SYN_REPORT with its time step).
func pipelineSeeds() -> [(name: String, bytes: [UInt8])] {
    let recordings: [(device: Int, path: String)] = [
        (0, "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.1-finger-fast-taps.events"),
        (0, "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.4-finger-drag-down.events"),
        (0, "evemu-devices/touchscreens/Atmel maXTouch Touchscreen.2-fingers-touch-release.events"),
        (1, "evemu-devices/touchscreens/N-Trig MultiTouch.1-finger-drag-NW-SE.events"),
        (1, "evemu-devices/touchscreens/N-Trig MultiTouch.2-fingers-touch-release.events"),
        (2, "evemu-devices/touchscreens/QUANTA OpticalTouchScreen.touch-hover.events"),
        (3, "evemu-devices/touchscreens/EP0430M09.2-finger-scroll-down.events"),
        (4, "evemu-devices/touchpads/CyPS2 Cypress Trackpad.three_finger_tap.events"),
        (5, "evemu-devices/touchpads/SynPS2 Synaptics TouchPad.leftmove.events"),
        (6, "evemu-devices/tablets/Wacom Intuos4 6x9.stylus-tap.events"),
    ]
    return recordings.compactMap { device, path in
        guard let r = try? TraceReader.read(path: repositoryRoot + "/Tests/Fixtures/real/" + path) else { return nil }
        var bytes: [UInt8] = [0, UInt8(device), 0, 1, 0]
        var last = r.events.first?.event.time.microseconds ?? 0
        for e in r.events.prefix(600) {
            let ev = e.event
            if ev.isSynReport {
                bytes += [8, UInt8(clamping: max(0, (ev.time.microseconds - last) / 100))]
                last = ev.time.microseconds
            } else {
                let v = UInt32(bitPattern: ev.value)
                bytes += [13, UInt8(truncatingIfNeeded: ev.type.rawValue), UInt8(ev.code & 0xFF), UInt8(ev.code >> 8),
                          UInt8(v & 0xFF), UInt8((v >> 8) & 0xFF), UInt8((v >> 16) & 0xFF), UInt8(v >> 24)]
            }
        }
        return ("pipeline-" + path, bytes)
    }
}
