// SPDX-License-Identifier: MIT
import TouchCore

/// A 10-slot touchscreen with resolution, like a modern panel.
func syntheticPanel() -> DeviceDescription {
    var d = DeviceDescription(name: "synthetic 10-finger panel", id: InputID(bustype: 0x18), properties: .direct)
    d.enable(.syn, EventCode.synReport)
    d.enable(.key, EventCode.btnTouch)
    d.enable(.abs, EventCode.absX, absInfo: AbsInfo(minimum: 0, maximum: 4095, resolution: 16))
    d.enable(.abs, EventCode.absY, absInfo: AbsInfo(minimum: 0, maximum: 2303, resolution: 16))
    d.enable(.abs, EventCode.absMTSlot, absInfo: AbsInfo(minimum: 0, maximum: 9))
    d.enable(.abs, EventCode.absMTPositionX, absInfo: AbsInfo(minimum: 0, maximum: 4095, resolution: 16))
    d.enable(.abs, EventCode.absMTPositionY, absInfo: AbsInfo(minimum: 0, maximum: 2303, resolution: 16))
    d.enable(.abs, EventCode.absMTTrackingID, absInfo: AbsInfo(minimum: 0, maximum: 65535))
    d.enable(.abs, EventCode.absMTPressure, absInfo: AbsInfo(minimum: 0, maximum: 255))
    return d
}

/// Ten fingers down, moving for `frames` frames at 480 Hz, then lifting; repeated
/// `strokes` times. Every frame moves every finger (x, y, pressure per slot).
func syntheticTenFingerStream(strokes: Int, frames: Int) -> [InputEvent] {
    var events: [InputEvent] = []
    events.reserveCapacity(strokes * (frames + 2) * 42)
    var t: Int64 = 0
    var trackingID: Int32 = 0
    func add(_ type: EventType, _ code: UInt16, _ value: Int32) {
        events.append(InputEvent(time: Timestamp(microseconds: t), type: type, code: code, value: value))
    }
    for _ in 0..<strokes {
        for f in 0...frames {
            for s in 0..<10 {
                add(.abs, EventCode.absMTSlot, Int32(s))
                if f == 0 { add(.abs, EventCode.absMTTrackingID, trackingID); trackingID += 1 }
                add(.abs, EventCode.absMTPositionX, Int32(300 + s * 350 + f % 200))
                add(.abs, EventCode.absMTPositionY, Int32(400 + f * 3 % 1500))
                add(.abs, EventCode.absMTPressure, Int32(60 + (f + s) % 40))
            }
            if f == 0 { add(.key, EventCode.btnTouch, 1) }
            add(.syn, EventCode.synReport, 0)
            t += 2083 // 480 Hz
        }
        for s in 0..<10 {
            add(.abs, EventCode.absMTSlot, Int32(s))
            add(.abs, EventCode.absMTTrackingID, -1)
        }
        add(.key, EventCode.btnTouch, 0)
        add(.syn, EventCode.synReport, 0)
        t += 50_000
    }
    return events
}
