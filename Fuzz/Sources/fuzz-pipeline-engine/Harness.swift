// SPDX-License-Identifier: MIT
import FuzzSupport
import Gestures
import TouchCore
import TouchTesting

/// libFuzzer entry: the input chooses one or two devices (real descriptions,
/// possibly with absurd absinfo and a hostile mapping) and a stream of evdev
/// events for them (any type, code and value; SYN_DROPPED anywhere; slot and
/// tracking-id abuse; timestamps jumping back and forth; resyncs; hot-unplug;
/// the screen turning or taking insets while touches are down, semantics §11),
/// fed to TouchPipeline and the gesture Engine with the built-in configuration
/// as ReplaySession wires them. Then every touch is ended and every deadline
/// passed, and the invariants of TouchInvariantChecker and
/// EngineInvariantChecker must hold.
@_cdecl("LLVMFuzzerTestOneInput")
package func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    var input = FuzzInput(data, size)
    var run = PipelineRun(&input)
    run.feed(&input)
    run.finish()
    return 0
}

/// One run of the harness: the pipeline, the engine and the checkers.
struct PipelineRun {
    var pipeline: TouchPipeline
    var engine: Engine
    var touches = TouchInvariantChecker()
    var engineChecker = EngineInvariantChecker()
    var outputs: [EngineOutput] = []
    var descriptions: [DeviceDescription] = []
    var mappings: [DeviceMapping] = []
    var removed: [Bool] = []
    var time = Timestamp(microseconds: 1_000_000)
    var device = 0
    var pixelsPerMillimetre: Double?

    init(_ input: inout FuzzInput) {
        let count = input.byte() & 0x80 != 0 ? 2 : 1
        for _ in 0..<count {
            var d = fuzzDevices[input.below(fuzzDevices.count)]
            distort(&d, mode: input.byte() % 16 < 12 ? 0 : input.byte(), input: &input)
            descriptions.append(d)
            mappings.append(input.byte() % 4 == 0 ? fuzzMapping(&input) : DeviceMapping())
            removed.append(false)
        }
        pipeline = TouchPipeline(screens: [ScreenConfiguration(name: "default", width: 1920, height: 1080)])
        for i in descriptions.indices { pipeline.addDevice(DeviceID(rawValue: UInt32(i)), description: descriptions[i], mapping: mappings[i]) }
        // The built-in configuration as the daemon builds it: the screen's size is that of its first touchscreen.
        var ppm: Double?
        if let d = pipeline.devices.first(where: { $0.classification.fingerType == .direct }) {
            let width = d.mapping.rotation == .quarter || d.mapping.rotation == .threeQuarters ? d.geometry.size.height : d.geometry.size.width
            ppm = 1920 / width
        }
        pixelsPerMillimetre = ppm
        engine = builtInEngine(pixelsPerMillimetre: ppm)
        engine.recordsDebug = input.byte() & 1 == 1
        outputs.reserveCapacity(64)
    }

    mutating func deliver(_ frame: TouchFrame) {
        touches.check(frame)
        outputs.removeAll(keepingCapacity: true)
        engine.handle(frame, into: &outputs)
        for o in outputs { engineChecker.check(o) }
    }

    mutating func event(_ type: EventType, _ code: UInt16, _ value: Int32) {
        let id = DeviceID(rawValue: UInt32(device))
        if let f = pipeline.process(InputEvent(time: time, type: type, code: code, value: value), from: id) { deliver(f) }
    }

    mutating func feed(_ input: inout FuzzInput) {
        var steps = 0
        while !input.isAtEnd && steps < 4096 {
            steps += 1
            let op = input.byte()
            switch op % 21 {
            case 0: event(.abs, EventCode.absMTSlot, input.byte() & 0x80 != 0 ? input.int32() : Int32(input.byte() % 12))
            case 1: event(.abs, EventCode.absMTTrackingID, input.byte() & 0x80 != 0 ? -1 : Int32(input.byte() % 16))
            case 2: event(.abs, EventCode.absMTPositionX, position(&input))
            case 3: event(.abs, EventCode.absMTPositionY, position(&input))
            case 4: event(.abs, EventCode.absX, position(&input))
            case 5: event(.abs, EventCode.absY, position(&input))
            case 6: event(.key, EventCode.btnTouch, Int32(input.byte() & 1))
            case 7:
                let tools = [EventCode.btnToolFinger, EventCode.btnToolPen, EventCode.btnToolRubber, EventCode.btnToolDoubleTap,
                             EventCode.btnToolTripleTap, EventCode.btnToolQuadTap, EventCode.btnToolQuintTap, EventCode.btnToolMouse]
                let b = input.byte()
                event(.key, tools[Int(b & 7)], Int32(b >> 7))
            case 8, 9, 10:
                time.microseconds &+= Int64(input.byte()) * 100
                event(.syn, EventCode.synReport, 0)
            case 11: event(.syn, EventCode.synMTReport, 0)
            case 12: event(.syn, EventCode.synDropped, 0)
            case 13:  // anything at all
                event(EventType(rawValue: UInt16(input.byte() % 0x20)), input.uint16() % 0x300, input.int32())
            case 14:  // time jumps, backwards too
                time.microseconds &+= Int64(input.int32())
            case 15:  // the other axes the pipeline reads
                let codes = [EventCode.absMTPressure, EventCode.absMTDistance, EventCode.absMTToolType, EventCode.absMTTouchMajor,
                             EventCode.absMTTouchMinor, EventCode.absMTOrientation, 0x18 /* ABS_PRESSURE */, 0x19 /* ABS_DISTANCE */,
                             0x1a /* ABS_TILT_X */, 0x1b /* ABS_TILT_Y */, 0x2f, 0x3a]
                event(.abs, codes[input.below(codes.count)], input.byte() & 0x80 != 0 ? input.int32() : Int32(input.byte()))
            case 16: resync(&input)
            case 17:  // hot-unplug, or plug back in
                if removed[device] {
                    pipeline.addDevice(DeviceID(rawValue: UInt32(device)), description: descriptions[device], mapping: mappings[device])
                    removed[device] = false
                } else {
                    if let f = pipeline.removeDevice(DeviceID(rawValue: UInt32(device)), at: time) { deliver(f) }
                    removed[device] = true
                }
            case 18: device = (device + 1) % descriptions.count
            case 19: turnScreen(&input)
            default:  // time passes with no input: deadlines fire
                time.microseconds &+= Int64(input.uint16()) * 100
                outputs.removeAll(keepingCapacity: true)
                engine.advance(to: time, into: &outputs)
                for o in outputs { engineChecker.check(o) }
            }
        }
    }

    /// The screen turns and takes insets (semantics §11): new touches use the
    /// new placement, touches down keep theirs; the engine's system edges follow.
    mutating func turnScreen(_ input: inout FuzzInput) {
        let r = Rotation.allCases[input.below(4)]
        let (w, h) = r.swapsAxes ? (1080, 1920) : (1920, 1080)
        _ = pipeline.changeGeometry(screens: [ScreenConfiguration(name: "default", width: w, height: h, rotation: r)])
        let insets = input.byte() & 1 == 1
            ? ScreenInsets(top: Double(input.byte()) * 4, right: Double(input.byte()), bottom: Double(input.byte()) * 8, left: Double(input.byte()))
            : ScreenInsets()
        for o in engine.setScreens([ScreenGeometry(width: w, height: h, pixelsPerMillimetre: pixelsPerMillimetre, insets: insets)]) {
            engineChecker.check(o)
        }
    }

    /// Positions mostly inside a device's range (so that touches move and
    /// gestures happen), sometimes anywhere.
    func position(_ input: inout FuzzInput) -> Int32 {
        input.byte() & 0xC0 == 0xC0 ? input.int32() : Int32(input.uint16() % 4096)
    }

    /// What the daemon does after SYN_DROPPED: libevdev's view of the slots, keys and axes.
    mutating func resync(_ input: inout FuzzInput) {
        var slots: [SlotSnapshot] = []
        for _ in 0..<input.below(4) {
            slots.append(SlotSnapshot(
                slot: input.byte() & 0x80 != 0 ? Int(input.int32()) : input.below(12),
                trackingID: input.byte() & 0x80 != 0 ? -1 : Int32(input.byte() % 16),
                x: position(&input), y: position(&input),
                pressure: input.byte() & 1 == 1 ? input.int32() : nil,
                toolType: input.byte() & 1 == 1 ? Int32(input.byte() % 3) : nil))
        }
        let keys = input.byte() & 1 == 1 ? [EventCode.btnTouch, EventCode.btnToolFinger] : []
        let abs: [UInt16: Int32] = input.byte() & 1 == 1 ? [EventCode.absX: position(&input), EventCode.absY: position(&input)] : [:]
        if let f = pipeline.resync(device: DeviceID(rawValue: UInt32(device)), slots: slots, keysDown: keys, absValues: abs, at: time) { deliver(f) }
    }

    /// End of input: every touch ends, every deadline passes; then the invariants.
    mutating func finish() {
        for f in pipeline.finish(at: time) { deliver(f) }
        var rounds = 0
        while let deadline = engine.nextDeadline {
            rounds += 1
            if rounds > 10_000 { invariantViolated("the engine's deadlines never run out (next \(deadline))") }
            outputs.removeAll(keepingCapacity: true)
            engine.advance(to: deadline, into: &outputs)
            for o in outputs { engineChecker.check(o) }
        }
        touches.checkAllEnded()
        engineChecker.checkAllEnded(engine)
        let violations = touches.violations + engineChecker.violations
        if !violations.isEmpty { invariantViolated(violations.prefix(20).joined(separator: "\n")) }
    }
}

/// libFuzzer's start hook: writes the seed corpus when asked (see ``SeedCorpus``).
@_cdecl("LLVMFuzzerInitialize")
package func fuzzInitialize(_ argc: UnsafeMutablePointer<CInt>?, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?) -> CInt {
    SeedCorpus.writeIfAsked(pipelineSeeds)
    _ = fuzzDevices.count  // read the fixtures before the clock starts
    return 0
}

/// Engines with the built-in configuration, by screen density: building one
/// costs more than most runs, and an engine is a value, so each run starts
/// from a copy of a fresh one.
nonisolated(unsafe) var engineTemplates: [Double?: Engine] = [:]

func builtInEngine(pixelsPerMillimetre ppm: Double?) -> Engine {
    if let e = engineTemplates[ppm] { return e }
    let screens = [ScreenGeometry(width: 1920, height: 1080, pixelsPerMillimetre: ppm)]
    var file = GestureConfiguration()
    file.screens = screens
    let e = Engine(configuration: file.applied(to: GestureConfiguration.default(screens: screens)))
    if engineTemplates.count < 64 { engineTemplates[ppm] = e }
    return e
}
